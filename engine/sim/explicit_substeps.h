// How many explicit updates the spring-damper law takes per step so that each
// is stable at the model's lightest contact point.
//
// A linear spring c and damper d on a mass m, stepped by semi-implicit Euler
// with step h (v⁺ = v − h (c x + d v)/m, x⁺ = x + h v⁺), has the update matrix
// [[1 − α, 1 − β], [−α, 1 − β]] on (x, h v), α = c h²/m, β = d h/m: trace
// 2 − α − β, determinant 1 − β. Its eigenvalues lie inside the unit circle
// (Jury's conditions) iff 0 < β < 2 and α + 2β < 4, i.e.
//
//     (c h² + 2 d h) / m < 4.
//
// At a contact point m is the effective mass 1/(nᵀ J M⁻¹ Jᵀ n) along the
// direction n the spring acts in; the normal and tangential springs act in
// every direction between them, so the bound takes the smallest over
// directions, 1/λ_max(J M⁻¹ Jᵀ). Each sub-step keeps (c h² + 2 d h)/m at most
// kExplicitStabilityMargin, a quarter below the limit for what the single-mass
// picture leaves out (the joint PD and the other contacts on the same leg).
// 000 §5 steps its spring-damper the same way: two updates per 2.5 ms control
// period. The bound is semi-implicit Euler's; the same count serves Heun and
// RK4 (RK4's undamped limit, ω h < 2.83, is wider; Heun's scheme is not
// strictly stable for an undamped spring at any h and relies on the damper).
#ifndef MOREAU_ENGINE_SIM_EXPLICIT_SUBSTEPS_H_
#define MOREAU_ENGINE_SIM_EXPLICIT_SUBSTEPS_H_

#include "engine/contact/spring_damper.h"
#include "engine/contact/terrain.h"
#include "engine/model/model.h"

namespace moreau::sim {

// The largest (c h² + 2 d h)/m a sub-step is allowed (the limit is 4).
inline constexpr double kExplicitStabilityMargin = 3.0;
// Most sub-steps per step (a stiffer spring is stepped at Δt / this).
inline constexpr int kMaxExplicitSubsteps = 1000;

// The smallest effective mass any contact point of `model` presents at its
// default configuration at rest, over every direction: min over points of
// 1/λ_max(J M⁻¹ Jᵀ), J the point's 3 × nv Jacobian at its witness point on
// `terrain` (kg). Infinity for a model without contact points or whose M is not
// positive definite there.
double LightestContactMass(const Model& model, const contact::Terrain& terrain);

// The largest sub-step h with (c h² + 2 d h)/m ≤ kExplicitStabilityMargin,
// c and d the larger of the law's normal and tangential stiffness and damping
// (s). Infinity when m is infinite.
double StableSpringDamperStep(const contact::SpringDamperParams& law, double mass);

// ⌈dt / StableSpringDamperStep(law, mass)⌉, at least 1 and at most
// kMaxExplicitSubsteps.
int SpringDamperSubsteps(const contact::SpringDamperParams& law, double mass, double dt);

}  // namespace moreau::sim

#endif  // MOREAU_ENGINE_SIM_EXPLICIT_SUBSTEPS_H_
