#include "engine/contact/stick_slip.h"

namespace moreau::contact {
namespace {

// Projects λ_T onto the friction disc C_T(μ λ_N) (000 eq. 3).
Eigen::Vector2d ClampToDisc(const Eigen::Vector2d& lambda_T, double limit) {
  const double norm = lambda_T.norm();
  if (norm <= limit) return lambda_T;
  if (norm <= 0.0) return Eigen::Vector2d::Zero();
  return lambda_T * (limit / norm);
}

}  // namespace

Eigen::Vector2d StickSlipFriction(const StickSlipParams& params, const Contact& contact,
                                  double lambda_N, ContactState& state) {
  const Vec3& P = contact.position;
  const Eigen::Vector2d& gamma_T = contact.gamma_T;
  if (!state.closed) {
    // The first detected contact point P0 (000 Fig. 2).
    state.closed = true;
    state.slip = false;
    state.SetAnchor(P);
  }
  const double limit = params.mu * lambda_N;  // radius of C_T, 000 eq. 3
  const double speed = gamma_T.norm();
  const double spring_dt = params.stiffness * params.predict_dt;

  if (state.slip) {
    // 000 Alg. 1 lines 2–5; while sliding the anchor travels with P.
    state.SetAnchor(P);
    const Eigen::Vector2d trial = -(spring_dt + params.damping) * gamma_T;
    if (speed <= params.stick_velocity || trial.norm() <= limit) {
      state.slip = false;  // line 4: stick again, P0 reset to P
      return ClampToDisc(trial, limit);
    }
    return -limit / speed * gamma_T;  // dynamic friction, line 9
  }

  // 000 Alg. 1 line 7: λ_T = −c_T g_T − d_T γ_T, g_T = (P − P0)_T; with 003
  // eq. 14's prediction g_T → g_T + γ_T Δt when predict_dt > 0.
  const Vec3 d = P - state.Anchor();
  const Eigen::Vector2d g_T(contact.t1.dot(d), contact.t2.dot(d));
  const Eigen::Vector2d trial = -params.stiffness * g_T - (spring_dt + params.damping) * gamma_T;
  if (trial.norm() <= limit) return trial;

  // Lines 8–9: outside the disc → slip with λ_T = −μ λ_N γ_T/‖γ_T‖.
  state.slip = true;
  state.SetAnchor(P);
  if (speed > params.stick_velocity) return -limit / speed * gamma_T;
  return ClampToDisc(trial, limit);
}

}  // namespace moreau::contact
