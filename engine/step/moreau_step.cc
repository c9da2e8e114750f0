#include "engine/step/moreau_step.h"

#include "engine/contact/contact_set.h"
#include "engine/dynamics/configuration.h"
#include "engine/dynamics/crba.h"
#include "engine/dynamics/jacobians.h"
#include "engine/dynamics/kinematics.h"
#include "engine/dynamics/rnea.h"
#include "engine/step/delassus.h"

namespace moreau::step {

absl::Status MoreauStep(const Model& model, const contact::Terrain& terrain,
                        const contact::ProxParams& prox, const contact::ContactLaw& law, double dt,
                        const StepInputs& inputs, Eigen::VectorXd& q, Eigen::VectorXd& v,
                        std::span<double> impulses, StepWorkspace& w) {
  Data& data = w.data;
  // 000 eq. 6: the midpoint q_M = q_S + ½Δt F(q_S) u_S.
  IntegrateConfiguration(model, q, v, 0.5 * dt);

  // Kinematics once at the midpoint (X_up, X_0, body twists), shared by
  // CRBA, RNEA and the contact Jacobians.
  ForwardKinematics(model, data, q, v);

  // Smooth dynamics at the midpoint: M (CRBA, factored) and h = τ − c − g
  // (000 eq. 1: M u̇ = h + W λ).
  CrbaFromKinematics(model, data);
  if (!FactorMassMatrix(model, data)) {
    return absl::FailedPreconditionError("mass matrix is not positive definite at the midpoint");
  }
  w.h = -NonlinearEffectsFromKinematics(model, data);
  if (inputs.tau != nullptr) w.h += *inputs.tau;
  if (inputs.f_ext != nullptr) {
    ExternalWrenchForce(model, data, *inputs.f_ext, w.tau_total);
    w.h -= w.tau_total;  // ExternalWrenchForce gives −Σ Jᵀ f_ext
  }

  // Contacts closed at the midpoint: g_N(q_M) ≤ 0 (000 eq. 10), and also
  // those the motion would carry through the surface by the step's end,
  // g_N(q_M) + ½Δt γ_N ≤ 0: an impact then stops at the surface instead of
  // up to v Δt inside it (the midpoint rule alone leaves that penetration).
  ContactJacobiansFromKinematics(model, data);
  contact::DetectContacts(model, data, terrain, w.contacts);
  contact::ComputeContactVelocities(model, data, v, w.contacts);
  const int nv = model.nv;
  int nc = 0;
  for (int k = 0; k < w.contacts.capacity(); ++k) {
    contact::Contact& ct = w.contacts.contacts[k];
    ct.force.setZero();
    ct.active = ct.active || ct.gap + 0.5 * dt * ct.gamma_N <= 0.0;
    if (!ct.active) {
      for (int l = 0; l < 3; ++l) impulses[3 * k + l] = 0.0;
      continue;
    }
    w.active[nc] = k;
    // W columns (000 eq. 2): w = Jᵀ n, Jᵀ t1, Jᵀ t2 at the midpoint, nonzero
    // only on the support path of the contact's body.
    w.support_len[nc] =
        SupportDofs(model, data, model.contact_points[k].body, w.support.data() + nc * nv);
    // γ_S = Wᵀ u_S: the contact-point velocity J v in the contact frame.
    w.gamma_S[3 * nc] = ct.normal.dot(ct.velocity);
    w.gamma_S[3 * nc + 1] = ct.t1.dot(ct.velocity);
    w.gamma_S[3 * nc + 2] = ct.t2.dot(ct.velocity);
    for (int l = 0; l < 3; ++l) w.Lambda[3 * nc + l] = impulses[3 * k + l];
    w.laws[nc] = law;
    ++nc;
  }

  // u_free = u_S + M⁻¹ h Δt (000 eq. 11 without contact).
  w.u_free = w.h * dt;
  SolveMassMatrix(data, w.u_free);
  w.u_free += v;

  w.last_prox = contact::ProxResult{};
  if (nc > 0) {
    const int n = 3 * nc;
    const std::span<const int> active(w.active.data(), nc);
    const std::span<const int> support(w.support.data(), nc * nv);
    const std::span<const int> support_len(w.support_len.data(), nc);
    // 000 eq. 12: γ_E = Wᵀ u_E = c + G Λ with G = Wᵀ M⁻¹ W, c = Wᵀ u_free.
    AssembleDelassus(data, w.contacts, active, support, support_len, w.Y.leftCols(n),
                     w.G.topLeftCorner(n, n));
    ContactSpaceVelocity(data, w.contacts, active, support, support_len, w.u_free, w.c.head(n));
    w.last_prox =
        w.prox.Solve(prox, std::span<const contact::ContactLaw>(w.laws.data(), nc),
                     w.G.topLeftCorner(n, n), w.c.head(n), w.gamma_S.head(n), w.Lambda.head(n));
    // 000 eq. 11: u_E = u_free + M⁻¹ W Λ.
    GeneralizedImpulse(data, w.contacts, active, support, support_len, w.Lambda.head(n),
                       w.W_Lambda);
    SolveMassMatrix(data, w.W_Lambda);
    w.u_free += w.W_Lambda;
    for (int a = 0; a < nc; ++a) {
      const int k = w.active[a];
      contact::Contact& ct = w.contacts.contacts[k];
      for (int l = 0; l < 3; ++l) impulses[3 * k + l] = w.Lambda[3 * a + l];
      ct.force = (w.Lambda[3 * a] * ct.normal + w.Lambda[3 * a + 1] * ct.t1 +
                  w.Lambda[3 * a + 2] * ct.t2) /
                 dt;
    }
  }
  v = w.u_free;
  // 000 eq. 7: q_E = q_M + ½Δt F(q_M) u_E.
  IntegrateConfiguration(model, q, v, 0.5 * dt);
  NormalizeConfiguration(model, q);
  return absl::OkStatus();
}

}  // namespace moreau::step
