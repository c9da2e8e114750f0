// Controllers run by the simulation at the simulation rate (docs/architecture.md,
// step stage 4 "actuation"): each maps (t, q, v) to joint torques τ (nv).
//
//   "zero"   τ = 0.
//   "stand"  joint PD (001 eq. 44) to a standing pose: every foot under its
//            hip with the base at ControllerOptions::stand_height, solved with
//            the leg IK (legs.h). Any robot whose feet are 3-joint legs.
// "stand" and "trot" take their gains, pose and step from a tuning
// (ControllerOptions::tuning, tuning.h): 001's Mini Cheetah constants, or
// derived from the model (docs/controllers.md).
//   "trot"   001 §6.2: phase oscillator (CPG) → Bézier stance / swing foot
//            trajectories (gait.h) → leg IK → joint PD. Four legs, one per
//            corner; diagonal pairs half a period apart, duty factor ½. Plus
//            balance feedback beyond the paper (ControllerOptions::balance;
//            controller.cc): stance-leg heights against roll and pitch,
//            Raibert foot placement against velocity errors, a heading hold
//            (proportional–integral) by the stance feet's sweep, and swing
//            feet lifted by the stance legs' sag.
//   "hold"   joint PD (001 eq. 44) holding the joint angles of its first
//            call, target rate 0 (hold.h). Any model with actuators.
// "stand" and "trot" discretize the PD for the step (StableJointPd, pd.h).
// The velocity trot (velocity_trot.h) is the trot for velocity-level joints
// (id-constraint control): a Controller that drives the joints by targets
// only.
//
// A Controller object holds constant tables and scratch (the last targets);
// everything that evolves in time lives in ControllerState, which the
// simulation (Settings::controller, engine/sim) stores in its State and
// snapshots. Make one Controller per simulation instance; Compute and
// ComputeTargets never allocate.
#ifndef MOREAU_ENGINE_CONTROL_CONTROLLER_H_
#define MOREAU_ENGINE_CONTROL_CONTROLLER_H_

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/control/pd.h"
#include "engine/model/model.h"

