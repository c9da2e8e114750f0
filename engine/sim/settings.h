// Settings of one simulation: time step, contact model and its parameters
// (its law, solver and integrator), terrain, gravity, and the controller the
// simulation runs.
#ifndef MOREAU_ENGINE_SIM_SETTINGS_H_
#define MOREAU_ENGINE_SIM_SETTINGS_H_

#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/contact/terrain.h"
#include "engine/control/controller.h"
#include "engine/control/velocity_trot.h"
#include "engine/sim/actuation.h"
#include "engine/sim/contact_settings.h"
#include "engine/spatial/motion.h"
#include "engine/step/explicit_step.h"
#include "engine/step/moreau_step.h"
#include "engine/util/enum_table.h"

namespace moreau::sim {

// "euler" (semi-implicit), "heun", "rk4".
const EnumTable<step::Integrator>& Integrators();
const char* IntegratorName(step::Integrator integrator);
absl::StatusOr<step::Integrator> ParseIntegrator(std::string_view name);

// A transmission on every actuator, overriding the model's (002 §IV-C;
// Actuator in model.h): the simulation's own copy of the Model gets
// Actuator::gear = gear and Actuator::rotor_inertia = rotor_inertia, hence the
// reflected inertia N²·I_rotor on each actuated joint's diagonal of M. 0 keeps
// the model's value (URDF <transmission>, else N = 1, I_rotor = 0). Actions
// and effort limits stay joint side, so with both 0 nothing changes.
struct TransmissionSettings {
  double gear = 0.0;           // N > 0, or 0: the model's
  double rotor_inertia = 0.0;  // I_rotor (kg m², motor side) > 0, or 0: the model's
  bool active() const { return gear > 0.0 || rotor_inertia > 0.0; }
};
// "prox", "direct" (step::LoopSolver).
const EnumTable<step::LoopSolver>& LoopSolvers();
const char* LoopSolverName(step::LoopSolver solver);
absl::StatusOr<step::LoopSolver> ParseLoopSolver(std::string_view name);

// The controller the simulation runs inside its step (engine/control,
// controller.h): "none" (actions alone drive the joints), "zero", "stand",
// "trot" (the trot suited to the control mode: the velocity trot under
// id-constraint, 001's otherwise), "pd-trot" (001's trot in every mode),
// "velocity-trot" (velocity_trot.h; a mode that tracks targets) or "hold"
// (hold.h: joint PD holding the pose of its first run).
enum class ControllerKind { kNone, kZero, kStand, kTrot, kPdTrot, kVelocityTrot, kHold };
const EnumTable<ControllerKind>& ControllerKinds();
const char* ControllerKindName(ControllerKind kind);
absl::StatusOr<ControllerKind> ParseControllerKind(std::string_view name);

// How the controller runs (Simulation::StepAction): every `period_steps`-th
// step (State::steps a multiple of it) it computes its command from the
// state, over the control period Δt_c = period_steps Δt; the command is held
// in State::controller_command until the next. Under torque control the
// command is its τ (Controller::Compute) and the action is added to it
// (τ = τ_controller + torques of the action); under pd, id and id-constraint
// it is its joint targets for the end of the control period
// (Controller::ComputeTargets) and the action is added to them as an offset.
// A zero action leaves the controller alone in charge.
struct ControllerSettings {
  ControllerKind kind = ControllerKind::kNone;
  control::ControllerOptions options;          // zero, stand, hold, 001's trot
  control::VelocityTrotOptions velocity_trot;  // the velocity trot; its id_time_constant_s
                                               // is Settings::control's
  int period_steps = 1;                        // ≥ 1
};

// Whether the simulation runs the velocity trot (velocity_trot.h, options
// ControllerSettings::velocity_trot) for `kind` under `mode`: "velocity-trot",
// and "trot" under id-constraint. The other kinds but "none" run
// MakeController's (options ControllerSettings::options).
bool RunsVelocityTrot(ControllerKind kind, ControlMode mode);

// The largest |q_i| (m or rad) of a state that is not diverged: MuJoCo's
// mjMAXVAL bound on qpos.
inline constexpr double kMaxCoordinate = 1e10;

struct Settings {
  double dt = 1e-3;  // s
  // The contact model and its parameters (contact_settings.h).
  ContactSettings contact = DefaultContactSettings(ContactModel::kMoreauSor);
  contact::Terrain terrain;  // default: the ground plane z = 0
  spatial::Vec3 gravity = spatial::Vec3(0.0, 0.0, -9.81);
  ControlSettings control;            // how Simulation::StepAction maps actions to τ
  ControllerSettings controller;      // the controller StepAction runs (default none)
  TransmissionSettings transmission;  // override of every actuator's N, I_rotor
  // A state is diverged when any q or v is not finite, |v|∞ exceeds this or
  // |q|∞ exceeds kMaxCoordinate.
  double max_speed = 1e3;
};

// Checks every field; the message names the first bad one and its value.
absl::Status Validate(const Settings& settings);

}  // namespace moreau::sim

#endif  // MOREAU_ENGINE_SIM_SETTINGS_H_
