#include "engine/control/pd.h"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <utility>
#include <vector>

#include "engine/dynamics/crba.h"
#include "engine/dynamics/data.h"
#include "engine/util/set_zero.h"

namespace moreau::control {

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

// One actuator's torque, 001 eq. 44 (restoring sign) plus velocity
// feedforward q̇_d: clamp(k_p (q_d − q) + k_d (q̇_d − q̇), ±τ_max), the
// position error taken the short way round on a continuous joint.
inline double PdTorque(double q_des, double q, bool wrap, double qd_des, double rate, double kp,
                       double kd, double limit) {
  double error = q_des - q;
  if (wrap) error = WrapAngle(error);
  return std::clamp(kp * error + kd * (qd_des - rate), -limit, limit);
}

}  // namespace

void JointPd(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
             const Eigen::VectorXd& q_des, const Eigen::VectorXd& qd_des, const PdGains& gains,
             Eigen::Ref<Eigen::VectorXd> tau) {
  SetZero(tau);
  const int n = model.nu();
  for (int k = 0; k < n; ++k) {
    const Actuator& actuator = model.actuators[k];
    const Joint& joint = model.joints[actuator.joint];
    tau[joint.v_index] = PdTorque(q_des[k], q[joint.q_index], WrapsAround(joint), qd_des[k],
                                  v[joint.v_index], gains.kp, gains.kd, actuator.effort_limit);
  }
}

void StableJointPd(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                   const Eigen::VectorXd& q_des, const Eigen::VectorXd& qd_des,
                   const PdGains& gains, const Eigen::VectorXd& inertia, double dt,
                   Eigen::Ref<Eigen::VectorXd> tau) {
  SetZero(tau);
  const int n = model.nu();
  for (int k = 0; k < n; ++k) {
    const Actuator& actuator = model.actuators[k];
    const Joint& joint = model.joints[actuator.joint];
    const double inertia_k = k < inertia.size() ? inertia[k] : 0.0;
    // The damping gain, capped at the deadbeat value I/Δt (see the header).
    double kd = gains.kd;
    if (dt > 0.0 && inertia_k > 0.0) kd = std::min(kd, inertia_k / dt);
    tau[joint.v_index] = PdTorque(q_des[k], q[joint.q_index], WrapsAround(joint), qd_des[k],
                                  v[joint.v_index], gains.kp, kd, actuator.effort_limit);
  }
}

StablePd::StablePd(const Model& model, const PdGains& gains, Eigen::VectorXd inertia)
    : StablePd(model, Eigen::VectorXd::Constant(model.nu(), gains.kp),
               Eigen::VectorXd::Constant(model.nu(), gains.kd), std::move(inertia)) {
  cap_stiffness_ = false;
}

StablePd::StablePd(const Model& model, Eigen::VectorXd kp, Eigen::VectorXd kd,
                   Eigen::VectorXd inertia)
    : kp_(std::move(kp)),
      kd_(std::move(kd)),
      inertia_(Eigen::VectorXd::Zero(model.nu())),
      cap_stiffness_(true),
      dt_(std::numeric_limits<double>::quiet_NaN()),
      kp_step_(kp_),
      kd_step_(kd_) {
  for (const Actuator& actuator : model.actuators) {
    const Joint& joint = model.joints[actuator.joint];
    q_index_.push_back(joint.q_index);
    v_index_.push_back(joint.v_index);
    effort_limit_.push_back(actuator.effort_limit);
    wrap_.push_back(WrapsAround(joint));
  }
  const Eigen::Index given = std::min<Eigen::Index>(inertia.size(), model.nu());
  inertia_.head(given) = inertia.head(given);
}

void StablePd::CapGains(double dt) {
  dt_ = dt;
  for (Eigen::Index k = 0; k < kp_.size(); ++k) {
    kp_step_[k] = kp_[k];
    kd_step_[k] = kd_[k];
    const double inertia = inertia_[k];
    if (dt > 0.0 && inertia > 0.0) {
      if (cap_stiffness_) kp_step_[k] = std::min(kp_[k], 0.5 * inertia / (dt * dt));
      kd_step_[k] = std::min(kd_[k], inertia / dt);  // the deadbeat damping I/Δt
    }
  }
}

void StablePd::Torques(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                       const Eigen::VectorXd& q_des, const Eigen::VectorXd& qd_des, double dt,
                       Eigen::Ref<Eigen::VectorXd> tau) {
  if (!(dt == dt_)) CapGains(dt);
  SetZero(tau);
  const int n = static_cast<int>(q_index_.size());
  for (int k = 0; k < n; ++k) {
    const int vk = v_index_[k];
    tau[vk] = PdTorque(q_des[k], q[q_index_[k]], wrap_[k] != 0, qd_des[k], v[vk], kp_step_[k],
                       kd_step_[k], effort_limit_[k]);
  }
}

