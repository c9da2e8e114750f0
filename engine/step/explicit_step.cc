#include "engine/step/explicit_step.h"

#include <algorithm>
#include <limits>

#include "engine/contact/contact_set.h"
#include "engine/dynamics/aba.h"
#include "engine/dynamics/configuration.h"
#include "engine/dynamics/jacobians.h"
#include "engine/dynamics/kinematics.h"
#include "engine/step/implicit_friction.h"

namespace moreau::step {

namespace {

// How a stage treats Hertz friction stepped implicitly (implicit_friction.h).
enum class HeldFriction {
  kNone,   // explicit laws: nothing to do
  kSolve,  // the step's first stage: solve it and keep it
  kHold,   // a later stage: apply the first stage's
};

void StageAcceleration(const Model& model, const contact::Terrain& terrain,
                       const contact::ContactForceParams& params, double dt,
                       const StepInputs& inputs, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                       std::span<contact::ContactState> states, HeldFriction friction,
                       StepWorkspace& w) {
  // Positions: kinematics at q, the contacts.
  ForwardKinematics(model, w.data, q);
  ContactDetection(model, terrain, /*horizon=*/0.0, w);
  // Velocities: ABA's pass 1, body twists, velocity products, I^A = I and
  // p^A = v ×* I v − f_ext (RBDA Table 7.1), reusing the joint transforms
  // at this q; the contact-point velocities γ from the body twists, of the
  // active contacts (the laws' only readers; the open ones get 0).
  AbaVelocities(model, w.data, v, inputs.f_ext);
  contact::ComputeContactVelocities(model, w.data, w.contacts, /*active_only=*/true);
  // Contact solve, the force law: each λ_k as a wrench on its body, taken
  // off p^A (external forces of pass 1): ABA then gives
  // M⁻¹(τ − c − g + Σ J_kᵀ λ_k) with no contact Jacobian and no world axes.
  contact::ContactForcesOnBodies(model, w.data, params, dt, w.contacts, states, w.data.pA);
  // Actuation and accelerations: ABA's passes 2 and 3 with τ (and a held
  // friction's W_T λ_T).
  if (friction == HeldFriction::kHold) {
    w.tau_total = w.friction.tau;
    if (inputs.tau != nullptr) w.tau_total += *inputs.tau;
    AbaAccelerations(model, w.data, w.tau_total);
    AddHeldFriction(w);
    return;
  }
  if (inputs.tau != nullptr) {
    AbaAccelerations(model, w.data, *inputs.tau);
  } else {
    w.tau_total.setZero();
    AbaAccelerations(model, w.data, w.tau_total);
  }
  // Hertz friction stepped implicitly: the law gave the normal forces
  // only; add the friction that the step's end velocities call for. A mass
  // matrix that is not positive definite makes the step non-finite, which
  // the simulation reports as divergence.
  if (friction == HeldFriction::kSolve && !AddHertzImplicitFriction(model, params.hertz, dt, w)) {
    w.data.qacc.setConstant(std::numeric_limits<double>::quiet_NaN());
  }
}

bool ImplicitFriction(const contact::ContactForceParams& params) {
  return params.law == contact::ContactForceLaw::kHertz && params.hertz.implicit_friction;
}

}  // namespace

void ForceLawAcceleration(const Model& model, const contact::Terrain& terrain,
                          const contact::ContactForceParams& params, double dt,
                          const StepInputs& inputs, const Eigen::VectorXd& q,
                          const Eigen::VectorXd& v, std::span<contact::ContactState> states,
                          StepWorkspace& w) {
  StageAcceleration(model, terrain, params, dt, inputs, q, v, states,
                    ImplicitFriction(params) ? HeldFriction::kSolve : HeldFriction::kNone, w);
}

void ExplicitStep(const Model& model, const contact::Terrain& terrain,
                  const contact::ContactForceParams& params, Integrator integrator, double dt,
                  const StepInputs& inputs, Eigen::VectorXd& q, Eigen::VectorXd& v,
                  std::span<contact::ContactState> states, StepWorkspace& w) {
  std::span<contact::ContactState> stage_states(w.force_law.stage_states.data(), states.size());
  const HeldFriction later = ImplicitFriction(params) ? HeldFriction::kHold : HeldFriction::kNone;
  auto accel_at = [&](const Eigen::VectorXd& qq, const Eigen::VectorXd& vv, Eigen::VectorXd& out) {
    std::copy(states.begin(), states.end(), stage_states.begin());
    StageAcceleration(model, terrain, params, dt, inputs, qq, vv, stage_states, later, w);
    out = w.data.qacc;
  };

  // The integrator's first stage, at the step's start, also advances the
  // contact memory.
  ForceLawAcceleration(model, terrain, params, dt, inputs, q, v, states, w);
  if (integrator != Integrator::kSemiImplicitEuler) w.force_law.k_a[0] = w.data.qacc;

  switch (integrator) {
    case Integrator::kSemiImplicitEuler:
      // v⁺ = v + Δt q̈, q⁺ = q ⊕ Δt v⁺.
      v += dt * w.data.qacc;
      IntegrateConfiguration(model, q, v, dt);
      break;
    case Integrator::kHeun: {
      // 001's explicit second-order scheme: predictor (q ⊕ Δt v, v + Δt a₁),
      // corrector with the average slopes.
      w.force_law.q_stage = q;
      IntegrateConfiguration(model, w.force_law.q_stage, v, dt);
      w.v_stage = v + dt * w.force_law.k_a[0];
      accel_at(w.force_law.q_stage, w.v_stage, w.force_law.k_a[1]);
      w.force_law.v_sum = 0.5 * (v + w.v_stage);
      v += 0.5 * dt * (w.force_law.k_a[0] + w.force_law.k_a[1]);
      IntegrateConfiguration(model, q, w.force_law.v_sum, dt);
      break;
    }
    case Integrator::kRk4: {
      w.force_law.k_v[0] = v;
      const double half = 0.5 * dt;
      for (int s = 1; s < 4; ++s) {
        const double h = s == 3 ? dt : half;
        w.force_law.q_stage = q;
        IntegrateConfiguration(model, w.force_law.q_stage, w.force_law.k_v[s - 1], h);
        w.force_law.k_v[s] = v + h * w.force_law.k_a[s - 1];
        accel_at(w.force_law.q_stage, w.force_law.k_v[s], w.force_law.k_a[s]);
      }
      w.force_law.v_sum = (w.force_law.k_v[0] + 2.0 * w.force_law.k_v[1] +
                           2.0 * w.force_law.k_v[2] + w.force_law.k_v[3]) /
                          6.0;
      v += dt / 6.0 *
           (w.force_law.k_a[0] + 2.0 * w.force_law.k_a[1] + 2.0 * w.force_law.k_a[2] +
            w.force_law.k_a[3]);
      IntegrateConfiguration(model, q, w.force_law.v_sum, dt);
      break;
    }
  }
  NormalizeConfiguration(model, q);
}

}  // namespace moreau::step
