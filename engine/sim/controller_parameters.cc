#include "engine/sim/controller_parameters.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace moreau::sim {
namespace {

// One named parameter: a number or a 0/1 flag.
struct Parameter {
  const char* name;
  double* number = nullptr;
  bool* flag = nullptr;
};

std::vector<Parameter> StandParameters(ControllerOptions& o) {
  return {{"kp", &o.gains.kp},
          {"kd", &o.gains.kd},
          {"stand_height", &o.stand_height},
          {"stable_pd", nullptr, &o.stable_pd}};
}

// The hold (hold.h): the PD's gains.
std::vector<Parameter> HoldParameters(ControllerOptions& o) {
  return {{"kp", &o.gains.kp}, {"kd", &o.gains.kd}};
}

// 001's trot (MakeController "trot").
std::vector<Parameter> TrotParameters(ControllerOptions& o) {
  return {{"kp", &o.gains.kp},
          {"kd", &o.gains.kd},
          {"stand_height", &o.stand_height},
          {"trot_frequency_hz", &o.trot_frequency_hz},
          {"duty_factor", &o.duty_factor},
          {"forward_velocity", &o.forward_velocity},
          {"step_length", &o.step_length},
          {"step_height", &o.step_height},
          {"start_delay_s", &o.start_delay_s},
          {"start_ramp_s", &o.start_ramp_s},
          {"velocity_feedforward", nullptr, &o.velocity_feedforward},
          {"balance", nullptr, &o.balance},
          {"swing_clearance", nullptr, &o.swing_clearance},
          {"attitude_gain", &o.attitude_gain},
          {"attitude_damping_s", &o.attitude_damping_s},
          {"velocity_filter_s", &o.velocity_filter_s},
          {"line_gain", &o.line_gain},
          {"weight_feedforward", nullptr, &o.weight_feedforward},
          {"stable_pd", nullptr, &o.stable_pd}};
}

// The velocity trot; its id_time_constant_s is Settings::control's.
std::vector<Parameter> VelocityTrotParameters(VelocityTrotOptions& o) {
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
std::vector<Parameter> Parameters(ControllerSettings& c, ControlMode mode) {
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
  std::vector<std::string> names;
  for (const Parameter& p : Parameters(c, mode)) names.emplace_back(p.name);
  return names;
}

absl::Status SetControllerParameter(ControllerSettings& controller, ControlMode mode,
                                    absl::string_view name, double value) {
  if (!std::isfinite(value)) {
    return absl::InvalidArgumentError(
        absl::StrCat("controller parameter '", name, "' is ", value, ", expected a finite number"));
  }
  const std::vector<Parameter> parameters = Parameters(controller, mode);
  if (parameters.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(Describe(controller.kind, mode), " takes no parameters, got '", name, "'"));
  }
  for (const Parameter& p : parameters) {
    if (name != p.name) continue;
    if (p.flag != nullptr) {
      if (value != 0.0 && value != 1.0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "controller parameter '", name, "' is a flag: must be 0 (off) or 1 (on), got ", value));
      }
      *p.flag = value == 1.0;
    } else {
      *p.number = value;
    }
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown parameter '", name, "' for ", Describe(controller.kind, mode), " (expected one of ",
      absl::StrJoin(ControllerParameterNames(controller.kind, mode), ", "), ")"));
}

}  // namespace moreau::sim
