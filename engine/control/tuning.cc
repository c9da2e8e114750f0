#include "engine/control/tuning.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/control/pd.h"
#include "engine/util/enum_table.h"
#include "engine/util/status_macros.h"

namespace moreau::control {
namespace {

// Phases sampled per cycle when the trot's reach is checked.
constexpr int kReachSamples = 400;
// The stand: the leg at this fraction of its length (gait.h DefaultStandHeight),
// else the nearest fraction in [kMinFraction, kMaxFraction] the legs reach.
constexpr double kStandFraction = 0.7;
constexpr double kMinFraction = 0.45;
constexpr double kMaxFraction = 0.9;
constexpr double kFractionStep = 0.05;
// k_p: a leg's share of the weight at r_j deflects the joint by this (rad).
constexpr double kWeightDeflection = 0.1;
// k_p ≤ τ_max / this: the motor saturates at a 0.2 rad error.
constexpr double kSaturationError = 0.2;
constexpr double kDampingRatio = 0.5;  // ζ of k_d
// 000's gait (6 cm steps at 0.5 m/s) is for legs of ≈ 0.4 m (Mini Cheetah
// 0.389 m, A1 0.4 m); derived scales it by ℓ / this.
constexpr double kReferenceLegLength = 0.4;
// The paper-001 values the ControllerOptions fields scale derived by (the
// speed scales as forward_velocity / 0.5 m/s · 0.5 m/s: the field itself).
constexpr double kPaperKp = 40.0;
constexpr double kPaperKd = 1.0;
constexpr double kPaperStepHeight = 0.06;

std::string FormatVec(const Vec3& v) {
  return absl::StrFormat("(%g, %g, %g)", v.x(), v.y(), v.z());
}

// R(φ) w about +y acting on (x, z) (legs.h).
Eigen::Vector2d RotateY(double phi, const Eigen::Vector2d& w) {
  const double c = std::cos(phi), s = std::sin(phi);
  return {c * w.x() + s * w.y(), -s * w.x() + c * w.y()};
}

// The stand height with each leg at `fraction` of its length (gait.h
// DefaultStandHeight at 0.7): the mean over the legs of
// fraction (|l₁| + |l₂|) + foot radius − hip z.
double StandHeightAt(const LegLayout& layout, double fraction) {
  double sum = 0.0;
  for (const Leg& leg : layout.legs) {
    sum +=
        fraction * (leg.thigh_length + leg.shank_length) + leg.foot_radius - leg.hip_position.z();
  }
  return sum / static_cast<double>(layout.legs.size());
}

// The joint inertias StableJointPd reads (see MakeController): the smaller
// of the stand pose's and the zero pose's.
Eigen::VectorXd StandInertias(const Model& model, const Eigen::VectorXd& q_stand,
                              double stand_height) {
  Eigen::VectorXd q = model.q_default;
  if (model.floating_base) q[2] = stand_height;
  for (int k = 0; k < model.nu(); ++k) {
    q[model.joints[model.actuators[k].joint].q_index] = q_stand[k];
  }
  // The legs' inertia depends on the pose (least with the leg straight,
  // where the links line up): the smaller of the stand pose's and that of
  // the zero pose (straight legs, Model::q_default) the robot may start in.
  return JointInertias(model, q).cwiseMin(JointInertias(model, model.q_default));
}

constexpr EnumEntry<Tuning> kTunings[] = {
    {Tuning::kAuto, "auto"}, {Tuning::kPaper001, "paper-001"}, {Tuning::kDerived, "derived"}};

}  // namespace

const char* TuningName(Tuning tuning) { return EnumName(kTunings, tuning); }

std::vector<std::string> TuningNames() {
  std::vector<std::string> names;
  for (const EnumEntry<Tuning>& entry : kTunings) names.emplace_back(entry.name);
  return names;
}

absl::StatusOr<Tuning> ParseTuning(absl::string_view name) {
  for (const EnumEntry<Tuning>& entry : kTunings) {
    if (name == entry.name) return entry.value;
  }
  return absl::InvalidArgumentError(
      absl::StrFormat("unknown controller tuning '%s' (expected one of: %s)", name,
                      absl::StrJoin(TuningNames(), ", ")));
}

Tuning ResolveTuning(Tuning tuning, const Model& model) {
  if (tuning != Tuning::kAuto) return tuning;
  return model.name == "mini_cheetah" ? Tuning::kPaper001 : Tuning::kDerived;
}

absl::StatusOr<Eigen::VectorXd> StandPose(const Model& model, const LegLayout& layout,
                                          double stand_height) {
  Eigen::VectorXd q_des = Eigen::VectorXd::Zero(model.nu());
  for (const Leg& leg : layout.legs) {
    const Vec3 foot = NominalFoot(leg, stand_height);
    Vec3 angles;
    const IkResult result = LegIk(leg, foot, angles);
    if (result != IkResult::kOk) {
      return absl::InvalidArgumentError(
          absl::StrFormat("stand height %g m: foot '%s' target %s m (hip frame) is %s",
                          stand_height, leg.foot_name, FormatVec(foot), IkResultName(result)));
    }
    for (int j = 0; j < 3; ++j) q_des[leg.actuator[j]] = angles[j];
  }
  return q_des;
}

absl::Status CheckTrotReach(const LegLayout& layout, const GaitParams& gait, double stand_height) {
  for (const Leg& leg : layout.legs) {
    const Vec3 nominal = NominalFoot(leg, stand_height);
    for (int k = 0; k < kReachSamples; ++k) {
      const double psi = static_cast<double>(k) / kReachSamples;
      const Eigen::Vector2d d = FootTrajectory(gait, psi);
      const Vec3 foot = nominal + Vec3(d.x(), 0.0, d.y());
      Vec3 angles;
      const IkResult result = LegIk(leg, foot, angles);
      if (result != IkResult::kOk) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "trot (step length %g m, step height %g m, stand height %g m): foot '%s' target "
            "%s m (hip frame) at leg phase %.3f is %s",
            gait.step_length, gait.step_height, stand_height, leg.foot_name, FormatVec(foot), psi,
            IkResultName(result)));
      }
    }
  }
  return absl::OkStatus();
}

