#include "engine/control/legs.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "absl/strings/str_format.h"
#include "engine/control/atan2.h"
#include "engine/control/pd.h"
#include "engine/dynamics/data.h"
#include "engine/dynamics/kinematics.h"

namespace moreau::control {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kTwoPi = 2.0 * std::numbers::pi;
// Axes within 1e-3 rad of ±x / ±y count as aligned: cos(1e-3) = 1 − 5e-7.
constexpr double kAxisCos = 1.0 - 5e-7;
constexpr double kMinLinkLength = 1e-6;  // m
const char* const kJointRole[3] = {"abduction", "hip", "knee"};

// Angle of an (x, z) vector about +y: ang(R(φ) w) = ang(w) + φ.
double AngleY(const Eigen::Vector2d& w) { return std::atan2(w.x(), w.y()); }

// R(φ) w: rotation about +y acting on (x, z), given c = cos φ, s = sin φ.
Eigen::Vector2d RotateY(double c, double s, const Eigen::Vector2d& w) {
  return {c * w.x() + s * w.y(), -s * w.x() + c * w.y()};
}

// R(φ) w.
Eigen::Vector2d RotateY(double phi, const Eigen::Vector2d& w) {
  return RotateY(std::cos(phi), std::sin(phi), w);
}

std::string FormatVec(const Vec3& v) {
  return absl::StrFormat("(%g, %g, %g)", v.x(), v.y(), v.z());
}

absl::Status LegError(const Model& model, int foot, const std::string& what) {
  return absl::InvalidArgumentError(
      absl::StrFormat("model '%s': foot '%s' (contact point %d) is not a 3-joint leg "
                      "(abduction about x, hip and knee about y): %s",
                      model.name, model.contact_points[foot].name, foot, what));
}

// θ within [lower, upper], trying θ ± 2π first; true when it had to clamp.
bool FitToLimits(double lower, double upper, double& theta) {
  if (theta >= lower && theta <= upper) return false;
  for (const double shifted : {theta + kTwoPi, theta - kTwoPi}) {
    if (shifted >= lower && shifted <= upper) {
      theta = shifted;
      return false;
    }
  }
  const double clamped = std::clamp(theta, lower, upper);
  const bool moved = std::abs(clamped - theta) > 1e-9;
  theta = clamped;
  return moved;
}

}  // namespace

const char* IkResultName(IkResult result) {
  switch (result) {
    case IkResult::kOk:
      return "ok";
    case IkResult::kTooFar:
      return "beyond the leg's reach";
    case IkResult::kTooClose:
      return "inside the leg's inner radius";
    case IkResult::kInsideOffset:
      return "closer to the abduction axis than the hip offset";
    case IkResult::kJointLimit:
      return "outside the joint limits";
  }
  return "unknown";
}

