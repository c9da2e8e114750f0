// The identities of ../shared/PHYSICS.md § Rigid-body dynamics, over every
// test model and 100 random states each: M symmetric positive definite,
// ABA = M⁻¹(τ − c − g), RNEA(ABA(τ)) = τ, c + g = nonlinear effects, the sparse
// LTDL factor solves like a dense one, and ½vᵀMv = Σ body kinetic energies.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <random>

#include "engine/dynamics/aba.h"
#include "engine/dynamics/configuration.h"
#include "engine/dynamics/crba.h"
#include "engine/dynamics/data.h"
#include "engine/dynamics/energy.h"
#include "engine/dynamics/kinematics.h"
#include "engine/dynamics/rnea.h"
#include "tests/unit/dynamics/test_models.h"

namespace moreau {
namespace {

constexpr int kStates = 100;

double RelativeError(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return (a - b).norm() / std::max(1.0, b.norm());
}

Eigen::VectorXd RandomVector(int n, std::mt19937_64& rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  Eigen::VectorXd x(n);
  for (int i = 0; i < n; ++i) x[i] = normal(rng);
  return x;
}

TEST(DynamicsIdentities, AllModelsRandomStates) {
  const auto models = testing::AllTestModels();
  ASSERT_GE(models.size(), 17u);
  std::mt19937_64 rng(7);
  for (const auto& [label, model_ptr] : models) {
    SCOPED_TRACE(label);
    const Model& model = *model_ptr;
    Data data = MakeData(model);
    for (int s = 0; s < kStates; ++s) {
      const Eigen::VectorXd q = RandomConfiguration(model, rng);
      const Eigen::VectorXd v = RandomVector(model.nv, rng);
      const Eigen::VectorXd tau = RandomVector(model.nv, rng);

      const Eigen::MatrixXd M = Crba(model, data, q);
      ASSERT_TRUE(M.isApprox(M.transpose(), 1e-14)) << "M not symmetric at state " << s;
      const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(M);
      ASSERT_GT(eig.eigenvalues().minCoeff(), 0.0) << "M not positive definite at state " << s;

      const Eigen::VectorXd c = ComputeCoriolis(model, data, q, v);
      const Eigen::VectorXd g = ComputeGravity(model, data, q);
      const Eigen::VectorXd nle = NonlinearEffects(model, data, q, v);
      EXPECT_LT(RelativeError(c + g, nle), 1e-12);

      // ABA(q, v, τ) = M⁻¹(τ − c − g).
      const Eigen::VectorXd expected_qacc = M.llt().solve(tau - c - g);
      const Eigen::VectorXd qacc = Aba(model, data, q, v, tau);
      EXPECT_LT(RelativeError(qacc, expected_qacc), 1e-9) << "state " << s;

      // RNEA(q, v, ABA(q, v, τ)) = τ.
      const Eigen::VectorXd tau_back = Rnea(model, data, q, v, qacc);
      EXPECT_LT(RelativeError(tau_back, tau), 1e-9) << "state " << s;

      // RNEA with q̈ = e_k gives M's columns plus the bias.
      if (s == 0) {
        for (int k = 0; k < model.nv; ++k) {
          const Eigen::VectorXd col =
              Rnea(model, data, q, v, Eigen::VectorXd::Unit(model.nv, k)) - nle;
          EXPECT_LT(RelativeError(col, M.col(k)), 1e-10) << "column " << k;
        }
      }

      // Sparse LTDL factor solves as the dense Cholesky does.
      Crba(model, data, q);
      ASSERT_TRUE(FactorMassMatrix(model, data));
      Eigen::VectorXd x = tau;
      SolveMassMatrix(data, x);
      EXPECT_LT(RelativeError(x, M.llt().solve(tau)), 1e-9);

      // ½ vᵀ M v = Σ ½ v_iᵀ I_i v_i.
      ForwardKinematics(model, data, q, v);
      const double T = KineticEnergy(model, data);
      EXPECT_NEAR(0.5 * v.dot(M * v), T, 1e-10 * std::max(1.0, T));
    }
  }
}

TEST(DynamicsIdentities, ExternalWrenchSplit) {
  // τ = M q̈ + c + g − Σ Jᵀ f_ext: RNEA with wrenches equals RNEA without
  // plus the external-wrench term (001 Alg. 4).
  std::mt19937_64 rng(11);
  for (const auto& [label, model_ptr] : testing::AllTestModels()) {
    SCOPED_TRACE(label);
    const Model& model = *model_ptr;
    Data data = MakeData(model);
    std::vector<Force> f_ext(model.nbodies, Force::Zero());
    for (int i = 1; i < model.nbodies; ++i)
      f_ext[i] = Force::FromVector(RandomVector(6, rng).head<6>());
    const Eigen::VectorXd q = RandomConfiguration(model, rng);
    const Eigen::VectorXd v = RandomVector(model.nv, rng);
    const Eigen::VectorXd qacc = RandomVector(model.nv, rng);
    const Eigen::VectorXd with = Rnea(model, data, q, v, qacc, &f_ext);
    const Eigen::VectorXd without = Rnea(model, data, q, v, qacc);
    Eigen::VectorXd ext(model.nv);
    ExternalWrenchForce(model, data, f_ext, ext);
    EXPECT_LT(RelativeError(with, without + ext), 1e-10);
    // And ABA with the same wrenches inverts it.
    const Eigen::VectorXd back = Aba(model, data, q, v, with, &f_ext);
    EXPECT_LT(RelativeError(back, qacc), 1e-9);
  }
}

TEST(DynamicsIdentities, FloatingBaseGravityIsWeightInWorldFrame) {
  // At any orientation the base's generalized gravity force is −m g in world
  // coordinates (MuJoCo's free-joint convention: force in world, moment in base).
  auto model = testing::Builtin("mini_cheetah");
  ASSERT_NE(model, nullptr);
  Data data = MakeData(*model);
  std::mt19937_64 rng(3);
  const Eigen::VectorXd q = RandomConfiguration(*model, rng);
  const Eigen::VectorXd g = ComputeGravity(*model, data, q);
  const double m = model->TotalMass();
  EXPECT_NEAR(g[0], 0.0, 1e-12);
  EXPECT_NEAR(g[1], 0.0, 1e-12);
  EXPECT_NEAR(g[2], 9.81 * m, 1e-10);
}

}  // namespace
}  // namespace moreau
