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

// Drags the anchor along with a slipping contact: P0 = P + λ_T / c_T in the
// tangent plane, so that the anchor spring alone, −c_T g_T, equals the
// friction force λ_T now on the disc boundary (see the header).
void DragAnchor(const Contact& contact, const Eigen::Vector2d& lambda_T, double stiffness,
                ContactState& state) {
  const Vec3 offset = (lambda_T.x() * contact.t1 + lambda_T.y() * contact.t2) / stiffness;
  state.SetAnchor(contact.position + offset);
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

  // The trial stick force from the anchor, 000 Alg. 1 line 7:
  // λ_T = −c_T g_T − d_T γ_T, g_T = (P − P0)_T; with 003 eq. 14's prediction
  // g_T → g_T + γ_T Δt when predict_dt > 0.
  const Vec3 d = P - state.Anchor();
  const Eigen::Vector2d g_T(contact.t1.dot(d), contact.t2.dot(d));
  const Eigen::Vector2d trial =
      -params.stiffness * (g_T + params.predict_dt * gamma_T) - params.damping * gamma_T;

  if (state.slip) {
    // 000 Alg. 1 lines 2–5: stick again when ‖γ_T‖ ≈ 0 or the stick force
    // fits in the disc. The anchor was dragged along (below), so the spring
    // resumes from the friction force it carried while slipping.
    if (speed <= params.stick_velocity || trial.norm() <= limit) {
      state.slip = false;
      return ClampToDisc(trial, limit);
    }
  } else if (trial.norm() <= limit) {
    return trial;  // stick, line 7
  }

  // Lines 8–9 (and slip continuing): dynamic friction −μ λ_N γ_T/‖γ_T‖;
  // along the trial force when ‖γ_T‖ ≤ stick_velocity, where γ_T has no
  // usable direction.
  state.slip = true;
  const Eigen::Vector2d lambda_T = speed > params.stick_velocity
                                       ? Eigen::Vector2d(-limit / speed * gamma_T)
                                       : ClampToDisc(trial, limit);
  DragAnchor(contact, lambda_T, params.stiffness, state);
  return lambda_T;
}

}  // namespace moreau::contact
