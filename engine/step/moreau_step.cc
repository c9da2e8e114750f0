#include "engine/step/moreau_step.h"

#include <algorithm>
#include <limits>

#include "absl/strings/str_cat.h"
#include "engine/contact/contact_set.h"
#include "engine/dynamics/configuration.h"
#include "engine/dynamics/crba.h"
#include "engine/dynamics/jacobians.h"
#include "engine/dynamics/kinematics.h"
#include "engine/dynamics/loop_closure.h"
#include "engine/step/contact_activation.h"
#include "engine/step/delassus.h"
#include "engine/step/stages.h"
#include "engine/util/status_macros.h"

namespace moreau::step {

absl::Status ValidateBilateral(const Model& model, const BilateralInputs& bilateral,
                               const StepWorkspace& w) {
  const int nj = static_cast<int>(bilateral.joints.dofs.size());
  const int nl = kLoopRows * static_cast<int>(model.loop_closures.size());
  const int nb = nj + nl;
  if (nb > w.max_bilateral || bilateral.joints.v_des.size() != static_cast<size_t>(nj) ||
      bilateral.joints.bound.size() != static_cast<size_t>(nj) ||
      bilateral.impulses.size() < static_cast<size_t>(nb)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "bilateral rows: ", nj, " joint rows (", bilateral.joints.v_des.size(), " targets, ",
        bilateral.joints.bound.size(), " bounds) and ", nl, " loop rows for a workspace of ",
        w.max_bilateral, " with ", bilateral.impulses.size(), " impulses"));
  }
  return absl::OkStatus();
}

