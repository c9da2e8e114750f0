// The contact QP solver (engine/contact/qp_solver.h): problems with answers
// by hand, and random problems (positive definite and singular, as the
// hyperstatic contact problems are) whose solutions are checked against the
// KKT conditions block by block, for both methods.
#include "engine/contact/qp_solver.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <random>
#include <vector>

#include "tests/unit/testing/allocation_counter.h"

namespace moreau::contact {
namespace {

const QpMethod kMethods[] = {QpMethod::kAdmm, QpMethod::kApgd};

QpParams Params(QpMethod method) {
  QpParams p;
  p.method = method;
  p.max_iterations = 20000;
  return p;
}

// KKT of min ½xᵀPx + qᵀx over K, block by block with g = Px + q:
//   free:          g = 0
//   nonnegative:   x ≥ 0, g ≥ 0, x g = 0
//   disc ‖x‖ ≤ r:  ‖x‖ ≤ r; ‖x‖ < r ⇒ g = 0; ‖x‖ = r ⇒ g = −σ x, σ ≥ 0
//   friction cone: ‖x_T‖ ≤ μ x_N, μ‖g_T‖ ≤ g_N (dual cone), xᵀg = 0
void ExpectKkt(const std::vector<ConeBlock>& blocks, const Eigen::MatrixXd& P,
               const Eigen::VectorXd& q, const Eigen::VectorXd& x, double tol) {
  const Eigen::VectorXd g = P * x + q;
  int i = 0;
  for (const ConeBlock& b : blocks) {
    SCOPED_TRACE(::testing::Message() << "block at " << i);
    switch (b.kind) {
      case ConeKind::kFree:
        EXPECT_NEAR(g[i], 0.0, tol);
        break;
      case ConeKind::kNonnegative:
        EXPECT_GE(x[i], 0.0);
        EXPECT_GE(g[i], -tol);
        EXPECT_NEAR(x[i] * g[i], 0.0, tol * (1.0 + std::abs(x[i]) + std::abs(g[i])));
        break;
      case ConeKind::kDisc: {
        const Eigen::Vector2d xi = x.segment<2>(i), gi = g.segment<2>(i);
        EXPECT_LE(xi.norm(), b.param + 1e-12);
        if (xi.norm() < b.param - tol) {
          EXPECT_LT(gi.norm(), tol);
        } else {
          // g antiparallel to x: the cross product vanishes, g·x ≤ 0.
          EXPECT_NEAR(xi.x() * gi.y() - xi.y() * gi.x(), 0.0, tol * (1.0 + gi.norm()));
          EXPECT_LE(xi.dot(gi), tol);
        }
        break;
      }
      case ConeKind::kFrictionCone: {
        const double mu = b.param;
        EXPECT_LE(x.segment<2>(i + 1).norm(), mu * x[i] + 1e-12);
        EXPECT_LE(mu * g.segment<2>(i + 1).norm(), g[i] + tol);
        EXPECT_NEAR(x.segment<3>(i).dot(g.segment<3>(i)), 0.0,
                    tol * (1.0 + x.segment<3>(i).norm() + g.segment<3>(i).norm()));
        break;
      }
    }
    i += ConeBlockSize(b.kind);
  }
  EXPECT_EQ(i, x.size());
}

TEST(QpSolver, UnconstrainedIsTheLinearSolve) {
  for (QpMethod m : kMethods) {
    SCOPED_TRACE(QpMethodName(m));
    Eigen::MatrixXd P(3, 3);
    P << 4, 1, 0, 1, 3, 1, 0, 1, 2;
    const Eigen::VectorXd q = Eigen::Vector3d(1, -2, 3);
    const std::vector<ConeBlock> blocks(3, ConeBlock{ConeKind::kFree});
    QpSolver solver(3);
    Eigen::VectorXd x = Eigen::VectorXd::Zero(3);
    const QpResult r = solver.Solve(Params(m), blocks, P, q, x);
    EXPECT_TRUE(r.converged);
    EXPECT_TRUE(x.isApprox(P.ldlt().solve(-q), 1e-7)) << x.transpose();
  }
}

TEST(QpSolver, DiagonalNonnegativeClampsEachCoordinate) {
  for (QpMethod m : kMethods) {
    SCOPED_TRACE(QpMethodName(m));
    const Eigen::MatrixXd P = Eigen::Vector4d(1, 2, 4, 8).asDiagonal();
    const Eigen::VectorXd q = Eigen::Vector4d(-1, 2, -8, 0);
    const std::vector<ConeBlock> blocks(4, ConeBlock{ConeKind::kNonnegative});
    QpSolver solver(4);
    Eigen::VectorXd x = Eigen::VectorXd::Zero(4);
    ASSERT_TRUE(solver.Solve(Params(m), blocks, P, q, x).converged);
    // x_i = max(0, −q_i / P_ii).
    EXPECT_TRUE(x.isApprox(Eigen::Vector4d(1, 0, 2, 0), 1e-7)) << x.transpose();
    ExpectKkt(blocks, P, q, x, 1e-7);
  }
}

TEST(QpSolver, DiscAndConeOfIdentityAreProjections) {
  // With P = I the solution is Π_K(−q).
  for (QpMethod m : kMethods) {
    SCOPED_TRACE(QpMethodName(m));
    const Eigen::MatrixXd P = Eigen::MatrixXd::Identity(5, 5);
    Eigen::VectorXd q(5);
    q << -3, -4, 0, -1, 0;  // disc part (3, 4); cone part (0, 1, 0)
    const std::vector<ConeBlock> blocks{{ConeKind::kDisc, 1.0}, {ConeKind::kFrictionCone, 0.5}};
    QpSolver solver(5);
    Eigen::VectorXd x = Eigen::VectorXd::Zero(5);
    ASSERT_TRUE(solver.Solve(Params(m), blocks, P, q, x).converged);
    Eigen::VectorXd expected(5);
    // Disc: (3, 4)/5. Cone μ = 0.5 from (0, 1, 0): x_N = (0 + μ·1)/(1 + μ²)
    // = 0.4, x_T = μ x_N = 0.2 along t1.
    expected << 0.6, 0.8, 0.4, 0.2, 0.0;
    EXPECT_TRUE(x.isApprox(expected, 1e-7)) << x.transpose();
    ExpectKkt(blocks, P, q, x, 1e-7);
  }
}

TEST(QpSolver, ProjectionCases) {
  const std::vector<ConeBlock> cone{{ConeKind::kFrictionCone, 0.5}};
  Eigen::VectorXd x(3);
  x << 1.0, 0.3, -0.2;  // inside: unchanged
  ProjectOntoCone(cone, x);
  EXPECT_TRUE(x.isApprox(Eigen::Vector3d(1.0, 0.3, -0.2)));
  x << -1.0, 0.3, 0.0;  // inside the polar cone (μ‖x_T‖ ≤ −x_N): 0
  ProjectOntoCone(cone, x);
  EXPECT_EQ(x.norm(), 0.0);
  const std::vector<ConeBlock> frictionless{{ConeKind::kFrictionCone, 0.0}};
  x << 2.0, 0.3, 0.4;  // μ = 0: the normal half-line
  ProjectOntoCone(frictionless, x);
  EXPECT_TRUE(x.isApprox(Eigen::Vector3d(2.0, 0.0, 0.0)));
}

// Random problems: P = BᵀB (+ shift), rank-deficient when B has fewer rows
// than columns (like the Delassus matrix of eight coplanar sole corners).
struct RandomProblem {
  Eigen::MatrixXd P;
  Eigen::VectorXd q;
  std::vector<ConeBlock> blocks;
};

RandomProblem MakeRandom(std::mt19937& rng, int contacts, bool singular, bool cones) {
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> uni(0.1, 1.0);
  RandomProblem p;
  for (int c = 0; c < contacts; ++c) {
    if (cones) {
      p.blocks.push_back({ConeKind::kFrictionCone, uni(rng)});
    } else {
      p.blocks.push_back({ConeKind::kNonnegative});
      p.blocks.push_back({ConeKind::kDisc, uni(rng)});
    }
  }
  const int n = 3 * contacts;
  const int rows = singular ? n / 2 : n + 2;
  Eigen::MatrixXd B(rows, n);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < n; ++j) B(i, j) = normal(rng);
  p.P = B.transpose() * B;
  p.q = Eigen::VectorXd(n);
  for (int i = 0; i < n; ++i) p.q[i] = normal(rng);
  if (singular) {
    // A singular P needs q in range(P) + K* for a bounded problem: q = P a + k
    // with k the (dual-cone interior) pushing every normal up.
    Eigen::VectorXd a(n);
    for (int i = 0; i < n; ++i) a[i] = normal(rng);
    p.q = p.P * a;
    for (int c = 0; c < contacts; ++c) p.q[3 * c] += 2.0;
  }
  return p;
}

TEST(QpSolver, RandomProblemsSatisfyKkt) {
  std::mt19937 rng(7);
  for (bool singular : {false, true}) {
    for (bool cones : {true, false}) {
      for (int trial = 0; trial < 10; ++trial) {
        const RandomProblem p = MakeRandom(rng, 1 + trial % 6, singular, cones);
        const int n = static_cast<int>(p.q.size());
        Eigen::VectorXd first;
        for (QpMethod m : kMethods) {
          SCOPED_TRACE(::testing::Message() << QpMethodName(m) << " singular " << singular
                                            << " cones " << cones << " trial " << trial);
          QpSolver solver(n);
          Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
          const QpResult r = solver.Solve(Params(m), p.blocks, p.P, p.q, x);
          EXPECT_TRUE(r.converged) << r.iterations << " " << r.residual;
          EXPECT_LE(NaturalResidual(p.blocks, p.P, p.q, x), 1e-6);
          ExpectKkt(p.blocks, p.P, p.q, x, 1e-5);
          // Both methods reach the same optimal value (the minimizer is
          // unique only when P is definite).
          const double value = 0.5 * x.dot(p.P * x) + p.q.dot(x);
          if (first.size() == 0) {
            first = x;
          } else {
            EXPECT_NEAR(value, 0.5 * first.dot(p.P * first) + p.q.dot(first),
                        1e-6 * (1.0 + std::abs(value)));
            if (!singular) {
              EXPECT_LT((x - first).lpNorm<Eigen::Infinity>(), 1e-5);
            }
          }
        }
      }
    }
  }
}

TEST(QpSolver, WarmStartAtTheSolutionStopsAtOnce) {
  std::mt19937 rng(3);
  const RandomProblem p = MakeRandom(rng, 4, false, true);
  const int n = static_cast<int>(p.q.size());
  for (QpMethod m : kMethods) {
    SCOPED_TRACE(QpMethodName(m));
    QpSolver solver(n);
    Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
    const QpResult cold = solver.Solve(Params(m), p.blocks, p.P, p.q, x);
    ASSERT_TRUE(cold.converged);
    const QpResult warm = solver.Solve(Params(m), p.blocks, p.P, p.q, x);
    EXPECT_TRUE(warm.converged);
    EXPECT_LT(warm.iterations, cold.iterations);
    EXPECT_LE(warm.iterations, 3);
  }
}

// A warm start worse than none (objective above 0, the cold start's) is
// dropped: from a far, huge x the solve takes the cold start's iterations.
TEST(QpSolver, WarmStartWorseThanColdIsDropped) {
  std::mt19937 rng(5);
  const RandomProblem p = MakeRandom(rng, 4, false, true);
  const int n = static_cast<int>(p.q.size());
  for (QpMethod m : kMethods) {
    SCOPED_TRACE(QpMethodName(m));
    QpSolver solver(n);
    Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
    const QpResult cold = solver.Solve(Params(m), p.blocks, p.P, p.q, x);
    ASSERT_TRUE(cold.converged);
    // A point of K (normals positive, tangents zero) with a huge objective.
    x = Eigen::VectorXd::Zero(n);
    for (int i = 0; i < n; i += 3) x[i] = 1e37;
    const QpResult far = solver.Solve(Params(m), p.blocks, p.P, p.q, x);
    EXPECT_TRUE(far.converged);
    EXPECT_EQ(far.iterations, cold.iterations);
  }
}

TEST(QpSolver, RejectsBadInput) {
  QpSolver solver(3);
  const Eigen::MatrixXd P = Eigen::MatrixXd::Identity(3, 3);
  const Eigen::VectorXd q = Eigen::VectorXd::Ones(3);
  const std::vector<ConeBlock> cone{{ConeKind::kFrictionCone, 0.5}};
  Eigen::VectorXd x = Eigen::VectorXd::Ones(3);
  // Blocks covering 2 of 3 entries.
  QpResult r = solver.Solve(QpParams{}, std::vector<ConeBlock>{{ConeKind::kDisc, 1.0}}, P, q, x);
  EXPECT_FALSE(r.converged);
  EXPECT_TRUE(std::isinf(r.residual));
  EXPECT_EQ(x.norm(), 0.0);
  // Too large for the solver.
  QpSolver small(2);
  x.setOnes();
  EXPECT_TRUE(std::isinf(small.Solve(QpParams{}, cone, P, q, x).residual));
  // Non-finite P, negative μ, bad params.
  Eigen::MatrixXd bad = P;
  bad(1, 1) = NAN;
  EXPECT_TRUE(std::isinf(solver.Solve(QpParams{}, cone, bad, q, x).residual));
  EXPECT_TRUE(std::isinf(
      solver.Solve(QpParams{}, std::vector<ConeBlock>{{ConeKind::kFrictionCone, -1.0}}, P, q, x)
          .residual));
  QpParams params;
  params.max_iterations = 0;
  EXPECT_TRUE(std::isinf(solver.Solve(params, cone, P, q, x).residual));
}

TEST(QpParams, ValidateNamesTheField) {
  QpParams p;
  EXPECT_TRUE(Validate(p).ok());
  p.max_iterations = 0;
  EXPECT_NE(Validate(p).message().find("qp.max_iterations"), std::string::npos);
  p = QpParams{};
  p.abs_tolerance = -1;
  EXPECT_NE(Validate(p).message().find("qp.abs_tolerance"), std::string::npos);
  p = QpParams{};
  p.rel_tolerance = NAN;
  EXPECT_NE(Validate(p).message().find("qp.rel_tolerance"), std::string::npos);
  EXPECT_EQ(ParseQpMethod("apgd").value(), QpMethod::kApgd);
  EXPECT_FALSE(ParseQpMethod("quadprog").ok());
}

TEST(QpNoAllocation, SolveAllocatesNothing) {
  std::mt19937 rng(11);
  const RandomProblem p = MakeRandom(rng, 4, true, true);
  const int n = static_cast<int>(p.q.size());
  // The caller's layout: blocks of max-size storage.
  Eigen::MatrixXd P = Eigen::MatrixXd::Zero(2 * n, 2 * n);
  Eigen::VectorXd q = Eigen::VectorXd::Zero(2 * n), x = Eigen::VectorXd::Zero(2 * n);
  P.topLeftCorner(n, n) = p.P;
  q.head(n) = p.q;
  for (QpMethod m : kMethods) {
    QpSolver solver(2 * n);
    const QpParams params = Params(m);
    const long before = ::moreau::testing::HeapAllocationCount();
    const QpResult r = solver.Solve(params, p.blocks, P.topLeftCorner(n, n), q.head(n), x.head(n));
    EXPECT_EQ(::moreau::testing::HeapAllocationCount() - before, 0) << QpMethodName(m);
    EXPECT_TRUE(r.converged);
  }
}

}  // namespace
}  // namespace moreau::contact
