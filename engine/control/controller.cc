#include "engine/control/controller.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/control/atan2.h"
#include "engine/control/gait.h"
#include "engine/control/hold.h"
#include "engine/control/legs.h"
#include "engine/control/tuning.h"
#include "engine/util/status_macros.h"

namespace moreau::control {
namespace {

// Phase step of the finite difference that gives the trot's q̇_d.
constexpr double kPhaseStep = 1e-5;

// ---------------------------------------------------------------- zero ---

class ZeroController final : public Controller {
 public:
  explicit ZeroController(const Model& model) : Controller(model) {}
  std::string_view Name() const override { return "zero"; }
  void Compute(const Model& model, double /*t*/, double dt, const Eigen::VectorXd& q,
               const Eigen::VectorXd& /*v*/, ControllerState& state,
               Eigen::Ref<Eigen::VectorXd> tau) override {
    ActuatorPositions(model, q, q_des_);  // nothing is tracked: report the measurement
    tau.setZero();
    state.elapsed_s += dt;
  }
};

// --------------------------------------------------------------- stand ---

// The largest k_d / k_p over the actuators (0 without stiffness).
double MaxTimeConstant(const Eigen::VectorXd& kp, const Eigen::VectorXd& kd) {
  double most = 0.0;
  for (Eigen::Index k = 0; k < kp.size(); ++k) {
    if (kp[k] > 0.0) most = std::max(most, kd[k] / kp[k]);
  }
  return most;
}

// τ += −Jᵀ Rᵀ F_i for each leg with weight share w_i > 0, F_i = −m g w_i / Σw
// (ControllerOptions::weight_feedforward; `weight_force` = −m g), clamped to
// the effort limits. `support`: w_i for the first kMaxControllerLegs legs.
void AddWeightFeedforward(const Model& model, const LegLayout& layout, const Vec3& weight_force,
                          const Eigen::VectorXd& q, const double (&support)[kMaxControllerLegs],
                          Eigen::Ref<Eigen::VectorXd> tau) {
  double total = 0.0;
  const int legs = std::min(static_cast<int>(layout.legs.size()), kMaxControllerLegs);
  for (int i = 0; i < legs; ++i) total += support[i];
  if (total <= 0.0) return;
  Eigen::Quaterniond quat(q[3], q[4], q[5], q[6]);
  quat.normalize();
  const Vec3 force_base = quat.toRotationMatrix().transpose() * weight_force / total;
  for (int i = 0; i < legs; ++i) {
    if (support[i] <= 0.0) continue;
    const Leg& leg = layout.legs[i];
    const Vec3 angles(q[leg.q_index[0]], q[leg.q_index[1]], q[leg.q_index[2]]);
    // Virtual work: the joints push the ground with −F_i through the foot.
    const Vec3 tau_ff = -LegJacobian(leg, angles).transpose() * (support[i] * force_base);
    for (int j = 0; j < 3; ++j) {
      const double limit = model.actuators[leg.actuator[j]].effort_limit;
      double& t = tau[leg.v_index[j]];
      t = std::clamp(t + tau_ff[j], -limit, limit);
    }
  }
}

// The stand's and the trot's joint PD: per-actuator gains under the derived
// tuning (tuning.h), else the options' pair for every actuator.
StablePd MakeStablePd(const Model& model, const PdGains& gains, const ControllerTuning& tuning) {
  if (tuning.tuning == Tuning::kDerived) {
    return StablePd(model, tuning.kp, tuning.kd, tuning.inertia);
  }
  return StablePd(model, gains, tuning.inertia);
}

class StandController final : public Controller {
 public:
  StandController(const Model& model, const ControllerOptions& options,
                  const ControllerTuning& tuning, LegLayout layout)
      : Controller(model, options.gains),
        pd_(MakeStablePd(model, options.gains, tuning)),
        weight_feedforward_(tuning.weight_feedforward && model.floating_base &&
                            layout.legs.size() <= kMaxControllerLegs),
        weight_force_(-model.TotalMass() * model.gravity),
        layout_(std::move(layout)) {
    q_des_ = tuning.q_stand;
    if (tuning.tuning == Tuning::kDerived) {
      pd_time_constant_s_ = MaxTimeConstant(tuning.kp, tuning.kd);
    }
  }
  std::string_view Name() const override { return "stand"; }
  void Compute(const Model& model, double /*t*/, double dt, const Eigen::VectorXd& q,
               const Eigen::VectorXd& v, ControllerState& state,
               Eigen::Ref<Eigen::VectorXd> tau) override {
    // 001 eq. 44 to the constant standing pose, q̇_d = 0.
    pd_.Torques(q, v, q_des_, qd_des_, dt, tau);
    if (weight_feedforward_) {
      // Every foot carries its share m g / n (tuning.h, derived).
      const double support[kMaxControllerLegs] = {1.0, 1.0, 1.0, 1.0};
      AddWeightFeedforward(model, layout_, weight_force_, q, support, tau);
    }
    state.elapsed_s += dt;
  }

