// The contact-space assembly of Moreau's step (engine/step/delassus.h) against
// dense linear algebra: G = Wᵀ M⁻¹ W with W = Jᵀ [n t1 t2] per contact
// (000 eq. 12), Y = L⁻ᵀ W in full and on each support path, and the half
// solve L⁻¹ D⁻¹ (L⁻ᵀ W Λ) = M⁻¹ W Λ (SolveMassMatrixFromHalf, PathImpulse),
// on robots whose contacts sit on different legs (mini_cheetah, biped) and on
// one body (box).
#include "engine/step/delassus.h"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Geometry>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "engine/contact/contact_set.h"
#include "engine/dynamics/configuration.h"
#include "engine/dynamics/crba.h"
#include "engine/dynamics/jacobians.h"
#include "engine/model/loader.h"
#include "engine/step/workspace.h"

namespace moreau::step {
namespace {

class DelassusTest : public ::testing::TestWithParam<std::string> {};

TEST_P(DelassusTest, MatchesDenseAssembly) {
  auto loaded = LoadBuiltin(GetParam());
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  const Model& model = **loaded;
  const int nv = model.nv;
  const int nc = static_cast<int>(model.contact_points.size());
  ASSERT_GE(nc, 2);
  StepWorkspace w = MakeStepWorkspace(model);
  Data& data = w.data;
  std::mt19937_64 rng(11);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (int trial = 0; trial < 20; ++trial) {
    SCOPED_TRACE(trial);
    const Eigen::VectorXd q = RandomConfiguration(model, rng);
    ContactJacobians(model, data, q);
    Crba(model, data);
    ASSERT_TRUE(FactorMassMatrix(model, data));
    const Eigen::MatrixXd M = data.M;

    // Every second trial uses every other contact only (active slots need not
    // be contiguous); each gets a random orthonormal frame.
    std::vector<int> active;
    for (int k = 0; k < nc; ++k) {
      if (trial % 2 == 0 || k % 2 == 0) active.push_back(k);
    }
    const int na = static_cast<int>(active.size());
    const int n = 3 * na;
    Eigen::MatrixXd W = Eigen::MatrixXd::Zero(nv, n);
    for (int a = 0; a < na; ++a) {
      contact::Contact& ct = w.contacts.contacts[active[a]];
      const Eigen::Quaterniond frame =
          Eigen::Quaterniond(normal(rng), normal(rng), normal(rng), normal(rng)).normalized();
      const Mat3 R = frame.toRotationMatrix();
      ct.normal = R.col(0);
      ct.t1 = R.col(1);
      ct.t2 = R.col(2);
      const Matrix3Xd& J = data.contact_J[active[a]];
      W.col(3 * a) = J.transpose() * ct.normal;
      W.col(3 * a + 1) = J.transpose() * ct.t1;
      W.col(3 * a + 2) = J.transpose() * ct.t2;
      w.support_len[a] =
          SupportDofs(model, data, model.contact_points[active[a]].body, w.support.data() + a * nv);
    }
    const std::span<const int> slots(active);
    const std::span<const int> support(w.support.data(), static_cast<size_t>(na) * nv);
    const std::span<const int> support_len(w.support_len.data(), na);
    // Without Y's full columns first: the same G.
    w.G.setConstant(7.0);
    AssembleDelassus(data, w.contacts, slots, support, support_len, w.Y.leftCols(0),
                     w.Y_path.leftCols(2 * n), w.G.topLeftCorner(n, n));
    const Eigen::MatrixXd G_without_Y = w.G.topLeftCorner(n, n);
    w.Y.setConstant(7.0);  // stale values must not leak into the result
    w.Y_path.setConstant(7.0);
    w.G.setConstant(7.0);
    AssembleDelassus(data, w.contacts, slots, support, support_len, w.Y.leftCols(n),
                     w.Y_path.leftCols(2 * n), w.G.topLeftCorner(n, n));
    EXPECT_EQ(G_without_Y, w.G.topLeftCorner(n, n));

    const Eigen::LLT<Eigen::MatrixXd> llt(M);
    const Eigen::MatrixXd G_dense = W.transpose() * llt.solve(W);
    const Eigen::MatrixXd G = w.G.topLeftCorner(n, n);
    EXPECT_LT((G - G_dense).norm(), 1e-10 * G_dense.norm());
    EXPECT_EQ(G, G.transpose());  // exactly symmetric

    // Y = L⁻ᵀ W with the factor's unit lower triangle L (M = Lᵀ D L).
    Eigen::MatrixXd L = Eigen::MatrixXd::Identity(nv, nv);
    for (int k = 0; k < nv; ++k) {
      for (int t = 0; t < data.L_row_len[k]; ++t) {
        L(k, data.L_cols[data.L_row_adr[k] + t]) = data.L_values[data.L_row_adr[k] + t];
      }
    }
    ASSERT_LT((L.transpose() * data.L_diag.asDiagonal() * L - M).norm(), 1e-10 * M.norm());
    const Eigen::MatrixXd Y_dense = L.transpose().triangularView<Eigen::Upper>().solve(W);
    EXPECT_LT((w.Y.leftCols(n) - Y_dense).norm(), 1e-10 * (1.0 + Y_dense.norm()));
    // Y_path: Y, then D⁻¹ Y, on each support path, entry s at DOF
    // support[a nv + s]; Y is zero off the paths.
    Eigen::MatrixXd on_paths = Eigen::MatrixXd::Zero(nv, n);
    for (int a = 0; a < na; ++a) {
      for (int s = 0; s < w.support_len[a]; ++s) {
        const int dof = w.support[a * nv + s];
        for (int l = 0; l < 3; ++l) {
          const double y = Y_dense(dof, 3 * a + l);
          on_paths(dof, 3 * a + l) = y;
          EXPECT_NEAR(w.Y_path(s, 3 * a + l), y, 1e-10 * (1.0 + Y_dense.norm()));
          EXPECT_NEAR(w.Y_path(s, n + 3 * a + l), y / data.L_diag[dof],
                      1e-10 * (1.0 + Y_dense.norm() / data.L_diag.minCoeff()));
        }
      }
    }
    EXPECT_LT((on_paths - Y_dense).norm(), 1e-10 * (1.0 + Y_dense.norm()));

    // M⁻¹ W Λ from the half-solved Y Λ, with Y's full columns and from the
    // paths (PathImpulse).
    Eigen::VectorXd Lambda(n);
    for (int i = 0; i < n; ++i) Lambda[i] = normal(rng);
    const Eigen::VectorXd expected = llt.solve(W * Lambda);
    Eigen::VectorXd x = w.Y.leftCols(n) * Lambda;
    SolveMassMatrixFromHalf(data, x);
    EXPECT_LT((x - expected).norm(), 1e-9 * (1.0 + expected.norm()));
    Eigen::VectorXd x_path = Eigen::VectorXd::Constant(nv, 7.0);
    PathImpulse(support, support_len, w.Y_path.leftCols(n), Lambda, x_path);
    SolveMassMatrixFromHalf(data, x_path);
    EXPECT_LT((x_path - expected).norm(), 1e-9 * (1.0 + expected.norm()));

    // Wᵀ M⁻¹ b from the half solve z = L⁻ᵀ b (AddPathVelocity adds Yᵀ D⁻¹ z),
    // and the two halves make SolveMassMatrix.
    Eigen::VectorXd b(nv);
    for (int i = 0; i < nv; ++i) b[i] = normal(rng);
    Eigen::VectorXd z = b;
    SolveMassMatrixHalf(data, z);
    const Eigen::VectorXd offset = Eigen::VectorXd::Constant(n, 0.5);
    Eigen::VectorXd velocity = offset;
    AddPathVelocity(support, support_len, w.Y_path.leftCols(2 * n), z, velocity);
    const Eigen::VectorXd velocity_dense = offset + W.transpose() * llt.solve(b);
    EXPECT_LT((velocity - velocity_dense).norm(), 1e-9 * (1.0 + velocity_dense.norm()));
    Eigen::VectorXd full = b;
    SolveMassMatrix(data, full);
    SolveMassMatrixFromHalf(data, z);
    EXPECT_EQ(z, full);
  }
}

INSTANTIATE_TEST_SUITE_P(Robots, DelassusTest, ::testing::Values("mini_cheetah", "biped", "box"));

}  // namespace
}  // namespace moreau::step
