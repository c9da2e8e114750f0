// ADMM for the contact QP (qp_solver.h): the splitting of OSQP (Stellato et
// al. 2020, one of the solvers 004 §4.3 wires in) with constraint matrix
// A = I, i.e. minimize ½xᵀPx + qᵀx + I_K(z) subject to x = z:
//   (P + ρI) x̃ = ρ (z − u) − q
//   x̂ = α x̃ + (1 − α) z                    (over-relaxation, α = 1.6)
//   z⁺ = Π_K(x̂ + u),   u⁺ = u + x̂ − z⁺     (u: scaled dual, y = ρ u)
// ρ starts at mean diag(P) and is rebalanced (×/÷ 4 when the primal residual
// ‖x̃ − z‖ s and the dual residual ρ‖z⁺ − z‖ differ by more than 10×, s =
// mean diag(P)), refactoring P + ρI — a dense Cholesky of at most a few dozen
// unknowns in preallocated storage.
#include <algorithm>
#include <cmath>

#include "engine/contact/qp_solver.h"

namespace moreau::contact {
namespace {

constexpr double kRelaxation = 1.6;  // OSQP's default α
constexpr int kRhoUpdateEvery = 10;

// L (lower) ← chol(P + ρI) in place; P + ρI is positive definite for ρ > 0
// and P ⪰ 0. Returns false on a non-positive pivot (P not PSD). Row by row
// of L: L(j, j) = √(P(j, j) + ρ − Σ_k L(j, k)²), then below it
// L(i, j) = (P(i, j) − Σ_k L(i, k) L(j, k)) / L(j, j), k < j — short dot
// products, for the few dozen unknowns of a contact QP, on raw column-major
// storage (entry (i, k) at i + k·ld).
bool Factor(Eigen::Ref<const Eigen::MatrixXd> P, double rho, int n, Eigen::MatrixXd& L) {
  double* const l = L.data();
  const Eigen::Index ld = L.outerStride();
  const double* const p = P.data();
  const Eigen::Index pd = P.outerStride();
  for (int j = 0; j < n; ++j) {
    double d = p[j + j * pd] + rho;
    for (int k = 0; k < j; ++k) d -= l[j + k * ld] * l[j + k * ld];
    if (!(d > 0.0)) return false;
    const double pivot = std::sqrt(d);
    l[j + j * ld] = pivot;
    for (int i = j + 1; i < n; ++i) {
      double sum = p[i + j * pd];
      for (int k = 0; k < j; ++k) sum -= l[i + k * ld] * l[j + k * ld];
      l[i + j * ld] = sum / pivot;
    }
  }
  return true;
}

// w ← (L Lᵀ)⁻¹ w: L y = w forward, then Lᵀ x = y backward (row i of Lᵀ is
// column i of L, contiguous).
void SolveFactored(const Eigen::MatrixXd& L, int n, Eigen::Ref<Eigen::VectorXd> w) {
  const double* const l = L.data();
  const Eigen::Index ld = L.outerStride();
  double* const x = w.data();
  for (int i = 0; i < n; ++i) {
    double sum = x[i];
    for (int k = 0; k < i; ++k) sum -= l[i + k * ld] * x[k];
    x[i] = sum / l[i + i * ld];
  }
  for (int i = n - 1; i >= 0; --i) {
    const double* const column = l + i * ld;
    double sum = x[i];
    for (int k = i + 1; k < n; ++k) sum -= column[k] * x[k];
    x[i] = sum / column[i];
  }
}

}  // namespace

QpResult QpSolver::SolveAdmm(const QpParams& params, std::span<const ConeBlock> blocks,
                             Eigen::Ref<const Eigen::MatrixXd> P,
                             Eigen::Ref<const Eigen::VectorXd> q, Eigen::Ref<Eigen::VectorXd> x) {
  const int n = static_cast<int>(x.size());
  double s = P.diagonal().sum() / n;
  if (!(s > 0.0)) s = 1.0;
  double rho = s;
  if (!Factor(P, rho, n, L_)) {
    return QpResult{0, false, std::numeric_limits<double>::infinity()};
  }
  auto z = z_.head(n);
  auto u = u_.head(n);
  auto w = w_.head(n);
  auto zp = zp_.head(n);
  z = x;
  // Warm dual from the stationarity of the start: ρ u = −(P z + q) projected
  // away where z is interior is not known; start from the full gradient
  // (w = P z on entry).
  u = w + q;
  u /= -rho;

  QpResult result;
  for (int k = 1; k <= params.max_iterations; ++k) {
    result.iterations = k;
    w = rho * (z - u) - q;
    SolveFactored(L_, n, w);  // x̃
    zp = z;
    // x̂ = α x̃ + (1 − α) z, then z⁺ = Π_K(x̂ + u), u⁺ = u + x̂ − z⁺.
    w = kRelaxation * w + (1.0 - kRelaxation) * zp;
    z = w + u;
    ProjectOntoCone(blocks, z);
    u += w - z;
    const double r_prim = (w - z).lpNorm<Eigen::Infinity>() * s;
    const double r_dual = rho * (z - zp).lpNorm<Eigen::Infinity>();
    const double tol = params.abs_tolerance + params.rel_tolerance * z.lpNorm<Eigen::Infinity>();
    if (r_prim <= 10.0 * tol * s && r_dual <= 10.0 * tol * s) {
      result.residual = Residual(blocks, P, q, z_, n, s);
      if (result.residual <= tol) {
        result.converged = true;
        break;
      }
    }
    if (k % kRhoUpdateEvery == 0) {
      double scale = 1.0;
      if (r_prim > 10.0 * r_dual) scale = 4.0;
      if (r_dual > 10.0 * r_prim) scale = 0.25;
      if (scale != 1.0 && rho * scale >= 1e-6 * s && rho * scale <= 1e6 * s) {
        rho *= scale;
        u /= scale;
        if (!Factor(P, rho, n, L_)) break;
      }
    }
  }
  if (!result.converged) result.residual = Residual(blocks, P, q, z_, n, s);
  x = z;
  return result;
}

}  // namespace moreau::contact