 private:
  StablePd pd_;  // 001 eq. 44, discretized for the step (pd.h)
  bool weight_feedforward_;
  Vec3 weight_force_;  // −m g (world, N)
  LegLayout layout_;
};

// ---------------------------------------------------------------- trot ---

// Balance feedback added to 001 §6.2's open-loop trot. The paper's generator
// (phase oscillator → Bézier stance/swing → leg IK → PD) is kept as is; what
// is added only shifts the Bézier curves, from the measured base pose and
// velocity:
//  1. Attitude, by stance-leg height: each foot target is raised by
//     k_att Δz_hip + T_att ż_hip, where Δz_hip is how far the leg's hip sits
//     above where a level base would hold it (from roll and pitch) and ż_hip
//     its vertical velocity from the base's rotation (ω × r). A corner that
//     is high gets a shorter leg, a falling corner a longer one: the PD then
//     pushes the base back to level and damps its rocking. With 001's soft
//     gains (k_p = 40: a stance leg is a ≈ 1 kN/m spring) the open-loop trot
//     rocks about the diagonal of its support pair, ±20–30° within seconds.
//     (Drawing the curves in a gravity-levelled frame instead also moves the
//     feet sideways under a rolled base, which made the rocking worse.)
//  2. Foot placement (Raibert's heuristic, in its capture-point form for a
//     linear inverted pendulum of height h): each swing foot lands offset by
//     √(h/g) (v − v_cmd) from the nominal foothold, x and y, with v the
//     filtered base velocity in the heading frame. A robot going too fast
//     or drifting sideways steps further out in that direction, which
//     brakes it. The stance foot keeps the offset it landed with; the swing
//     blends from the lift-off offset to the live one (smoothstep), so the
//     targets stay continuous.
//  3. Yaw: the stance feet also sweep the arc of a yaw rate
//     ω = −k_ψ (e + ∫e dt / T_ψ), e = ψ − ψ₀, about the base origin (the
//     step vector of a leg at r is T_stance (v_cmd + ω × r)), holding the
//     heading ψ₀ the trot started with; without it, small asymmetries turn
//     the robot and the straight trot drifts sideways. The integral removes
//     the steady heading offset a proportional hold leaves under a steady
//     yaw disturbance (the Mini Cheetah ran 15–30° off its heading with the
//     P term alone, drifting sideways by up to 0.45 of its forward travel).
//  4. Swing clearance: each swing foot's target is raised by the stance
//     legs' mean compression c (how far their feet sit above their targets
//     in the hip frames, i.e. how far the PD-held legs sag under the
//     weight), blended out over the swing: lift c (1 − S(s)), s the swing
//     phase. The swing curve is drawn from the nominal ground line, which
//     lies c below the ground the sagging robot actually stands on; without
//     this a lifting foot stays on the ground for the first third of its
//     swing, pressed down by its PD and dragged forward. On slippery ground
//     it skids; on 001 Table I's μ = 2 it grips and trips the robot: the trot
//     then hops (≤ 1 foot loaded 15–30 % of the time), spins and falls with
//     every contact model.
//  5. Line hold (ControllerOptions::line_gain, off by default): the sideways
//     offset e from the line through the start position along ψ₀ adds a
//     sideways velocity command −k e, which 2. and the stance sweep use like
//     the forward one.
// Without 1–4 the Mini Cheetah falls within seconds on hard contacts
// (moreau-jor/sor at 1 ms).
constexpr double kGravity = 9.81;            // m/s², for the pendulum time √(h/g)
constexpr double kMaxFootholdOffset = 0.08;  // m: about ⅕ of the leg length
constexpr double kYawGain = 0.5;  // 1/s: yaw rate per rad of heading error (2 oscillates ±15°)
constexpr double kYawIntegralS = 1.0;         // T_ψ (s): ≈ one gait cycle (0.8 s at 1.25 Hz)
constexpr double kMaxLineSpeed = 0.1;         // m/s: the line hold's sideways command
constexpr double kMaxYawRate = 0.5;           // rad/s
constexpr int kMaxLegs = kMaxControllerLegs;  // a trot has four legs (CheckTrotLayout)

double Smooth(double x) {
  x = std::clamp(x, 0.0, 1.0);
  return x * x * (3.0 - 2.0 * x);
}

class TrotController final : public Controller {
 public:
  TrotController(const Model& model, const ControllerOptions& options, LegLayout layout,
                 const ControllerTuning& tuning)
      : Controller(model, options.gains),
        pd_(MakeStablePd(model, options.gains, tuning)),
        gait_(tuning.gait),
        delay_s_(options.start_delay_s),
        ramp_s_(options.start_ramp_s),
        velocity_feedforward_(options.velocity_feedforward),
        balance_(options.balance && model.floating_base),
        swing_clearance_(balance_ && options.swing_clearance),
        attitude_gain_(options.attitude_gain),
        attitude_damping_s_(options.attitude_damping_s),
        velocity_filter_s_(options.velocity_filter_s),
        line_gain_(options.line_gain),
        weight_feedforward_(tuning.weight_feedforward && model.floating_base),
        weight_force_(-model.TotalMass() * model.gravity),
        placement_gain_(std::sqrt(tuning.stand_height / kGravity)),
        layout_(std::move(layout)) {
    const double stand_height = tuning.stand_height;
    // The command's bounds: twice the tuned speed forward and back, the tuned
    // speed sideways, the heading hold's largest yaw rate.
    const double speed =
        std::max(tuning.gait.step_length * tuning.gait.frequency_hz / tuning.gait.duty_factor, 0.1);
    command_elements_ = {{{"forward_velocity", "m/s", -2.0 * speed, 2.0 * speed},
                          {"lateral_velocity", "m/s", -speed, speed},
                          {"yaw_rate", "rad/s", -kMaxYawRate, kMaxYawRate}}};
    q_des_ = tuning.q_stand;  // the initial targets: standing, what the ramp starts from
    q_stand_ = tuning.q_stand;
    if (tuning.tuning == Tuning::kDerived) {
      pd_time_constant_s_ = MaxTimeConstant(tuning.kp, tuning.kd);
    }
    for (const Leg& leg : layout_.legs) {
      nominal_.push_back(NominalFoot(leg, stand_height));
      offset_.push_back(TrotPhaseOffset(leg));
      lever_.push_back(Eigen::Vector2d(leg.hip_position.x() + nominal_.back().x(),
                                       leg.hip_position.y() + nominal_.back().y()));
    }
  }
  std::string_view Name() const override { return "trot"; }
  std::span<const CommandElement> CommandElements() const override { return command_elements_; }

