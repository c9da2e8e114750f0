// Tangential friction of a closed compliant contact with a stick anchor P0
// (000 Alg. 1, lines 2–11): a spring-damper from the contact point P to the
// anchor while sticking, spatial Coulomb friction on the friction disc
// (000 eq. 3) while slipping. Shared by the spring-damper law (000) and the
// micro law (003, which adds the time-step prediction of eq. 14 to the
// spring).
#ifndef MOREAU_ENGINE_CONTACT_STICK_SLIP_H_
#define MOREAU_ENGINE_CONTACT_STICK_SLIP_H_

#include <Eigen/Core>

#include "engine/contact/contact_set.h"
#include "engine/contact/contact_state.h"

namespace moreau::contact {

struct StickSlipParams {
  double stiffness = 0.0;  // c_T, N/m
  double damping = 0.0;    // d_T, N s/m
  double mu = 0.0;         // friction coefficient μ
  // 000 Alg. 1 line 3, "‖γ_T‖ ≈ 0": a slipping contact re-sticks when its
  // tangential speed drops to this (m/s).
  double stick_velocity = 0.0;
  // Δt of 003 eq. 14's prediction g_T + γ_T Δt in the spring (s); 0 for 000.
  double predict_dt = 0.0;
};

// λ_T = [λ_T1, λ_T2] in the contact's (t1, t2) basis, for a closed contact
// (gap ≤ 0) carrying the normal force lambda_N ≥ 0; updates `state`:
//  - contact just closed (state.closed false): P0 ← P, stick.
//  - stick (line 7–10): trial λ_T = −c_T (g_T + γ_T Δt) − d_T γ_T with
//    g_T = (P − P0) projected on (t1, t2); if ‖λ_T‖ > μ λ_N the contact
//    slips: λ_T = −μ λ_N γ_T/‖γ_T‖ (along the trial force when
//    ‖γ_T‖ ≤ stick_velocity, where γ_T has no usable direction).
//  - slip (lines 2–5): if ‖γ_T‖ ≤ stick_velocity or the trial stick force
//    from the anchor is inside the disc, the contact sticks again and that
//    trial force is applied at once (clamped to the disc) — 000 applies it
//    from the next step, which leaves this step's λ_T unspecified; otherwise
//    λ_T = −μ λ_N γ_T/‖γ_T‖.
// Where the anchor goes while slipping. 000 Alg. 1 says "move the anchor" /
// "reset point P0" without saying where. Putting P0 at P (the spring
// relaxed) throws away the spring's stretch every time the contact slips:
// a box resting on a slope with a load near the disc boundary then creeps
// downhill by one full stretch, μ λ_N / c_T, per slip event (27 mm in 2 s
// on 30° with 000's c_T = 3e4 N/m, as the normal force rings). We drag the
// anchor with the contact instead, at P0 = P + λ_T / c_T, the point where
// the spring alone carries the current friction force: on re-sticking the
// force continues from the disc boundary rather than from zero, and a
// loaded contact only moves while it really slips (the behaviour of the
// hard-contact friction disc that Alg. 1 approximates).
// Always ‖λ_T‖ ≤ μ λ_N. Allocation-free.
Eigen::Vector2d StickSlipFriction(const StickSlipParams& params, const Contact& contact,
                                  double lambda_N, ContactState& state);

}  // namespace moreau::contact

#endif  // MOREAU_ENGINE_CONTACT_STICK_SLIP_H_