namespace moreau::control {

// Legs a controller's state has room for: a trot has four (CheckTrotLayout).
inline constexpr int kMaxControllerLegs = 4;

// The time-varying part of a controller: trivially copyable, fixed size (the
// state serializer writes it field by field, engine/sim/state.cc). A
// default-constructed state is the start of a run.
// Most elements of a controller's command (Controller::CommandElements).
inline constexpr int kMaxCommandSize = 3;

// One element of a controller's command: its name, unit and bounds.
struct CommandElement {
  const char* name;
  const char* unit;
  double lower;
  double upper;
};

struct ControllerState {
  double phase = 0.0;           // gait oscillator phase φ ∈ [0, 1) (001 §6.2 CPG)
  double elapsed_s = 0.0;       // Σ dt over Compute calls: drives the trot start delay and ramp
  std::int64_t ik_clamped = 0;  // leg IK solutions clamped to the workspace or
                                // the joint limits so far (0 in a nominal gait)
  // Trot balance feedback (controller.cc, beyond 001 §6.2):
  // base velocity (x, y) in the heading frame, low-pass filtered (m/s);
  std::array<double, 2> velocity = {0.0, 0.0};
  // per leg (kMaxLegs), the foothold offset (x, y) in the heading frame (m)
  // of the current or last stance, and the one being placed by the swing.
  std::array<double, 8> stance_offset = {};
  std::array<double, 8> swing_offset = {};
  // The heading (yaw, rad) the trot holds: the base's at the first Compute.
  double heading = 0.0;
  bool heading_set = false;
  // ∫ (ψ − ψ₀) dt (rad s) of the trot's heading hold (its integral term).
  double heading_integral = 0.0;
  // The base's (x, y) at the first Compute: a point of the line the trot
  // holds with ControllerOptions::line_gain > 0.
  std::array<double, 2> line_origin = {0.0, 0.0};
  // Trot: the leg joints' targets of the last Compute, 3 per leg (the leg's
  // actuators in Leg::actuator order), which the swing clearance reads;
  // before the first Compute (leg_targets_set false) the stand pose's.
  // Hold (hold.h): the held joint angles in actuator order, taken at the
  // first Compute (leg_targets_set false before it).
  std::array<double, 3 * kMaxControllerLegs> leg_targets = {};
  bool leg_targets_set = false;
  // Velocity trot (velocity_trot.h), per leg: in swing at the last Compute,
  // touched down since the swing's second half, foothold frozen for the
  // landing; the foot centre at lift-off and the swing's foothold (world,
  // x y z per leg, m).
  std::array<bool, kMaxControllerLegs> was_swing = {};
  std::array<bool, kMaxControllerLegs> touched = {};
  std::array<bool, kMaxControllerLegs> foothold_frozen = {};
  std::array<double, 3 * kMaxControllerLegs> lift_off = {};
  std::array<double, 3 * kMaxControllerLegs> foothold = {};
  // The command of ControlMode "command" (Controller::CommandElements, in
  // that order, within their bounds), set before each Compute; command_set
  // false: none given, the controller runs on its options.
  std::array<double, kMaxCommandSize> command = {};
  bool command_set = false;
};
static_assert(std::is_trivially_copyable_v<ControllerState>);

// Where "stand" and "trot" take their gains, standing pose and step from
// (tuning.h, docs/controllers.md).
enum class Tuning {
  kAuto = 0,      // kPaper001 for the model named "mini_cheetah", else kDerived
  kPaper001 = 1,  // 001's Mini Cheetah constants (Table I), as the fields below say
  kDerived = 2,   // from the model: mass, leg length, joint limits, efforts, inertias
};

// Options of MakeController. Lengths in m, speeds in m/s.
struct ControllerOptions {
  // The tuning (tuning.h). Under kDerived the gains, stand height (when 0),
  // step height, speed and the weight feed-forward come from the model; the
  // fields below then scale them (tuning.h: kp / 40, kd / 1, step_height /
  // 0.06 m, forward_velocity / 0.5 m/s).
  Tuning tuning = Tuning::kAuto;
  PdGains gains;  // 001 Table I: k_p = 40, k_d = 1
  // Height of the base origin above flat ground (z = 0) when standing with a
  // level base and the feet under the hips; also the trot's nominal height.
  // 0: DefaultStandHeight (gait.h): 0.7 of the leg length + foot radius
  // (Mini Cheetah 0.287 m, A1 0.30 m).
  double stand_height = 0.0;
  double trot_frequency_hz = 1.25;  // 000: trotting gait cycle of 1.25 Hz
  double duty_factor = 0.5;         // trot: each diagonal pair in stance half a cycle
  // Commanded forward speed: the speed at which stance feet move backward
  // relative to the hips. Sets the step length when step_length is 0:
  // L = v β / f = 0.5 · 0.5 / 1.25 = 0.2 m by default, about half the leg
  // length, well inside the workspace of the Mini Cheetah and the A1. The
  // body moves slower than v with the soft 001 gains (k_p = 40: the legs sag
  // and the feet slip): in a rough closed-loop check (ABA + penalty contacts)
  // the Mini Cheetah made ≈ 0.27 m/s at this command but almost no headway at
  // 0.25 m/s. Negative: trot backward.
  double forward_velocity = 0.5;
  double step_length = 0.0;  // > 0 overrides the L derived from forward_velocity
  // Swing apex above the ground: 6 cm, ≈ 15 % of the leg length of the Mini
  // Cheetah / A1, clears small unevenness without long swing excursions.
  double step_height = 0.06;
  // The trot first holds the standing pose for start_delay_s (the robot
  // settles, e.g. after a drop from Model::q_default; the oscillator is
  // still), then its step length and height grow linearly from 0 over
  // start_ramp_s (one gait cycle at 1.25 Hz), so the targets move
  // continuously from the standing pose. 0: no delay / full gait at once.
  double start_delay_s = 0.5;
  double start_ramp_s = 0.8;
  // PD velocity target: the rate of the trot's joint targets (q̇_d, by a
  // finite difference along the phase) when true; 0 (001 eq. 44 as printed)
  // when false.
  bool velocity_feedforward = true;
  // Trot balance feedback, added to 001 §6.2's open-loop generator (see
  // controller.cc for what each does and why). false: the paper's
  // open-loop trot (fixed footholds, no attitude or heading feedback, no
  // swing clearance).
  bool balance = true;
  // Balance feedback 4 (swing clearance by the stance legs' sag; needs
  // `balance`). It suits PD-held legs, whose sag is the weight's; joints
  // driven toward the targets with a lag (the `id` control mode's time
  // constant) read that lag as sag and lift their swing feet too high (the
  // id trot's largest stable step falls from 8 ms to 3.9 ms): turn it off there.
  bool swing_clearance = true;
  // Balance feedback 1 and 2 (controller.cc): the attitude gain k_att, its
  // damping time T_att (s) and the low-pass time of the base velocity that
  // foot placement reads (s). The defaults damp the A1's slow roll–yaw
  // wobble. Stiff attitude feedback suits PD-held legs; under deadbeat joint
  // rows (id-constraint at 10 ms) k_att = 1.5 diverges where 1 holds.
  double attitude_gain = 1.5;
  double attitude_damping_s = 0.1;
  double velocity_filter_s = 0.1;
  // Trot, off by default: > 0 holds the line through the start position
  // along the start heading. The sideways offset e from it commands a
  // sideways velocity −line_gain · e (1/s; clamped to ±0.1 m/s), which the
  // stance feet sweep and the foot placement steer by, like the forward one.
  double line_gain = 0.0;
  // Trot, also beyond 001 §6.2 (off by default): each stance leg carries its
  // share of the robot's weight by a feed-forward torque τ_ff = −Jᵀ Rᵀ F_i
  // (J = LegJacobian, F_i = −m g w_i / Σw the support force, w_i = 1 for a
  // leg in stance and 1 − ramp for one in swing while the gait starts), added
  // to the PD. Without it 001's soft gains hold the weight only by sagging;
  // that suits the 8.9 kg Mini Cheetah 001 tuned them for (with the feed-forward
  // its light legs hop at touch-down and it falls on hard contacts), but the
  // 13.7 kg Unitree A1 then rocks and yaws ±30° and falls within seconds on
  // every contact model; with the feed-forward it trots on all of them.
  bool weight_feedforward = false;
  // "stand" and "trot": the PD discretized implicitly for the step
  // (StableJointPd, pd.h), with each joint's inertia at the stand pose; this
  // keeps 001's k_d = 1 stable at Δt ≥ 1 ms. false: JointPd as printed.
  bool stable_pd = true;
};

class Controller {
 public:
  virtual ~Controller() = default;

