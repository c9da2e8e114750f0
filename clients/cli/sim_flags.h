// The flags of `moreau sim`, their values and the run they describe.
//
// A value outside a flag's vocabulary or grammar (--contact-model bogus, --dt abc,
// --push 1,2,3, --terrain hill) is a malformed command line, found by the flag
// parser (exit 2); a well-formed value out of range (--dt 0, --duration -1,
// --mu -0.5, --push with a negative duration, --terrain incline:95) is found
// by SimOptionsFromFlags (exit 1), as is a heightfield file that cannot be
// read or parsed. Every message names the flag and the value.
#ifndef MOREAU_CLIENTS_CLI_SIM_FLAGS_H_
#define MOREAU_CLIENTS_CLI_SIM_FLAGS_H_

#include <array>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "clients/cli/settings_flags.h"
#include "engine/control/controller.h"
#include "engine/control/push.h"
#include "engine/sim/settings.h"

namespace moreau::cli {

// The values of --controller, --terrain and --push, read by absl::ParseFlag
// (flag_specs.cc) through AbslParseFlag / AbslUnparseFlag: a value outside
// the flag's vocabulary or grammar is a malformed command line.

// One of sim::ControllerKinds() but "none".
struct ControllerFlag {
  std::string name = "stand";
};
bool AbslParseFlag(absl::string_view text, ControllerFlag* flag, std::string* error);
std::string AbslUnparseFlag(const ControllerFlag& flag);

// flat | incline:DEG | rough:AMPLITUDE | heightfield:FILE.csv.
struct TerrainFlag {
  enum class Kind { kFlat, kIncline, kRough, kHeightfield };
  Kind kind = Kind::kFlat;
  double value = 0.0;  // incline: degrees; rough: amplitude (m)
  std::string path;    // heightfield: the CSV file
};
bool AbslParseFlag(absl::string_view text, TerrainFlag* flag, std::string* error);
std::string AbslUnparseFlag(const TerrainFlag& flag);

// T0,DURATION,FX,FY,FZ; empty: no push.
struct PushFlag {
  std::optional<std::array<double, 5>> values;
};
bool AbslParseFlag(absl::string_view text, PushFlag* flag, std::string* error);
std::string AbslUnparseFlag(const PushFlag& flag);

// The values of the flags only `moreau sim` takes.
struct SimFlags {
  double duration = 5.0;            // --duration, s
  ControllerFlag controller;        // --controller
  bool weight_feedforward = false;  // --weight-feedforward
  std::string tuning;               // --tuning: auto, paper-001 or derived
  PushFlag push;                    // --push
  TerrainFlag terrain;              // --terrain
  std::optional<double> mu;         // --mu; none: each contact model's own
  std::string out;                  // --out FILE.csv, empty for none
  int csv_every = 1;                // --csv-every
  bool progress = false;            // --progress
  std::string actions;              // --actions FILE.csv, empty for none
  int action_substeps = 1;          // --action-substeps
  // --controller-parameters, NAME=VALUE entries
  std::vector<std::string> controller_parameters;
};

// The run the flags describe (the model, its initial state, --json and
// --state-out aside).
struct SimOptions {
  sim::Settings settings;             // dt, contact, integrator, μ, terrain, transmission
  std::string terrain;                // the --terrain value, e.g. "incline:10", "rough:0.02"
  std::string controller;             // a sim::ControllerKinds() name
  std::optional<control::Push> push;  // --push
  double duration = 0.0;              // s, as given
  int64_t steps = 0;                  // duration / dt, rounded, ≥ 1
  std::string out;                    // --out: CSV path, empty for none
  int csv_every = 1;                  // --csv-every: a CSV row every this many steps
  bool progress = false;              // --progress: force the progress line
  bool weight_feedforward = false;    // --weight-feedforward: trot stance legs carry the weight
  // --tuning: the stand's and trot's (tuning.h); none: the controller's own.
  std::optional<control::Tuning> tuning;
  // --actions: replay recorded actions instead of a controller, each row held
  // for --action-substeps steps under --control-mode (settings.control.mode).
  std::string actions;
  int action_substeps = 1;
  // A control mode other than torque without --actions: the controller's joint targets (for the end
  // of each step) drive the joints through settings.control.mode instead of
  // the controller's own PD torques.
  bool control_targets = false;
  // The --settings file's controller (settings.controller: kind, period,
  // parameters) runs: the file names one other than none and --controller is
  // not given. Otherwise --controller's, at its defaults, replaces it.
  bool controller_from_file = false;
  // --controller-parameters, set over the controller's (SetControllerParameter).
  std::vector<std::pair<std::string, double>> controller_parameters;
};

// Validates the values of the sim flags and the settings flags (of those in
// `flags_given`, over the --settings file's) into the run. InvalidArgument
// naming the flag and value for an out-of-range value. Notes about flags that
// have no effect (--integrator with a hard-contact model, --csv-every without
// --out) are appended to `warnings`.
absl::StatusOr<SimOptions> SimOptionsFromFlags(const SimFlags& flags,
                                               const SettingsFlags& settings_flags,
                                               const std::set<std::string>& flags_given,
                                               std::vector<std::string>* warnings);

}  // namespace moreau::cli

#endif  // MOREAU_CLIENTS_CLI_SIM_FLAGS_H_
