#include "engine/step/least_constraint_step.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "engine/contact/contact_set.h"
#include "engine/dynamics/configuration.h"
#include "engine/dynamics/crba.h"
#include "engine/dynamics/jacobians.h"
#include "engine/dynamics/kinematics.h"
#include "engine/step/contact_activation.h"
#include "engine/step/delassus.h"
#include "engine/step/stages.h"
#include "engine/util/status_macros.h"

namespace moreau::step {
namespace {

void Accumulate(contact::QpResult& total, const contact::QpResult& r) {
  total.iterations += r.iterations;
  total.converged = total.converged && r.converged;
  total.residual = std::max(total.residual, r.residual);
}

// params.qp with max_iterations cut to what is left of a budget of `budget`
// iterations after `spent`.
contact::QpParams WithinBudget(const contact::QpParams& qp, int budget, int spent) {
  contact::QpParams limited = qp;
  limited.max_iterations = std::min(qp.max_iterations, budget - spent);
  return limited;
}

// Λ minimizing ½ Λᵀ G Λ + bᵀ Λ (004 eq. 18 for forces in impulse units, eq.
// 24 for the impact) over the active contacts listed in `sel` (positions in
// w.active; the others' entries of Λ are left alone), with Λ_N ≥ 0 and
// Coulomb friction coupled as params.friction says. G: 3 n_c × 3 n_c, b and
// Lambda: 3 n_c (Lambda in: the warm start). At most `budget` ≥ 1 QP
// iterations in all: each QP is cut to what is left, and the alternation
// stops when nothing is.
contact::QpResult SolveContactQp(const LeastConstraintParams& params,
                                 Eigen::Ref<const Eigen::MatrixXd> G,
                                 Eigen::Ref<const Eigen::VectorXd> b, std::span<const int> sel,
                                 Eigen::Ref<Eigen::VectorXd> Lambda, int budget, StepWorkspace& w) {
  contact::QpResult total{0, true, 0.0};
  const int m = static_cast<int>(sel.size());
  if (m == 0) return total;
  double mean_diag = 0.0;
  for (int a : sel)
    mean_diag += G(3 * a, 3 * a) + G(3 * a + 1, 3 * a + 1) + G(3 * a + 2, 3 * a + 2);
  const double eps = params.regularization * mean_diag / (3 * m);

  if (params.friction == FrictionCoupling::kCone) {
    // 004 §2.1.1: one QP with the friction cone ‖λ_T‖ ≤ μ λ_N.
    const int n = 3 * m;
    for (int a = 0; a < m; ++a) {
      for (int c = 0; c < m; ++c) {
        w.qp.P.block<3, 3>(3 * a, 3 * c) = G.block<3, 3>(3 * sel[a], 3 * sel[c]);
      }
      w.qp.q.segment<3>(3 * a) = b.segment<3>(3 * sel[a]);
      w.qp.x.segment<3>(3 * a) = Lambda.segment<3>(3 * sel[a]);
      w.qp.blocks[a] = {contact::ConeKind::kFrictionCone, params.mu};
    }
    w.qp.P.topLeftCorner(n, n).diagonal().array() += eps;
    Accumulate(total, w.qp.solver.Solve(
                          WithinBudget(params.qp, budget, 0), std::span(w.qp.blocks.data(), m),
                          w.qp.P.topLeftCorner(n, n), w.qp.q.head(n), w.qp.x.head(n)));
    for (int a = 0; a < m; ++a) Lambda.segment<3>(3 * sel[a]) = w.qp.x.segment<3>(3 * a);
    return total;
  }

  // Staggered projections: P_N = G_NN, P_T = G_TT over the selection.
  for (int a = 0; a < m; ++a) {
    for (int c = 0; c < m; ++c) {
      w.qp.P(a, c) = G(3 * sel[a], 3 * sel[c]);
      w.qp.P2.block<2, 2>(2 * a, 2 * c) = G.block<2, 2>(3 * sel[a] + 1, 3 * sel[c] + 1);
    }
  }
  w.qp.P.topLeftCorner(m, m).diagonal().array() += eps;
  w.qp.P2.topLeftCorner(2 * m, 2 * m).diagonal().array() += eps;
  // The warm start is kept only when its objective ½ ΛᵀGΛ + bᵀΛ is at most
  // Λ = 0's, as QpSolver does for each of the QPs below: a stale or hostile Λ
  // (a state blob's impulses) would otherwise enter the normal QP through
  // G_NT Λ_T before any projection.
  double objective = 0.0;
  for (int a = 0; a < m; ++a) {
    Eigen::Vector3d GLambda = Eigen::Vector3d::Zero();
    for (int c = 0; c < m; ++c) {
      GLambda += G.block<3, 3>(3 * sel[a], 3 * sel[c]) * Lambda.segment<3>(3 * sel[c]);
    }
    objective += Lambda.segment<3>(3 * sel[a]).dot(0.5 * GLambda + b.segment<3>(3 * sel[a]));
  }
  if (!(objective <= 0.0)) {
    for (int a : sel) Lambda.segment<3>(3 * a).setZero();
  }
  bool settled = false;
  for (int it = 0; it < params.max_staggered_iterations && !settled && total.iterations < budget;
       ++it) {
    for (int a = 0; a < m; ++a) w.qp.prev.segment<3>(3 * a) = Lambda.segment<3>(3 * sel[a]);
    // Normal QP: min ½ Λ_Nᵀ G_NN Λ_N + Λ_Nᵀ (b_N + G_NT Λ_T), Λ_N ≥ 0.
    for (int a = 0; a < m; ++a) {
      double qa = b[3 * sel[a]];
      for (int c = 0; c < m; ++c) {
        qa += G.block<1, 2>(3 * sel[a], 3 * sel[c] + 1).dot(Lambda.segment<2>(3 * sel[c] + 1));
      }
      w.qp.q[a] = qa;
      w.qp.x[a] = Lambda[3 * sel[a]];
      w.qp.blocks[a] = {contact::ConeKind::kNonnegative, 0.0};
    }
    Accumulate(total,
               w.qp.solver.Solve(WithinBudget(params.qp, budget, total.iterations),
                                 std::span(w.qp.blocks.data(), m), w.qp.P.topLeftCorner(m, m),
                                 w.qp.q.head(m), w.qp.x.head(m)));
    for (int a = 0; a < m; ++a) Lambda[3 * sel[a]] = w.qp.x[a];
    if (total.iterations >= budget) break;
    // Friction QP: min ½ Λ_Tᵀ G_TT Λ_T + Λ_Tᵀ (b_T + G_TN Λ_N), ‖Λ_T,i‖ ≤ μ Λ_N,i.
    for (int a = 0; a < m; ++a) {
      Eigen::Vector2d qa = b.segment<2>(3 * sel[a] + 1);
      for (int c = 0; c < m; ++c) {
        qa += G.block<2, 1>(3 * sel[a] + 1, 3 * sel[c]) * Lambda[3 * sel[c]];
      }
      w.qp.q.segment<2>(2 * a) = qa;
      w.qp.x.segment<2>(2 * a) = Lambda.segment<2>(3 * sel[a] + 1);
      w.qp.blocks[a] = {contact::ConeKind::kDisc, params.mu * Lambda[3 * sel[a]]};
    }
    Accumulate(total, w.qp.solver.Solve(WithinBudget(params.qp, budget, total.iterations),
                                        std::span(w.qp.blocks.data(), m),
                                        w.qp.P2.topLeftCorner(2 * m, 2 * m), w.qp.q.head(2 * m),
                                        w.qp.x.head(2 * m)));
    double change = 0.0, size = 0.0;
    for (int a = 0; a < m; ++a) {
      Lambda.segment<2>(3 * sel[a] + 1) = w.qp.x.segment<2>(2 * a);
      change = std::max(
          change,
          (Lambda.segment<3>(3 * sel[a]) - w.qp.prev.segment<3>(3 * a)).lpNorm<Eigen::Infinity>());
      size = std::max(size, Lambda.segment<3>(3 * sel[a]).lpNorm<Eigen::Infinity>());
    }
    settled = change <= 100.0 * (params.qp.abs_tolerance + params.qp.rel_tolerance * size);
  }
  total.converged = total.converged && settled;
  return total;
}

}  // namespace

const char* FrictionCouplingName(FrictionCoupling coupling) {
  switch (coupling) {
    case FrictionCoupling::kCone:
      return "cone";
    case FrictionCoupling::kStaggered:
      return "staggered";
  }
  return "unknown";
}

absl::Status Validate(const LeastConstraintParams& p) {
  if (!(std::isfinite(p.mu) && p.mu >= 0.0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("least_constraint.mu must be finite and ≥ 0, got ", p.mu));
  }
  if (p.friction != FrictionCoupling::kCone && p.friction != FrictionCoupling::kStaggered) {
    return absl::InvalidArgumentError(absl::StrCat(
        "least_constraint.friction must be cone or staggered, got ", static_cast<int>(p.friction)));
  }
  if (!(std::isfinite(p.regularization) && p.regularization >= 0.0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "least_constraint.regularization must be finite and ≥ 0, got ", p.regularization));
  }
  if (!(std::isfinite(p.impact_velocity) && p.impact_velocity >= 0.0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "least_constraint.impact_velocity must be finite and ≥ 0, got ", p.impact_velocity));
  }
  if (p.jdot_passes < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("least_constraint.jdot_passes must be ≥ 1, got ", p.jdot_passes));
  }
  if (p.max_step_qp_iterations < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "least_constraint.max_step_qp_iterations must be ≥ 1, got ", p.max_step_qp_iterations));
  }
  if (p.max_staggered_iterations < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "least_constraint.max_staggered_iterations must be ≥ 1, got ", p.max_staggered_iterations));
  }
  const absl::Status qp = contact::Validate(p.qp);
  if (!qp.ok()) return absl::InvalidArgumentError(absl::StrCat("least_constraint.", qp.message()));
  return absl::OkStatus();
}

