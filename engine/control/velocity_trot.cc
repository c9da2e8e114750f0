#include "engine/control/velocity_trot.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "engine/control/gait.h"
#include "engine/control/legs.h"
#include "engine/spatial/motion.h"

namespace moreau::control {
namespace {

// σ(u) = 10u³ − 15u⁴ + 6u⁵ (minimum jerk: zero velocity and acceleration at
// both ends) and its derivative, u clamped to [0, 1].
double MinJerk(double u) {
  u = std::clamp(u, 0.0, 1.0);
  return u * u * u * (10.0 + u * (-15.0 + 6.0 * u));
}
double MinJerkRate(double u) {
  if (u <= 0.0 || u >= 1.0) return 0.0;
  const double w = u * (1.0 - u);
  return 30.0 * w * w;
}

// The swing's apex, as a fraction of its main part: a quick lift, a longer
// descent.
constexpr double kApexAt = 0.35;

// The shank's angular velocity relative to the base per joint rate (hip
// frame): abduction about s_a x, hip and knee about R_x(φ_a) y (legs.h).
Mat3 LegAngularJacobian(const Leg& leg, const Vec3& angles) {
  const double phi_a = leg.axis_sign[0] * angles[0];
  const Vec3 y_abducted(0.0, std::cos(phi_a), std::sin(phi_a));
  Mat3 J;
  J.col(0) = leg.axis_sign[0] * Vec3::UnitX();
  J.col(1) = leg.axis_sign[1] * y_abducted;
  J.col(2) = leg.axis_sign[2] * y_abducted;
  return J;
}

absl::Status ValidateOptions(const VelocityTrotOptions& o) {
  auto bad = [](const char* field, double value, const char* want) {
    return absl::InvalidArgumentError(
        absl::StrFormat("velocity trot option %s = %g: must be %s", field, value, want));
  };
  auto finite_nonneg = [](double x) { return std::isfinite(x) && x >= 0.0; };
  auto finite_pos = [](double x) { return std::isfinite(x) && x > 0.0; };
  if (!finite_nonneg(o.stand_height)) {
    return bad("stand_height", o.stand_height, "finite, ≥ 0 (0: model default)");
  }
  if (!finite_pos(o.frequency_hz)) return bad("frequency_hz", o.frequency_hz, "finite, > 0");
  if (!(o.duty_factor > 0.0 && o.duty_factor < 1.0)) {
    return bad("duty_factor", o.duty_factor, "in (0, 1)");
  }
  if (!std::isfinite(o.forward_velocity)) {
    return bad("forward_velocity", o.forward_velocity, "finite");
  }
  if (!finite_nonneg(o.step_height)) return bad("step_height", o.step_height, "finite, ≥ 0");
  if (!finite_nonneg(o.start_delay_s)) return bad("start_delay_s", o.start_delay_s, "finite, ≥ 0");
  if (!finite_nonneg(o.start_ramp_s)) return bad("start_ramp_s", o.start_ramp_s, "finite, ≥ 0");
  if (!finite_nonneg(o.settle_s)) return bad("settle_s", o.settle_s, "finite, ≥ 0");
  if (!finite_pos(o.height_time_constant_s)) {
    return bad("height_time_constant_s", o.height_time_constant_s, "finite, > 0");
  }
  if (!finite_pos(o.attitude_time_constant_s)) {
    return bad("attitude_time_constant_s", o.attitude_time_constant_s, "finite, > 0");
  }
  if (!finite_pos(o.yaw_time_constant_s)) {
    return bad("yaw_time_constant_s", o.yaw_time_constant_s, "finite, > 0");
  }
  if (!finite_pos(o.joint_time_constant_s)) {
    return bad("joint_time_constant_s", o.joint_time_constant_s, "finite, > 0");
  }
  if (!finite_pos(o.swing_time_constant_s)) {
    return bad("swing_time_constant_s", o.swing_time_constant_s, "finite, > 0");
  }
  if (!(o.landing_fraction > 0.5 && o.landing_fraction <= 1.0)) {
    return bad("landing_fraction", o.landing_fraction, "in (0.5, 1]");
  }
  if (!finite_nonneg(o.approach_s) ||
      !(o.approach_s < 0.5 * o.landing_fraction * (1.0 - o.duty_factor) / o.frequency_hz)) {
    return bad("approach_s", o.approach_s,
               "finite, ≥ 0 and below half the swing time up to the landing "
               "(landing_fraction (1 − duty_factor) / frequency_hz)");
  }
  if (!finite_nonneg(o.approach_height)) {
    return bad("approach_height", o.approach_height, "finite, ≥ 0");
  }
  if (!finite_pos(o.approach_time_constant_s)) {
    return bad("approach_time_constant_s", o.approach_time_constant_s, "finite, > 0");
  }
  if (!finite_nonneg(o.touchdown_speed)) {
    return bad("touchdown_speed", o.touchdown_speed, "finite, ≥ 0");
  }
  if (!finite_pos(o.max_joint_velocity)) {
    return bad("max_joint_velocity", o.max_joint_velocity, "finite, > 0");
  }
  if (!finite_nonneg(o.id_time_constant_s)) {
    return bad("id_time_constant_s", o.id_time_constant_s, "finite, ≥ 0");
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<VelocityTrot>> VelocityTrot::Create(
    const Model& model, const VelocityTrotOptions& options) {
  if (absl::Status status = ValidateOptions(options); !status.ok()) return status;
  if (!model.floating_base) {
    return absl::InvalidArgumentError(
        absl::StrFormat("velocity trot: model '%s' has no floating base", model.name));
  }
  absl::StatusOr<LegLayout> layout = FindLegs(model);
  if (!layout.ok()) {
    return absl::InvalidArgumentError(
        absl::StrFormat("velocity trot: %s", layout.status().message()));
  }
  if (absl::Status status = CheckTrotLayout(model, *layout); !status.ok()) {
    return absl::InvalidArgumentError(absl::StrFormat("velocity trot: %s", status.message()));
  }
  const double stand_height =
      options.stand_height > 0.0 ? options.stand_height : DefaultStandHeight(*layout);
  Eigen::VectorXd q_stand = Eigen::VectorXd::Zero(model.nu());
  for (const Leg& leg : layout->legs) {
    Vec3 angles;
    const Vec3 foot = NominalFoot(leg, stand_height);
    if (LegIk(leg, foot, angles) != IkResult::kOk) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "velocity trot: stand height %g m: foot '%s' cannot reach (%g, %g, %g) (hip frame)",
          stand_height, leg.foot_name, foot.x(), foot.y(), foot.z()));
    }
    for (int j = 0; j < 3; ++j) q_stand[leg.actuator[j]] = angles[j];
  }
  return std::unique_ptr<VelocityTrot>(
      new VelocityTrot(model, options, *std::move(layout), stand_height, std::move(q_stand)));
}

VelocityTrot::VelocityTrot(const Model& model, const VelocityTrotOptions& options, LegLayout layout,
                           double stand_height, Eigen::VectorXd q_stand)
    : Controller(model),
      options_(options),
      layout_(std::move(layout)),
      stand_height_(stand_height),
      q_stand_(std::move(q_stand)) {
  for (int i = 0; i < kLegs; ++i) {
    const Leg& leg = layout_.legs[i];
    const Vec3 nominal = leg.hip_position + NominalFoot(leg, stand_height_);
    lever_[i] = nominal.head<2>();
    offset_[i] = TrotPhaseOffset(leg);
  }
}

double VelocityTrot::PhaseOffset(int contact_point) const {
  for (int i = 0; i < kLegs; ++i) {
    if (layout_.legs[i].foot == contact_point) return offset_[i];
  }
  return 0.0;
}

void VelocityTrot::Compute(const Model& model, double t, double dt, const Eigen::VectorXd& q,
                           const Eigen::VectorXd& v, ControllerState& state,
                           Eigen::Ref<Eigen::VectorXd> tau) {
  ComputeTargets(model, t, dt, q, v, {}, state, q_des_);
  tau.setZero();
}

void VelocityTrot::ComputeTargets(const Model& /*model*/, double /*t*/, double dt,
                                  const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                  std::span<const double> contact_impulses, ControllerState& state,
                                  Eigen::Ref<Eigen::VectorXd> targets) {
  const VelocityTrotOptions& o = options_;
  // The midpoint configuration q_M = q_S + ½Δt v_S (000 eq. 6), where the
  // step evaluates its contact and joint rows.
  Eigen::Quaterniond quat(q[3], q[4], q[5], q[6]);
  quat.normalize();
  const Vec3 omega_body = v.segment<3>(3);
  const double half_angle = 0.5 * dt * omega_body.norm();
  if (half_angle > 0.0) {
    quat = quat * Eigen::Quaterniond(Eigen::AngleAxisd(half_angle, omega_body.normalized()));
  }
  const Mat3 R = quat.toRotationMatrix();
  const Vec3 p_base = q.head<3>() + 0.5 * dt * v.head<3>();
  const Vec3 v_base = v.head<3>();
  const Vec3 omega = R * omega_body;  // world
  const double yaw = std::atan2(R(1, 0), R(0, 0));
  if (!state.heading_set) {
    state.heading = yaw;
    state.heading_set = true;
  }
  const Vec3 forward(std::cos(yaw), std::sin(yaw), 0.0);

  // Gait timing.
  const double f = o.frequency_hz;
  const double beta = o.duty_factor;
  const double stance_s = beta / f;
  const double swing_s = (1.0 - beta) / f;
  const double run_s = state.elapsed_s - o.start_delay_s;
  const bool running = run_s >= 0.0;
  const double ramp = !running               ? 0.0
                      : o.start_ramp_s > 0.0 ? std::min(run_s / o.start_ramp_s, 1.0)
                                             : 1.0;
  const double speed = ramp * o.forward_velocity;

  // The commanded base twist (world): forward speed, height, roll, pitch and
  // yaw corrected with time constants (not deadbeat).
  Vec3 u_linear = speed * forward;
  u_linear.z() = (stand_height_ - p_base.z()) / o.height_time_constant_s;
  const Eigen::AngleAxisd error(Eigen::AngleAxisd(state.heading, Vec3::UnitZ()).toRotationMatrix() *
                                R.transpose());
  const Vec3 e = error.angle() * error.axis();
  Vec3 u_angular(e.x() / o.attitude_time_constant_s, e.y() / o.attitude_time_constant_s,
                 e.z() / o.yaw_time_constant_s);
  const Vec3 up_base = R.transpose() * Vec3::UnitZ();  // ground normal, base frame
  const double feedback_s = std::max(o.swing_time_constant_s, 2.0 * dt);
  // The targets' horizon h = max(Δt, T): (q_A + h q̇_d − q_A) / h = q̇_d.
  const double horizon = std::max(dt, o.id_time_constant_s);

  // Each leg's mode and foot centre (world) at the midpoint.
  std::array<Mode, kLegs> modes{};
  std::array<Vec3, kLegs> centres{};
  std::array<double, kLegs> progress{};  // swing s ∈ [0, 1)
  std::array<Vec3, kLegs> thetas{};      // joint angles at the step's start
  std::array<Vec3, kLegs> thetas_mid{};  // and at its midpoint
  std::array<bool, kLegs> closed_feet{};
  int supports = 0;
  for (int i = 0; i < kLegs; ++i) {
    const Leg& leg = layout_.legs[i];
    Eigen::Map<Vec3> lift_off(state.lift_off.data() + 3 * i);
    const Vec3 theta(q[leg.q_index[0]], q[leg.q_index[1]], q[leg.q_index[2]]);
    const Vec3 theta_dot(v[leg.v_index[0]], v[leg.v_index[1]], v[leg.v_index[2]]);
    thetas[i] = theta;
    thetas_mid[i] = theta + 0.5 * dt * theta_dot;
    const Vec3 centre = p_base + R * (leg.hip_position + LegForwardKinematics(leg, thetas_mid[i]));
    // Closed: a compressive normal impulse in the last step.
    const size_t normal = 3 * static_cast<size_t>(leg.foot);
    const bool closed =
        leg.foot >= 0 && normal < contact_impulses.size() && contact_impulses[normal] > 0.0;
    closed_feet[i] = closed;
    const double psi = WrapPhase(state.phase + offset_[i]);
    Mode mode = Mode::kSupport;
    double s = 0.0;  // swing progress
    if (state.elapsed_s < o.settle_s) {
      mode = Mode::kSettle;
    } else if (!running) {
      mode = Mode::kSupport;
      state.touched[i] = true;
    } else if (psi < beta) {
      state.was_swing[i] = false;
      if (closed) state.touched[i] = true;
      mode = state.touched[i] ? Mode::kSupport : Mode::kDescend;
    } else {
      s = (psi - beta) / (1.0 - beta);
      if (!state.was_swing[i]) {
        state.was_swing[i] = true;
        state.touched[i] = false;
        lift_off = centre;
        state.foothold_frozen[i] = false;
      }
      if (closed && s > 0.5) state.touched[i] = true;
      mode = state.touched[i] ? Mode::kSupport : Mode::kSwing;
    }
    modes[i] = mode;
    centres[i] = centre;
    progress[i] = s;
    if (mode == Mode::kSupport) ++supports;
  }
  // On two feet the base's rotation about the line through them is not set
  // by the joints (the feet are points); the part of the attitude correction
  // about that line would only be realized as a translation of the base
  // (rotation about the base origin = rotation about the line + translation),
  // which moves the centre of mass further off the line. Drop it.
  // The base's motion over the step as the swing legs see it: u where the
  // support legs set it, plus on two feet the free rotation about their line
  // at its current rate; the measured twist without support.
  Vec3 base_velocity = v_base;
  Vec3 base_omega = omega;
  if (supports == 2) {
    Vec3 ends[2];
    int n = 0;
    for (int i = 0; i < kLegs; ++i) {
      if (modes[i] == Mode::kSupport) ends[n++] = centres[i];
    }
    const Vec3 line = ends[1] - ends[0];
    if (line.norm() > 1e-6) {
      const Vec3 d = line.normalized();
      u_angular -= u_angular.dot(d) * d;
      const double free_rate = omega.dot(d);
      base_omega = u_angular + free_rate * d;
      base_velocity = u_linear + free_rate * d.cross(p_base - ends[0]);
    }
  } else if (supports > 2) {
    base_velocity = u_linear;
    base_omega = u_angular;
  }

  for (int i = 0; i < kLegs; ++i) {
    const Leg& leg = layout_.legs[i];
    const Eigen::Map<const Vec3> lift_off(state.lift_off.data() + 3 * i);
    Eigen::Map<Vec3> foothold(state.foothold.data() + 3 * i);
    const Vec3& theta = thetas[i];
    const Vec3& theta_mid = thetas_mid[i];
    const Vec3& centre = centres[i];
    const Mode mode = modes[i];
    const bool closed = closed_feet[i];
    const double s = progress[i];
    const double ground_z = leg.foot_radius;  // flat ground at z = 0

    Vec3 rate = Vec3::Zero();
    if (mode == Mode::kSettle) {
      for (int j = 0; j < 3; ++j) {
        rate[j] = (q_stand_[leg.actuator[j]] - theta[j]) / o.joint_time_constant_s;
      }
    } else if (mode == Mode::kSupport) {
      // The material contact point still: 0 = u_v + u_ω × (p_c − p_b) + R J_c q̇.
      const Vec3 contact = centre - leg.foot_radius * Vec3::UnitZ();
      const Mat3 J = LegJacobian(leg, theta_mid) +
                     leg.foot_radius * spatial::Skew(up_base) * LegAngularJacobian(leg, theta_mid);
      Vec3 foot_velocity = -(R.transpose() * (u_linear + u_angular.cross(contact - p_base)));
      // A planted foot whose contact opened (the body rocked it off the
      // ground) comes back down at v_td instead of hovering.
      if (!closed) foot_velocity -= o.touchdown_speed * up_base;
      rate = J.partialPivLu().solve(foot_velocity);
    } else {
      // Swing or descend: the foot centre's world velocity, then relative to
      // the hip as the base moves now.
      Vec3 desired = Vec3::Zero();
      Vec3 desired_rate = Vec3::Zero();
      // The swing's main part ends `approach_s` before the planned
      // touchdown, still over the foothold at approach_height; then the
      // final approach (below) brings the foot down.
      const double t_land = o.landing_fraction * swing_s - o.approach_s;
      const double approach_z = ground_z + o.approach_height;
      // Final approach: descend at a speed proportional to the height above
      // the ground (time constant T_a), at least v_td: the foot meets the
      // ground at ≈ v_td, whatever the ground's exact height.
      const double approach_rate =
          -std::max(o.touchdown_speed, (centre.z() - ground_z) / o.approach_time_constant_s);
      if (mode == Mode::kSwing) {
        const double s_mid = s + 0.5 * dt / swing_s;
        if (!state.foothold_frozen[i]) {
          // Half a stride ahead of where the hip will be at touchdown.
          const double to_touchdown = std::max(0.0, 1.0 - s_mid) * swing_s;
          const Eigen::Vector2d lever(
              std::cos(yaw) * lever_[i].x() - std::sin(yaw) * lever_[i].y(),
              std::sin(yaw) * lever_[i].x() + std::cos(yaw) * lever_[i].y());
          foothold.head<2>() = p_base.head<2>() + lever +
                               speed * (to_touchdown + 0.5 * stance_s) * forward.head<2>();
          foothold.z() = ground_z;
          if (s_mid * swing_s >= t_land) state.foothold_frozen[i] = true;
        }
        const double u = s_mid * swing_s / t_land;
        const Vec3 span = foothold - lift_off;
        if (u < 1.0) {
          const double sigma = MinJerk(u);
          const double sigma_rate = MinJerkRate(u) / t_land;
          desired.head<2>() = lift_off.head<2>() + sigma * span.head<2>();
          desired_rate.head<2>() = sigma_rate * span.head<2>();
          // z: up to the apex h above the ground by u = kApexAt, then
          // down to the approach height, each a min-jerk segment (the
          // descent, the longer, ends with zero velocity and acceleration):
          // the foot stops over its foothold just above the ground before
          // it descends at v_td.
          const double apex_z = ground_z + o.step_height;
          if (u < kApexAt) {
            const double a = u / kApexAt;
            desired.z() = lift_off.z() + (apex_z - lift_off.z()) * MinJerk(a);
            desired_rate.z() = (apex_z - lift_off.z()) * MinJerkRate(a) / (kApexAt * t_land);
          } else {
            const double a = (u - kApexAt) / (1.0 - kApexAt);
            desired.z() = apex_z + (approach_z - apex_z) * MinJerk(a);
            desired_rate.z() = (approach_z - apex_z) * MinJerkRate(a) / ((1.0 - kApexAt) * t_land);
          }
        } else {
          desired.head<2>() = foothold.head<2>();
          desired.z() = centre.z();
          desired_rate.z() = approach_rate;
        }
      } else {  // kDescend: hold the foothold, keep approaching the ground
        desired.head<2>() = (state.foothold_frozen[i] ? Vec3(foothold) : centre).head<2>();
        desired.z() = centre.z();
        desired_rate.z() = approach_rate;
      }
      const Vec3 foot_world = desired_rate + (desired - centre) / feedback_s;
      const Vec3 relative =
          R.transpose() * (foot_world - base_velocity - base_omega.cross(centre - p_base));
      rate = LegJacobian(leg, theta_mid).partialPivLu().solve(relative);
    }
    for (int j = 0; j < 3; ++j) {
      const double r = std::isfinite(rate[j]) ? rate[j] : 0.0;
      const double rate_clamped = std::clamp(r, -o.max_joint_velocity, o.max_joint_velocity);
      q_des_[leg.actuator[j]] = theta[j] + horizon * rate_clamped;
      qd_des_[leg.actuator[j]] = rate_clamped;
    }
  }
  targets = q_des_;
  // The oscillator, dφ/dt = f, runs once the delay is over.
  const double run_dt = std::max(0.0, std::min(dt, state.elapsed_s + dt - o.start_delay_s));
  state.phase = WrapPhase(state.phase + f * run_dt);
  state.elapsed_s += dt;
}

}  // namespace moreau::control
