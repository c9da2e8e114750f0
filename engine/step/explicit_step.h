// Explicit time integration of force-law (compliant) contact: at every stage
// of the integrator the step's stages (stages.h) with the force law as the
// contact solve and ABA for the accelerations; semi-implicit Euler, Heun (001's explicit
// second-order scheme) and classical RK4, on the configuration manifold (the base quaternion
// advanced by the exponential map, 000 eq. 22).
#ifndef MOREAU_ENGINE_STEP_EXPLICIT_STEP_H_
#define MOREAU_ENGINE_STEP_EXPLICIT_STEP_H_

#include <Eigen/Core>
#include <span>

#include "engine/contact/contact_forces.h"
#include "engine/contact/terrain.h"
#include "engine/model/model.h"
#include "engine/step/stages.h"
#include "engine/step/workspace.h"

namespace moreau::step {

enum class Integrator { kSemiImplicitEuler, kHeun, kRk4 };

// Accelerations q̈ = ABA(q, v, τ + Σ J_kᵀ λ_k) with the contact forces λ_k of
// the force law at (q, v): positions, contact detection, velocities, the
// force law, ABA's accelerations. `states` is the per-contact memory the
// law may update. Result in w.data.qacc; contact forces in w.contacts. With
// Hertz friction stepped implicitly the friction is solved here, as at a
// step's first stage (implicit_friction.h).
void ForceLawAcceleration(const Model& model, const contact::Terrain& terrain,
                          const contact::ContactForceParams& params, double dt,
                          const StepInputs& inputs, const Eigen::VectorXd& q,
                          const Eigen::VectorXd& v, std::span<contact::ContactState> states,
                          StepWorkspace& w);

// Advances (q, v) by dt: ForceLawAcceleration at each of the integrator's
// stages, then the integrator's update of (q, v). The contact memory `states` advances once
// per step, as evaluated at the step's start; intermediate stages use a copy.
// Hertz friction stepped implicitly is solved at the first stage and held by
// the others.
void ExplicitStep(const Model& model, const contact::Terrain& terrain,
                  const contact::ContactForceParams& params, Integrator integrator, double dt,
                  const StepInputs& inputs, Eigen::VectorXd& q, Eigen::VectorXd& v,
                  std::span<contact::ContactState> states, StepWorkspace& w);

}  // namespace moreau::step

#endif  // MOREAU_ENGINE_STEP_EXPLICIT_STEP_H_
