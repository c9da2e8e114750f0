// Hertz friction stepped by backward Euler (HertzParams::implicit_friction):
// the force-law step's contact solve when 001 eq. 38's stick regime is too stiff
// for the explicit schemes. The normal forces stay explicit (001 eq. 34–35);
// the friction forces λ_T are those at the slip velocities they leave at the
// end of the step,
//   v⁺_T = W_Tᵀ (v + Δt q̈₀) + Δt G_TT λ_T,   λ_T,k = −μ(‖v⁺_k‖) f_n,k v̂⁺_k,
// with q̈₀ the accelerations without friction and G_TT = W_Tᵀ M⁻¹ W_T the
// tangential block of the Delassus matrix (000 eq. 12), solved for all
// contacts at once by Newton's method (HertzFrictionAndJacobian). Then
// q̈ = q̈₀ + M⁻¹ W_T λ_T. The friction is solved once per step, at its first
// stage, and held by the later stages of Heun and RK4 as the generalized
// force W_T λ_T: friction is then a backward-Euler impulse over the step
// and the rest of the dynamics keeps its explicit scheme. (Solved anew at
// every stage, Heun's average of two implicit frictions pumped energy into
// a trot at Δt = 1 ms.)
#ifndef MOREAU_ENGINE_STEP_IMPLICIT_FRICTION_H_
#define MOREAU_ENGINE_STEP_IMPLICIT_FRICTION_H_

#include "engine/contact/hertz.h"
#include "engine/model/model.h"
#include "engine/step/workspace.h"

namespace moreau::step {

// Adds the implicit friction to a force-law stage evaluated with
// params.implicit_friction (HertzForce gave the normal forces only): on entry
// w.data.qacc = q̈₀ of ABA with those, w.contacts the stage's contacts with
// their velocities γ and forces, w.data's kinematics at the stage's q (X_up,
// R_base, X_0, contact_position). Factors M (CRBA; overwrites data.Ic and the
// LᵀDL factor), writes data.S_world, assembles the active contacts' Delassus
// matrix (overwrites w.G, w.Y_path, w.c, w.Lambda, w.W_Lambda, w.active,
// w.support), solves for λ_T (w.friction.last_iterations / _converged), adds
// M⁻¹ W_T λ_T to w.data.qacc and λ_T1 t1 + λ_T2 t2 to each active contact's
// force; keeps W_T λ_T in w.friction.tau and the forces in w.friction.force
// for AddHeldFriction. Returns false if M is not positive definite
// (w.data.qacc then holds q̈₀). Allocation-free.
//
// Cost: a mass-matrix factor, the Delassus blocks and a dense Newton solve
// over 2 × (the model's contact points) unknowns, padded, per step.
bool AddHertzImplicitFriction(const Model& model, const contact::HertzParams& params, double dt,
                              StepWorkspace& w);

// A later stage's contacts: adds the friction force that the first stage
// solved (w.friction.force) to each active contact's force. The stage's
// ABA takes w.friction.tau with the actuation. Heun and RK4 report their last
// stage's contacts, so a contact closed at the first stage only has its
// friction applied (through w.friction.tau) but not reported, and one closed
// at a later stage only gets no friction in that step.
void AddHeldFriction(StepWorkspace& w);

}  // namespace moreau::step

#endif  // MOREAU_ENGINE_STEP_IMPLICIT_FRICTION_H_
