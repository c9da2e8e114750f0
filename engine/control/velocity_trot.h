// A trot for velocity-level joints (`id-constraint` control, 002):
// the controller gives each leg joint a desired velocity q̇_d for the step,
// which the simulation imposes as a bilateral row e_jᵀ u_E = q̇_d,j with
// |Λ_j| ≤ τ_max Δt, solved with contact and friction. Such rows are deadbeat:
// whatever the joints are asked to do they do within the step, so the
// controller must ask for motions the planted feet allow. 001's trot (foot
// targets for soft PD legs, controller.h) does not: its targets push planted
// feet against each other and its attitude feedback is an unstable loop with
// deadbeat rows (BENCHMARKS.md, paper 002's experiments). Here instead:
//
//   Stance (support) legs. One commanded base twist u = (v, ω) (world frame)
//     for all of them: forward speed in the heading direction, and first-order
//     corrections of height, roll, pitch and yaw with time constants of
//     several steps (not deadbeat). Each support leg's q̇_d makes the foot's
//     *material* contact point (the bottom of the foot sphere, on the shank)
//     still when the base moves with u:
//       0 = v + ω × (p_c − p_b) + R (J + r [n]× J_ω) q̇_d
//     (J: LegJacobian of the sphere centre, J_ω: the shank's angular-velocity
//     Jacobian, n: the ground normal in the base frame, r: the foot radius:
//     a sticking sphere rolls), all at the step's midpoint configuration q_M =
//     q_S + ½Δt v_S, where Moreau's step evaluates its contact and joint rows
//     (000 eq. 6). The support legs' rows are then consistent with sticking
//     contacts: no internal forces between the feet, no friction demanded
//     beyond what the base's motion needs. (With two feet the rotation about
//     the line through them is not set by the joints: it is left to the
//     dynamics.)
//   Swing legs. A trajectory in the world frame from where the foot lifted
//     off to a foothold half a stride ahead of where its hip will be at
//     touchdown (under the hip at mid-stance): horizontally a minimum-jerk
//     move with zero velocity at both ends; vertically a minimum-jerk rise to
//     step_height and a longer minimum-jerk descent that stops, over the
//     foothold, approach_height above the ground; then a final approach at
//     max(touchdown_speed, height / approach_time_constant_s), so the foot
//     meets the ground slowly (a fast foot near the ground is stopped by the
//     step's predictive contact activation as an impact, which kicks the
//     body). Tracked at the velocity level: q̇_d = J⁻¹ Rᵀ(ṗ_d + (p_d − p)/T −
//     v_hip), with the base's motion over the step as the support legs set
//     it.
//   Touchdown by contact: a swing foot whose contact closes in the second
//     half of its swing becomes a support leg; a stance-phase foot that has
//     not yet touched keeps approaching the ground; a support foot whose
//     contact opened comes back down at touchdown_speed.
//   On two feet, the attitude correction about the line through them is
//     dropped: the joints cannot rotate the base about that line, and the
//     rest of such a rotation about the base origin would translate the base
//     sideways, further off the support line.
// The gait (phase oscillator, diagonal pairs half a period apart, duty factor
// β) is 001 §6.2's; its step length is v β / f. The robot first settles
// (joint-space approach to the standing pose, then support), then trots from
// start_delay_s with the speed ramped over start_ramp_s.
//
// Output: joint targets q_A + h q̇_d (actuator-shaped), h = max(Δt, T) with
// T = VelocityTrotOptions::id_time_constant_s, which `id-constraint` with
// that time constant turns back into v_des = q̇_d. A Controller ("velocity-
// trot") that drives the joints by targets only (ComputeTargets); its gait
// state lives in ControllerState (snapshotted with the simulation's State).
// The simulation runs it for Settings::controller "trot" under id-constraint
// control. Compute and ComputeTargets never allocate.
#ifndef MOREAU_ENGINE_CONTROL_VELOCITY_TROT_H_
#define MOREAU_ENGINE_CONTROL_VELOCITY_TROT_H_

#include <Eigen/Core>
#include <array>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/control/controller.h"
#include "engine/control/legs.h"
#include "engine/model/model.h"