void LeastConstraintContactSolve(const Model& model, const LeastConstraintParams& params, double dt,
                                 const ActiveSet& set, const Eigen::VectorXd& q,
                                 const Eigen::VectorXd& v, std::span<double> impulses,
                                 StepWorkspace& w) {
  Data& data = w.data;
  const int nv = model.nv;
  const int nc = set.nc;
  bool approaching = false;
  for (int c = 0; c < set.n_closed; ++c) {
    approaching =
        approaching || w.contacts.contacts[w.active[w.closed[c]]].gamma_N < -params.impact_velocity;
  }
  w.contacts.num_active = nc;
  w.qp.last = contact::QpResult{0, true, 0.0};
  w.qp.last_impact = false;

  // u_free = ν (after an impact: ν⁺) + Δt M⁻¹ (Sτ − h): the end velocity
  // without contact forces (004 eq. 2, Euler).
  w.u_free = v;
  if (nc > 0) {
    const int n = 3 * nc;
    const auto [active, support, support_len] = ActiveContactsOf(w, nc, nv);
    // A = J M⁻¹ Jᵀ in the contact frames (004 eq. 5, 17, 23).
    AssembleDelassus(data, w.contacts, active, support, support_len, w.Y.leftCols(0),
                     w.Y_path.leftCols(2 * n), w.G.topLeftCorner(n, n));
    if (approaching) {
      // 004 eq. 22–24: F = argmin ½ Fᵀ H F + Fᵀ g, H = J M⁻¹ Jᵀ, g = J ν⁻,
      // over the closed contacts with the friction constraints; then
      // ν⁺ = ν⁻ + M⁻¹ Jᵀ F (eq. 19), the projection ν⁺ = N ν⁻ of eq. 8
      // where friction holds every point.
      ContactSpaceVelocity(data, w.contacts, active, support, support_len, v, w.c.head(n));
      w.qp.impact_Lambda.head(n).setZero();
      Accumulate(w.qp.last,
                 SolveContactQp(params, w.G.topLeftCorner(n, n), w.c.head(n),
                                std::span<const int>(w.closed.data(), set.n_closed),
                                w.qp.impact_Lambda.head(n), params.max_step_qp_iterations, w));
      GeneralizedImpulse(data, w.contacts, active, support, support_len, w.qp.impact_Lambda.head(n),
                         w.W_Lambda);
      SolveMassMatrix(data, w.W_Lambda);
      w.u_free += w.W_Lambda;
      w.qp.last_impact = true;
      // J̇ν at the post-impact velocity for eq. 13c (same q: M's factor and
      // the Jacobians stay valid).
      ContactJdotV(model, data, q, w.u_free);
    }
    w.W_Lambda = w.h * dt;
    SolveMassMatrix(data, w.W_Lambda);
    w.u_free += w.W_Lambda;
    // 004 eq. 13c times Δt, in impulse units Λ = λ Δt: the end-of-step
    // contact velocity J ν⁺ + Δt J̇ν = c + G Λ must vanish, with
    //   c = J u_free + Δt J̇ν   (+ g_N / Δt on the normal row of a contact
    // still open, which may close but not cross the surface).
    // J̇ν is 004's at the start velocity in the first pass; later passes take
    // it at the previous pass's ν⁺ (J̇(ν⁺)ν⁺ is what moves the contact points
    // during the step; after an impact or while the legs still flex at
    // landing it differs from J̇(ν)ν by several m/s²).
    ContactSpaceVelocity(data, w.contacts, active, support, support_len, w.u_free,
                         w.gamma_S.head(n));
    for (int pass = 0; pass < params.jdot_passes; ++pass) {
      if (pass > 0) {
        GeneralizedImpulse(data, w.contacts, active, support, support_len, w.Lambda.head(n),
                           w.W_Lambda);
        SolveMassMatrix(data, w.W_Lambda);
        w.v_stage = w.u_free + w.W_Lambda;
        ContactJdotV(model, data, q, w.v_stage);
      }
      for (int a = 0; a < nc; ++a) {
        const int k = w.active[a];
        const contact::Contact& ct = w.contacts.contacts[k];
        const Vec3& jdv = data.contact_Jdot_v[k];
        w.c[3 * a] = w.gamma_S[3 * a] + dt * ct.normal.dot(jdv) + std::max(ct.gap, 0.0) / dt;
        w.c[3 * a + 1] = w.gamma_S[3 * a + 1] + dt * ct.t1.dot(jdv);
        w.c[3 * a + 2] = w.gamma_S[3 * a + 2] + dt * ct.t2.dot(jdv);
        w.qp.select[a] = a;
      }
      const int budget_left = params.max_step_qp_iterations - w.qp.last.iterations;
      if (budget_left < 1) {
        w.qp.last.converged = false;
        break;
      }
      Accumulate(w.qp.last, SolveContactQp(params, w.G.topLeftCorner(n, n), w.c.head(n),
                                           std::span<const int>(w.qp.select.data(), nc),
                                           w.Lambda.head(n), budget_left, w));
    }
    // 004 eq. 9: ν̇ = M⁻¹ (Sτ − h + Jᵀ λ), integrated by Euler.
    GeneralizedImpulse(data, w.contacts, active, support, support_len, w.Lambda.head(n),
                       w.W_Lambda);
    SolveMassMatrix(data, w.W_Lambda);
    w.u_free += w.W_Lambda;
    RecordContactImpulses(active, w.Lambda.head(n), dt, w.contacts, impulses);
  } else {
    w.W_Lambda = w.h * dt;
    SolveMassMatrix(data, w.W_Lambda);
    w.u_free += w.W_Lambda;
  }
}

