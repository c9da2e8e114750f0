// Simulation = shared Model + State + Data (in the step workspace) + Settings
// + the controller Settings::controller names (docs/architecture.md). One
// instance is stepped by one thread at a time; many instances share one Model.
#ifndef MOREAU_ENGINE_SIM_SIMULATION_H_
#define MOREAU_ENGINE_SIM_SIMULATION_H_

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "engine/contact/contact_forces.h"
#include "engine/control/controller.h"
#include "engine/model/model.h"
#include "engine/sim/settings.h"
#include "engine/sim/state.h"
#include "engine/step/workspace.h"

namespace moreau::sim {

// What the last step reported.
struct StepReport {
  int solver_iterations = 0;  // prox sweeps (hard contact), QP iterations (least-constraint,
                              // micro-macro: summed over the step's QPs), Newton iterations
                              // of hertz's implicit friction, 0 for the other force laws
  bool solver_converged = true;
  int active_contacts = 0;
  bool impact = false;  // least-constraint: the step projected an impact (004 eq. 7–8)
};

class Simulation {
 public:
  // Validates the settings against the model; allocates everything the steps
  // will use and makes the controller. InvalidArgument for id-constraint
  // control or a model with loop closures under a force-law (non-hard)
  // contact model, naming both, for a controller the model cannot run
  // (MakeController's errors, prefixed "controller '<name>': "), for the
  // "command" control mode without a stand or trot controller, and for a
  // spring-damper whose automatic sub-steps would pass kMaxExplicitSubsteps
  // (explicit_substeps.h).
  static absl::StatusOr<std::unique_ptr<Simulation>> Create(std::shared_ptr<const Model> model,
                                                            const Settings& settings);

  // Back to the default pose at rest, t = 0, contact memory cleared, not
  // diverged.
  void Reset();
  // The default pose perturbed by seeded noise: joints ± scale rad (uniform),
  // velocities ± scale (uniform). Same seed, same state.
  void ResetWithNoise(uint64_t seed, double scale);
  // A given state, not diverged; InvalidArgument (naming the field) when
  // sizes do not fit or values are not finite; the current state (and
  // whether it diverged) is kept then.
  absl::Status SetState(const State& state);

  // Advances `substeps` steps of dt holding the joint torques τ (size nv; the
  // base entries act as generalized base forces) and the optional external
  // wrenches (per body, body coordinates). On divergence (non-finite or
  // exploding state) returns FailedPrecondition, keeps the last good state
  // and marks the simulation diverged (see diverged()). FailedPrecondition,
  // stepping nothing, while the simulation is diverged. τ is applied as
  // given: Settings::controller does not run (it is StepAction's).
  absl::Status Step(const Eigen::VectorXd& tau, int substeps,
                    const std::vector<Force>* f_ext = nullptr);

  // Advances `substeps` steps holding an actuator-shaped action (actuation.h):
  // torques or PD targets per Settings::control, turned into τ at every step,
  // with the optional external wrenches as in Step. With Settings::controller
  // the controller runs first, at its period, and the action is added to its
  // command (ControllerSettings; a zero action runs the controller alone).
  // InvalidArgument for an action of the wrong size or with a non-finite
  // entry (ValidateAction); divergence handled as in Step.
  absl::Status StepAction(const Eigen::VectorXd& action, int substeps,
                          const std::vector<Force>* f_ext = nullptr);
  // StepAction that starts no sub-step at or after `stop_at` (absl::Now()):
  // DeadlineExceeded, "stepped k of N sub-steps before the call's deadline",
  // when it stops early; the k sub-steps taken are kept. With
  // absl::InfiniteFuture() it is StepAction and reads no clock.
  absl::Status StepActionUntil(const Eigen::VectorXd& action, int substeps, absl::Time stop_at,
                               const std::vector<Force>* f_ext = nullptr);
  // The action's size: the controller's command elements under the
  // "command" control mode (controller()->CommandElements()), nu otherwise.
  int action_size() const;

  // Whether a step failed on the state: it left the state diverged (any q or
  // v not finite, |v|∞ above Settings::max_speed or |q|∞ above
  // kMaxCoordinate; the last good state is kept), found it so before
  // starting (a state set or restored that way), or found M(q) not positive
  // definite. Step and StepAction refuse to run while it is set; Reset,
  // ResetWithNoise, SetState and Restore clear it.
  bool diverged() const { return diverged_; }
  // The failed step's message ("simulation diverged at t = … s …"); empty
  // when not diverged.
  const std::string& diverged_message() const { return diverged_message_; }
  // Marks the simulation diverged with `message`, as a failed step does:
  // how a saved simulation that had diverged (a server checkpoint) comes back
  // so after Restore.
  void MarkDiverged(std::string message);

