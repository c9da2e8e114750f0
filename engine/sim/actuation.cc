#include "engine/sim/actuation.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "engine/dynamics/crba.h"
#include "engine/dynamics/jacobians.h"
#include "engine/dynamics/kinematics.h"
#include "engine/dynamics/rnea.h"
#include "engine/util/finite.h"
#include "engine/util/set_zero.h"

namespace moreau::sim {

const EnumTable<ControlMode>& ControlModes() {
  static const EnumTable<ControlMode>* const table = new EnumTable<ControlMode>(
      "control mode",
      {{ControlMode::kTorque, "torque",
        "action = joint torques (N m) or forces (N), clamped to the effort limits"},
       {ControlMode::kPd, "pd", "action = joint position targets, PD at the simulation rate"},
       {ControlMode::kId, "id",
        "action = joint position targets reached by inverse dynamics with the last contact "
        "forces"},
       {ControlMode::kIdConstraint, "id-constraint",
        "action = joint position targets as velocity constraints solved with the contacts, "
        "impulses bounded by the effort limit times dt (moreau-jor, moreau-sor)"},
       {ControlMode::kCommand, "command",
        "action = the controller's command (trot: forward and lateral velocity in m/s, yaw rate "
        "in rad/s; stand: none), the controller's torques drive the joints"}});
  return *table;
}

const char* ControlModeName(ControlMode mode) { return ControlModes().Name(mode); }

absl::StatusOr<ControlMode> ParseControlMode(std::string_view name) {
  return ControlModes().Parse(name);
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
  if (!(std::isfinite(control.id_time_constant) && control.id_time_constant >= 0.0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("id_time_constant must be finite and ≥ 0 s, got ", control.id_time_constant));
  }
  return absl::OkStatus();
}

absl::Status ValidateAction(const Model& model, const Eigen::VectorXd& action) {
  const Eigen::Index nu = model.nu();
  if (action.size() != nu) {
    return absl::InvalidArgumentError(absl::StrCat("action has size ", action.size(), ", expected ",
                                                   nu, " (one entry per actuator)"));
  }
  if (AllFinite(action)) return absl::OkStatus();  // one vectorized pass: the common case
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
  scratch.qd_zero = Eigen::VectorXd::Zero(model.nu());
  scratch.joint_inertia = control::JointInertias(model, model.q_default);
  scratch.dt = dt;
  const Eigen::Index nu = model.nu();
  std::vector<uint8_t> actuated(model.nv, 0);
  scratch.v_des = Eigen::VectorXd::Zero(nu);
  scratch.bound = Eigen::VectorXd::Zero(nu);
  scratch.effort_limit = Eigen::VectorXd::Zero(nu);
  for (Eigen::Index a = 0; a < nu; ++a) {
    const Actuator& act = model.actuators[a];
    const int dof = model.joints[act.joint].v_index;
    scratch.dofs.push_back(dof);
    actuated[dof] = 1;
    scratch.effort_limit[a] = act.effort_limit;
    scratch.bound[a] = act.effort_limit * dt;  // 002: |Λ_j| ≤ τ_max Δt
  }
  for (int i = 0; i < model.nv; ++i) {
    if (actuated[i] == 0) scratch.unactuated.push_back(i);
  }
  if (nu > 0) {
    scratch.dof_block = scratch.dofs[0];
    for (Eigen::Index a = 0; a < nu; ++a) {
      if (scratch.dofs[a] != scratch.dof_block + a) scratch.dof_block = -1;
    }
  }
  const auto nU = static_cast<Eigen::Index>(scratch.unactuated.size());
  scratch.qacc = Eigen::VectorXd::Zero(model.nv);
  scratch.h = Eigen::VectorXd::Zero(model.nv);
  scratch.M_UU = Eigen::MatrixXd::Zero(nU, nU);
  scratch.rhs_U = Eigen::VectorXd::Zero(nU);
  scratch.llt = Eigen::LLT<Eigen::MatrixXd>(nU);
  return scratch;
}

void DesiredJointVelocities(const Model& model, const ControlSettings& control,
                            const Eigen::VectorXd& action, const Eigen::VectorXd& q,
                            ActuationScratch& scratch) {
  const double horizon = std::max(scratch.dt, control.id_time_constant);
  for (int a = 0; a < model.nu(); ++a) {
    const auto i = static_cast<Eigen::Index>(a);
    const Joint& joint = model.joints[model.actuators[a].joint];
    scratch.v_des[i] = (action[i] - q[joint.q_index]) / horizon;
  }
}

void InverseDynamicsTorques(const Model& model, const ControlSettings& control,
                            const Eigen::VectorXd& action, const Eigen::VectorXd& q,
                            const Eigen::VectorXd& v, const contact::ContactSet& contacts,
                            Data& data, ActuationScratch& scratch,
                            Eigen::Ref<Eigen::VectorXd> tau) {
  DesiredJointVelocities(model, control, action, q, scratch);
  // M(q) (CRBA) and h = c(q, v) + g(q) − Σ J_kᵀ λ_k (RNEA, 001 Alg. 2–4)
  // with the last step's contact forces λ_k.
  ForwardKinematics(model, data, q, v);
  Crba(model, data);
  scratch.h = NonlinearEffects(model, data);
  ContactJacobians(model, data);
  for (int k = 0; k < contacts.capacity(); ++k) {
    const Vec3& f = contacts.contacts[k].force;
    if (f.isZero(0.0)) continue;
    scratch.h.noalias() -= data.contact_J[k].transpose() * f;
  }
  // q̈_A = (v_des − v_A)/Δt: the actuated joints reach v_des in one step.
  scratch.qacc.setZero();
  for (size_t a = 0; a < scratch.dofs.size(); ++a) {
    const int j = scratch.dofs[a];
    scratch.qacc[j] = (scratch.v_des[static_cast<Eigen::Index>(a)] - v[j]) / scratch.dt;
  }
  // Unactuated rows (τ_U = 0): M_UU q̈_U = −h_U − M_UA q̈_A.
  const auto nU = static_cast<Eigen::Index>(scratch.unactuated.size());
  if (nU > 0) {
    for (Eigen::Index r = 0; r < nU; ++r) {
      const int i = scratch.unactuated[r];
      scratch.rhs_U[r] = -scratch.h[i] - data.M.row(i).dot(scratch.qacc);
      for (Eigen::Index s = 0; s < nU; ++s) scratch.M_UU(r, s) = data.M(i, scratch.unactuated[s]);
    }
    scratch.llt.compute(scratch.M_UU);
    scratch.llt.solveInPlace(scratch.rhs_U);
    for (Eigen::Index r = 0; r < nU; ++r) scratch.qacc[scratch.unactuated[r]] = scratch.rhs_U[r];
  }
  // τ = M q̈ + h (RNEA with contact), the actuated rows, clamped.
  SetZero(tau);
  for (int a = 0; a < model.nu(); ++a) {
    const int j = scratch.dofs[a];
    const double limit = model.actuators[a].effort_limit;
    tau[j] = std::clamp(data.M.row(j).dot(scratch.qacc) + scratch.h[j], -limit, limit);
  }
}

void ActionTorques(const Model& model, const ControlSettings& control,
                   const Eigen::VectorXd& action, const Eigen::VectorXd& q,
                   const Eigen::VectorXd& v, const ActuationScratch& scratch,
                   Eigen::Ref<Eigen::VectorXd> tau) {
  if (control.mode == ControlMode::kPd) {
    // 001 eq. 44, damping capped at I/Δt (pd.h).
    control::StableJointPd(model, q, v, action, scratch.qd_zero, control.gains,
                           scratch.joint_inertia, scratch.dt, tau);
    return;
  }
  SetZero(tau);
  if (control.mode != ControlMode::kTorque) return;  // id, id-constraint: see actuation.h
  const Eigen::Index nu = scratch.effort_limit.size();
  const double* limit = scratch.effort_limit.data();
  if (scratch.dof_block >= 0) {
    // Consecutive dofs: min(max(x, −τ_max), τ_max), std::clamp's value, in
    // a loop the compiler vectorizes.
    double* block = tau.data() + scratch.dof_block;
    for (Eigen::Index a = 0; a < nu; ++a) {
      block[a] = std::min(std::max(action[a], -limit[a]), limit[a]);
    }
    return;
  }
  for (Eigen::Index a = 0; a < nu; ++a) {
    tau[scratch.dofs[a]] = std::clamp(action[a], -limit[a], limit[a]);
  }
}

void ControlledActionTorques(const Eigen::VectorXd& action, const Eigen::VectorXd& command,
                             const ActuationScratch& scratch, Eigen::Ref<Eigen::VectorXd> tau) {
  SetZero(tau);
  const Eigen::Index nu = scratch.effort_limit.size();
  const double* limit = scratch.effort_limit.data();
  if (scratch.dof_block >= 0) {
    double* block = tau.data() + scratch.dof_block;
    const double* held = command.data() + scratch.dof_block;
    for (Eigen::Index a = 0; a < nu; ++a) {
      block[a] = std::min(std::max(action[a] + held[a], -limit[a]), limit[a]);
    }
    return;
  }
  for (Eigen::Index a = 0; a < nu; ++a) {
    const int j = scratch.dofs[a];
    tau[j] = std::clamp(action[a] + command[j], -limit[a], limit[a]);
  }
}

}  // namespace moreau::sim
