// The flags of `moreau sim` and the run they describe.
//
// A value outside a flag's vocabulary or grammar (--contact-model bogus, --dt abc,
// --push 1,2,3, --terrain hill) is a malformed command line, found by the flag
// parser (exit 2); a well-formed value out of range (--dt 0, --duration -1,
// --mu -0.5, --push with a negative duration, --terrain incline:95) is found
// by SimOptionsFromFlags (exit 1), as is a heightfield file that cannot be
// read or parsed. Every message names the flag and the value.
#ifndef MOREAU_CLIENTS_CLI_SIM_FLAGS_H_
#define MOREAU_CLIENTS_CLI_SIM_FLAGS_H_

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "clients/cli/command.h"
#include "engine/control/push.h"
#include "engine/sim/settings.h"

namespace moreau::cli {

inline constexpr FlagSpec kDurationFlagSpec{"duration", "S"};
inline constexpr FlagSpec kControllerFlagSpec{"controller", "stand|trot|zero"};
inline constexpr FlagSpec kWeightFeedforwardFlagSpec{"weight_feedforward", ""};
inline constexpr FlagSpec kPushFlagSpec{"push", "T0,DURATION,FX,FY,FZ"};
inline constexpr FlagSpec kTerrainFlagSpec{"terrain",
                                           "flat|incline:DEG|rough:AMPLITUDE|heightfield:FILE.csv"};
inline constexpr FlagSpec kMuFlagSpec{"mu", "M"};
inline constexpr FlagSpec kOutFlagSpec{"out", "FILE.csv"};
inline constexpr FlagSpec kCsvEveryFlagSpec{"csv_every", "N"};
inline constexpr FlagSpec kProgressFlagSpec{"progress", ""};
inline constexpr FlagSpec kActionsFlagSpec{"actions", "FILE.csv"};
inline constexpr FlagSpec kActionSubstepsFlagSpec{"action_substeps", "K"};

// Everything the flags set (the model and its initial state aside).
struct SimOptions {
  sim::Settings settings;           // dt, contact, integrator, μ, terrain, transmission
  std::string terrain;              // the --terrain value, e.g. "incline:10", "rough:0.02"
  std::string controller;           // "stand", "trot" or "zero"
  std::optional<Push> push;         // --push
  double duration = 0.0;            // s, as given
  int64_t steps = 0;                // duration / dt, rounded, ≥ 1
  std::string out;                  // --out: CSV path, empty for none
  int csv_every = 1;                // --csv-every: a CSV row every this many steps
  bool progress = false;            // --progress: force the progress line
  bool weight_feedforward = false;  // --weight-feedforward: trot stance legs carry the weight
  bool json = false;                // --json
  // --actions: replay recorded actions instead of a controller, each row held
  // for --action-substeps steps under --control-mode (settings.control.mode).
  std::string actions;
  int action_substeps = 1;
  // A control mode other than torque without --actions: the controller's joint targets (for the end
  // of each step) drive the joints through settings.control.mode instead of
  // the controller's own PD torques.
  bool control_targets = false;
  std::string state_out;  // --state-out: the final state blob
};

// Reads and validates the flags above (and --json). InvalidArgument naming
// the flag and value for an out-of-range value. Notes about flags that have
// no effect (--integrator with a hard-contact model, --csv-every without
// --out) are appended to `warnings`.
absl::StatusOr<SimOptions> SimOptionsFromFlags(const std::set<std::string>& flags_given,
                                               std::vector<std::string>* warnings);

}  // namespace moreau::cli

#endif  // MOREAU_CLIENTS_CLI_SIM_FLAGS_H_