absl::StatusOr<LegLayout> FindLegs(const Model& model) {
  if (model.contact_points.empty()) {
    return absl::InvalidArgumentError(
        absl::StrFormat("model '%s' has no contact points (feet): cannot find legs", model.name));
  }
  LegLayout layout;
  layout.base_body = model.floating_base ? 1 : 0;

  // Geometry at q = 0 with the base at the origin: base frame = world frame.
  Data data = MakeData(model);
  Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq);
  if (model.floating_base) q[3] = 1.0;  // identity quaternion (w, x, y, z)
  ForwardKinematics(model, data, q);

  for (int k = 0; k < static_cast<int>(model.contact_points.size()); ++k) {
    const ContactPoint& contact = model.contact_points[k];
    // Whole-body collision slots (collision_geometry.h) are no feet.
    if (!contact.foot) continue;
    // The chain of bodies from the foot up to the base.
    std::vector<int> chain;
    int b = contact.body;
    while (b != layout.base_body && b > 0) {
      chain.push_back(b);
      b = model.parent[b];
    }
    if (b != layout.base_body) {
      return LegError(model, k, "it is not below the base body");
    }
    if (chain.size() != 3) {
      return LegError(model, k,
                      absl::StrFormat("the chain from the base has %d joints", chain.size()));
    }
    std::reverse(chain.begin(), chain.end());  // abduction, hip, knee

    Leg leg;
    leg.foot = k;
    leg.foot_name = contact.name;
    Vec3 origin[3];
    for (int i = 0; i < 3; ++i) {
      const int body = chain[i];
      const int j = model.body_joint[body];
      const Joint& joint = model.joints[j];
      if (joint.type != JointType::kRevolute) {
        return LegError(model, k,
                        absl::StrFormat("%s joint '%s' is %s, not revolute", kJointRole[i],
                                        joint.name, JointTypeName(joint)));
      }
      const Vec3 axis = BodyRotation(data, body) * joint.axis;
      const Vec3 expected = i == 0 ? Vec3::UnitX() : Vec3::UnitY();
      const double c = axis.dot(expected) / axis.norm();
      if (std::abs(c) < kAxisCos) {
        return LegError(
            model, k,
            absl::StrFormat("%s joint '%s' has axis %s in the base frame at q = 0, "
                            "expected ±%s",
                            kJointRole[i], joint.name, FormatVec(axis), i == 0 ? "x" : "y"));
      }
      int actuator = -1;
      for (int a = 0; a < model.nu(); ++a) {
        if (model.actuators[a].joint == j) actuator = a;
      }
      if (actuator < 0) {
        return LegError(
            model, k, absl::StrFormat("%s joint '%s' has no actuator", kJointRole[i], joint.name));
      }
      leg.joint[i] = j;
      leg.actuator[i] = actuator;
      leg.q_index[i] = joint.q_index;
      leg.v_index[i] = joint.v_index;
      leg.axis_sign[i] = c > 0.0 ? 1.0 : -1.0;
      leg.lower[i] = joint.limits.has_position_limits ? joint.limits.lower : -kInf;
      leg.upper[i] = joint.limits.has_position_limits ? joint.limits.upper : kInf;
      origin[i] = BodyPosition(data, body);
    }
    const Vec3 foot =
        BodyRotation(data, contact.body) * contact.position + BodyPosition(data, contact.body);
    const Vec3& a = origin[0];
    leg.hip_position = a;
    leg.hip_pitch = origin[1] - a;
    leg.thigh = Eigen::Vector2d(origin[2].x() - origin[1].x(), origin[2].z() - origin[1].z());
    leg.shank = Eigen::Vector2d(foot.x() - origin[2].x(), foot.z() - origin[2].z());
    leg.thigh_length = leg.thigh.norm();
    leg.shank_length = leg.shank.norm();
    leg.thigh_angle = AngleY(leg.thigh);
    leg.shank_angle = AngleY(leg.shank);
    if (leg.thigh_length < kMinLinkLength || leg.shank_length < kMinLinkLength) {
      return LegError(model, k,
                      absl::StrFormat("degenerate thigh or shank (lengths %g m and %g m in the "
                                      "hip's x-z plane)",
                                      leg.thigh_length, leg.shank_length));
    }
    leg.foot_zero = foot - a;
    leg.hip_offset = leg.foot_zero.y();
    leg.foot_radius = contact.radius;
    leg.foot_below = leg.foot_zero.z() > 0.0 ? 1.0 : -1.0;
    leg.knee_bend = -1.0;
    if (std::isfinite(leg.lower[2]) && std::isfinite(leg.upper[2])) {
      // The branch the knee's range lies on (relative shank angle δ at mid-range).
      const double phi_k = leg.axis_sign[2] * 0.5 * (leg.lower[2] + leg.upper[2]);
      const double delta = WrapAngle(leg.shank_angle + phi_k - leg.thigh_angle);
      if (delta > 1e-9) leg.knee_bend = 1.0;
    }
    leg.front = a.x() > 0.0;
    leg.left = a.y() > 0.0;
    layout.legs.push_back(std::move(leg));
  }
  return layout;
}