void ProxContactSolve(const Model& model, const contact::ProxParams& prox,
                      const contact::ContactLaw& law, double dt, const BilateralInputs& bilateral,
                      const ActiveSet& set, const Eigen::VectorXd& v, std::span<double> impulses,
                      StepWorkspace& w) {
  Data& data = w.data;
  const int nv = model.nv;
  const int nc = set.nc;
  const int nj = static_cast<int>(bilateral.joints.dofs.size());
  const int nl = kLoopRows * static_cast<int>(model.loop_closures.size());
  const int nb = nj + nl;
  Eigen::Map<Eigen::VectorXd> bilateral_impulses(bilateral.impulses.data(), nb);
  for (int a = 0; a < nc; ++a) {
    const contact::Contact& ct = w.contacts.contacts[w.active[a]];
    // γ_S = Wᵀ u_S: the contact-point velocity J v in the contact frame.
    w.gamma_S[3 * a] = ct.normal.dot(ct.velocity);
    w.gamma_S[3 * a + 1] = ct.t1.dot(ct.velocity);
    w.gamma_S[3 * a + 2] = ct.t2.dot(ct.velocity);
    w.prox.laws[a] = law;
  }

  // z = L⁻ᵀ h Δt (w.W_Lambda until the impulse), so that M⁻¹ h Δt =
  // L⁻¹ D⁻¹ z (SolveMassMatrixFromHalf). u_free = u_S + M⁻¹ h Δt (000 eq. 11
  // without contact) is formed only for the bilateral rows: the contact rows
  // take Wᵀ u_free = Wᵀ u_S + Yᵀ D⁻¹ z (AddPathVelocity) and the end velocity
  // u_E = u_S + L⁻¹ D⁻¹ (z + Y Λ), one solve.
  w.W_Lambda = w.h * dt;
  SolveMassMatrixHalf(data, w.W_Lambda);
  if (nb > 0) {
    w.u_free = w.W_Lambda;
    SolveMassMatrixFromHalf(data, w.u_free);
    w.u_free += v;
  }

  // Bilateral rows (000 eq. 19–20) at the midpoint: B's columns, their
  // supports, targets and impulse boxes.
  const int n = 3 * nc;
  const int nt = n + nb;
  const int* L_cols = data.L_cols.data();
  for (int r = 0; r < nj; ++r) {
    // 002: e_jᵀ u_E = v_des,j with |Λ_j| ≤ τ_max Δt. b_r = e_j, supported on
    // j and its ancestors (SupportDofs of the joint's body).
    const int j = bilateral.joints.dofs[r];
    int* dofs = w.bilateral.row_support.data() + r * nv;
    const int len = data.L_row_len[j];
    dofs[0] = j;
    for (int t = 0; t < len; ++t) dofs[1 + t] = L_cols[data.L_row_adr[j] + t];
    w.bilateral.row_support_len[r] = len + 1;
    for (int s = 0; s <= len; ++s) w.bilateral.B(dofs[s], r) = 0.0;
    w.bilateral.B(j, r) = 1.0;
    w.c[n + r] = w.u_free[j] - bilateral.joints.v_des[r];
    w.bilateral.row_lo[r] = -bilateral.joints.bound[r];
    w.bilateral.row_hi[r] = bilateral.joints.bound[r];
  }
  constexpr double kInf = std::numeric_limits<double>::infinity();
  for (size_t l = 0; l < model.loop_closures.size(); ++l) {
    const LoopClosure& loop = model.loop_closures[l];
    // 004 §3.1: the cut joint's rows J_φ and position error φ at q_M.
    LoopClosureRows(model, data, loop, w.bilateral.loop_J, w.bilateral.loop_phi);
    // Support: the union of both bodies' paths, in decreasing DOF order.
    for (int b : {loop.body_a, loop.body_b}) {
      for (int i = b; i > 0; i = model.parent[i]) {
        const int nvi = model.joint_type[i] == JointType::kFree ? 6 : 1;
        for (int k = 0; k < nvi; ++k) w.bilateral.dof_mark[model.v_index[i] + k] = 1;
      }
    }
    const int r0 = nj + kLoopRows * static_cast<int>(l);
    int* dofs = w.bilateral.row_support.data() + r0 * nv;
    int len = 0;
    for (int k = nv - 1; k >= 0; --k) {
      if (w.bilateral.dof_mark[k] != 0) dofs[len++] = k;
      w.bilateral.dof_mark[k] = 0;
    }
    for (int i = 0; i < kLoopRows; ++i) {
      const int r = r0 + i;
      if (i > 0) std::copy(dofs, dofs + len, w.bilateral.row_support.data() + r * nv);
      w.bilateral.row_support_len[r] = len;
      for (int s = 0; s < len; ++s) w.bilateral.B(dofs[s], r) = w.bilateral.loop_J(i, dofs[s]);
      // Target −φ/(½Δt): q_E = q_M + ½Δt u_E then closes the loop to first order.
      w.c[n + r] = w.bilateral.loop_J.row(i).dot(w.u_free) + w.bilateral.loop_phi[i] / (0.5 * dt);
      w.bilateral.row_lo[r] = -kInf;
      w.bilateral.row_hi[r] = kInf;
    }
  }

  w.prox.last = contact::ProxResult{};
  if (nt > 0) {
    const auto [active, support, support_len] = ActiveContactsOf(w, nc, nv);
    const std::span<const int> row_support(w.bilateral.row_support.data(), nb * nv);
    const std::span<const int> row_support_len(w.bilateral.row_support_len.data(), nb);
    auto G = w.G.topLeftCorner(nt, nt);
    // 000 eq. 12: γ_E = Wᵀ u_E = c + G Λ with G = Wᵀ M⁻¹ W, c = Wᵀ u_free.
    if (nc > 0) {
      // Y's full columns only for the bilateral rows' assembly.
      AssembleDelassus(data, w.contacts, active, support, support_len, w.Y.leftCols(nb > 0 ? n : 0),
                       w.Y_path.leftCols(2 * n), w.G.topLeftCorner(n, n));
      if (nb > 0) {
        ContactSpaceVelocity(data, w.contacts, active, support, support_len, w.u_free, w.c.head(n));
      } else {
        // Wᵀ u_S is γ_S, formed above from the contact velocities.
        w.c.head(n) = w.gamma_S.head(n);
        AddPathVelocity(support, support_len, w.Y_path.leftCols(2 * n), w.W_Lambda, w.c.head(n));
      }
    }
    if (nb > 0) {
      AssembleBilateralRows(data, w.bilateral.B.leftCols(nb), row_support, row_support_len, n,
                            w.Y.leftCols(nt), G);
      w.Lambda.segment(n, nb) = bilateral_impulses;
    }
    const std::span<const contact::ContactLaw> laws(w.prox.laws.data(), nc);
    if (bilateral.loop_solver == LoopSolver::kDirect && nl > 0) {
      // Λ_L = −G_LL⁻¹ (c_L + G_LR Λ_R): the loop block eliminated (a Schur
      // complement), the rest (contacts, joint rows) by prox iteration.
      const int nr = n + nj;
      w.bilateral.G_LL = G.bottomRightCorner(nl, nl);
      auto Z = w.bilateral.Z.leftCols(nr);
      Z = G.bottomLeftCorner(nl, nr);
      w.bilateral.z = w.c.segment(nr, nl);
      double g_max = 1.0;
      for (int l = 0; l < nl; ++l) g_max = std::max(g_max, w.bilateral.G_LL(l, l));
      for (int l = 0; l < nl; ++l) {
        if (w.bilateral.G_LL(l, l) > 1e-14 * g_max) continue;
        // A row whose Jacobian vanishes (out of a planar mechanism's plane):
        // dropped, Λ_l = 0.
        w.bilateral.G_LL.row(l).setZero();
        w.bilateral.G_LL.col(l).setZero();
        w.bilateral.G_LL(l, l) = 1.0;
        Z.row(l).setZero();
        w.bilateral.z[l] = 0.0;
      }
      w.bilateral.ldlt.compute(w.bilateral.G_LL);
      w.bilateral.ldlt.solveInPlace(Z);
      w.bilateral.ldlt.solveInPlace(w.bilateral.z);
      G.topLeftCorner(nr, nr).noalias() -= G.topRightCorner(nr, nl) * Z;
      w.c.head(nr).noalias() -= G.topRightCorner(nr, nl) * w.bilateral.z;
      w.prox.last = w.prox.solver.Solve(prox, laws, G.topLeftCorner(nr, nr), w.c.head(nr),
                                        w.gamma_S.head(n), w.Lambda.head(nr),
                                        w.bilateral.row_lo.head(nj), w.bilateral.row_hi.head(nj));
      auto Lambda_L = w.Lambda.segment(nr, nl);
      Lambda_L = -w.bilateral.z;
      Lambda_L.noalias() -= Z * w.Lambda.head(nr);
    } else {
      w.prox.last =
          w.prox.solver.Solve(prox, laws, G, w.c.head(nt), w.gamma_S.head(n), w.Lambda.head(nt),
                              w.bilateral.row_lo.head(nb), w.bilateral.row_hi.head(nb));
    }
    // 000 eq. 11: u_E = u_free + M⁻¹ (W Λ + B Λ_B), where
    // M⁻¹ [W B] Λ = L⁻¹ D⁻¹ (Y Λ) with the assembly's Y = L⁻ᵀ [W B];
    // without bilateral rows u_E = u_S + L⁻¹ D⁻¹ (z + Y Λ).
    if (nb > 0) {
      w.W_Lambda.noalias() = w.Y.leftCols(nt) * w.Lambda.head(nt);
      bilateral_impulses = w.Lambda.segment(n, nb);
      SolveMassMatrixFromHalf(data, w.W_Lambda);
      w.u_free += w.W_Lambda;
    } else {
      PathImpulse(support, support_len, w.Y_path.leftCols(n), w.Lambda.head(n), w.u_free);
      w.W_Lambda += w.u_free;
    }
    RecordContactImpulses(active, w.Lambda.head(n), dt, w.contacts, impulses);
  }
  if (nb == 0) {
    // u_E = u_S + L⁻¹ D⁻¹ z', z' = z (+ Y Λ with contacts).
    SolveMassMatrixFromHalf(data, w.W_Lambda);
    w.u_free = v + w.W_Lambda;
  }
}

