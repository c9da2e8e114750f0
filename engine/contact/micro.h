// Micro contact with a time-step-dependent damper (003 §III-A, eq. 14–15): a
// linear spring-damper whose spring force uses the gap predicted at the end
// of the step, d + ḋ Δt, which removes the energy that explicit integration
// otherwise injects (003 Fig. 2: the ordinary law under-estimates the force
// while compressing and over-estimates it while restituting).
#ifndef MOREAU_ENGINE_CONTACT_MICRO_H_
#define MOREAU_ENGINE_CONTACT_MICRO_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/contact/contact_set.h"
#include "engine/contact/contact_state.h"
#include "engine/spatial/motion.h"

namespace moreau::contact {

// Defaults: 003 §IV-B (HOAP-1 drop test: "4410 N/m and 282 N/(m/s)", kinetic
// friction 0.4, Δt = 1–2.5 ms). 003's micro layer has no static friction (its
// macro layer supplies it) and no tangential spring, so the tangential
// defaults reuse k and c — our choice.
struct MicroParams {
  double stiffness = 4410.0;             // k, N/m
  double damping = 282.0;                // c, N s/m
  double mu = 0.4;                       // μ_k
  double tangential_stiffness = 4410.0;  // anchor spring, N/m (ours)
  double tangential_damping = 282.0;     // anchor damper, N s/m (ours)
  double stick_velocity = 1e-4;          // re-stick speed, m/s (ours)
};

// The mass of the robot 003 tuned its defaults for (HOAP-1, 003 Fig. 5).
inline constexpr double kMicroDefaultsRobotMassKg = 5.0;

// 003's defaults carried over to a robot of `mass_kg` (> 0, finite): the
// stiffnesses and dampings scaled by mass_kg / 5 kg, μ and the re-stick speed
// kept. Contacts then sink as deep under the robot's weight as 003's did under
// HOAP-1's (k ∝ m), with the same damping ratio (c ∝ √(k m) ∝ m). With the
// defaults as they are, one foot of the 8.9 kg Mini Cheetah standing on four
// point feet carries 22 N at 5.0 mm. InvalidArgument for a bad mass.
absl::StatusOr<MicroParams> MicroParamsForMass(double mass_kg);

// InvalidArgument naming the field and value unless stiffnesses are finite
// and > 0, and the other fields finite and ≥ 0.
absl::Status Validate(const MicroParams& params);

// Force on the robot at one contact, world (N), for a step of length dt (s).
// Normal, 003 eq. 14 with d = g_N (signed gap, < 0 in penetration) and
// ḋ = γ_N — the signs under which 003's f_ν = νᵀf is ≥ 0 when pushing (eq.
// 12, 33):
//   f_N = −k (d + ḋ Δt) − c ḋ   if ḋ > 0 (separating: restitution)
//   f_N = −k (d + ḋ Δt)         otherwise (compressing)
// clamped to f_N ≥ 0 (no pulling; 003 eq. 33's νᵀf ≥ 0). As eq. 15 shows, the
// k Δt ḋ term is a damper of coefficient k Δt in both phases, and c adds to
// it while the contact restitutes.
// Friction: 003 eq. 7, 11–12 use kinetic Coulomb friction −μ_k f_N σ with the
// slip direction σ = 0 below a speed ε, i.e. no static friction — 003 gets
// stiction from its macro layer (eq. 33–35), which a force law alone does not
// have, so a robot would creep down any slope. We use the stick anchor of
// 000 Alg. 1 instead (StickSlipFriction, bound μ_k f_N, so ‖λ_T‖ ≤ μ_k f_N and
// sliding friction is exactly 003 eq. 11), with eq. 14's prediction applied
// to the anchor spring as well: λ_T = −k_T (g_T + γ_T Δt) − c_T γ_T.
// Open (gap > 0): zero, anchor cleared. Allocation-free.
spatial::Vec3 MicroForce(const MicroParams& params, const Contact& contact, double dt,
                         ContactState& state);

}  // namespace moreau::contact

#endif  // MOREAU_ENGINE_CONTACT_MICRO_H_