namespace {

// Branches of at most this many joints get λ_max exactly (a symmetric
// eigensolve, O(m³)); longer ones (only in long chains, never a leg or an
// arm) Gershgorin's bound, O(m²), so that a model of n joints costs O(n³) at
// most, not O(n⁴).
constexpr int kExactBranch = 32;

// Pre-order entry and exit times of every body: a is b or one of b's
// ancestors iff enter[a] ≤ enter[b] < leave[a] (O(1) per query, O(n) to set
// up, with no assumption on the body order beyond parent[i] < i).
struct Ancestry {
  std::vector<int> enter, leave;
  explicit Ancestry(const Model& model) : enter(model.nbodies), leave(model.nbodies) {
    std::vector<std::vector<int>> children(model.nbodies);
    for (int i = 1; i < model.nbodies; ++i) children[model.parent[i]].push_back(i);
    int clock = 0;
    std::vector<std::pair<int, size_t>> stack = {{0, 0}};  // body, next child
    enter[0] = clock++;
    while (!stack.empty()) {
      auto& [body, next] = stack.back();
      if (next < children[body].size()) {
        const int child = children[body][next++];
        enter[child] = clock++;
        stack.emplace_back(child, 0);
      } else {
        leave[body] = clock;
        stack.pop_back();
      }
    }
  }
  bool AncestorOrSelf(int a, int b) const { return enter[a] <= enter[b] && enter[b] < leave[a]; }
};

// 1 / λ_max of M⁻¹ restricted to `branch` (v indices), or 0 when λ_max ≤ 0.
double BranchInertia(const Eigen::MatrixXd& M_inv, const std::vector<int>& branch) {
  const int m = static_cast<int>(branch.size());
  Eigen::MatrixXd block(m, m);
  for (int a = 0; a < m; ++a) {
    for (int b = 0; b < m; ++b) block(a, b) = M_inv(branch[a], branch[b]);
  }
  double lambda_max = 0.0;
  if (m <= kExactBranch) {
    lambda_max = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(block, Eigen::EigenvaluesOnly)
                     .eigenvalues()
                     .maxCoeff();
  } else {
    // Gershgorin: λ_max ≤ max_i Σ_j |B_ij|, so 1 / bound is at most the exact
    // inertia and the damping cap it sets is never less stable.
    lambda_max = block.cwiseAbs().rowwise().sum().maxCoeff();
  }
  return lambda_max > 0.0 ? 1.0 / lambda_max : 0.0;
}

}  // namespace

Eigen::VectorXd JointInertias(const Model& model, const Eigen::VectorXd& q) {
  Data data = MakeData(model);
  const Eigen::MatrixXd M_inv = Crba(model, data, q).inverse();
  const Ancestry ancestry(model);
  const int n = model.nu();
  Eigen::VectorXd inertia(n);
  // Joints of one branch share it (a leg's three joints, every joint of a
  // chain): each distinct branch is solved once.
  std::map<std::vector<int>, double> solved;
  for (int k = 0; k < n; ++k) {
    // The actuated joints on the same branch: the joint's ancestors and
    // descendants (for a leg: its three joints).
    const Joint& joint = model.joints[model.actuators[k].joint];
    std::vector<int> branch;
    for (const Actuator& other : model.actuators) {
      const Joint& o = model.joints[other.joint];
      if (ancestry.AncestorOrSelf(o.body, joint.body) ||
          ancestry.AncestorOrSelf(joint.body, o.body)) {
        branch.push_back(o.v_index);
      }
    }
    const auto [it, inserted] = solved.try_emplace(std::move(branch), 0.0);
    if (inserted) it->second = BranchInertia(M_inv, it->first);
    inertia[k] = it->second;
  }
  return inertia;
}

void ActuatorPositions(const Model& model, const Eigen::VectorXd& q,
                       Eigen::Ref<Eigen::VectorXd> out) {
  const int n = model.nu();
  for (int k = 0; k < n; ++k) out[k] = q[model.joints[model.actuators[k].joint].q_index];
}

void ActuatorVelocities(const Model& model, const Eigen::VectorXd& v,
                        Eigen::Ref<Eigen::VectorXd> out) {
  const int n = model.nu();
  for (int k = 0; k < n; ++k) out[k] = v[model.joints[model.actuators[k].joint].v_index];
}

}  // namespace moreau::control