double StiffnessCap(double inertia, double dt) {
  if (dt <= 0.0 || inertia <= 0.0) return std::numeric_limits<double>::infinity();
  return 0.5 * inertia / (dt * dt);
}

absl::StatusOr<ControllerTuning> TuneController(const Model& model, const LegLayout& layout,
                                                const ControllerOptions& options, bool trot) {
  ControllerTuning t;
  t.tuning = ResolveTuning(options.tuning, model);
  const int nu = model.nu();
  double leg_sum = 0.0;
  for (const Leg& leg : layout.legs) leg_sum += leg.thigh_length + leg.shank_length;
  t.leg_length = layout.legs.empty() ? 0.0 : leg_sum / static_cast<double>(layout.legs.size());
  t.gait.frequency_hz = options.trot_frequency_hz;
  t.gait.duty_factor = options.duty_factor;
  t.lever = Eigen::VectorXd::Zero(nu);

  if (t.tuning == Tuning::kPaper001) {
    t.stand_height = options.stand_height > 0.0 ? options.stand_height : DefaultStandHeight(layout);
    MOREAU_ASSIGN_OR_RETURN(t.q_stand, StandPose(model, layout, t.stand_height));
    // L = v β / f: the stance foot then moves back at v relative to the hip.
    t.gait.step_length =
        options.step_length > 0.0
            ? options.step_length
            : options.forward_velocity * options.duty_factor / options.trot_frequency_hz;
    t.gait.step_height = options.step_height;
    if (trot) MOREAU_RETURN_IF_ERROR(CheckTrotReach(layout, t.gait, t.stand_height));
    t.weight_feedforward = options.weight_feedforward;
    t.kp = Eigen::VectorXd::Constant(nu, options.gains.kp);
    t.kd = Eigen::VectorXd::Constant(nu, options.gains.kd);
    if (options.stable_pd) t.inertia = StandInertias(model, t.q_stand, t.stand_height);
    t.stand_fraction = kStandFraction;
    return t;
  }

  // Derived: the gait scaled by the leg length.
  const double scale = t.leg_length / kReferenceLegLength;
  t.gait.step_length =
      options.step_length > 0.0
          ? options.step_length
          : options.forward_velocity * scale * options.duty_factor / options.trot_frequency_hz;
  t.gait.step_height = (options.step_height / kPaperStepHeight) * 0.15 * t.leg_length;
  t.weight_feedforward = true;

  // The stand: 0.7 ℓ, else the nearest fraction in [0.45, 0.9] within reach.
  absl::Status first_error;
  bool found = false;
  std::vector<double> fractions = {kStandFraction};
  if (options.stand_height <= 0.0) {
    for (int k = 1; k <= 4; ++k) {
      for (double f : {kStandFraction - k * kFractionStep, kStandFraction + k * kFractionStep}) {
        if (f >= kMinFraction - 1e-9 && f <= kMaxFraction + 1e-9) fractions.push_back(f);
      }
    }
  }
  for (double fraction : fractions) {
    const double height =
        options.stand_height > 0.0 ? options.stand_height : StandHeightAt(layout, fraction);
    absl::StatusOr<Eigen::VectorXd> pose = StandPose(model, layout, height);
    absl::Status status = pose.status();
    if (status.ok() && trot) status = CheckTrotReach(layout, t.gait, height);
    if (!status.ok()) {
      if (first_error.ok()) first_error = status;
      continue;
    }
    t.stand_fraction = fraction;
    t.stand_height = height;
    t.q_stand = *std::move(pose);
    found = true;
    break;
  }
  if (!found) return first_error;

  // Gains from the weight share at each joint's lever arm.
  const double mass = model.TotalMass();
  const double legs = static_cast<double>(layout.legs.size());
  const double share = mass * model.gravity.norm() / legs;  // m g / n (N)
  t.kp = Eigen::VectorXd::Constant(nu, options.gains.kp);
  t.kd = Eigen::VectorXd::Constant(nu, options.gains.kd);
  for (const Leg& leg : layout.legs) {
    const Vec3 angles(t.q_stand[leg.actuator[0]], t.q_stand[leg.actuator[1]],
                      t.q_stand[leg.actuator[2]]);
    const Vec3 foot = LegForwardKinematics(leg, angles);  // hip frame
    // Abduction: axis (x through the hip frame's origin) → foot.
    const double r_abduction = std::hypot(foot.y(), foot.z());
    // Hip: hip → foot in the leg plane, |l₁ + R(φ_k) l₂|.
    const double r_hip = (leg.thigh + RotateY(leg.axis_sign[2] * angles[2], leg.shank)).norm();
    const double r_knee = leg.shank_length;  // knee → foot
    const double lever[3] = {r_abduction, r_hip, r_knee};
    for (int j = 0; j < 3; ++j) {
      const int a = leg.actuator[j];
      double kp = (options.gains.kp / kPaperKp) * share * lever[j] / kWeightDeflection;
      const double limit = model.actuators[a].effort_limit;
      if (std::isfinite(limit) && limit > 0.0) kp = std::min(kp, limit / kSaturationError);
      t.kp[a] = kp;
      t.kd[a] = (options.gains.kd / kPaperKd) * 2.0 * kDampingRatio * lever[j] *
                std::sqrt(kp * mass / legs);
      t.lever[a] = lever[j];
    }
  }
  if (options.stable_pd) t.inertia = StandInertias(model, t.q_stand, t.stand_height);
  return t;
}

}  // namespace moreau::control
