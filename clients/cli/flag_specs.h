// Every flag of `moreau`: its name, value placeholder, older spelling, help
// text, and the field of FlagValues its value is parsed into (the field's
// default is the flag's). A Command lists those it takes (command.h); the
// flag parser (flag_parser.h) reads the command line by them.
#ifndef MOREAU_CLIENTS_CLI_FLAG_SPECS_H_
#define MOREAU_CLIENTS_CLI_FLAG_SPECS_H_

#include "clients/cli/command.h"

namespace moreau::cli {

// CommonFlags.
extern const FlagSpec kJsonFlagSpec;
extern const FlagSpec kStateOutFlagSpec;

// ModelFlags.
extern const FlagSpec kBaseFlagSpec;
extern const FlagSpec kContactLinksFlagSpec;
extern const FlagSpec kCollisionFlagSpec;
extern const FlagSpec kCollideLinksFlagSpec;
extern const FlagSpec kExcludeLinksFlagSpec;

// StateFlags.
extern const FlagSpec kQFlagSpec;
extern const FlagSpec kVFlagSpec;
extern const FlagSpec kTauFlagSpec;

// SettingsFlags.
extern const FlagSpec kSettingsFileFlagSpec;
extern const FlagSpec kContactModelFlagSpec;
extern const FlagSpec kIntegratorFlagSpec;
extern const FlagSpec kDtFlagSpec;
extern const FlagSpec kControlModeFlagSpec;
extern const FlagSpec kContactParametersFlagSpec;
extern const FlagSpec kIdTimeConstantFlagSpec;
extern const FlagSpec kGearFlagSpec;
extern const FlagSpec kRotorInertiaFlagSpec;
extern const FlagSpec kLoopSolverFlagSpec;

// SimFlags.
extern const FlagSpec kDurationFlagSpec;
extern const FlagSpec kControllerFlagSpec;
extern const FlagSpec kControllerParametersFlagSpec;
extern const FlagSpec kWeightFeedforwardFlagSpec;
extern const FlagSpec kTuningFlagSpec;
extern const FlagSpec kPushFlagSpec;
extern const FlagSpec kTerrainFlagSpec;
extern const FlagSpec kMuFlagSpec;
extern const FlagSpec kOutFlagSpec;
extern const FlagSpec kCsvEveryFlagSpec;
extern const FlagSpec kProgressFlagSpec;
extern const FlagSpec kActionsFlagSpec;
extern const FlagSpec kActionSubstepsFlagSpec;

// RemoteFlags.
extern const FlagSpec kAddressFlagSpec;
extern const FlagSpec kCountFlagSpec;
extern const FlagSpec kSeedFlagSpec;
extern const FlagSpec kNoiseFlagSpec;
extern const FlagSpec kSubstepsFlagSpec;
extern const FlagSpec kActionFlagSpec;
extern const FlagSpec kRateFlagSpec;
extern const FlagSpec kFramesFlagSpec;
extern const FlagSpec kStateInFlagSpec;
extern const FlagSpec kMeshOutFlagSpec;
extern const FlagSpec kTimeoutFlagSpec;
extern const FlagSpec kTlsCaFileFlagSpec;
extern const FlagSpec kTlsCertFileFlagSpec;
extern const FlagSpec kTlsKeyFileFlagSpec;
extern const FlagSpec kTokenFlagSpec;

}  // namespace moreau::cli

#endif  // MOREAU_CLIENTS_CLI_FLAG_SPECS_H_
