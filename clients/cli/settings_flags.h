// The flags of `moreau sim` and `moreau remote create` that set a field of
// moreau.v1.Settings, named after the field (--contact-model, --dt,
// --control-mode, --contact-parameters, …), and --settings FILE: a text-format
// moreau.v1.Settings that both commands read the same way, so one file
// configures a local run and a remote instance alike. Flags given on the
// command line win over the file's fields.
#ifndef MOREAU_CLIENTS_CLI_SETTINGS_FLAGS_H_
#define MOREAU_CLIENTS_CLI_SETTINGS_FLAGS_H_

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/status/statusor.h"
#include "clients/cli/command.h"
#include "engine/sim/settings.h"
#include "moreau/v1/simulator.pb.h"

namespace moreau::cli {

// The value of --contact-model and --integrator, checked by the flag parser.
struct ContactFlag {
  sim::ContactModel model = sim::ContactModel::kMoreauSor;
};
struct IntegratorFlag {
  step::Integrator integrator = step::Integrator::kSemiImplicitEuler;
};

// Each vocabulary's names and help lines, for FlagSpec::choices.
std::vector<std::pair<std::string, std::string>> ContactModelChoices();
std::vector<std::pair<std::string, std::string>> IntegratorChoices();
std::vector<std::pair<std::string, std::string>> ControlModeChoices();
std::vector<std::pair<std::string, std::string>> LoopSolverChoices();

inline constexpr FlagSpec kSettingsFileFlagSpec{"settings", "FILE.textproto"};
inline constexpr FlagSpec kContactModelFlagSpec{"contact_model", "MODEL", "contact",
                                                ContactModelChoices};
inline constexpr FlagSpec kIntegratorFlagSpec{"integrator", "NAME", {}, IntegratorChoices};
inline constexpr FlagSpec kDtFlagSpec{"dt", "S", "time_step"};
inline constexpr FlagSpec kControlModeFlagSpec{"control_mode", "MODE", "control",
                                               ControlModeChoices};
inline constexpr FlagSpec kContactParametersFlagSpec{"contact_parameters",
                                                     "NAME=VALUE[,NAME=VALUE...]", "contact_param"};
inline constexpr FlagSpec kIdTimeConstantFlagSpec{"id_time_constant", "S"};
inline constexpr FlagSpec kGearFlagSpec{"gear", "N"};
inline constexpr FlagSpec kRotorInertiaFlagSpec{"rotor_inertia", "KG_M2"};
inline constexpr FlagSpec kLoopSolverFlagSpec{"loop_solver", "NAME", {}, LoopSolverChoices};

// A text-format moreau.v1.Settings. InvalidArgument naming the file, and the
// line and column of a syntax error or unknown field.
absl::StatusOr<v1::Settings> ReadSettingsFile(const std::string& path);

// The message `moreau remote create` sends: the --settings file's (or an
// empty one), then each settings flag in `flags_given` written over its
// field (contact parameters by name over the file's).
absl::StatusOr<v1::Settings> SettingsMessageFromFlags(const std::set<std::string>& flags_given);

// What `moreau sim` starts from before its flags: the --settings file's
// engine settings (the service's conversion: unset fields keep the engine's
// defaults), or the defaults without --settings.
absl::StatusOr<sim::Settings> BaseSettingsFromFlags();

}  // namespace moreau::cli

ABSL_DECLARE_FLAG(std::string, settings);
ABSL_DECLARE_FLAG(moreau::cli::ContactFlag, contact_model);
ABSL_DECLARE_FLAG(moreau::cli::IntegratorFlag, integrator);
ABSL_DECLARE_FLAG(double, dt);
ABSL_DECLARE_FLAG(std::string, control_mode);
ABSL_DECLARE_FLAG(std::vector<std::string>, contact_parameters);
ABSL_DECLARE_FLAG(double, id_time_constant);
ABSL_DECLARE_FLAG(double, gear);
ABSL_DECLARE_FLAG(double, rotor_inertia);
ABSL_DECLARE_FLAG(std::string, loop_solver);

#endif  // MOREAU_CLIENTS_CLI_SETTINGS_FLAGS_H_
