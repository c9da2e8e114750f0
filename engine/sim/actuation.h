// Actuation of a simulation instance (the control modes of 002: Shepherd et
// al., "Fast multi-body simulations of robots controlled with error
// feedback"): how an action from a client becomes joint torques, recomputed at
// every simulation step while the action is held for K sub-steps.
//
//   torque  action = joint-side torque (N m) or force (N) per actuator,
//           clamped to the actuator's effort limit.
//   pd      action = target position per actuator; joint PD at the simulation
//           rate (001 eq. 44) with target rate 0, clamped to the effort limit —
//           the decimated policy / fast PD loop of real legged-robot stacks.
//           The damping is capped at I/Δt per joint (StableJointPd, pd.h), so
//           an explicit PD cannot blow up a light leg at large Δt; below the
//           cap it is eq. 44 exactly.
//   id      action = target position per actuator, as in pd; the desired
//           joint velocity is v_des = (q_target − q) / max(Δt, T) with the
//           time constant T = ControlSettings::id_time_constant ≥ 0 (0:
//           reach the target at the end of the step, so a client driving a
//           reference q_ref(t) passes q_ref(t + Δt)). Inverse dynamics (002;
//           RNEA τ = M q̈ + c + g − Σ J_kᵀ λ_k with the contact forces λ_k of
//           the last step) gives the torques that bring the actuated joints
//           to v_des in one step, q̈_A = (v_des − v_A)/Δt. The unactuated
//           coordinates (a floating base) are not commanded: their
//           accelerations solve the unactuated rows of M q̈ = τ − c − g +
//           Σ J_kᵀ λ_k with τ_U = 0. Clamped to the effort limits. Works with
//           every contact model.
//   id-constraint
//           the same v_des as bilateral velocity constraints e_jᵀ u_E =
//           v_des,j in Moreau's prox problem (000 eq. 12–19), each impulse
//           bounded by |Λ_j| ≤ τ_max Δt (τ_max = the actuator's effort limit,
//           ∞ if none), solved jointly with contact and friction, each row
//           projected on its own set (002's inverse-dynamics constraints
//           without its skating). Needs a hard-contact model (moreau-jor,
//           moreau-sor); the applied torque is Λ_j/Δt.
//
// Actions are actuator-shaped: one entry per Model::actuators, in that order.
#ifndef MOREAU_ENGINE_SIM_ACTUATION_H_
#define MOREAU_ENGINE_SIM_ACTUATION_H_

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/contact/contact_set.h"
#include "engine/control/pd.h"
#include "engine/dynamics/data.h"
#include "engine/model/model.h"
#include "engine/util/enum_table.h"

namespace moreau::sim {

enum class ControlMode {
  kTorque,
  kPd,
  kId,
  kIdConstraint,
  kCommand,  // the action is Settings::controller's command (Controller::CommandElements)
};

// "torque", "pd", "id", "id-constraint", "command".
const EnumTable<ControlMode>& ControlModes();
const char* ControlModeName(ControlMode mode);
absl::StatusOr<ControlMode> ParseControlMode(std::string_view name);

struct ControlSettings {
  ControlMode mode = ControlMode::kTorque;
  control::PdGains gains;  // pd mode only; 001 Table I by default
  // id, id-constraint: v_des = (q_target − q) / max(Δt, T), T ≥ 0 (s).
  double id_time_constant = 0.0;
};

absl::Status Validate(const ControlSettings& control);

// InvalidArgument naming the problem when `action` does not have one finite
// entry per actuator of `model`.
absl::Status ValidateAction(const Model& model, const Eigen::VectorXd& action);

// What ActionTorques needs besides the action: made once per simulation.
struct ActuationScratch {
  Eigen::VectorXd qd_zero;        // actuator-sized zeros: the pd target rate
  Eigen::VectorXd joint_inertia;  // JointInertias at the default pose (pd.h)
  double dt = 0.0;                // the simulation's time step (s)
  std::vector<int> dofs;          // v index of each actuator's joint
  // dofs[a] = dof_block + a for every actuator (consecutive dofs in actuator
  // order, the usual layout), else −1.
  Eigen::Index dof_block = -1;
  Eigen::VectorXd effort_limit;  // each actuator's τ_max (Actuator::effort_limit)
  // id and id-constraint (actuator-sized unless noted):
  Eigen::VectorXd v_des;        // desired joint velocities
  Eigen::VectorXd bound;        // τ_max Δt (+∞ without an effort limit)
  std::vector<int> unactuated;  // v indices without an actuator, increasing
  Eigen::VectorXd qacc;         // nv
  Eigen::VectorXd h;            // nv: c + g − Σ J_kᵀ λ_k
  Eigen::MatrixXd M_UU;         // unactuated block of M
  Eigen::VectorXd rhs_U;        // unactuated
  Eigen::LLT<Eigen::MatrixXd> llt{0};
};
ActuationScratch MakeActuationScratch(const Model& model, double dt);

// Joint torques τ (nv) for a validated action at state (q, v): every entry is
// written, unactuated coordinates (the floating base) get 0. Allocation-free.
// torque and pd only: id needs the dynamics (InverseDynamicsTorques) and
// id-constraint's torques come out of the step; both get τ = 0 here.
void ActionTorques(const Model& model, const ControlSettings& control,
                   const Eigen::VectorXd& action, const Eigen::VectorXd& q,
                   const Eigen::VectorXd& v, const ActuationScratch& scratch,
                   Eigen::Ref<Eigen::VectorXd> tau);

// τ under torque control with a controller: on each actuated coordinate the
// controller's torque command[dof] plus the action's entry, clamped to the
// effort limit (ActionTorques of the summed action, without the sum's
// vector); 0 on the unactuated ones. Allocation-free.
void ControlledActionTorques(const Eigen::VectorXd& action, const Eigen::VectorXd& command,
                             const ActuationScratch& scratch, Eigen::Ref<Eigen::VectorXd> tau);

// id and id-constraint: scratch.v_des = (action − q_A) / max(Δt, T) per
// actuator.
void DesiredJointVelocities(const Model& model, const ControlSettings& control,
                            const Eigen::VectorXd& action, const Eigen::VectorXd& q,
                            ActuationScratch& scratch);

// id mode: τ (nv) by inverse dynamics with the contact forces held in
// `contacts` (Contact::force of the last step, world frame), at (q, v); the
// unactuated entries are 0. Overwrites `data` (kinematics, M, h, contact
// Jacobians at q). Allocation-free.
void InverseDynamicsTorques(const Model& model, const ControlSettings& control,
                            const Eigen::VectorXd& action, const Eigen::VectorXd& q,
                            const Eigen::VectorXd& v, const contact::ContactSet& contacts,
                            Data& data, ActuationScratch& scratch, Eigen::Ref<Eigen::VectorXd> tau);

}  // namespace moreau::sim

#endif  // MOREAU_ENGINE_SIM_ACTUATION_H_
