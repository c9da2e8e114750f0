#include "engine/contact/micro.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "engine/contact/stick_slip.h"

namespace moreau::contact {
namespace {

absl::Status Check(const char* field, double value, bool strictly_positive) {
  if (std::isfinite(value) && (strictly_positive ? value > 0.0 : value >= 0.0)) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat("micro.", field, " must be finite and ",
                                                 strictly_positive ? "> 0" : ">= 0", ", got ",
                                                 value));
}

}  // namespace

absl::Status Validate(const MicroParams& p) {
  for (const absl::Status& s :
       {Check("stiffness", p.stiffness, true), Check("damping", p.damping, false),
        Check("mu", p.mu, false), Check("tangential_stiffness", p.tangential_stiffness, true),
        Check("tangential_damping", p.tangential_damping, false),
        Check("stick_velocity", p.stick_velocity, false)}) {
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::StatusOr<MicroParams> MicroParamsForMass(double mass_kg) {
  if (!std::isfinite(mass_kg) || mass_kg <= 0.0) {
    return absl::InvalidArgumentError(
        absl::StrCat("micro: the robot mass must be finite and > 0 kg, got ", mass_kg));
  }
  const double scale = mass_kg / kMicroDefaultsRobotMassKg;
  MicroParams p;
  p.stiffness *= scale;
  p.damping *= scale;
  p.tangential_stiffness *= scale;
  p.tangential_damping *= scale;
  return p;
}

spatial::Vec3 MicroForce(const MicroParams& params, const Contact& contact, double dt,
                         ContactState& state) {
  if (!(contact.gap <= 0.0)) {
    state.Clear();
    return spatial::Vec3::Zero();
  }
  const double d = contact.gap;          // 003 eq. 4 (signed, see header)
  const double d_dot = contact.gamma_N;  // 003 eq. 5
  // 003 eq. 14: the spring sees the gap predicted at the end of the step.
  double f_N = -params.stiffness * (d + d_dot * dt);
  if (d_dot > 0.0) f_N -= params.damping * d_dot;
  f_N = std::max(f_N, 0.0);  // no pulling (003 eq. 33)

  StickSlipParams friction;
  friction.stiffness = params.tangential_stiffness;
  friction.damping = params.tangential_damping;
  friction.mu = params.mu;
  friction.stick_velocity = params.stick_velocity;
  friction.predict_dt = dt;  // eq. 14's prediction on the anchor spring
  const Eigen::Vector2d lambda_T = StickSlipFriction(friction, contact, f_N, state);
  // 003 eq. 9: f = f_ν ν + f_φ.
  return f_N * contact.normal + lambda_T.x() * contact.t1 + lambda_T.y() * contact.t2;
}

}  // namespace moreau::contact