namespace {

// A plane angle as the argument of (re, im), with its value.
struct Arg {
  double re = 1.0;
  double im = 0.0;
  double angle = 0.0;
};

// The angles LegIk takes from atan2/acos: φ_a, the knee's |δ| and φ_h.
struct IkAngles {
  Arg abduction, knee, hip;
};

// arg(z) given a nearby solved `near`: near's angle plus arg(z z̄_near),
// which is small, by the series of atan when it is (|t| ≤ 1e-3: the t⁹/9
// term is below 1e-27), else by atan2. Without `near`: atan2.
double ArgFrom(double re, double im, const Arg* near) {
  if (near == nullptr) return Atan2(im, re);
  const double x = re * near->re + im * near->im;
  const double y = im * near->re - re * near->im;
  if (x > 0.0 && std::abs(y) <= 1e-3 * x) {
    const double t = y / x;
    const double t2 = t * t;
    return near->angle + t * (1.0 - t2 * (1.0 / 3.0 - t2 * (1.0 / 5.0 - t2 / 7.0)));
  }
  return near->angle + Atan2(y, x);
}

// LegIk (see legs.h), recording the arguments it took in `out`. With `near`
// (a solution of a nearby target), each argument is near's plus a small
// difference (ArgFrom), which saves the atan2 and acos calls.
IkResult SolveLeg(const Leg& leg, const Vec3& foot, const IkAngles* near, IkAngles& out,
                  Vec3& angles) {
  IkResult result = IkResult::kOk;
  // Abduction: R_x(φ_a) (d, Z) = (y, z) with Z on the leg's branch.
  const double d = leg.hip_offset;
  const double r2 = foot.y() * foot.y() + foot.z() * foot.z();
  double z_abducted = 0.0;
  if (r2 >= d * d) {
    z_abducted = leg.foot_below * std::sqrt(r2 - d * d);
  } else {
    result = IkResult::kInsideOffset;
  }
  // φ_a = ang(y, z) − ang(d, Z) = arg((y + iz)(d − iZ)).
  out.abduction.re = foot.y() * d + foot.z() * z_abducted;
  out.abduction.im = foot.z() * d - foot.y() * z_abducted;
  out.abduction.angle =
      ArgFrom(out.abduction.re, out.abduction.im, near != nullptr ? &near->abduction : nullptr);
  const double phi_a = out.abduction.angle;

  // Planar 2-link problem in the abducted x-z plane, relative to the hip joint.
  Eigen::Vector2d p(foot.x() - leg.hip_pitch.x(), z_abducted - leg.hip_pitch.z());
  const double l1 = leg.thigh_length;
  const double l2 = leg.shank_length;
  const double r_max = l1 + l2;
  const double r_min = std::abs(l1 - l2);
  const double r = p.norm();
  constexpr double kTol = 1e-9;
  if (r > r_max * (1.0 + kTol)) {
    if (result == IkResult::kOk) result = IkResult::kTooFar;
    p *= r_max / r;
  } else if (r < r_min * (1.0 - kTol)) {
    if (result == IkResult::kOk) result = IkResult::kTooClose;
    p = r > 0.0 ? Eigen::Vector2d(p * (r_min / r)) : Eigen::Vector2d(0.0, -r_min);
  }
  // Law of cosines for the relative shank angle δ = ang(R(φ_k) l₂) − ang(l₁):
  // |δ| = acos(cos δ) = arg(cos δ + i |sin δ|) ∈ [0, π].
  const double cos_delta =
      std::clamp((p.squaredNorm() - l1 * l1 - l2 * l2) / (2.0 * l1 * l2), -1.0, 1.0);
  const double abs_sin_delta = std::sqrt((1.0 - cos_delta) * (1.0 + cos_delta));
  out.knee.re = cos_delta;
  out.knee.im = abs_sin_delta;
  if (near == nullptr) {
    out.knee.angle = Atan2(abs_sin_delta, cos_delta);  // acos(cos δ)
  } else {
    // Keep acos's range: a step through 0 or π folds back.
    double alpha = ArgFrom(cos_delta, abs_sin_delta, &near->knee);
    if (alpha < 0.0) alpha = -alpha;
    if (alpha > std::numbers::pi) alpha = 2.0 * std::numbers::pi - alpha;
    out.knee.angle = alpha;
  }
  const double delta = leg.knee_bend * out.knee.angle;
  // Knee first: when its limits clamp it, the hip below still aims the
  // (shorter or longer) leg at the target.
  bool clamped = false;
  double theta_k = WrapAngle(leg.axis_sign[2] * (delta - leg.shank_angle + leg.thigh_angle));
  const bool knee_clamped = FitToLimits(leg.lower[2], leg.upper[2], theta_k);
  clamped |= knee_clamped;
  // The leg from the hip to the foot, w = l₁ + R(φ_k) l₂. Unclamped,
  // ang(R(φ_k) l₂) = ang(l₁) + δ, so w = l₁ + |l₂|/|l₁| R(δ) l₁ with
  // cos δ from above and sin δ = ±√(1 − cos²δ) (no sincos).
  Eigen::Vector2d w;
  if (!knee_clamped) {
    const double sin_delta = leg.knee_bend * abs_sin_delta;
    w = leg.thigh + (l2 / l1) * RotateY(cos_delta, sin_delta, leg.thigh);
  } else {
    const double phi_k = leg.axis_sign[2] * theta_k;
    w = leg.thigh + RotateY(phi_k, leg.shank);
  }
  // φ_h = ang(p) − ang(w), with ang(x, z) = arg(z + ix): arg((p_z + i p_x)(w_z − i w_x)).
  out.hip.re = p.x() * w.x() + p.y() * w.y();
  out.hip.im = p.x() * w.y() - p.y() * w.x();
  out.hip.angle = ArgFrom(out.hip.re, out.hip.im, near != nullptr ? &near->hip : nullptr);
  double theta_h = WrapAngle(leg.axis_sign[1] * out.hip.angle);
  clamped |= FitToLimits(leg.lower[1], leg.upper[1], theta_h);
  double theta_a = WrapAngle(leg.axis_sign[0] * phi_a);
  clamped |= FitToLimits(leg.lower[0], leg.upper[0], theta_a);
  angles = Vec3(theta_a, theta_h, theta_k);
  if (clamped && result == IkResult::kOk) result = IkResult::kJointLimit;
  return result;
}

}  // namespace