  void Compute(const Model& model, double /*t*/, double dt, const Eigen::VectorXd& q,
               const Eigen::VectorXd& v, ControllerState& state,
               Eigen::Ref<Eigen::VectorXd> tau) override {
    // Start: hold the standing pose for the delay, then grow step length and
    // height from 0 to full over the ramp.
    const double run_s = state.elapsed_s - delay_s_;
    const double ramp = run_s < 0.0 ? 0.0 : ramp_s_ > 0.0 ? std::min(run_s / ramp_s_, 1.0) : 1.0;
    GaitParams gait = gait_;
    gait.step_length *= ramp;
    gait.step_height *= ramp;
    const double f = gait.frequency_hz;
    const double stance_s = gait.duty_factor / f;  // T_stance
    // The commanded velocity: stance feet move back at L f / β — or, under
    // the "command" control mode, the command's velocity and yaw rate.
    Eigen::Vector2d v_cmd(gait.step_length / stance_s, 0.0);
    double commanded_yaw_rate = 0.0;
    if (state.command_set) {
      v_cmd = ramp * Eigen::Vector2d(state.command[0], state.command[1]);
      commanded_yaw_rate = ramp * state.command[2];
    }

    double lift[kMaxLegs] = {0.0, 0.0, 0.0, 0.0};     // 1. per leg: foot raised by (m)
    double support[kMaxLegs] = {0.0, 0.0, 0.0, 0.0};  // per leg: weight share w_i
    double yaw_rate = 0.0;
    Eigen::Vector2d foothold = Eigen::Vector2d::Zero();
    if (balance_) {
      Eigen::Quaterniond quat(q[3], q[4], q[5], q[6]);
      quat.normalize();
      const Mat3 rotation = quat.toRotationMatrix();
      const double yaw = Atan2(rotation(1, 0), rotation(0, 0));
      if (!state.heading_set) {
        state.heading = yaw;
        state.heading_set = true;
        state.line_origin = {q[0], q[1]};
      }
      // The line hold (ControllerOptions::line_gain): the sideways offset
      // from the start line, fed back as a sideways velocity command (not
      // under a command, which steers the robot off any line).
      if (line_gain_ > 0.0 && !state.command_set) {
        const double offset = -(q[0] - state.line_origin[0]) * std::sin(state.heading) +
                              (q[1] - state.line_origin[1]) * std::cos(state.heading);
        v_cmd.y() = ramp * std::clamp(-line_gain_ * offset, -kMaxLineSpeed, kMaxLineSpeed);
      }
      // The rotation by the yaw about z: (cos ψ, sin ψ) is the base x axis's
      // horizontal direction, normalized (no sincos).
      const double horizontal =
          std::sqrt(rotation(0, 0) * rotation(0, 0) + rotation(1, 0) * rotation(1, 0));
      const double cos_yaw = horizontal > 0.0 ? rotation(0, 0) / horizontal : 1.0;
      const double sin_yaw = horizontal > 0.0 ? rotation(1, 0) / horizontal : 0.0;
      Mat3 heading;
      heading << cos_yaw, -sin_yaw, 0.0, sin_yaw, cos_yaw, 0.0, 0.0, 0.0, 1.0;
      // 1. Attitude: the hips' height error and vertical velocity.
      const Vec3 omega = rotation * v.segment<3>(3);  // world
      for (int i = 0; i < static_cast<int>(layout_.legs.size()) && i < kMaxLegs; ++i) {
        const Vec3& hip = layout_.legs[i].hip_position;
        const Vec3 r = rotation * hip;
        const Vec3 r_level = heading * hip;
        lift[i] = attitude_gain_ * (r.z() - r_level.z()) + attitude_damping_s_ * omega.cross(r).z();
      }
      const Vec3 v_heading = heading.transpose() * v.head<3>();
      const double alpha = dt / (velocity_filter_s_ + dt);
      for (int k = 0; k < 2; ++k) state.velocity[k] += alpha * (v_heading[k] - state.velocity[k]);
      // 3. Yaw, once the gait runs (ramped with it); the integral is
      // clamped to what saturates the rate on its own (anti-windup).
      // A commanded yaw rate turns the held heading and feeds forward.
      if (state.command_set) state.heading = WrapAngle(state.heading + commanded_yaw_rate * dt);
      const double heading_error = WrapAngle(yaw - state.heading);
      const double max_integral = kMaxYawRate * kYawIntegralS / kYawGain;
      state.heading_integral = std::clamp(state.heading_integral + ramp * dt * heading_error,
                                          -max_integral, max_integral);
      yaw_rate =
          commanded_yaw_rate +
          ramp * std::clamp(-kYawGain * (heading_error + state.heading_integral / kYawIntegralS),
                            -kMaxYawRate, kMaxYawRate);
      // 2. Foot placement from the velocity error.
      const Eigen::Vector2d error(state.velocity[0] - v_cmd.x(), state.velocity[1] - v_cmd.y());
      foothold = (ramp * placement_gain_ * error)
                     .cwiseMax(-kMaxFootholdOffset)
                     .cwiseMin(kMaxFootholdOffset);
    } else {
      yaw_rate = commanded_yaw_rate;
    }

    const double clearance =
        swing_clearance_ ? ramp * StanceCompression(gait, q, state) : 0.0;  // 4.

    for (int i = 0; i < static_cast<int>(layout_.legs.size()) && i < kMaxLegs; ++i) {
      const Leg& leg = layout_.legs[i];
      // CPG → Bézier → IK (001 §6.2).
      const double psi = WrapPhase(state.phase + offset_[i]);
      const bool stance = InStance(gait, psi);
      support[i] = stance ? 1.0 : 1.0 - ramp;
      if (stance) {
        state.stance_offset[2 * i] = state.swing_offset[2 * i];
        state.stance_offset[2 * i + 1] = state.swing_offset[2 * i + 1];
      } else {
        state.swing_offset[2 * i] = foothold.x();
        state.swing_offset[2 * i + 1] = foothold.y();
      }
      // The leg's step: T_stance (v_cmd + ω × r).
      const Eigen::Vector2d step =
          stance_s * (v_cmd + yaw_rate * Eigen::Vector2d(-lever_[i].y(), lever_[i].x()));
      // 1. and 4.: the feedback lifts, from the measured state (like the
      // offsets, not differentiated into q̇_d: that is the gait curve's rate).
      double leg_lift = lift[i];
      if (!stance) {
        leg_lift += clearance * (1.0 - Smooth((psi - gait.duty_factor) / (1.0 - gait.duty_factor)));
      }
      const Vec3 target = FootTarget(gait, step, leg_lift, state, i, psi, !stance);
      Vec3 angles;
      Vec3 rates = Vec3::Zero();
      IkResult result;
      if (velocity_feedforward_) {
        // q̇_d by a forward difference over the phase step; the IK at the
        // step's end reuses the first solution's angles (LegIkPair).
        Vec3 ahead;
        result = LegIkPair(leg, target,
                           FootTarget(gait, step, leg_lift, state, i, psi + kPhaseStep, !stance),
                           angles, ahead);
        for (int j = 0; j < 3; ++j) rates[j] = WrapAngle(ahead[j] - angles[j]) * (f / kPhaseStep);
      } else {
        result = LegIk(leg, target, angles);
      }
      if (result != IkResult::kOk) ++state.ik_clamped;
      for (int j = 0; j < 3; ++j) {
        q_des_[leg.actuator[j]] = angles[j];
        qd_des_[leg.actuator[j]] = rates[j];
        state.leg_targets[3 * i + j] = angles[j];
      }
    }
    state.leg_targets_set = true;
    pd_.Torques(q, v, q_des_, qd_des_, dt, tau);  // 001 eq. 44
    if (weight_feedforward_) AddWeightFeedforward(model, layout_, weight_force_, q, support, tau);
    // The oscillator, dφ/dt = f, runs once the delay is over.
    const double run_dt = std::max(0.0, std::min(dt, state.elapsed_s + dt - delay_s_));
    state.phase = WrapPhase(state.phase + f * run_dt);
    state.elapsed_s += dt;
  }