namespace moreau::control {

struct VelocityTrotOptions {
  // Base height above flat ground (z = 0) when standing; 0: DefaultStandHeight.
  double stand_height = 0.0;
  double frequency_hz = 2.5;       // f
  double duty_factor = 0.5;        // β
  double forward_velocity = 0.25;  // m/s; the step length is v β / f
  double step_height = 0.02;       // swing apex above the ground (m)
  double start_delay_s = 0.5;      // stand, then trot
  double start_ramp_s = 0.8;       // forward speed ramped from 0 over this time
  double settle_s = 0.3;           // joint-space approach to the stand pose first
  // First-order time constants (s) of the base twist's corrections.
  double height_time_constant_s = 0.1;
  double attitude_time_constant_s = 0.1;  // roll and pitch
  double yaw_time_constant_s = 0.5;
  double joint_time_constant_s = 0.1;   // settling: q̇_d = (q_stand − q) / T
  double swing_time_constant_s = 0.03;  // swing foot position feedback
  // The swing is planned to reach the ground at this fraction of the swing
  // phase: its main part ends approach_s earlier, the foot still over its
  // foothold at approach_height above the ground; then it descends at
  // max(touchdown_speed, height / approach_time_constant_s) until its
  // contact closes.
  double landing_fraction = 0.8;
  double approach_s = 0.05;
  double approach_height = 0.004;
  double approach_time_constant_s = 0.02;
  double touchdown_speed = 0.05;
  double max_joint_velocity = 40.0;  // |q̇_d| clamp (rad/s)
  // The id-constraint time constant T (s, ≥ 0) the targets are for: targets
  // q_A + max(Δt, T) q̇_d give v_des = q̇_d (actuation.h).
  double id_time_constant_s = 0.0;
};

class VelocityTrot final : public Controller {
 public:
  // InvalidArgument naming the field for bad options; the model must have
  // four 3-joint legs at the corners of a floating base (as "trot").
  static absl::StatusOr<std::unique_ptr<VelocityTrot>> Create(
      const Model& model, const VelocityTrotOptions& options = {});

  std::string_view Name() const override { return "velocity-trot"; }

  // τ = 0 (the trot drives the joints by targets only); the targets of
  // ComputeTargets with every contact taken as open go to LastTargets().
  void Compute(const Model& model, double t, double dt, const Eigen::VectorXd& q,
               const Eigen::VectorXd& v, ControllerState& state,
               Eigen::Ref<Eigen::VectorXd> tau) override;

  // Desired joint velocities for the step [t, t + dt] from the state (q, v)
  // at t and the last step's contact impulses (a contact point is closed
  // when its normal impulse is > 0; Model::contact_points order); writes
  // `targets` = q_A + max(dt, T) q̇_d (actuators; also LastTargets(), with
  // q̇_d as LastTargetVelocities()) and advances the gait in `state` by dt.
  // dt > 0. No allocation.
  void ComputeTargets(const Model& model, double t, double dt, const Eigen::VectorXd& q,
                      const Eigen::VectorXd& v, std::span<const double> contact_impulses,
                      ControllerState& state, Eigen::Ref<Eigen::VectorXd> targets) override;

  // ComputeTargets: its targets already bring the joints to q̇_d over its own
  // horizon max(dt, T).
  void ComputeReachTargets(const Model& model, double t, double dt, double /*horizon*/,
                           const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                           std::span<const double> contact_impulses, ControllerState& state,
                           Eigen::Ref<Eigen::VectorXd> targets) override {
    ComputeTargets(model, t, dt, q, v, contact_impulses, state, targets);
  }

  // A contact point's leg phase offset (0 or ½; 0 for a contact point that is
  // no leg's): the leg's phase is ControllerState::phase + offset.
  double PhaseOffset(int contact_point) const;
  const VelocityTrotOptions& options() const { return options_; }
  double stand_height() const { return stand_height_; }

 private:
  static constexpr int kLegs = 4;
  static_assert(kLegs <= kMaxControllerLegs);
  enum class Mode { kSettle, kSupport, kSwing, kDescend };

  VelocityTrot(const Model& model, const VelocityTrotOptions& options, LegLayout layout,
               double stand_height, Eigen::VectorXd q_stand);

  VelocityTrotOptions options_;
  LegLayout layout_;
  double stand_height_ = 0.0;
  Eigen::VectorXd q_stand_;                     // actuators
  std::array<Eigen::Vector2d, kLegs> lever_{};  // nominal foot (x, y) in the base frame
  std::array<double, kLegs> offset_{};          // leg phase offsets
};

}  // namespace moreau::control

#endif  // MOREAU_ENGINE_CONTROL_VELOCITY_TROT_H_
