#include "clients/cli/sim_flags.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "clients/cli/flag_file.h"
#include "clients/cli/number_list.h"
#include "clients/cli/text_format.h"
#include "clients/json/json_writer.h"
#include "engine/contact/terrain.h"
#include "engine/contact/terrain_generators.h"
#include "engine/control/controller.h"
#include "engine/control/tuning.h"
#include "engine/sim/contact_parameters.h"
#include "engine/util/status_macros.h"
#include "server/wire_settings.h"

namespace moreau::cli {
namespace {

// absl::string_view is not std::string_view in this Abseil build.
std::string_view StdView(absl::string_view text) { return {text.data(), text.size()}; }

// The --settings file's contact settings under --contact-model's model: the
// same when the model is; what two models share carries over (moreau-jor and
// moreau-sor differ only in the prox method, the force laws share the
// integrator); the rest is the model's defaults.
sim::ContactSettings WithContactModel(const sim::ContactSettings& from, sim::ContactModel model) {
  if (sim::ModelOf(from) == model) return from;
  const auto* moreau = std::get_if<sim::MoreauSettings>(&from);
  if (moreau != nullptr && sim::IsHardContact(model)) {
    sim::MoreauSettings other = *moreau;
    other.prox.method = model == sim::ContactModel::kMoreauJor ? contact::ProxMethod::kJor
                                                               : contact::ProxMethod::kSor;
    return other;
  }
  sim::ContactSettings to = sim::DefaultContactSettings(model);
  const step::Integrator* integrator = sim::ForceLawIntegrator(from);
  step::Integrator* own = sim::ForceLawIntegrator(to);
  if (integrator != nullptr && own != nullptr) *own = *integrator;
  return to;
}

// --mu: the Coulomb μ of the impulse law and of the force laws (hertz's
// static and dynamic).
void SetFriction(sim::ContactSettings& contact, double mu) {
  if (auto* s = std::get_if<sim::MoreauSettings>(&contact)) s->law.mu = mu;
  if (auto* s = std::get_if<sim::SpringDamperSettings>(&contact)) s->law.mu = mu;
  if (auto* s = std::get_if<sim::HertzSettings>(&contact)) {
    s->law.mu_static = mu;
    s->law.mu_dynamic = mu;
  }
  if (auto* s = std::get_if<sim::MicroSettings>(&contact)) s->law.mu = mu;
}

}  // namespace

bool AbslParseFlag(absl::string_view text, ControllerFlag* flag, std::string* error) {
  // sim::ControllerKinds() but "none" (--controller zero drives nothing).
  std::vector<std::string> names;
  for (const auto& entry : sim::ControllerKinds().entries()) {
    if (entry.value != sim::ControllerKind::kNone) names.emplace_back(entry.name);
  }
  if (std::find(names.begin(), names.end(), StdView(text)) == names.end()) {
    *error = absl::StrCat("unknown controller ", JsonQuote(text), " (expected ",
                          absl::StrJoin(names, ", "), ")");
    return false;
  }
  flag->name = std::string(text);
  return true;
}

std::string AbslUnparseFlag(const ControllerFlag& flag) { return flag.name; }

bool AbslParseFlag(absl::string_view text, TerrainFlag* flag, std::string* error) {
  static constexpr absl::string_view kExpected =
      "expected flat, incline:DEG (the ground tilted by DEG degrees about the world y axis), "
      "rough:AMPLITUDE (a built-in rough patch, heights within AMPLITUDE metres below z = 0) "
      "or heightfield:FILE.csv (a grid of heights in metres)";
  if (text == "flat") {
    *flag = TerrainFlag{};
    return true;
  }
  absl::string_view rest = text;
  if (absl::ConsumePrefix(&rest, "heightfield:")) {
    if (rest.empty()) {
      *error = absl::StrCat("heightfield terrain needs a file name; ", kExpected);
      return false;
    }
    *flag = TerrainFlag{TerrainFlag::Kind::kHeightfield, 0.0, std::string(rest)};
    return true;
  }
  TerrainFlag::Kind kind;
  const char* what;
  if (absl::ConsumePrefix(&rest, "incline:")) {
    kind = TerrainFlag::Kind::kIncline;
    what = "the incline angle";
  } else if (absl::ConsumePrefix(&rest, "rough:")) {
    kind = TerrainFlag::Kind::kRough;
    what = "the roughness amplitude";
  } else {
    *error = absl::StrCat("unknown terrain ", JsonQuote(text), "; ", kExpected);
    return false;
  }
  double value = 0.0;
  if (!absl::SimpleAtod(absl::StripAsciiWhitespace(rest), &value) || !std::isfinite(value)) {
    *error = absl::StrCat(what, " ", JsonQuote(rest), " is not a finite number",
                          kind == TerrainFlag::Kind::kIncline ? " of degrees" : " of metres", "; ",
                          kExpected);
    return false;
  }
  *flag = TerrainFlag{kind, value, ""};
  return true;
}

std::string AbslUnparseFlag(const TerrainFlag& flag) {
  switch (flag.kind) {
    case TerrainFlag::Kind::kFlat:
      return "flat";
    case TerrainFlag::Kind::kIncline:
      return absl::StrCat("incline:", flag.value);
    case TerrainFlag::Kind::kRough:
      return absl::StrCat("rough:", flag.value);
    case TerrainFlag::Kind::kHeightfield:
      return absl::StrCat("heightfield:", flag.path);
  }
  return "flat";
}

bool AbslParseFlag(absl::string_view text, PushFlag* flag, std::string* error) {
  if (absl::StripAsciiWhitespace(text).empty()) {
    flag->values.reset();
    return true;
  }
  const std::vector<absl::string_view> pieces = absl::StrSplit(text, ',');
  if (pieces.size() != 5) {
    *error = absl::StrCat("expected 5 comma-separated numbers T0,DURATION,FX,FY,FZ, got ",
                          pieces.size());
    return false;
  }
  std::array<double, 5> values{};
  for (size_t i = 0; i < pieces.size(); ++i) {
    const absl::string_view word = absl::StripAsciiWhitespace(pieces[i]);
    if (!absl::SimpleAtod(word, &values[i]) || !std::isfinite(values[i])) {
      *error = absl::StrCat("entry ", i + 1, " (", JsonQuote(word),
                            ") is not a finite number; expected T0,DURATION,FX,FY,FZ");
      return false;
    }
  }
  flag->values = values;
  return true;
}

std::string AbslUnparseFlag(const PushFlag& flag) {
  return flag.values.has_value() ? absl::StrJoin(*flag.values, ",") : "";
}

namespace {

constexpr double kMaxSteps = 1e8;

absl::Status Invalid(absl::string_view flag, double value, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(flag, " ", FormatNumber(value), ": ", why));
}

// heightfield:FILE.csv (format in the help of --terrain, flag_specs.cc).
absl::StatusOr<contact::Terrain> HeightfieldFromCsvFile(const std::string& path) {
  const std::string flag = absl::StrCat("--terrain heightfield:", path);
  MOREAU_ASSIGN_OR_RETURN(const std::string text, ReadFlagFile(flag, path));
  absl::StatusOr<contact::Terrain> terrain = contact::HeightfieldFromCsv(text);
  if (!terrain.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(flag, ": ", terrain.status().message()));
  }
  return terrain;
}

