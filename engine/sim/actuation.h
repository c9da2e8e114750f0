// Actuation of a simulation instance (PHYSICS.md § Actuation and control):
// how an action from a client becomes joint torques, recomputed at every
// simulation step while the action is held for K sub-steps.
//
//   torque  action = joint-side torque (N m) or force (N) per actuator,
//           clamped to the actuator's effort limit.
//   pd      action = target position per actuator; joint PD at the simulation
//           rate (001 eq. 44) with target rate 0, clamped to the effort limit —
//           the decimated policy / fast PD loop of real legged-robot stacks.
//           The damping is capped at I/Δt per joint (StableJointPd, pd.h), so
//           an explicit PD cannot blow up a light leg at large Δt; below the
//           cap it is eq. 44 exactly.
//
// Actions are actuator-shaped: one entry per Model::actuators, in that order.
#ifndef MOREAU_ENGINE_SIM_ACTUATION_H_
#define MOREAU_ENGINE_SIM_ACTUATION_H_

#include <Eigen/Core>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/control/pd.h"
#include "engine/model/model.h"

namespace moreau::sim {

enum class ControlMode {
  kTorque,
  kPd,
};

// "torque", "pd".
const char* ControlModeName(ControlMode mode);
absl::StatusOr<ControlMode> ParseControlMode(std::string_view name);

struct ControlSettings {
  ControlMode mode = ControlMode::kTorque;
  PdGains gains;  // pd mode only; 001 Table I by default
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
};
ActuationScratch MakeActuationScratch(const Model& model, double dt);

// Joint torques τ (nv) for a validated action at state (q, v): every entry is
// written, unactuated coordinates (the floating base) get 0. Allocation-free.
void ActionTorques(const Model& model, const ControlSettings& control,
                   const Eigen::VectorXd& action, const Eigen::VectorXd& q,
                   const Eigen::VectorXd& v, const ActuationScratch& scratch,
                   Eigen::Ref<Eigen::VectorXd> tau);

}  // namespace moreau::sim

#endif  // MOREAU_ENGINE_SIM_ACTUATION_H_
