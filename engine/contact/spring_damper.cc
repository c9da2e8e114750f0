#include "engine/contact/spring_damper.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "engine/contact/stick_slip.h"

namespace moreau::contact {
namespace {

absl::Status CheckNonNegative(const char* field, double value) {
  if (std::isfinite(value) && value >= 0.0) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("spring_damper.", field, " must be finite and >= 0, got ", value));
}

absl::Status CheckPositive(const char* field, double value) {
  if (std::isfinite(value) && value > 0.0) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("spring_damper.", field, " must be finite and > 0, got ", value));
}

}  // namespace

absl::Status Validate(const SpringDamperParams& p) {
  for (const absl::Status& s :
       {CheckPositive("normal_stiffness", p.normal_stiffness),
        CheckNonNegative("normal_damping", p.normal_damping),
        CheckPositive("tangential_stiffness", p.tangential_stiffness),
        CheckNonNegative("tangential_damping", p.tangential_damping), CheckNonNegative("mu", p.mu),
        CheckNonNegative("stick_velocity", p.stick_velocity)}) {
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

spatial::Vec3 SpringDamperForce(const SpringDamperParams& params, const Contact& contact,
                                ContactState& state) {
  if (!(contact.gap <= 0.0)) {
    // Open: 000 Alg. 1 applies only "if closed"; forget P0.
    state.Clear();
    return spatial::Vec3::Zero();
  }
  // 000 Alg. 1 line 1.
  const double lambda_N = std::max(
      -params.normal_stiffness * contact.gap - params.normal_damping * contact.gamma_N, 0.0);
  // Lines 2–11.
  StickSlipParams friction;
  friction.stiffness = params.tangential_stiffness;
  friction.damping = params.tangential_damping;
  friction.mu = params.mu;
  friction.stick_velocity = params.stick_velocity;
  friction.predict_dt = 0.0;
  const Eigen::Vector2d lambda_T = StickSlipFriction(friction, contact, lambda_N, state);
  // λ_U = [λ_N, λ_T] in the contact frame (000 §2), to world.
  return lambda_N * contact.normal + lambda_T.x() * contact.t1 + lambda_T.y() * contact.t2;
}

}  // namespace moreau::contact