absl::StatusOr<contact::Terrain> MakeTerrain(const TerrainFlag& flag) {
  const std::string value = AbslUnparseFlag(flag);
  absl::StatusOr<contact::Terrain> terrain;
  switch (flag.kind) {
    case TerrainFlag::Kind::kFlat:
      return contact::Terrain();
    case TerrainFlag::Kind::kIncline:
      if (!(std::abs(flag.value) < 90.0)) {
        return absl::InvalidArgumentError(
            absl::StrCat("--terrain ", value, ": the incline must be less than 90 degrees"));
      }
      terrain = contact::Terrain::Incline(flag.value * std::numbers::pi / 180.0, Vec3::UnitY());
      break;
    case TerrainFlag::Kind::kRough:
      terrain = contact::RoughTerrain(flag.value);
      break;
    case TerrainFlag::Kind::kHeightfield:
      // Its errors already name the flag and the file.
      return HeightfieldFromCsvFile(flag.path);
  }
  if (!terrain.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--terrain ", value, ": ", terrain.status().message()));
  }
  return *terrain;
}

absl::StatusOr<std::optional<control::Push>> MakePush(const PushFlag& flag) {
  if (!flag.values.has_value()) return std::optional<control::Push>();
  const std::array<double, 5>& values = *flag.values;
  const std::string value = AbslUnparseFlag(flag);
  if (values[0] < 0.0) {
    return absl::InvalidArgumentError(
        absl::StrCat("--push ", value, ": the start time T0 must be >= 0"));
  }
  if (!(values[1] > 0.0)) {
    return absl::InvalidArgumentError(absl::StrCat("--push ", value, ": the DURATION must be > 0"));
  }
  control::Push push;
  push.start_s = values[0];
  push.duration_s = values[1];
  push.force_world = Vec3(values[2], values[3], values[4]);
  return push;
}

}  // namespace

