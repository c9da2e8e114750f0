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
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/sim/settings.h"
#include "moreau/v1/simulator.pb.h"

namespace moreau::cli {

// The values of --contact-model and --integrator, read by absl::ParseFlag
// (flag_specs.cc) through AbslParseFlag / AbslUnparseFlag: a name outside the
// vocabulary is a malformed command line.
struct ContactFlag {
  sim::ContactModel model = sim::ContactModel::kMoreauSor;
};
bool AbslParseFlag(absl::string_view text, ContactFlag* flag, std::string* error);
std::string AbslUnparseFlag(const ContactFlag& flag);

struct IntegratorFlag {
  step::Integrator integrator = step::Integrator::kSemiImplicitEuler;
};
bool AbslParseFlag(absl::string_view text, IntegratorFlag* flag, std::string* error);
std::string AbslUnparseFlag(const IntegratorFlag& flag);

// The flags' values. A field counts only when its flag is among the flags
// given (Invocation::flags_given, by the names of flag_specs.h); the others
// hold the defaults the help shows.
struct SettingsFlags {
  std::string file;                             // --settings FILE, empty for none
  ContactFlag contact_model;                    // --contact-model
  IntegratorFlag integrator;                    // --integrator
  double dt = 1e-3;                             // --dt
  std::string control_mode;                     // --control-mode, a name checked when read
  std::vector<std::string> contact_parameters;  // --contact-parameters, NAME=VALUE entries
  double id_time_constant = 0.0;                // --id-time-constant
  double gear = 0.0;                            // --gear
  double rotor_inertia = 0.0;                   // --rotor-inertia
  std::string loop_solver;                      // --loop-solver, a name checked when read
};

// A text-format moreau.v1.Settings. InvalidArgument naming the file, and the
// line and column of a syntax error or unknown field.
absl::StatusOr<v1::Settings> ReadSettingsFile(const std::string& path);

// The message `moreau remote create` sends: the --settings file's (or an
// empty one), then each settings flag in `flags_given` written over its
// field (contact parameters by name over the file's).
absl::StatusOr<v1::Settings> SettingsMessageFromFlags(const SettingsFlags& flags,
                                                      const std::set<std::string>& flags_given);

// What `moreau sim` starts from before its flags: the --settings file's
// engine settings (the service's conversion: unset fields keep the engine's
// defaults), or the defaults without --settings.
absl::StatusOr<sim::Settings> BaseSettingsFromFlags(const SettingsFlags& flags);

}  // namespace moreau::cli

#endif  // MOREAU_CLIENTS_CLI_SETTINGS_FLAGS_H_
