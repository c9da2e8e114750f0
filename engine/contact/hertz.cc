#include "engine/contact/hertz.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"

namespace moreau::contact {
namespace {

absl::Status FieldError(const char* field, const char* rule, double value) {
  return absl::InvalidArgumentError(
      absl::StrCat("hertz.", field, " must be ", rule, ", got ", value));
}

}  // namespace

absl::Status Validate(const HertzParams& p) {
  if (!std::isfinite(p.stiffness) || p.stiffness <= 0.0) {
    return FieldError("stiffness", "finite and > 0", p.stiffness);
  }
  if (!std::isfinite(p.exponent) || p.exponent < 1.0) {
    return FieldError("exponent", "finite and >= 1", p.exponent);
  }
  if (!std::isfinite(p.reference_depth) || p.reference_depth <= 0.0) {
    return FieldError("reference_depth", "finite and > 0", p.reference_depth);
  }
  if (!std::isfinite(p.damping) || p.damping < 0.0) {
    return FieldError("damping", "finite and >= 0", p.damping);
  }
  if (!std::isfinite(p.ramp_depth) || p.ramp_depth <= 0.0) {
    return FieldError("ramp_depth", "finite and > 0", p.ramp_depth);
  }
  if (!std::isfinite(p.mu_static) || p.mu_static < 0.0) {
    return FieldError("mu_static", "finite and >= 0", p.mu_static);
  }
  if (!std::isfinite(p.mu_dynamic) || p.mu_dynamic < 0.0) {
    return FieldError("mu_dynamic", "finite and >= 0", p.mu_dynamic);
  }
  if (!std::isfinite(p.stiction_velocity) || p.stiction_velocity <= 0.0) {
    return FieldError("stiction_velocity", "finite and > 0", p.stiction_velocity);
  }
  if (!std::isfinite(p.sliding_velocity) || p.sliding_velocity <= p.stiction_velocity) {
    return absl::InvalidArgumentError(
        absl::StrCat("hertz.sliding_velocity must be finite and > stiction_velocity (",
                     p.stiction_velocity, "), got ", p.sliding_velocity));
  }
  return absl::OkStatus();
}

double Smoothstep(double x) {
  if (x <= 0.0) return 0.0;
  if (x >= 1.0) return 1.0;
  return x * x * (3.0 - 2.0 * x);
}

double HertzDamping(const HertzParams& params, double depth) {
  // 001 eq. 35: c = c(δ, c_max, w), ramped from 0 to c_max over w.
  return params.damping * Smoothstep(depth / params.ramp_depth);
}

double HertzFrictionCoefficient(const HertzParams& params, double speed) {
  // 001 eq. 38: μ = μ(v_rel, μ_s, v_s, μ_d, v_d).
  const double v = std::abs(speed);
  const double vs = params.stiction_velocity;
  const double vd = params.sliding_velocity;
  if (v <= vs) {
    // −μ_s at −v_s to +μ_s at +v_s through 0 (sense reversal).
    return params.mu_static * (2.0 * Smoothstep((speed + vs) / (2.0 * vs)) - 1.0);
  }
  // μ_s at v_s to μ_d at v_d (stiction → sliding), μ_d beyond.
  const double mu = v < vd ? params.mu_static + (params.mu_dynamic - params.mu_static) *
                                                    Smoothstep((v - vs) / (vd - vs))
                           : params.mu_dynamic;
  return speed < 0.0 ? -mu : mu;
}

double HertzFrictionSlope(const HertzParams& params, double speed) {
  const double v = std::abs(speed);
  const double vs = params.stiction_velocity;
  const double vd = params.sliding_velocity;
  if (v <= vs) {
    const double x = (v + vs) / (2.0 * vs);
    return 6.0 * params.mu_static * x * (1.0 - x) / vs;
  }
  if (v >= vd) return 0.0;
  const double y = (v - vs) / (vd - vs);
  return 6.0 * (params.mu_dynamic - params.mu_static) * y * (1.0 - y) / (vd - vs);
}

double HertzNormalForce(const HertzParams& params, const Contact& contact) {
  if (!(contact.gap < 0.0)) return 0.0;
  const double depth = -contact.gap;           // δ ≥ 0 (001 eq. 34)
  const double depth_rate = -contact.gamma_N;  // δ̇ (001 eq. 36)
  // 001 eq. 34–35: f_n = f_s + f_d = K δ^e + c(δ) δ̇ with δ in units of δ₀
  // (header: K δ₀ (δ/δ₀)^e), never pulling.
  const double d0 = params.reference_depth;
  const double f_s = params.stiffness * d0 * std::pow(depth / d0, params.exponent);
  const double f_d = HertzDamping(params, depth) * depth_rate;
  return std::max(f_s + f_d, 0.0);
}

void HertzFrictionAndJacobian(const HertzParams& params, double f_n, const Eigen::Vector2d& v,
                              Eigen::Vector2d& phi, Eigen::Matrix2d& H) {
  const double s = v.norm();
  if (s <= 0.0) {
    phi.setZero();
    H = f_n * HertzFrictionSlope(params, 0.0) * Eigen::Matrix2d::Identity();
    return;
  }
  const double vs = params.stiction_velocity;
  // μ/‖v‖: below v_s, μ = μ_s (2 S((u + 1)/2) − 1) = μ_s u (3 − u²)/2 with
  // u = ‖v‖/v_s, so μ/‖v‖ = μ_s (3 − u²)/(2 v_s) exactly, without the
  // cancellation of 2 S − 1 at small slip.
  const double u = s / vs;
  const double mu_over_s = s <= vs ? params.mu_static * (3.0 - u * u) / (2.0 * vs)
                                   : HertzFrictionCoefficient(params, s) / s;
  phi = f_n * mu_over_s * v;
  const Eigen::Vector2d dir = v / s;
  const Eigen::Matrix2d along = dir * dir.transpose();
  H = f_n *
      (HertzFrictionSlope(params, s) * along + mu_over_s * (Eigen::Matrix2d::Identity() - along));
}

spatial::Vec3 HertzForce(const HertzParams& params, const Contact& contact) {
  const double f_n = HertzNormalForce(params, contact);
  spatial::Vec3 force = f_n * contact.normal;
  if (params.implicit_friction) return force;  // the step adds friction
  // 001 eq. 38 on the disc: −μ(‖γ_T‖) f_n γ̂_T (see the header).
  const double speed = contact.gamma_T.norm();
  if (speed > 0.0 && f_n > 0.0) {
    const double scale = -HertzFrictionCoefficient(params, speed) * f_n / speed;
    force += scale * (contact.gamma_T.x() * contact.t1 + contact.gamma_T.y() * contact.t2);
  }
  return force;
}

}  // namespace moreau::contact