  // "zero", "stand", "trot", "hold" or "velocity-trot".
  virtual std::string_view Name() const = 0;

  // What the controller takes as its command under the "command" control
  // mode (ControllerState::command), element by element; empty: nothing (a
  // stand holds its pose). The trot's: forward and lateral velocity (m/s, in
  // the heading frame) and yaw rate (rad/s).
  virtual std::span<const CommandElement> CommandElements() const { return {}; }

  // τ (nv) for time t (s) at state (q: nq, v: nv) of the Model the controller
  // was made for; then advances `state` by dt (s) (dt = 0: evaluate only).
  // Every entry of tau is written (0 for the floating base). No allocation.
  virtual void Compute(const Model& model, double t, double dt, const Eigen::VectorXd& q,
                       const Eigen::VectorXd& v, ControllerState& state,
                       Eigen::Ref<Eigen::VectorXd> tau) = 0;

  // The joint targets (actuator-shaped) for the end of the step [t, t + dt],
  // for a control mode that tracks targets (pd, id, id-constraint), after
  // advancing `state` over the step. `contact_impulses` are the last step's
  // contact impulses (sim::State::impulses: 3 per contact point, the normal
  // one first; a contact is closed when it is > 0); empty: all open. The
  // default: Compute over [t, t + dt], then Compute at t + dt with dt = 0
  // (evaluate only), then LastTargets(); the contacts are not read. No
  // allocation.
  virtual void ComputeTargets(const Model& model, double t, double dt, const Eigen::VectorXd& q,
                              const Eigen::VectorXd& v, std::span<const double> contact_impulses,
                              ControllerState& state, Eigen::Ref<Eigen::VectorXd> targets);

