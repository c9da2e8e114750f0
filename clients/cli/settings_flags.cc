#include "clients/cli/settings_flags.h"

#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "clients/cli/flag_file.h"
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

absl::StatusOr<v1::Settings> ReadSettingsFile(const std::string& path) {
  const std::string flag = absl::StrCat("--settings ", path);
  MOREAU_ASSIGN_OR_RETURN(const std::string text, ReadFlagFile(flag, path));
  google::protobuf::TextFormat::Parser parser;
  FirstError errors;
  parser.RecordErrorsTo(&errors);
  v1::Settings settings;
  if (!parser.ParseFromString(text, &settings)) {
    return absl::InvalidArgumentError(
        absl::StrCat(flag, ": not a text-format moreau.v1.Settings: ",
                     errors.message().empty() ? std::string("parse error") : errors.message()));
  }
  return settings;
}

absl::StatusOr<v1::Settings> SettingsMessageFromFlags(const SettingsFlags& flags,
                                                      const std::set<std::string>& flags_given) {
  v1::Settings settings;
  if (!flags.file.empty()) {
    MOREAU_ASSIGN_OR_RETURN(settings, ReadSettingsFile(flags.file));
  }
  const auto given = [&](const char* name) { return flags_given.contains(name); };
  if (given("contact_model")) {
    settings.set_contact_model(sim::ContactModelName(flags.contact_model.model));
  }
  if (given("integrator")) {
    settings.set_integrator(sim::IntegratorName(flags.integrator.integrator));
  }
  if (given("dt")) settings.set_dt(flags.dt);
  if (given("control_mode")) {
    const std::string& mode = flags.control_mode;
    const absl::StatusOr<sim::ControlMode> parsed = sim::ParseControlMode(mode);
    if (!parsed.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--control-mode: ", parsed.status().message()));
    }
    settings.set_control_mode(mode);
  }
  if (given("contact_parameters")) {
    // The server checks the names against the contact model.
    for (const std::string& entry : flags.contact_parameters) {
      MOREAU_ASSIGN_OR_RETURN(const auto parameter,
                              ParseNamedNumber("--contact-parameters", entry));
      (*settings.mutable_contact_parameters())[parameter.first] = parameter.second;
    }
  }
  if (given("id_time_constant")) settings.set_id_time_constant(flags.id_time_constant);
  if (given("gear")) settings.set_gear(flags.gear);
  if (given("rotor_inertia")) settings.set_rotor_inertia(flags.rotor_inertia);
  if (given("loop_solver")) {
    const std::string& solver = flags.loop_solver;
    const absl::StatusOr<step::LoopSolver> parsed = sim::ParseLoopSolver(solver);
    if (!parsed.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("--loop-solver: ", parsed.status().message()));
    }
    settings.set_loop_solver(solver);
  }
  return settings;
}

absl::StatusOr<sim::Settings> BaseSettingsFromFlags(const SettingsFlags& flags) {
  const std::string& path = flags.file;
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