namespace {

bool HasNonFootSlots(const Model& model) {
  return !model.contact_points.empty() && !model.contact_points.back().foot;
}

}  // namespace

absl::Status MoreauStep(const Model& model, const contact::Terrain& terrain,
                        const contact::ProxParams& prox, const contact::ContactLaw& law, double dt,
                        const StepInputs& inputs, Eigen::VectorXd& q, Eigen::VectorXd& v,
                        std::span<double> impulses, StepWorkspace& w,
                        const BilateralInputs& bilateral) {
  MOREAU_RETURN_IF_ERROR(ValidateBilateral(model, bilateral, w));
  // 000 eq. 6: the midpoint q_M = q_S + ½Δt F(q_S) u_S.
  IntegrateConfiguration(model, q, v, 0.5 * dt);
  // Positions and velocities once at the midpoint (X_up, X_0, body twists),
  // shared by CRBA, RNEA and the contact quantities.
  ForwardKinematics(model, w.data, q, v);
  // M (CRBA, factored) and h = τ − c − g at the midpoint (000 eq. 1:
  // M u̇ = h + W λ).
  MOREAU_RETURN_IF_ERROR(SmoothDynamics(model, w.data));
  Actuation(model, inputs, w);
  // Contacts at the midpoint; their velocities from the body twists. W's
  // columns come from the world joint axes (AssembleDelassus), so no contact
  // Jacobian is formed.
  ComputeJointAxesWorld(model, w.data);
  ContactDetection(model, terrain, /*horizon=*/0.5 * dt, w);
  contact::ComputeContactVelocities(model, w.data, w.contacts);
  // Closed at the midpoint, g_N(q_M) ≤ 0 (000 eq. 10), or carried through
  // the surface by the step's end, g_N(q_M) + ½Δt γ_N ≤ 0 (the midpoint
  // rule alone leaves that penetration).
  const ActiveSet set = ActivateContacts(model, {.horizon = 0.5 * dt}, impulses, w);
  // Many coupled slots (whole-body collision) make JOR's diagonal step
  // diverge; the row-sum step keeps it a contraction (prox_solver.h).
  contact::ProxParams params = prox;
  params.row_sum_step = prox.row_sum_step || HasNonFootSlots(model);
  ProxContactSolve(model, params, law, dt, bilateral, set, v, impulses, w);
  // 000 eq. 7: q_E = q_M + ½Δt F(q_M) u_E.
  Integrate(model, 0.5 * dt, w, q, v);
  return absl::OkStatus();
}

}  // namespace moreau::step
