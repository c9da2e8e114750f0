#include "engine/control/pd.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace moreau {

double WrapAngle(double angle) {
  constexpr double kPi = std::numbers::pi;
  if (angle > -kPi && angle <= kPi) return angle;
  double wrapped = std::remainder(angle, 2.0 * kPi);  // [−π, π]
  if (wrapped <= -kPi) wrapped += 2.0 * kPi;
  return wrapped;
}

void JointPd(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
             const Eigen::VectorXd& q_des, const Eigen::VectorXd& qd_des, const PdGains& gains,
             Eigen::Ref<Eigen::VectorXd> tau) {
  tau.setZero();
  const int n = static_cast<int>(model.actuators.size());
  for (int k = 0; k < n; ++k) {
    const Actuator& actuator = model.actuators[k];
    const Joint& joint = model.joints[actuator.joint];
    double error = q_des[k] - q[joint.q_index];
    if (joint.type == JointType::kRevolute && !joint.limits.has_position_limits) {
      error = WrapAngle(error);  // continuous joint: the short way round
    }
    // 001 eq. 44 (restoring sign), plus velocity feedforward q̇_d.
    const double t = gains.kp * error + gains.kd * (qd_des[k] - v[joint.v_index]);
    const double limit = actuator.effort_limit;
    tau[joint.v_index] = std::clamp(t, -limit, limit);
  }
}

void ActuatorPositions(const Model& model, const Eigen::VectorXd& q,
                       Eigen::Ref<Eigen::VectorXd> out) {
  const int n = static_cast<int>(model.actuators.size());
  for (int k = 0; k < n; ++k) out[k] = q[model.joints[model.actuators[k].joint].q_index];
}

void ActuatorVelocities(const Model& model, const Eigen::VectorXd& v,
                        Eigen::Ref<Eigen::VectorXd> out) {
  const int n = static_cast<int>(model.actuators.size());
  for (int k = 0; k < n; ++k) out[k] = v[model.joints[model.actuators[k].joint].v_index];
}

}  // namespace moreau
