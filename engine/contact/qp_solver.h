// A small dense convex QP solver for the contact problems of 003 eq. 33 and
// 004 eq. 5, 18, 24:
//
//   minimize ½ xᵀ P x + qᵀ x   subject to   x ∈ K = K_1 × … × K_m
//
// with P (n × n) symmetric positive semidefinite and K a product of simple
// convex sets, one ConeBlock each:
//   kFree         (1 entry)   x ∈ ℝ
//   kNonnegative  (1 entry)   x ≥ 0                       (λ_N ≥ 0, 004 §2.1.1;
//                                                         νᵀΔf ≥ 0, 003 eq. 33)
//   kDisc         (2 entries) ‖x‖ ≤ r                     (friction with a fixed
//                                                         normal force)
//   kFrictionCone (3 entries) [x_N, x_T1, x_T2] with ‖x_T‖ ≤ μ x_N
//
// Friction cone: exact second-order (circular) cone, not a linearised
// pyramid of k facets. Why: (1) the projection onto the circular cone (and the
// disc) is closed-form, so the projection-based methods below handle it as
// cheaply as a half-line, whereas k facets multiply the constraints by k and
// make friction anisotropic (a box sliding along a facet edge meets μ, along
// a facet normal μ cos(π/k)); (2) it is the same friction law as the Moreau
// prox solver (the spatial Coulomb friction disc of 000 eq. 13: Gehring et
// al., "An evaluation of Moreau's time-stepping scheme for the simulation of
// a legged robot"), so the contact models compare one to one. 004 linearises
// because quadprog/qpOASES take only linear constraints; our solvers do not
// need that.
//
// Optimality (KKT) of x: x ∈ K and −(P x + q) ∈ N_K(x) (the normal cone),
// i.e. the natural residual x − Π_K(x − (P x + q)/s) vanishes for any s > 0.
// For the cones: Px + q ∈ K* and xᵀ(Px + q) = 0.
//
// Methods (QpMethod), one implementation file each, behind one QpSolver so
// the contact steps can swap them (as 004 swaps quadprog, OSQP, qpOASES):
//   kAdmm  qp_admm.cc: ADMM on x = z, z ∈ K (OSQP's splitting with A = I),
//          with over-relaxation and residual-balanced ρ; a dense Cholesky of
//          P + ρI in preallocated storage.
//   kApgd  qp_apgd.cc: accelerated projected gradient (Nesterov/FISTA) with
//          gradient-based adaptive restart, step 1/L from a Gershgorin bound.
// Both stop on the natural residual and return a point of K.
#ifndef MOREAU_ENGINE_CONTACT_QP_SOLVER_H_
#define MOREAU_ENGINE_CONTACT_QP_SOLVER_H_

#include <Eigen/Core>
#include <span>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace moreau::contact {

enum class ConeKind { kFree, kNonnegative, kDisc, kFrictionCone };

// Entries of x the block covers: 1, 1, 2, 3.
int ConeBlockSize(ConeKind kind);

struct ConeBlock {
  ConeKind kind = ConeKind::kNonnegative;
  // kDisc: the radius r ≥ 0; kFrictionCone: μ ≥ 0; unused otherwise.
  double param = 0.0;
};

// x ← Π_K(x), the Euclidean projection block by block (x.size() = Σ sizes).
void ProjectOntoCone(std::span<const ConeBlock> blocks, Eigen::Ref<Eigen::VectorXd> x);

// ‖x − Π_K(x − (P x + q))‖∞ for a feasible or infeasible x: zero exactly at
// the QP's solutions. Allocates (test and diagnostic use).
double NaturalResidual(std::span<const ConeBlock> blocks, const Eigen::MatrixXd& P,
                       const Eigen::VectorXd& q, const Eigen::VectorXd& x);

enum class QpMethod { kAdmm, kApgd };

// "admm", "apgd".
const char* QpMethodName(QpMethod method);
absl::StatusOr<QpMethod> ParseQpMethod(std::string_view name);

struct QpParams {
  QpMethod method = QpMethod::kAdmm;
  // Stop when the natural residual with s = mean diag(P) (in units of x),
  // ‖z − Π_K(z − (P z + q)/s)‖∞, is ≤ abs_tolerance + rel_tolerance ‖z‖∞.
  // For contact impulses (N s) 1e-10 N s is far below anything the steps
  // resolve; ours, as is max_iterations.
  double abs_tolerance = 1e-10;
  double rel_tolerance = 1e-8;
  int max_iterations = 1000;
  // Start from the x passed in (projected onto K) rather than from zero.
  bool warm_start = true;
};

// InvalidArgument naming the field and value unless the tolerances are finite
// and ≥ 0 (not both 0), max_iterations ≥ 1 and method is a QpMethod.
absl::Status Validate(const QpParams& params);

struct QpResult {
  int iterations = 0;
  bool converged = false;
  double residual = 0.0;  // the final natural residual (x units); +∞ if rejected
};

// The solver with storage for problems of up to max_size unknowns: Solve does
// no heap allocation. One per simulation instance (not thread-safe).
class QpSolver {
 public:
  explicit QpSolver(int max_size = 0);

  int max_size() const { return max_size_; }

  // Solves the QP. P: n × n (a top-left block of a preallocated matrix binds
  // without a copy), q: n, blocks cover n entries. x: in the warm start, out
  // the solution (always in K; the last iterate if not converged).
  // Rejected (x = 0 projected, {0, false, +∞}): n > max_size, sizes that do
  // not agree, non-finite P or q, a negative disc radius or μ, bad params.
  QpResult Solve(const QpParams& params, std::span<const ConeBlock> blocks,
                 Eigen::Ref<const Eigen::MatrixXd> P, Eigen::Ref<const Eigen::VectorXd> q,
                 Eigen::Ref<Eigen::VectorXd> x);

 private:
  // Solve leaves w_.head(n) = P x for its start x (SolveAdmm reads it).
  QpResult SolveAdmm(const QpParams& params, std::span<const ConeBlock> blocks,
                     Eigen::Ref<const Eigen::MatrixXd> P, Eigen::Ref<const Eigen::VectorXd> q,
                     Eigen::Ref<Eigen::VectorXd> x);
  QpResult SolveApgd(const QpParams& params, std::span<const ConeBlock> blocks,
                     Eigen::Ref<const Eigen::MatrixXd> P, Eigen::Ref<const Eigen::VectorXd> q,
                     Eigen::Ref<Eigen::VectorXd> x);
  // ‖z − Π_K(z − (P z + q)/s)‖∞ using the scratch vectors.
  double Residual(std::span<const ConeBlock> blocks, Eigen::Ref<const Eigen::MatrixXd> P,
                  Eigen::Ref<const Eigen::VectorXd> q, const Eigen::VectorXd& z, int n, double s);

  int max_size_ = 0;
  Eigen::MatrixXd L_;   // max × max: Cholesky factor of P + ρI (ADMM)
  Eigen::VectorXd z_;   // max: the feasible iterate
  Eigen::VectorXd u_;   // max: scaled dual (ADMM) / momentum point (APGD)
  Eigen::VectorXd w_;   // max: scratch
  Eigen::VectorXd g_;   // max: scratch (gradients)
  Eigen::VectorXd zp_;  // max: previous z
};

}  // namespace moreau::contact

#endif  // MOREAU_ENGINE_CONTACT_QP_SOLVER_H_