absl::Status LeastConstraintStep(const Model& model, const contact::Terrain& terrain,
                                 const LeastConstraintParams& params, double dt,
                                 const StepInputs& inputs, Eigen::VectorXd& q, Eigen::VectorXd& v,
                                 std::span<double> impulses, StepWorkspace& w) {
  // Positions and velocities once at (q, v) (X_up, X_0, twists), with J̇v
  // (004 eq. 13c), shared by CRBA, RNEA and the contact quantities.
  ContactJdotV(model, w.data, q, v);
  // M and h = Sτ − (C + G) (004 eq. 1–2: M ν̇_f = Sτ − h).
  MOREAU_RETURN_IF_ERROR(SmoothDynamics(model, w.data));
  Actuation(model, inputs, w);
  // The contacts, and their velocities from the world joint axes, which
  // also form W (delassus.h) without the Jacobians.
  ComputeJointAxesWorld(model, w.data);
  ContactDetection(model, terrain, /*horizon=*/dt, w);
  // The detection moved the witness points of sphere and rim slots: J̇ v
  // again, there (RNEA has overwritten the bias accelerations since).
  if (w.data.has_witness_slots) ContactJdotV(model, w.data, q, v);
  contact::ComputeContactVelocitiesOnPaths(model, w.data, v, w.contacts);
  const ActiveSet set = ActivateContacts(model, {.horizon = dt}, impulses, w);
  LeastConstraintContactSolve(model, params, dt, set, q, v, impulses, w);
  // 004 eq. 9: semi-implicit Euler.
  Integrate(model, dt, w, q, v);
  return absl::OkStatus();
}

}  // namespace moreau::step
