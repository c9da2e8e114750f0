#include "clients/cli/settings_flags.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string_view>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "clients/cli/number_list.h"
#include "clients/json/json_writer.h"
#include "engine/sim/actuation.h"
#include "engine/util/status_macros.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/text_format.h"
#include "server/wire_settings.h"

namespace moreau::cli {
namespace {

// absl::string_view is not std::string_view in this Abseil build.
std::string_view StdView(absl::string_view text) { return {text.data(), text.size()}; }

template <typename Enum>
std::vector<std::pair<std::string, std::string>> ChoicesOf(const EnumTable<Enum>& table) {
  std::vector<std::pair<std::string, std::string>> choices;
  for (const EnumEntry<Enum>& entry : table.entries()) choices.emplace_back(entry.name, entry.help);
  return choices;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> ContactModelChoices() {
  return ChoicesOf(sim::ContactModels());
}
std::vector<std::pair<std::string, std::string>> IntegratorChoices() {
  return ChoicesOf(sim::Integrators());
}
std::vector<std::pair<std::string, std::string>> ControlModeChoices() {
  return ChoicesOf(sim::ControlModes());
}
std::vector<std::pair<std::string, std::string>> LoopSolverChoices() {
  return ChoicesOf(sim::LoopSolvers());
}

// The flag types (absl: AbslParseFlag / AbslUnparseFlag, found by ADL). A
// parse error here is a malformed command line.

bool AbslParseFlag(absl::string_view text, ContactFlag* flag, std::string* error) {
  const absl::StatusOr<sim::ContactModel> model = sim::ParseContactModel(StdView(text));
  if (!model.ok()) {
    *error = std::string(model.status().message());
    return false;
  }
  flag->model = *model;
  return true;
}

std::string AbslUnparseFlag(const ContactFlag& flag) { return sim::ContactModelName(flag.model); }

bool AbslParseFlag(absl::string_view text, IntegratorFlag* flag, std::string* error) {
  const absl::StatusOr<step::Integrator> integrator = sim::ParseIntegrator(StdView(text));
  if (!integrator.ok()) {
    *error = std::string(integrator.status().message());
    return false;
  }
  flag->integrator = *integrator;
  return true;
}

std::string AbslUnparseFlag(const IntegratorFlag& flag) {
  return sim::IntegratorName(flag.integrator);
}

}  // namespace moreau::cli

ABSL_FLAG(std::string, settings, "",
          "Start from this text-format moreau.v1.Settings (the message moreaud's "
          "CreateInstances takes, e.g. 'contact_model: \"hertz\" dt: 0.0005 "
          "contact_parameters { key: \"stiffness\" value: 2e4 }'); the flags below that are "
          "given on the command line win over its fields.");
ABSL_FLAG(moreau::cli::ContactFlag, contact_model, moreau::cli::ContactFlag{}, "Contact model");
ABSL_FLAG(moreau::cli::IntegratorFlag, integrator, moreau::cli::IntegratorFlag{},
          "Integrator of the compliant contact models (spring-damper, hertz, micro)");
ABSL_FLAG(double, dt, 1e-3, "Time step in seconds, in (0, 1].");
ABSL_FLAG(std::string, control_mode, "",
          "How actions drive the joints (default torque; in `moreau sim` without --actions, "
          "any other mode drives them by the controller's joint targets)");
ABSL_FLAG(std::vector<std::string>, contact_parameters, {},
          "Parameters of the contact model by name, NAME=VALUE[,NAME=VALUE...], e.g. "
          "--contact-model hertz --contact-parameters stiffness=2e4,exponent=1.5 (the names of "
          "moreau.v1.Settings.contact_parameters; an unknown name is an error that lists the "
          "known ones).");
ABSL_FLAG(double, id_time_constant, 0.0,
          "With --control-mode id or id-constraint: the desired joint velocity is (target - q) / "
          "max(dt, T) for this T in seconds, >= 0; 0 reaches the target at the end of each step.");
ABSL_FLAG(double, gear, 0.0,
          "Transmission ratio N of every actuator (002 §IV-C), > 0; 0 keeps the model's (URDF "
          "<transmission> mechanicalReduction, else 1). With --rotor-inertia it adds the "
          "reflected rotor inertia N^2 I_rotor to each actuated joint. Torques and effort "
          "limits stay joint side.");
ABSL_FLAG(double, rotor_inertia, 0.0,
          "Rotor inertia I_rotor (kg m^2, motor side) of every actuator, >= 0; 0 keeps the "
          "model's (URDF <transmission> rotorInertia, else 0).");
ABSL_FLAG(std::string, loop_solver, "",
          "Closed kinematic chains (models with cut joints, e.g. four_bar; default prox)");

namespace moreau::cli {
namespace {

// Collects the first error of a text-format parse, with its 1-based line and
// column.
class FirstError : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    if (message_.empty()) {
      message_ = absl::StrCat("line ", line + 1, ", column ", column + 1, ": ", message);
    }
  }
  const std::string& message() const { return message_; }

