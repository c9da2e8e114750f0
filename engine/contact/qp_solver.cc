#include "engine/contact/qp_solver.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "engine/util/enum_table.h"
#include "engine/util/finite.h"

namespace moreau::contact {

int ConeBlockSize(ConeKind kind) {
  switch (kind) {
    case ConeKind::kFree:
    case ConeKind::kNonnegative:
      return 1;
    case ConeKind::kDisc:
      return 2;
    case ConeKind::kFrictionCone:
      return 3;
  }
  return 1;
}

void ProjectOntoCone(std::span<const ConeBlock> blocks, Eigen::Ref<Eigen::VectorXd> x) {
  int i = 0;
  for (const ConeBlock& b : blocks) {
    switch (b.kind) {
      case ConeKind::kFree:
        break;
      case ConeKind::kNonnegative:
        x[i] = std::max(x[i], 0.0);
        break;
      case ConeKind::kDisc: {
        const double r = std::hypot(x[i], x[i + 1]);
        if (r > b.param) {
          const double s = r > 0.0 ? b.param / r : 0.0;
          x[i] *= s;
          x[i + 1] *= s;
        }
        break;
      }
      case ConeKind::kFrictionCone: {
        // Second-order cone {‖x_T‖ ≤ μ x_N}: inside stays; inside the polar
        // cone {μ ‖x_T‖ ≤ −x_N} goes to 0; else onto the boundary ray in the
        // plane of x_T: x_N' = (x_N + μ ‖x_T‖)/(1 + μ²), ‖x_T'‖ = μ x_N'.
        const double mu = b.param;
        const double xn = x[i];
        const double t = std::hypot(x[i + 1], x[i + 2]);
        if (t <= mu * xn) break;
        if (mu * t <= -xn) {
          x[i] = x[i + 1] = x[i + 2] = 0.0;
          break;
        }
        const double n = (xn + mu * t) / (1.0 + mu * mu);
        const double s = t > 0.0 ? mu * n / t : 0.0;
        x[i] = n;
        x[i + 1] *= s;
        x[i + 2] *= s;
        break;
      }
    }
    i += ConeBlockSize(b.kind);
  }
}

double NaturalResidual(std::span<const ConeBlock> blocks, const Eigen::MatrixXd& P,
                       const Eigen::VectorXd& q, const Eigen::VectorXd& x) {
  Eigen::VectorXd y = x - (P * x + q);
  ProjectOntoCone(blocks, y);
  return (x - y).lpNorm<Eigen::Infinity>();
}

namespace {

constexpr EnumEntry<QpMethod> kQpMethods[] = {{QpMethod::kAdmm, "admm"}, {QpMethod::kApgd, "apgd"}};

}  // namespace

const char* QpMethodName(QpMethod method) { return EnumName(kQpMethods, method); }

absl::StatusOr<QpMethod> ParseQpMethod(std::string_view name) {
  return ParseEnum<QpMethod>("QP method", kQpMethods, name);
}

absl::Status Validate(const QpParams& p) {
  if (p.method != QpMethod::kAdmm && p.method != QpMethod::kApgd) {
    return absl::InvalidArgumentError(
        absl::StrCat("qp.method must be admm or apgd, got ", static_cast<int>(p.method)));
  }
  if (!(std::isfinite(p.abs_tolerance) && p.abs_tolerance >= 0.0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("qp.abs_tolerance must be finite and ≥ 0, got ", p.abs_tolerance));
  }
  if (!(std::isfinite(p.rel_tolerance) && p.rel_tolerance >= 0.0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("qp.rel_tolerance must be finite and ≥ 0, got ", p.rel_tolerance));
  }
  if (p.abs_tolerance == 0.0 && p.rel_tolerance == 0.0) {
    return absl::InvalidArgumentError("qp.abs_tolerance and qp.rel_tolerance are both 0");
  }
  if (p.max_iterations < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("qp.max_iterations must be ≥ 1, got ", p.max_iterations));
  }
  return absl::OkStatus();
}

QpSolver::QpSolver(int max_size) : max_size_(std::max(max_size, 0)) {
  L_ = Eigen::MatrixXd::Zero(max_size_, max_size_);
  z_ = Eigen::VectorXd::Zero(max_size_);
  u_ = Eigen::VectorXd::Zero(max_size_);
  w_ = Eigen::VectorXd::Zero(max_size_);
  g_ = Eigen::VectorXd::Zero(max_size_);
  zp_ = Eigen::VectorXd::Zero(max_size_);
}

double QpSolver::Residual(std::span<const ConeBlock> blocks, Eigen::Ref<const Eigen::MatrixXd> P,
                          Eigen::Ref<const Eigen::VectorXd> q, const Eigen::VectorXd& z, int n,
                          double s) {
  g_.head(n).noalias() = P * z.head(n);
  g_.head(n) += q;
  w_.head(n) = z.head(n) - g_.head(n) / s;
  ProjectOntoCone(blocks, w_.head(n));
  return (z.head(n) - w_.head(n)).lpNorm<Eigen::Infinity>();
}

QpResult QpSolver::Solve(const QpParams& params, std::span<const ConeBlock> blocks,
                         Eigen::Ref<const Eigen::MatrixXd> P, Eigen::Ref<const Eigen::VectorXd> q,
                         Eigen::Ref<Eigen::VectorXd> x) {
  const QpResult rejected{0, false, std::numeric_limits<double>::infinity()};
  const int n = static_cast<int>(x.size());
  int covered = 0;
  bool blocks_ok = true;
  for (const ConeBlock& b : blocks) {
    covered += ConeBlockSize(b.kind);
    if ((b.kind == ConeKind::kDisc || b.kind == ConeKind::kFrictionCone) &&
        !(std::isfinite(b.param) && b.param >= 0.0)) {
      blocks_ok = false;
    }
  }
  if (n > max_size_ || covered != n || P.rows() != n || P.cols() != n || q.size() != n ||
      !blocks_ok || !Validate(params).ok() || !AllFinite(P) || !AllFinite(q)) {
    x.setZero();
    return rejected;
  }
  if (n == 0) return QpResult{0, true, 0.0};
  if (!params.warm_start || !AllFinite(x)) x.setZero();
  ProjectOntoCone(blocks, x);
  // A warm start is kept only when its objective ½ xᵀPx + qᵀx is below the
  // cold start's, 0 (x = 0 is in K), as MuJoCo's warm start is kept only when
  // it beats the smooth acceleration: a stale or hostile x (a state blob's
  // impulses) then costs no more iterations than no warm start.
  auto Px = w_.head(n);
  Px.noalias() = P * x;
  if (!(0.5 * x.dot(Px) + q.dot(x) <= 0.0)) {
    x.setZero();
    Px.setZero();  // P·0, as the product's sums of ±0 from +0 give
  }
  switch (params.method) {
    case QpMethod::kAdmm:
      return SolveAdmm(params, blocks, P, q, x);
    case QpMethod::kApgd:
      return SolveApgd(params, blocks, P, q, x);
  }
  return rejected;
}

}  // namespace moreau::contact