 private:
  // 4. The stance legs' mean compression (m, ≥ 0): how far their feet sit
  // above the targets of the last Compute (ControllerState::leg_targets; the
  // stand pose before the first), z in the hip frames (forward kinematics of
  // the measured and the target joint angles).
  double StanceCompression(const GaitParams& gait, const Eigen::VectorXd& q,
                           const ControllerState& state) const {
    double sum = 0.0;
    int count = 0;
    for (int i = 0; i < static_cast<int>(layout_.legs.size()) && i < kMaxLegs; ++i) {
      if (!InStance(gait, WrapPhase(state.phase + offset_[i]))) continue;
      const Leg& leg = layout_.legs[i];
      Vec3 measured, target;
      for (int j = 0; j < 3; ++j) {
        measured[j] = q[leg.q_index[j]];
        target[j] =
            state.leg_targets_set ? state.leg_targets[3 * i + j] : q_stand_[leg.actuator[j]];
      }
      sum += LegForwardKinematics(leg, measured).z() - LegForwardKinematics(leg, target).z();
      ++count;
    }
    return count > 0 ? std::max(0.0, sum / count) : 0.0;
  }

  // The foot target of leg i at phase ψ in its hip frame: the Bézier
  // displacement along the leg's step vector plus the foothold offset, and
  // raised by `lift`.
  // `swinging`: the leg is in swing now, so a ψ that has crossed into stance
  // (the finite difference of q̇_d at touch-down) lands on the swing's
  // foothold, which the stance takes over at touch-down.
  Vec3 FootTarget(const GaitParams& gait, const Eigen::Vector2d& step, double lift,
                  const ControllerState& state, int leg, double psi, bool swinging) const {
    GaitParams unit = gait;
    unit.step_length = 1.0;
    const Eigen::Vector2d d = FootTrajectory(unit, psi);  // (x per unit step, z)
    const Eigen::Vector2d lift_off(state.stance_offset[2 * leg], state.stance_offset[2 * leg + 1]);
    const Eigen::Vector2d landing(state.swing_offset[2 * leg], state.swing_offset[2 * leg + 1]);
    Eigen::Vector2d offset = swinging ? landing : lift_off;
    const double wrapped = WrapPhase(psi);
    if (!InStance(gait, wrapped)) {
      const double s = (wrapped - gait.duty_factor) / (1.0 - gait.duty_factor);
      offset = lift_off + Smooth(s) * (landing - lift_off);
    }
    return nominal_[leg] +
           Vec3(step.x() * d.x() + offset.x(), step.y() * d.x() + offset.y(), d.y() + lift);
  }