  // The joint targets for a mode that brings the joints to its targets at the
  // end of a horizon h (id, id-constraint: v_des = (target − q_A)/h,
  // actuation.h), after advancing `state` over [t, t + dt]: q_A + h v, with
  // v = q̇_d + (q_d − q_A)/max(h, k_d/k_p) for the set point (q_d, q̇_d) of
  // ComputeTargets. The joints approach the set point no faster than the PD
  // law of 001 eq. 44, k_p(q_d − q) + k_d(q̇_d − q̇), whose torque vanishes at
  // q̇ = q̇_d + (k_p/k_d)(q_d − q); for h ≥ k_d/k_p the target is q_d + h q̇_d.
  // Targets that already are of this kind (the velocity trot's) are returned
  // as they are. h > 0. No allocation.
  virtual void ComputeReachTargets(const Model& model, double t, double dt, double horizon,
                                   const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                   std::span<const double> contact_impulses, ControllerState& state,
                                   Eigen::Ref<Eigen::VectorXd> targets);

  // The joint targets of the last Compute, actuator-shaped (Model::actuators
  // order), for logging: position q_d (rad or m) and rate q̇_d. Before the
  // first Compute: the controller's initial targets. "zero" reports the
  // measured joint positions (it tracks nothing).
  const Eigen::VectorXd& LastTargets() const { return q_des_; }
  const Eigen::VectorXd& LastTargetVelocities() const { return qd_des_; }

 protected:
  explicit Controller(const Model& model, const PdGains& gains = {})
      : gains_(gains),
        q_des_(Eigen::VectorXd::Zero(model.nu())),
        qd_des_(Eigen::VectorXd::Zero(model.nu())),
        tau_scratch_(Eigen::VectorXd::Zero(model.nv)) {}

  PdGains gains_;  // the joint PD's (001 eq. 44)
  // k_d / k_p of the PD (ComputeReachTargets); < 0: gains_'. Per-joint gains
  // (tuning.h, derived) set their largest.
  double pd_time_constant_s_ = -1.0;
  Eigen::VectorXd q_des_;        // actuators
  Eigen::VectorXd qd_des_;       // actuators
  Eigen::VectorXd tau_scratch_;  // nv: ComputeTargets' τ, not used
};

// The names MakeController accepts.
std::vector<std::string_view> ControllerNames();

// Builds a controller for `model`. InvalidArgument for an unknown name, bad
// options (non-finite or negative gains, f ≤ 0, β ∉ (0, 1), …), a model whose
// feet are not 3-joint legs ("stand", "trot"; the error names the foot), a
// trot on other than four legs at the four corners, targets the legs cannot
// reach within their joint limits (the stand pose, or any point of the trot
// cycle at full step length and height), or a hold on a model of more than
// kMaxHeldJoints actuators (hold.h).
absl::StatusOr<std::unique_ptr<Controller>> MakeController(std::string_view name,
                                                           const Model& model,
                                                           const ControllerOptions& options = {});

}  // namespace moreau::control

#endif  // MOREAU_ENGINE_CONTROL_CONTROLLER_H_
