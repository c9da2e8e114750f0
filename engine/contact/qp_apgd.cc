// Accelerated projected gradient for the contact QP (qp_solver.h): Nesterov's
// / FISTA's momentum on the projected gradient step
//   x⁺ = Π_K(y − (P y + q)/L),  t⁺ = (1 + √(1 + 4t²))/2,
//   y⁺ = x⁺ + (t − 1)/t⁺ (x⁺ − x)
// with the gradient restart of O'Donoghue & Candès (2015): momentum is dropped
// when (P y + q)ᵀ(x⁺ − x) > 0. L ≥ λ_max(P) is the Gershgorin bound
// max_i Σ_j |P_ij| (exact enough and allocation-free). Linear convergence on a
// positive definite P; sublinear (but monotone after restarts) on a singular
// one, where ADMM is the better choice.
#include <algorithm>
#include <cmath>

#include "engine/contact/qp_solver.h"

namespace moreau::contact {

QpResult QpSolver::SolveApgd(const QpParams& params, std::span<const ConeBlock> blocks,
                             Eigen::Ref<const Eigen::MatrixXd> P,
                             Eigen::Ref<const Eigen::VectorXd> q, Eigen::Ref<Eigen::VectorXd> x) {
  const int n = static_cast<int>(x.size());
  double s = P.diagonal().sum() / n;
  if (!(s > 0.0)) s = 1.0;
  double L = 0.0;
  for (int i = 0; i < n; ++i) L = std::max(L, P.row(i).cwiseAbs().sum());
  if (!(L > 0.0)) L = 1.0;

  auto xk = z_.head(n);  // x
  auto y = u_.head(n);   // momentum point
  auto xn = zp_.head(n);
  xk = x;
  y = x;
  double t = 1.0;
  QpResult result;
  for (int k = 1; k <= params.max_iterations; ++k) {
    result.iterations = k;
    g_.head(n).noalias() = P * y;
    g_.head(n) += q;
    xn = y - g_.head(n) / L;
    ProjectOntoCone(blocks, xn);
    if (g_.head(n).dot(xn - xk) > 0.0) {
      // Restart: the momentum went uphill.
      t = 1.0;
      y = xn;
    } else {
      const double tn = 0.5 * (1.0 + std::sqrt(1.0 + 4.0 * t * t));
      y = xn + ((t - 1.0) / tn) * (xn - xk);
      t = tn;
    }
    const double step = (xn - xk).lpNorm<Eigen::Infinity>();
    xk = xn;
    const double tol = params.abs_tolerance + params.rel_tolerance * xk.lpNorm<Eigen::Infinity>();
    if (step * L <= 10.0 * tol * s) {
      result.residual = Residual(blocks, P, q, z_, n, s);
      if (result.residual <= tol) {
        result.converged = true;
        break;
      }
    }
  }
  if (!result.converged) result.residual = Residual(blocks, P, q, z_, n, s);
  x = xk;
  return result;
}

}  // namespace moreau::contact