 private:
  std::string message_;
};

}  // namespace

absl::StatusOr<v1::Settings> ReadSettingsFile(const std::string& path) {
  const std::string flag = absl::StrCat("--settings ", path);
  std::ifstream in(path);
  if (!in) {
    return absl::InvalidArgumentError(
        absl::StrCat(flag, ": cannot open ", JsonQuote(path), ": ", std::strerror(errno)));
  }
  std::ostringstream text;
  text << in.rdbuf();
  google::protobuf::TextFormat::Parser parser;
  FirstError errors;
  parser.RecordErrorsTo(&errors);
  v1::Settings settings;
  if (!parser.ParseFromString(text.str(), &settings)) {
    return absl::InvalidArgumentError(
        absl::StrCat(flag, ": not a text-format moreau.v1.Settings: ",
                     errors.message().empty() ? std::string("parse error") : errors.message()));
  }
  return settings;
}

absl::StatusOr<v1::Settings> SettingsMessageFromFlags(const std::set<std::string>& flags_given) {
  v1::Settings settings;
  const std::string path = absl::GetFlag(FLAGS_settings);
  if (!path.empty()) {
    MOREAU_ASSIGN_OR_RETURN(settings, ReadSettingsFile(path));
  }
  const auto given = [&](const char* name) { return flags_given.contains(name); };
  if (given("contact_model")) {
    settings.set_contact_model(sim::ContactModelName(absl::GetFlag(FLAGS_contact_model).model));
  }
  if (given("integrator")) {
    settings.set_integrator(sim::IntegratorName(absl::GetFlag(FLAGS_integrator).integrator));
  }
  if (given("dt")) settings.set_dt(absl::GetFlag(FLAGS_dt));
  if (given("control_mode")) {
    const std::string mode = absl::GetFlag(FLAGS_control_mode);
    const absl::StatusOr<sim::ControlMode> parsed = sim::ParseControlMode(mode);
    if (!parsed.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--control-mode: ", parsed.status().message()));
    }
    settings.set_control_mode(mode);
  }
  if (given("contact_parameters")) {
    // The server checks the names against the contact model.
    for (const std::string& entry : absl::GetFlag(FLAGS_contact_parameters)) {
      MOREAU_ASSIGN_OR_RETURN(const auto parameter,
                              ParseNamedNumber("--contact-parameters", entry));
      (*settings.mutable_contact_parameters())[parameter.first] = parameter.second;
    }
  }
  if (given("id_time_constant"))
    settings.set_id_time_constant(absl::GetFlag(FLAGS_id_time_constant));
  if (given("gear")) settings.set_gear(absl::GetFlag(FLAGS_gear));
  if (given("rotor_inertia")) settings.set_rotor_inertia(absl::GetFlag(FLAGS_rotor_inertia));
  if (given("loop_solver")) {
    const std::string solver = absl::GetFlag(FLAGS_loop_solver);
    const absl::StatusOr<step::LoopSolver> parsed = sim::ParseLoopSolver(solver);
    if (!parsed.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("--loop-solver: ", parsed.status().message()));
    }
    settings.set_loop_solver(solver);
  }
  return settings;
}

absl::StatusOr<sim::Settings> BaseSettingsFromFlags() {
  const std::string path = absl::GetFlag(FLAGS_settings);
  if (path.empty()) return sim::Settings();
  MOREAU_ASSIGN_OR_RETURN(const v1::Settings message, ReadSettingsFile(path));
  absl::StatusOr<sim::Settings> settings = server::SettingsFromProto(message);
  if (!settings.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--settings ", path, ": ", settings.status().message()));
  }
  return settings;
}

}  // namespace moreau::cli
