#include "engine/sim/controller_parameters.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/control/tuning.h"
#include "engine/sim/named_parameters.h"

namespace moreau::sim {
namespace {

// control::Tuning by number: 0 auto, 1 paper-001, 2 derived (tuning.h).
const std::vector<std::string>& TuningChoices() {
  static const std::vector<std::string>* const choices =
      new std::vector<std::string>(control::TuningNames());
  return *choices;
}

std::vector<NamedParameter> StandParameters(control::ControllerOptions& o) {
  return {Choice("tuning", &o.tuning, TuningChoices()),
          {"kp", &o.gains.kp},
          {"kd", &o.gains.kd},
          {"stand_height", &o.stand_height},
          Flag("stable_pd", &o.stable_pd)};
}

// The hold (hold.h): the PD's gains.
std::vector<NamedParameter> HoldParameters(control::ControllerOptions& o) {
  return {{"kp", &o.gains.kp}, {"kd", &o.gains.kd}};
}

// 001's trot (MakeController "trot").
std::vector<NamedParameter> TrotParameters(control::ControllerOptions& o) {
  return {Choice("tuning", &o.tuning, TuningChoices()),
          {"kp", &o.gains.kp},
          {"kd", &o.gains.kd},
          {"stand_height", &o.stand_height},
          {"trot_frequency_hz", &o.trot_frequency_hz},
          {"duty_factor", &o.duty_factor},
          {"forward_velocity", &o.forward_velocity},
          {"step_length", &o.step_length},
          {"step_height", &o.step_height},
          {"start_delay_s", &o.start_delay_s},
          {"start_ramp_s", &o.start_ramp_s},
          Flag("velocity_feedforward", &o.velocity_feedforward),
          Flag("balance", &o.balance),
          Flag("swing_clearance", &o.swing_clearance),
          {"attitude_gain", &o.attitude_gain},
          {"attitude_damping_s", &o.attitude_damping_s},
          {"velocity_filter_s", &o.velocity_filter_s},
          {"line_gain", &o.line_gain},
          Flag("weight_feedforward", &o.weight_feedforward),
          Flag("stable_pd", &o.stable_pd)};
}

// The velocity trot; its id_time_constant_s is Settings::control's.
std::vector<NamedParameter> VelocityTrotParameters(control::VelocityTrotOptions& o) {
  return {{"stand_height", &o.stand_height},
          {"frequency_hz", &o.frequency_hz},
          {"duty_factor", &o.duty_factor},
          {"forward_velocity", &o.forward_velocity},
          {"step_height", &o.step_height},
          {"start_delay_s", &o.start_delay_s},
          {"start_ramp_s", &o.start_ramp_s},
          {"settle_s", &o.settle_s},
          {"height_time_constant_s", &o.height_time_constant_s},
          {"attitude_time_constant_s", &o.attitude_time_constant_s},
          {"yaw_time_constant_s", &o.yaw_time_constant_s},
          {"joint_time_constant_s", &o.joint_time_constant_s},
          {"swing_time_constant_s", &o.swing_time_constant_s},
          {"landing_fraction", &o.landing_fraction},
          {"approach_s", &o.approach_s},
          {"approach_height", &o.approach_height},
          {"approach_time_constant_s", &o.approach_time_constant_s},
          {"touchdown_speed", &o.touchdown_speed},
          {"max_joint_velocity", &o.max_joint_velocity}};
}

// The parameters of the controller `c.kind` runs under `mode`, pointing into c.
std::vector<NamedParameter> Parameters(ControllerSettings& c, ControlMode mode) {
  if (RunsVelocityTrot(c.kind, mode)) return VelocityTrotParameters(c.velocity_trot);
  switch (c.kind) {
    case ControllerKind::kStand:
      return StandParameters(c.options);
    case ControllerKind::kTrot:
    case ControllerKind::kPdTrot:
      return TrotParameters(c.options);
    case ControllerKind::kHold:
      return HoldParameters(c.options);
    default:
      return {};
  }
}

// "controller 'trot' under control mode 'id-constraint' (the velocity trot)".
std::string Describe(ControllerKind kind, ControlMode mode) {
  std::string text = absl::StrCat("controller '", ControllerKindName(kind), "'");
  if (kind == ControllerKind::kTrot) {
    absl::StrAppend(&text, " under control mode '", ControlModeName(mode), "' (",
                    RunsVelocityTrot(kind, mode) ? "the velocity trot" : "pd-trot", ")");
  }
  return text;
}

}  // namespace

std::vector<std::string> ControllerParameterNames(ControllerKind kind, ControlMode mode) {
  ControllerSettings c;
  c.kind = kind;
  return ParameterNames(Parameters(c, mode));
}

absl::Status SetControllerParameter(ControllerSettings& controller, ControlMode mode,
                                    absl::string_view name, double value) {
  const std::vector<NamedParameter> parameters = Parameters(controller, mode);
  return SetNamedParameter(
      parameters, name, value, {.noun = "controller parameter", .flag_is = "is a flag: "}, [&] {
        const std::string owner = Describe(controller.kind, mode);
        if (parameters.empty()) {
          return absl::InvalidArgumentError(
              absl::StrCat(owner, " takes no parameters, got '", name, "'"));
        }
        return absl::InvalidArgumentError(
            absl::StrCat("unknown parameter '", name, "' for ", owner, " (expected one of ",
                         absl::StrJoin(ParameterNames(parameters), ", "), ")"));
      });
}

}  // namespace moreau::sim
