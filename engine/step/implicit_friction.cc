#include "engine/step/implicit_friction.h"

#include <algorithm>
#include <cmath>

#include "engine/dynamics/crba.h"
#include "engine/dynamics/jacobians.h"
#include "engine/step/delassus.h"
#include "engine/util/finite.h"

namespace moreau::step {
namespace {

// Newton's method on the coupled contacts: at most this many iterations,
// until every residual is below kVelocityTolerance (m/s) plus
// kRelativeTolerance of the largest free slip speed; each step halved at
// most kMaxHalvings times while it does not reduce the residual.
constexpr int kMaxIterations = 50;
constexpr int kMaxHalvings = 30;
constexpr double kVelocityTolerance = 1e-12;
constexpr double kRelativeTolerance = 1e-10;

// phi = φ(v) and friction_H = ∂φ/∂v per contact (HertzFrictionAndJacobian);
// returns the residual R = v − c + A φ in w.friction.R's place `residual`.
double Residual(const contact::HertzParams& params, const Eigen::VectorXd& v, StepWorkspace& w,
                Eigen::VectorXd& residual) {
  const int contacts = static_cast<int>(w.friction.fn.size());
  for (int a = 0; a < contacts; ++a) {
    Eigen::Vector2d phi;
    Eigen::Matrix2d H;
    contact::HertzFrictionAndJacobian(params, w.friction.fn[a], v.segment<2>(2 * a), phi, H);
    w.friction.phi.segment<2>(2 * a) = phi;
    w.friction.H.block<2, 2>(0, 2 * a) = H;
  }
  residual = v - w.friction.c;
  residual.noalias() += w.friction.A * w.friction.phi;
  return residual.lpNorm<Eigen::Infinity>();
}

// Solves v⁺ = c + A λ, λ = −φ(v⁺) for v⁺ (all contacts at once) by Newton's
// method from v⁺ = 0, J = I + A H; leaves λ in w.friction.phi (as φ(v⁺)) and
// the iterations and convergence in w.friction.last_*. For μ_d ≥ μ_s, φ is
// the gradient of a convex potential: H is symmetric positive semi-definite,
// J = A (A⁻¹ + H) is nonsingular and the root unique. For μ_d < μ_s (a
// falling friction curve) the root need not be unique and the solver returns
// the one it reaches from rest. Each step is halved until the residual
// decreases; a step that never does (or is not finite) ends the solve at the
// last iterate, reported as not converged.
void SolveFriction(const contact::HertzParams& params, StepWorkspace& w) {
  const int m = static_cast<int>(w.friction.v.size());
  const double tolerance =
      kVelocityTolerance + kRelativeTolerance * w.friction.c.lpNorm<Eigen::Infinity>();
  w.friction.v.setZero();
  double norm = Residual(params, w.friction.v, w, w.friction.R);
  int iterations = 0;
  while (iterations < kMaxIterations && norm > tolerance) {
    ++iterations;
    w.friction.J.setIdentity();
    for (int b = 0; b < m / 2; ++b) {
      w.friction.J.middleCols<2>(2 * b).noalias() +=
          w.friction.A.middleCols<2>(2 * b) * w.friction.H.block<2, 2>(0, 2 * b);
    }
    w.friction.lu.compute(w.friction.J);
    w.friction.step = w.friction.lu.solve(w.friction.R);
    bool improved = false;
    if (AllFinite(w.friction.step)) {
      double t = 1.0;
      for (int halving = 0; halving <= kMaxHalvings && !improved; ++halving, t *= 0.5) {
        w.friction.trial = w.friction.v - t * w.friction.step;
        const double trial_norm = Residual(params, w.friction.trial, w, w.friction.R);
        if (trial_norm < norm) {  // false for NaN
          norm = trial_norm;
          w.friction.v = w.friction.trial;  // friction_phi and friction_R are at it
          improved = true;
        }
      }
    }
    if (!improved) {
      Residual(params, w.friction.v, w, w.friction.R);  // φ back at the last iterate
      break;
    }
  }
  w.friction.last_iterations = iterations;
  w.friction.last_converged = norm <= tolerance;
}

}  // namespace

void AddHeldFriction(StepWorkspace& w) {
  for (int k = 0; k < w.contacts.capacity(); ++k) {
    contact::Contact& ct = w.contacts.contacts[k];
    if (ct.active) ct.force += w.friction.force[k];
  }
}

bool AddHertzImplicitFriction(const Model& model, const contact::HertzParams& params, double dt,
                              StepWorkspace& w) {
  Data& data = w.data;
  const int nv = model.nv;
  int nc = 0;
  w.friction.tau.setZero();
  w.friction.last_iterations = 0;
  w.friction.last_converged = true;
  for (int k = 0; k < w.contacts.capacity(); ++k) {
    w.friction.force[k].setZero();
    if (!w.contacts.contacts[k].active) continue;
    w.active[nc] = k;
    w.support_len[nc] =
        SupportDofs(model, data, model.contact_points[k].body, w.support.data() + nc * nv);
    ++nc;
  }
  if (nc == 0) return true;
  const int n = 3 * nc;
  // M = LᵀDL at the stage's q and the contacts' Delassus matrix
  // G = Wᵀ M⁻¹ W (000 eq. 12) from the world joint axes.
  if (!CrbaFactor(model, data)) return false;
  ComputeJointAxesWorld(model, data);
  const auto [active, support, support_len] = ActiveContactsOf(w, nc, nv);
  AssembleDelassus(data, w.contacts, active, support, support_len, w.Y.leftCols(0),
                   w.Y_path.leftCols(2 * n), w.G.topLeftCorner(n, n));
  // The slip velocities at the step's end without friction,
  // c = γ_T + Δt W_Tᵀ q̈₀, and A = Δt G_TT (padded with zeros to every
  // contact slot of the model: no allocation, J = I there).
  ContactSpaceVelocity(data, w.contacts, active, support, support_len, data.qacc, w.c.head(n));
  w.friction.A.setZero();
  w.friction.c.setZero();
  w.friction.fn.setZero();
  for (int a = 0; a < nc; ++a) {
    const contact::Contact& ct = w.contacts.contacts[active[a]];
    w.friction.c.segment<2>(2 * a) = ct.gamma_T + dt * w.c.segment<2>(3 * a + 1);
    w.friction.fn[a] = ct.force.dot(ct.normal);
    for (int b = 0; b < nc; ++b) {
      w.friction.A.block<2, 2>(2 * a, 2 * b) = dt * w.G.block<2, 2>(3 * a + 1, 3 * b + 1);
    }
  }
  SolveFriction(params, w);
  auto Lambda = w.Lambda.head(n);
  for (int a = 0; a < nc; ++a) {
    Lambda[3 * a] = 0.0;
    Lambda.segment<2>(3 * a + 1) = -w.friction.phi.segment<2>(2 * a);
  }
  // q̈ = q̈₀ + M⁻¹ W_T λ_T = q̈₀ + L⁻¹ D⁻¹ (Y λ) (delassus.h); W_T λ_T and
  // the contacts' friction forces λ_T1 t1 + λ_T2 t2 kept for the step's
  // later stages (AddHeldFriction).
  PathImpulse(support, support_len, w.Y_path.leftCols(n), Lambda, w.W_Lambda);
  SolveMassMatrixFromHalf(data, w.W_Lambda);
  data.qacc += w.W_Lambda;
  GeneralizedImpulse(data, w.contacts, active, support, support_len, Lambda, w.friction.tau);
  for (int a = 0; a < nc; ++a) {
    contact::Contact& ct = w.contacts.contacts[active[a]];
    w.friction.force[active[a]] = Lambda[3 * a + 1] * ct.t1 + Lambda[3 * a + 2] * ct.t2;
    ct.force += w.friction.force[active[a]];
  }
  return true;
}

}  // namespace moreau::step