absl::StatusOr<SimOptions> SimOptionsFromFlags(const SimFlags& flags,
                                               const SettingsFlags& settings_flags,
                                               const std::set<std::string>& flags_given,
                                               std::vector<std::string>* warnings) {
  const auto given = [&](const char* name) { return flags_given.contains(name); };
  SimOptions options;
  MOREAU_ASSIGN_OR_RETURN(options.settings, BaseSettingsFromFlags(settings_flags));
  sim::Settings& settings = options.settings;

  if (given("dt")) {
    const double dt = settings_flags.dt;
    if (!(std::isfinite(dt) && dt > 0.0 && dt <= 1.0)) {
      return Invalid("--dt", dt, "the time step must be in (0, 1] s");
    }
    settings.dt = dt;
  }
  const double dt = settings.dt;

  const double duration = flags.duration;
  if (!(std::isfinite(duration) && duration > 0.0)) {
    return Invalid("--duration", duration, "the duration must be a finite number of seconds > 0");
  }
  const double steps = std::round(duration / dt);
  if (!(steps <= kMaxSteps)) {
    return Invalid("--duration", duration,
                   absl::StrCat("with --dt ", FormatNumber(dt), " that is ", FormatNumber(steps),
                                " steps; at most 1e8"));
  }
  options.duration = duration;
  options.steps = std::max<int64_t>(1, static_cast<int64_t>(steps));

  if (given("contact_model")) {
    settings.contact = WithContactModel(settings.contact, settings_flags.contact_model.model);
  }
  if (given("integrator")) {
    const step::Integrator integrator = settings_flags.integrator.integrator;
    const sim::ContactModel model = sim::ModelOf(settings.contact);
    if (step::Integrator* own = sim::ForceLawIntegrator(settings.contact)) {
      *own = integrator;
    } else if (sim::IsHardContact(model) && integrator != step::Integrator::kSemiImplicitEuler) {
      warnings->push_back(absl::StrCat("--integrator ", sim::IntegratorName(integrator),
                                       " has no effect with --contact-model ",
                                       sim::ContactModelName(model), " (Moreau time-stepping)"));
    }
  }

  if (const std::optional<double> mu = flags.mu; mu.has_value()) {
    if (!(std::isfinite(*mu) && *mu >= 0.0)) {
      return Invalid("--mu", *mu, "the friction coefficient must be finite and >= 0");
    }
    SetFriction(settings.contact, *mu);
  }
  if (given("contact_parameters")) {
    for (const std::string& entry : settings_flags.contact_parameters) {
      MOREAU_ASSIGN_OR_RETURN(const auto parameter,
                              ParseNamedNumber("--contact-parameters", entry));
      absl::Status status = sim::SetContactParameter(settings, parameter.first, parameter.second);
      if (!status.ok()) {
        return absl::InvalidArgumentError(absl::StrCat("--contact-parameters: ", status.message()));
      }
    }
  }

  if (given("terrain") || settings_flags.file.empty()) {
    MOREAU_ASSIGN_OR_RETURN(settings.terrain, MakeTerrain(flags.terrain));
    options.terrain = AbslUnparseFlag(flags.terrain);
  } else {
    options.terrain = absl::StrCat(contact::TerrainTypeName(settings.terrain.type()), " (",
                                   settings_flags.file, ")");
  }

  MOREAU_ASSIGN_OR_RETURN(options.push, MakePush(flags.push));

  options.out = flags.out;
  options.csv_every = flags.csv_every;
  if (options.csv_every < 1) {
    return Invalid("--csv-every", options.csv_every, "must be >= 1");
  }
  if (options.out.empty() && options.csv_every != 1) {
    warnings->push_back("--csv-every has no effect without --out");
  }
  options.progress = flags.progress;
  options.weight_feedforward = flags.weight_feedforward;
  if (given("tuning")) {
    absl::StatusOr<control::Tuning> tuning = control::ParseTuning(flags.tuning);
    if (!tuning.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("--tuning: ", tuning.status().message()));
    }
    options.tuning = *tuning;
  }
  if (given("control_mode")) {
    absl::StatusOr<sim::ControlMode> mode = sim::ParseControlMode(settings_flags.control_mode);
    if (!mode.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("--control-mode: ", mode.status().message()));
    }
    settings.control.mode = *mode;
  }
  options.actions = flags.actions;
  options.action_substeps = flags.action_substeps;
  if (options.action_substeps < 1) {
    return Invalid("--action-substeps", options.action_substeps, "must be >= 1");
  }
  if (options.actions.empty() && options.action_substeps != 1) {
    warnings->push_back("--action-substeps has no effect without --actions");
  }
  // Without --actions, a control mode other than torque (from the flag or the
  // settings file) drives the joints by the controller's targets.
  options.control_targets = options.actions.empty() &&
                            settings.control.mode != sim::ControlMode::kTorque &&
                            settings.control.mode != sim::ControlMode::kCommand;
  if (given("id_time_constant")) {
    settings.control.id_time_constant = settings_flags.id_time_constant;
    if (!(std::isfinite(settings.control.id_time_constant) &&
          settings.control.id_time_constant >= 0.0)) {
      return Invalid("--id-time-constant", settings.control.id_time_constant,
                     "the time constant must be finite and >= 0 s");
    }
  }
  // The controller: --controller, else the --settings file's, else
  // --controller's default. The file's parameters were read for the file's
  // control mode: read again for --control-mode's ("trot" is the velocity
  // trot under id-constraint only).
  options.controller_from_file =
      !given("controller") && settings.controller.kind != sim::ControllerKind::kNone;
  if (options.controller_from_file) {
    options.controller = sim::ControllerKindName(settings.controller.kind);
    if (given("control_mode")) {
      MOREAU_ASSIGN_OR_RETURN(const v1::Settings message, ReadSettingsFile(settings_flags.file));
      absl::StatusOr<sim::ControllerSettings> controller =
          server::ControllerFromProto(message.controller(), settings.control.mode);
      if (!controller.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat("--settings ", settings_flags.file, " with --control-mode ",
                         settings_flags.control_mode, ": ", controller.status().message()));
      }
      settings.controller = *std::move(controller);
    }
  } else {
    options.controller = flags.controller.name;
  }
  if (given("controller_parameters")) {
    for (const std::string& entry : flags.controller_parameters) {
      // tuning=NAME: the tuning by name (auto, paper-001, derived), as --tuning.
      if (absl::StartsWith(entry, "tuning=")) {
        const absl::string_view name = absl::string_view(entry).substr(7);  // after "tuning="
        absl::StatusOr<control::Tuning> tuning = control::ParseTuning(name);
        double number = 0.0;
        if (tuning.ok()) {
          options.controller_parameters.emplace_back("tuning", static_cast<int>(*tuning));
          continue;
        }
        if (!absl::SimpleAtod(name, &number)) {
          return absl::InvalidArgumentError(
              absl::StrCat("--controller-parameters: ", tuning.status().message()));
        }
      }
      MOREAU_ASSIGN_OR_RETURN(const auto parameter,
                              ParseNamedNumber("--controller-parameters", entry));
      options.controller_parameters.push_back(parameter);
    }
  }
  if (given("loop_solver")) {
    absl::StatusOr<step::LoopSolver> parsed = sim::ParseLoopSolver(settings_flags.loop_solver);
    if (!parsed.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("--loop-solver: ", parsed.status().message()));
    }
    // Hard contact's only: Simulation::Create rejects a closed chain under the others.
    if (auto* moreau = std::get_if<sim::MoreauSettings>(&settings.contact)) {
      moreau->loop_solver = *parsed;
    }
  }

  if (given("gear")) {
    const double gear = settings_flags.gear;
    if (!(std::isfinite(gear) && gear >= 0.0)) {
      return Invalid("--gear", gear, "the gear ratio must be finite and > 0 (0: the model's)");
    }
    settings.transmission.gear = gear;
  }
  if (given("rotor_inertia")) {
    const double rotor_inertia = settings_flags.rotor_inertia;
    if (!(std::isfinite(rotor_inertia) && rotor_inertia >= 0.0)) {
      return Invalid("--rotor-inertia", rotor_inertia,
                     "the rotor inertia must be finite and >= 0 kg m^2 (0: the model's)");
    }
    settings.transmission.rotor_inertia = rotor_inertia;
  }
  return options;
}

}  // namespace moreau::cli