  StablePd pd_;  // 001 eq. 44, discretized for the step (pd.h)
  std::array<CommandElement, 3> command_elements_;
  GaitParams gait_;  // at full amplitude
  double delay_s_;
  double ramp_s_;
  bool velocity_feedforward_;
  bool balance_;               // ControllerOptions::balance, floating base only
  bool swing_clearance_;       // ControllerOptions::swing_clearance, with balance_
  double attitude_gain_;       // k_att (ControllerOptions::attitude_gain)
  double attitude_damping_s_;  // T_att (s)
  double velocity_filter_s_;   // low-pass time of the base velocity (s)
  double line_gain_;           // ControllerOptions::line_gain (1/s)
  bool weight_feedforward_;    // ControllerOptions::weight_feedforward, floating base only
  Vec3 weight_force_;          // −m g (world, N): the support the stance legs share
  double placement_gain_;      // √(h/g), s
  LegLayout layout_;
  Eigen::VectorXd q_stand_;             // actuators: the stand pose
  std::vector<Vec3> nominal_;           // per leg: standing foot in the hip frame
  std::vector<double> offset_;          // per leg: phase offset (0 or ½)
  std::vector<Eigen::Vector2d> lever_;  // per leg: standing foot (x, y) from the base origin
};

// ------------------------------------------------------------- helpers ---

absl::Status ValidateOptions(const ControllerOptions& o) {
  auto bad = [](const char* field, double value, const char* want) {
    return absl::InvalidArgumentError(
        absl::StrFormat("controller option %s = %g: must be %s", field, value, want));
  };
  const auto nonnegative = [&](const char* field, double value,
                               const char* want = "finite, ≥ 0") -> absl::Status {
    if (std::isfinite(value) && value >= 0.0) return absl::OkStatus();
    return bad(field, value, want);
  };
  MOREAU_RETURN_IF_ERROR(nonnegative("kp", o.gains.kp));
  MOREAU_RETURN_IF_ERROR(nonnegative("kd", o.gains.kd));
  MOREAU_RETURN_IF_ERROR(
      nonnegative("stand_height", o.stand_height, "finite, ≥ 0 (0: model default)"));
  if (!std::isfinite(o.trot_frequency_hz) || o.trot_frequency_hz <= 0.0) {
    return bad("trot_frequency_hz", o.trot_frequency_hz, "finite, > 0");
  }
  if (!(o.duty_factor > 0.0 && o.duty_factor < 1.0)) {
    return bad("duty_factor", o.duty_factor, "in (0, 1)");
  }
  if (!std::isfinite(o.forward_velocity))
    return bad("forward_velocity", o.forward_velocity, "finite");
  MOREAU_RETURN_IF_ERROR(
      nonnegative("step_length", o.step_length, "finite, ≥ 0 (0: from forward_velocity)"));
  MOREAU_RETURN_IF_ERROR(nonnegative("step_height", o.step_height));
  MOREAU_RETURN_IF_ERROR(nonnegative("start_delay_s", o.start_delay_s));
  MOREAU_RETURN_IF_ERROR(nonnegative("start_ramp_s", o.start_ramp_s));
  MOREAU_RETURN_IF_ERROR(nonnegative("attitude_gain", o.attitude_gain));
  MOREAU_RETURN_IF_ERROR(nonnegative("attitude_damping_s", o.attitude_damping_s));
  MOREAU_RETURN_IF_ERROR(nonnegative("velocity_filter_s", o.velocity_filter_s));
  MOREAU_RETURN_IF_ERROR(nonnegative("line_gain", o.line_gain));
  return absl::OkStatus();
}

}  // namespace

void Controller::ComputeTargets(const Model& model, double t, double dt, const Eigen::VectorXd& q,
                                const Eigen::VectorXd& v,
                                std::span<const double> /*contact_impulses*/,
                                ControllerState& state, Eigen::Ref<Eigen::VectorXd> targets) {
  Compute(model, t, dt, q, v, state, tau_scratch_);        // advance over the step
  Compute(model, t + dt, 0.0, q, v, state, tau_scratch_);  // evaluate at its end
  targets = q_des_;
}

void Controller::ComputeReachTargets(const Model& model, double t, double dt, double horizon,
                                     const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                     std::span<const double> contact_impulses,
                                     ControllerState& state, Eigen::Ref<Eigen::VectorXd> targets) {
  ComputeTargets(model, t, dt, q, v, contact_impulses, state, targets);  // (q_d, q̇_d)
  // The approach time: the horizon, or the PD's time constant k_d/k_p when
  // that is longer (001 eq. 44's torque vanishes at q̇ = q̇_d + (k_p/k_d)(q_d − q)).
  const double pd_time_constant = pd_time_constant_s_ >= 0.0 ? pd_time_constant_s_
                                  : gains_.kp > 0.0          ? gains_.kd / gains_.kp
                                                             : 0.0;
  const double approach_s = std::max(horizon, pd_time_constant);
  for (int a = 0; a < model.nu(); ++a) {
    const auto i = static_cast<Eigen::Index>(a);
    const double q_a = q[model.joints[model.actuators[a].joint].q_index];
    const double v = qd_des_[i] + (targets[i] - q_a) / approach_s;
    targets[i] = q_a + horizon * v;
  }
}

std::vector<std::string_view> ControllerNames() { return {"zero", "stand", "trot", "hold"}; }

absl::StatusOr<std::unique_ptr<Controller>> MakeController(std::string_view name,
                                                           const Model& model,
                                                           const ControllerOptions& options) {
  MOREAU_RETURN_IF_ERROR(ValidateOptions(options));
  if (name == "zero") return std::make_unique<ZeroController>(model);
  if (name == "hold") return MakeHoldController(model, options.gains);
  if (name != "stand" && name != "trot") {
    return absl::InvalidArgumentError(absl::StrFormat(
        "unknown controller '%s' (expected one of: zero, stand, trot, hold)", name));
  }
  absl::StatusOr<LegLayout> layout = FindLegs(model);
  if (!layout.ok()) {
    return absl::InvalidArgumentError(
        absl::StrFormat("controller '%s': %s", name, layout.status().message()));
  }
  const bool trot = name == "trot";
  if (trot) {
    if (absl::Status status = CheckTrotLayout(model, *layout); !status.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("trot: ", status.message()));
    }
  }
  MOREAU_ASSIGN_OR_RETURN(ControllerTuning tuning, TuneController(model, *layout, options, trot));
  if (!trot) return std::make_unique<StandController>(model, options, tuning, *std::move(layout));
  return std::make_unique<TrotController>(model, options, *std::move(layout), tuning);
}

}  // namespace moreau::control
