#include "engine/sim/actuation.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"

namespace moreau::sim {

const char* ControlModeName(ControlMode mode) {
  switch (mode) {
    case ControlMode::kTorque:
      return "torque";
    case ControlMode::kPd:
      return "pd";
  }
  return "unknown";
}

absl::StatusOr<ControlMode> ParseControlMode(std::string_view name) {
  for (ControlMode m : {ControlMode::kTorque, ControlMode::kPd}) {
    if (name == ControlModeName(m)) return m;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown control mode '", std::string(name), "' (expected torque or pd)"));
}

absl::Status Validate(const ControlSettings& control) {
  if (!(std::isfinite(control.gains.kp) && control.gains.kp >= 0.0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("pd gain kp must be finite and ≥ 0, got ", control.gains.kp));
  }
  if (!(std::isfinite(control.gains.kd) && control.gains.kd >= 0.0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("pd gain kd must be finite and ≥ 0, got ", control.gains.kd));
  }
  return absl::OkStatus();
}

absl::Status ValidateAction(const Model& model, const Eigen::VectorXd& action) {
  const auto nu = static_cast<Eigen::Index>(model.actuators.size());
  if (action.size() != nu) {
    return absl::InvalidArgumentError(absl::StrCat("action has size ", action.size(), ", expected ",
                                                   nu, " (one entry per actuator)"));
  }
  for (Eigen::Index a = 0; a < nu; ++a) {
    if (!std::isfinite(action[a])) {
      return absl::InvalidArgumentError(absl::StrCat("action[", a, "] (", model.actuators[a].name,
                                                     ") is ", action[a],
                                                     ", expected a finite number"));
    }
  }
  return absl::OkStatus();
}

ActuationScratch MakeActuationScratch(const Model& model, double dt) {
  ActuationScratch scratch;
  scratch.qd_zero = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(model.actuators.size()));
  scratch.joint_inertia = JointInertias(model, model.q_default);
  scratch.dt = dt;
  return scratch;
}

void ActionTorques(const Model& model, const ControlSettings& control,
                   const Eigen::VectorXd& action, const Eigen::VectorXd& q,
                   const Eigen::VectorXd& v, const ActuationScratch& scratch,
                   Eigen::Ref<Eigen::VectorXd> tau) {
  if (control.mode == ControlMode::kPd) {
    // 001 eq. 44, damping capped at I/Δt (pd.h).
    StableJointPd(model, q, v, action, scratch.qd_zero, control.gains, scratch.joint_inertia,
                  scratch.dt, tau);
    return;
  }
  tau.setZero();
  for (size_t a = 0; a < model.actuators.size(); ++a) {
    const Actuator& act = model.actuators[a];
    const double limit = act.effort_limit;
    tau[model.joints[act.joint].v_index] =
        std::clamp(action[static_cast<Eigen::Index>(a)], -limit, limit);
  }
}

}  // namespace moreau::sim
