#include "engine/control/pd.h"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "engine/dynamics/crba.h"
#include "engine/dynamics/data.h"

namespace moreau {

double WrapAngleOutside(double angle) {
  constexpr double kPi = std::numbers::pi;
  if (angle > -kPi && angle <= kPi) return angle;
  double wrapped = std::remainder(angle, 2.0 * kPi);  // [−π, π]
  if (wrapped <= -kPi) wrapped += 2.0 * kPi;
  return wrapped;
}

namespace {

// A continuous joint (revolute without position limits): its position error
// is taken the short way round.
bool WrapsAround(const Joint& joint) {
  return joint.type == JointType::kRevolute && !joint.limits.has_position_limits;
}

}  // namespace

void JointPd(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
             const Eigen::VectorXd& q_des, const Eigen::VectorXd& qd_des, const PdGains& gains,
             Eigen::Ref<Eigen::VectorXd> tau) {
  tau.setZero();
  const int n = static_cast<int>(model.actuators.size());
  for (int k = 0; k < n; ++k) {
    const Actuator& actuator = model.actuators[k];
    const Joint& joint = model.joints[actuator.joint];
    double error = q_des[k] - q[joint.q_index];
    if (WrapsAround(joint)) error = WrapAngle(error);
    // 001 eq. 44 (restoring sign), plus velocity feedforward q̇_d.
    const double t = gains.kp * error + gains.kd * (qd_des[k] - v[joint.v_index]);
    const double limit = actuator.effort_limit;
    tau[joint.v_index] = std::clamp(t, -limit, limit);
  }
}

namespace {

// One actuator's StableJointPd torque (see pd.h).
inline double StablePdTorque(double q_des, double q, double qd_des, double rate, bool wrap,
                             double inertia, double dt, const PdGains& gains, double limit) {
  double error = q_des - q;
  if (wrap) error = WrapAngle(error);
  // The damping gain, capped at the deadbeat value I/Δt (see the header).
  double kd = gains.kd;
  if (dt > 0.0 && inertia > 0.0) kd = std::min(kd, inertia / dt);
  const double t = gains.kp * error + kd * (qd_des - rate);
  return std::clamp(t, -limit, limit);
}

}  // namespace

void StableJointPd(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                   const Eigen::VectorXd& q_des, const Eigen::VectorXd& qd_des,
                   const PdGains& gains, const Eigen::VectorXd& inertia, double dt,
                   Eigen::Ref<Eigen::VectorXd> tau) {
  tau.setZero();
  const int n = static_cast<int>(model.actuators.size());
  for (int k = 0; k < n; ++k) {
    const Actuator& actuator = model.actuators[k];
    const Joint& joint = model.joints[actuator.joint];
    const bool wrap = WrapsAround(joint);
    tau[joint.v_index] =
        StablePdTorque(q_des[k], q[joint.q_index], qd_des[k], v[joint.v_index], wrap,
                       k < inertia.size() ? inertia[k] : 0.0, dt, gains, actuator.effort_limit);
  }
}

PdJoints MakePdJoints(const Model& model) {
  PdJoints joints;
  for (const Actuator& actuator : model.actuators) {
    const Joint& joint = model.joints[actuator.joint];
    joints.q_index.push_back(joint.q_index);
    joints.v_index.push_back(joint.v_index);
    joints.effort_limit.push_back(actuator.effort_limit);
    joints.wrap.push_back(WrapsAround(joint));
  }
  return joints;
}

void StableJointPd(const PdJoints& joints, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                   const Eigen::VectorXd& q_des, const Eigen::VectorXd& qd_des,
                   const PdGains& gains, const Eigen::VectorXd& inertia, double dt,
                   Eigen::Ref<Eigen::VectorXd> tau) {
  tau.setZero();
  const int n = static_cast<int>(joints.q_index.size());
  for (int k = 0; k < n; ++k) {
    const int vk = joints.v_index[k];
    tau[vk] =
        StablePdTorque(q_des[k], q[joints.q_index[k]], qd_des[k], v[vk], joints.wrap[k] != 0,
                       k < inertia.size() ? inertia[k] : 0.0, dt, gains, joints.effort_limit[k]);
  }
}

namespace {

// True when body a is b or one of b's ancestors.
bool IsAncestorOrSelf(const Model& model, int a, int b) {
  for (int i = b; i >= 0; i = model.parent[i]) {
    if (i == a) return true;
  }
  return false;
}

}  // namespace

Eigen::VectorXd JointInertias(const Model& model, const Eigen::VectorXd& q) {
  Data data = MakeData(model);
  const Eigen::MatrixXd M_inv = Crba(model, data, q).inverse();
  const int n = static_cast<int>(model.actuators.size());
  Eigen::VectorXd inertia(n);
  for (int k = 0; k < n; ++k) {
    // The actuated joints on the same branch: the joint's ancestors and
    // descendants (for a leg: its three joints).
    const Joint& joint = model.joints[model.actuators[k].joint];
    std::vector<int> branch;
    for (const Actuator& other : model.actuators) {
      const Joint& o = model.joints[other.joint];
      if (IsAncestorOrSelf(model, o.body, joint.body) ||
          IsAncestorOrSelf(model, joint.body, o.body)) {
        branch.push_back(o.v_index);
      }
    }
    const int m = static_cast<int>(branch.size());
    Eigen::MatrixXd block(m, m);
    for (int a = 0; a < m; ++a) {
      for (int b = 0; b < m; ++b) block(a, b) = M_inv(branch[a], branch[b]);
    }
    const double lambda_max =
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(block, Eigen::EigenvaluesOnly)
            .eigenvalues()
            .maxCoeff();
    inertia[k] = lambda_max > 0.0 ? 1.0 / lambda_max : 0.0;
  }
  return inertia;
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