  // τ (nv) applied by the last step of StepAction or Step (id-constraint:
  // the joint rows' impulses Λ_j/Δt).
  const Eigen::VectorXd& applied_torques() const { return tau_; }
  const State& state() const { return state_; }
  std::string Snapshot() const { return SerializeState(state_); }
  absl::Status Restore(std::string_view bytes);

  const Model& model() const { return *model_; }
  std::shared_ptr<const Model> shared_model() const { return model_; }
  const Settings& settings() const { return settings_; }
  // The controller Settings::controller names; nullptr for "none". Its
  // time-varying state is State::controller.
  const control::Controller* controller() const { return controller_.get(); }
  const StepReport& last_report() const { return report_; }
  // Explicit updates of the force law per step (Δt / n each): spring-damper's
  // SpringDamperSettings::substeps, or the stability count of
  // explicit_substeps.h when that is 0; 1 for every other contact model.
  int force_law_substeps() const { return force_law_substeps_; }
  // Contact set of the last step (positions, gaps, forces).
  const contact::ContactSet& contacts() const { return workspace_.contacts; }
  // Workspace of the last step; data() holds its kinematics.
  const Data& data() const { return workspace_.data; }

 private:
  Simulation(std::shared_ptr<const Model> model, const Settings& settings,
             std::unique_ptr<control::Controller> controller, int force_law_substeps);
  // Settings::controller: when its period is due (State::steps a multiple of
  // it), computes its command into State::controller_command.
  void RunController();
  // The action a target mode tracks: `action` plus the controller's targets
  // (controlled_action_), or `action` itself without a controller.
  const Eigen::VectorXd& TargetAction(const Eigen::VectorXd& action);
  absl::Status StepOnce(const Eigen::VectorXd& tau, const std::vector<Force>* f_ext,
                        const step::JointVelocityRows& joint_rows = {});
  // Any q or v not finite, |v|∞ > max_speed or |q|∞ > kMaxCoordinate.
  bool StateOutOfBounds() const;
  // Control mode "command": InvalidArgument unless `command` has one finite
  // entry per command element; SetCommand puts it, clamped to the elements'
  // bounds, into State::controller.
  absl::Status ValidateCommand(const Eigen::VectorXd& command) const;
  void SetCommand(const Eigen::VectorXd& command);
  // A state set or restored: its controller command within this
  // simulation's bounds, or none unless the control mode is "command".
  void FitCommand();
  // Marks the simulation diverged with the message of `failure`; returns it.
  absl::Status RecordDivergence(absl::Status failure);
  // InvalidArgument unless f_ext is null or has one wrench per body.
  absl::Status ValidateExternalWrenches(const std::vector<Force>* f_ext) const;
  // Runs `substeps` steps, none started at or after `stop_at`; before each,
  // set_tau(state) writes tau_ (and whatever joint_rows points to); after
  // each successful one, after_step().
  template <typename SetTau, typename AfterStep>
  absl::Status StepLoop(int substeps, absl::Time stop_at, const std::vector<Force>* f_ext,
                        SetTau set_tau, const step::JointVelocityRows& joint_rows,
                        AfterStep after_step);

  std::shared_ptr<const Model> model_;
  Settings settings_;
  // A force law's parameters and integrator (Settings::contact), resolved once
  // for step::ExplicitStep.
  contact::ContactForceParams force_law_;
  step::Integrator integrator_;
  int force_law_substeps_ = 1;
  State state_;
  State last_good_;
  // What a step can change of state_ beyond q, v, time, steps and the contact
  // states: what StepLoop's rollback copy saves and restores.
  StateParts step_writes_;
  step::StepWorkspace workspace_;
  StepReport report_;
  Eigen::VectorXd tau_;                              // nv: τ of the current step
  ActuationScratch actuation_;                       // what StepAction's pd mode needs
  std::unique_ptr<control::Controller> controller_;  // Settings::controller; nullptr: none
  Eigen::VectorXd controlled_action_;                // nu: TargetAction's
  bool diverged_ = false;
  // state_ passed StateOutOfBounds since it was last reset, set or restored.
  bool state_checked_ = false;
  std::string diverged_message_;  // the failed step's, while diverged_
};

}  // namespace moreau::sim

#endif  // MOREAU_ENGINE_SIM_SIMULATION_H_