IkResult LegIk(const Leg& leg, const Vec3& foot, Vec3& angles) {
  IkAngles unused;
  return SolveLeg(leg, foot, nullptr, unused, angles);
}

IkResult LegIkPair(const Leg& leg, const Vec3& foot, const Vec3& foot_near, Vec3& angles,
                   Vec3& angles_near) {
  IkAngles at_foot, at_near;
  const IkResult result = SolveLeg(leg, foot, nullptr, at_foot, angles);
  SolveLeg(leg, foot_near, &at_foot, at_near, angles_near);
  return result;
}

absl::Status LegInverseKinematics(const Leg& leg, const Vec3& foot, Vec3& angles) {
  const IkResult result = LegIk(leg, foot, angles);
  if (result == IkResult::kOk) return absl::OkStatus();
  return absl::OutOfRangeError(absl::StrFormat(
      "leg IK for foot '%s': target %s m (hip frame) is %s; clamped to joint angles %s "
      "(foot at %s m)",
      leg.foot_name, FormatVec(foot), IkResultName(result), FormatVec(angles),
      FormatVec(LegForwardKinematics(leg, angles))));
}

Vec3 LegForwardKinematics(const Leg& leg, const Vec3& angles) {
  const double phi_a = leg.axis_sign[0] * angles[0];
  const double phi_h = leg.axis_sign[1] * angles[1];
  const double phi_k = leg.axis_sign[2] * angles[2];
  const Eigen::Vector2d w = leg.thigh + RotateY(phi_k, leg.shank);
  const Eigen::Vector2d xz =
      Eigen::Vector2d(leg.hip_pitch.x(), leg.hip_pitch.z()) + RotateY(phi_h, w);
  const double d = leg.hip_offset;
  const double c = std::cos(phi_a);
  const double s = std::sin(phi_a);
  return {xz.x(), c * d - s * xz.y(), s * d + c * xz.y()};
}

Mat3 LegJacobian(const Leg& leg, const Vec3& angles) {
  const double phi_a = leg.axis_sign[0] * angles[0];
  const double phi_h = leg.axis_sign[1] * angles[1];
  const double phi_k = leg.axis_sign[2] * angles[2];
  // d/dφ R(φ) u = ⊥(R(φ) u) with ⊥(x, z) = (z, −x) for RotateY's R(φ).
  auto perp = [](const Eigen::Vector2d& u) { return Eigen::Vector2d(u.y(), -u.x()); };
  const Eigen::Vector2d shank = RotateY(phi_k, leg.shank);
  const Eigen::Vector2d w = leg.thigh + shank;
  const Eigen::Vector2d leg_xz = RotateY(phi_h, w);  // xz − (H − A)_xz
  const double z = leg.hip_pitch.z() + leg_xz.y();
  const double d = leg.hip_offset;
  const double c = std::cos(phi_a);
  const double s = std::sin(phi_a);
  // p = (x, c d − s z, s d + c z): an (x, z) change (dx, dz) moves p by
  // (dx, −s dz, c dz).
  auto lift = [c, s](const Eigen::Vector2d& dxz) {
    return Vec3(dxz.x(), -s * dxz.y(), c * dxz.y());
  };
  Mat3 J;
  J.col(0) = leg.axis_sign[0] * Vec3(0.0, -s * d - c * z, c * d - s * z);
  J.col(1) = leg.axis_sign[1] * lift(perp(leg_xz));
  J.col(2) = leg.axis_sign[2] * lift(perp(RotateY(phi_h, shank)));
  return J;
}

absl::Status CheckTrotLayout(const Model& model, const LegLayout& layout) {
  int corners[2][2] = {{0, 0}, {0, 0}};  // [front][left]
  for (const Leg& leg : layout.legs) ++corners[leg.front][leg.left];
  if (layout.legs.size() != 4 || corners[0][0] != 1 || corners[0][1] != 1 || corners[1][0] != 1 ||
      corners[1][1] != 1) {
    return absl::InvalidArgumentError(
        absl::StrFormat("model '%s' needs four legs, one at each corner of the base (front/hind × "
                        "left/right); found %d legs (FL %d, FR %d, HL %d, HR %d)",
                        model.name, layout.legs.size(), corners[1][1], corners[1][0], corners[0][1],
                        corners[0][0]));
  }
  return absl::OkStatus();
}

}  // namespace moreau::control
