// The identities of rigid-body dynamics (Featherstone's algorithms as in 001
// §3–4: de Paula et al., "Dynamic modeling and simulation of a
// torque-controlled spatial quadruped robot"), over every test model and 100
// random states each: M symmetric positive definite,
// ABA = M⁻¹(τ − c − g), RNEA(ABA(τ)) = τ, c + g = nonlinear effects, the sparse
// LTDL factor solves like a dense one (also from its half solve L⁻ᵀ b), and
// ½vᵀMv = Σ body kinetic energies.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <cmath>
#include <random>
#include <string>

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

// Two twists of body `body` agree to 1e-12 (RelativeError of their 6-vectors).
void ExpectSameTwist(const Motion& got, const Motion& want, int body) {
  EXPECT_LT(RelativeError(got.ToVector(), want.ToVector()), 1e-12) << "body " << body;
}

Eigen::VectorXd RandomVector(int n, std::mt19937_64& rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  Eigen::VectorXd x(n);
  for (int i = 0; i < n; ++i) x[i] = normal(rng);
  return x;
}

// Every identity of the file header at `states` random states of `model`.
void CheckIdentities(const Model& model, std::mt19937_64& rng, int states) {
  {
    Data data = MakeData(model);
    for (int s = 0; s < states; ++s) {
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
      // The second half alone, from y = L⁻ᵀ τ (M = Lᵀ D L, L unit lower
      // triangular with row k's entries at k's ancestor DOFs).
      Eigen::MatrixXd L = Eigen::MatrixXd::Identity(model.nv, model.nv);
      for (int k = 0; k < model.nv; ++k) {
        for (int t = 0; t < data.L_row_len[k]; ++t) {
          L(k, data.L_cols[data.L_row_adr[k] + t]) = data.L_values[data.L_row_adr[k] + t];
        }
      }
      Eigen::VectorXd y = L.transpose().triangularView<Eigen::Upper>().solve(tau);
      SolveMassMatrixFromHalf(data, y);
      EXPECT_LT(RelativeError(y, M.llt().solve(tau)), 1e-9);

      // ½ vᵀ M v = Σ ½ v_iᵀ I_i v_i.
      ForwardKinematics(model, data, q, v);
      const double T = KineticEnergy(model, data);
      EXPECT_NEAR(0.5 * v.dot(M * v), T, 1e-10 * std::max(1.0, T));
    }
  }
}

TEST(DynamicsIdentities, AllModelsRandomStates) {
  const auto models = testing::AllTestModels();
  ASSERT_GE(models.size(), 17u);
  std::mt19937_64 rng(7);
  for (const auto& [label, model_ptr] : models) {
    SCOPED_TRACE(label);
    CheckIdentities(*model_ptr, rng, kStates);
  }
}

// The same identities with transmissions (002 §IV-C): every actuator gets a
// random gear ratio N ∈ [1, 100] and rotor inertia I_rotor ∈ [1e-6, 1e-4]
// kg m², so the reflected inertia N²·I_rotor ranges from negligible to far
// above the link inertias. ABA (D_i + armature_i), CRBA (M's diagonal), RNEA
// (armature · q̈) and the kinetic energy (½ armature q̇²) must stay consistent.
TEST(DynamicsIdentities, AllModelsWithArmature) {
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> gear(1.0, 100.0);
  std::uniform_real_distribution<double> log_rotor(-6.0, -4.0);
  int geared = 0;
  for (const auto& [label, model_ptr] : testing::AllTestModels()) {
    SCOPED_TRACE(label);
    Model model = *model_ptr;
    if (model.actuators.empty()) continue;
    for (Actuator& a : model.actuators) {
      a.gear = gear(rng);
      a.rotor_inertia = std::pow(10.0, log_rotor(rng));
    }
    UpdateArmature(model);
    ASSERT_GT(model.armature.maxCoeff(), 0.0);
    ++geared;
    CheckIdentities(model, rng, kStates / 4);
  }
  EXPECT_GE(geared, 10);
}

// M with armature = M without + diag(N²·I_rotor), exactly (002 §IV-C).
TEST(DynamicsIdentities, ArmatureIsExactlyOnTheDiagonal) {
  for (const std::string name : {"mini_cheetah", "double_pendulum", "cartpole"}) {
    SCOPED_TRACE(name);
    auto base = testing::Builtin(name);
    ASSERT_NE(base, nullptr);
    Model geared = *base;
    for (int k = 0; k < geared.nu(); ++k) {
      geared.actuators[k].gear = 10.0 + 7.0 * static_cast<double>(k);
      geared.actuators[k].rotor_inertia = 3e-5 * static_cast<double>(k + 1);
    }
    UpdateArmature(geared);
    std::mt19937_64 rng(5);
    const Eigen::VectorXd q = RandomConfiguration(*base, rng);
    Data data0 = MakeData(*base);
    Data data1 = MakeData(geared);
    const Eigen::MatrixXd M0 = Crba(*base, data0, q);
    const Eigen::MatrixXd M1 = Crba(geared, data1, q);
    Eigen::VectorXd expected_armature = Eigen::VectorXd::Zero(base->nv);
    for (const Actuator& a : geared.actuators) {
      expected_armature[geared.joints[a.joint].v_index] = a.gear * a.gear * a.rotor_inertia;
    }
    for (int i = 0; i < base->nv; ++i) {
      for (int j = 0; j < base->nv; ++j) {
        if (i == j) {
          EXPECT_EQ(M1(i, i), M0(i, i) + expected_armature[i]) << "diagonal " << i;
        } else {
          EXPECT_EQ(M1(i, j), M0(i, j)) << i << ", " << j;
        }
      }
    }
    EXPECT_GT(expected_armature.maxCoeff(), 0.0);
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

// AbaVelocities and AbaAccelerations at the X_up of ForwardKinematics equals Aba, and Aba leaves
// the same X_up and body velocities as ForwardKinematics (aba.h), for the
// rotation-about-e_K joints (read back from X_up) and every other kind.
// Data::level_order holds every body once, parents before children, ties
// by index; FK's world placements (axis fast path or not) compose the joint
// transforms, ^iX_0 = ^iX_λ(i) ^λ(i)X_0, and its body twists are
// v_i = ^iX_λ(i) v_λ(i) + v_J.
TEST(DynamicsIdentities, LevelOrderAndKinematicsCompose) {
  std::mt19937_64 rng(11);
  for (const auto& [label, model_ptr] : testing::AllTestModels()) {
    SCOPED_TRACE(label);
    const Model& model = *model_ptr;
    Data data = MakeData(model);
    ASSERT_EQ(data.level_order.size(), static_cast<size_t>(model.nbodies - 1));
    std::vector<int> position(model.nbodies, -1);
    for (size_t k = 0; k < data.level_order.size(); ++k) {
      const int i = data.level_order[k];
      ASSERT_GE(i, 1);
      ASSERT_EQ(position[i], -1) << "body " << i << " twice";
      position[i] = static_cast<int>(k);
      if (model.parent[i] > 0) {
        EXPECT_LT(position[model.parent[i]], position[i]) << i;
      }
    }
    for (int s = 0; s < 10; ++s) {
      const Eigen::VectorXd q = RandomConfiguration(model, rng);
      const Eigen::VectorXd v = RandomVector(model.nv, rng);
      ForwardKinematics(model, data, q, v);
      for (int i = 1; i < model.nbodies; ++i) {
        const int p = model.parent[i];
        const Transform expected = p == 0 ? data.X_up[i] : data.X_up[i] * data.X_0[p];
        EXPECT_TRUE(data.X_0[i].E.isApprox(expected.E, 1e-12)) << "body " << i;
        EXPECT_LT((data.X_0[i].r - expected.r).norm(), 1e-12 * std::max(1.0, expected.r.norm()));
        const Motion v_expected = p == 0 ? data.vJ[i] : data.X_up[i].Apply(data.v[p]) + data.vJ[i];
        ExpectSameTwist(data.v[i], v_expected, i);
      }
    }
  }
}

TEST(DynamicsIdentities, AbaFromKinematicsMatchesAba) {
  std::mt19937_64 rng(17);
  for (const auto& [label, model_ptr] : testing::AllTestModels()) {
    SCOPED_TRACE(label);
    const Model& model = *model_ptr;
    Data data = MakeData(model);
    Data fk = MakeData(model);
    for (int s = 0; s < 10; ++s) {
      const Eigen::VectorXd q = RandomConfiguration(model, rng);
      const Eigen::VectorXd v = RandomVector(model.nv, rng);
      const Eigen::VectorXd tau = RandomVector(model.nv, rng);
      const Eigen::VectorXd qacc = Aba(model, data, q, v, tau);
      ForwardKinematics(model, fk, q, v);
      for (int i = 1; i < model.nbodies; ++i) {
        EXPECT_TRUE(data.X_up[i].E.isApprox(fk.X_up[i].E, 1e-14)) << "body " << i;
        EXPECT_TRUE(data.X_up[i].r.isApprox(fk.X_up[i].r, 1e-14)) << "body " << i;
        ExpectSameTwist(data.v[i], fk.v[i], i);
      }
      AbaVelocities(model, fk, v);
      const Eigen::VectorXd from_kinematics = AbaAccelerations(model, fk, tau);
      EXPECT_LT(RelativeError(from_kinematics, qacc), 1e-12) << "state " << s;
    }
  }
}

// ABA in two halves: pass 1 (AbaVelocities) leaves the body twists of
// ForwardKinematics, and external forces applied between the halves as
// p^A_i −= f_i give Aba with those f_ext (RBDA Table 7.1).
TEST(DynamicsIdentities, AbaHalvesWithForcesOnBiasMatchAbaWithExternalForces) {
  std::mt19937_64 rng(19);
  for (const auto& [label, model_ptr] : testing::AllTestModels()) {
    SCOPED_TRACE(label);
    const Model& model = *model_ptr;
    Data data = MakeData(model);
    Data fk = MakeData(model);
    for (int s = 0; s < 10; ++s) {
      const Eigen::VectorXd q = RandomConfiguration(model, rng);
      const Eigen::VectorXd v = RandomVector(model.nv, rng);
      const Eigen::VectorXd tau = RandomVector(model.nv, rng);
      std::vector<Force> f_ext(static_cast<size_t>(model.nbodies), Force::Zero());
      for (int i = 1; i < model.nbodies; ++i) {
        const Eigen::VectorXd f = RandomVector(6, rng);
        f_ext[i] = Force(f.head<3>(), f.tail<3>());
      }
      const Eigen::VectorXd expected = Aba(model, data, q, v, tau, &f_ext);
      ForwardKinematics(model, fk, q, v);
      const std::vector<Motion> twists = fk.v;
      AbaVelocities(model, fk, v);
      for (int i = 1; i < model.nbodies; ++i) {
        ExpectSameTwist(fk.v[i], twists[i], i);
        fk.pA[i] -= f_ext[i];
      }
      const Eigen::VectorXd qacc = AbaAccelerations(model, fk, tau);
      EXPECT_LT(RelativeError(qacc, expected), 1e-12) << "state " << s;
    }
  }
}

// CrbaFactor (CRBA's entries straight into the factor's rows)
// gives FactorMassMatrix's factor of Crba's M bit for bit, with
// and without armature.
TEST(DynamicsIdentities, CrbaFactorEqualsFactorOfCrba) {
  std::mt19937_64 rng(23);
  for (const auto& [label, model_ptr] : testing::AllTestModels()) {
    for (const bool armature : {false, true}) {
      SCOPED_TRACE(::testing::Message() << label << (armature ? " with armature" : ""));
      Model model = *model_ptr;
      if (armature) {
        if (model.actuators.empty()) continue;
        for (Actuator& a : model.actuators) {
          a.gear = 10.0;
          a.rotor_inertia = 1e-5;
        }
        UpdateArmature(model);
      }
      Data dense = MakeData(model);
      Data rows = MakeData(model);
      for (int s = 0; s < 5; ++s) {
        const Eigen::VectorXd q = RandomConfiguration(model, rng);
        ForwardKinematics(model, dense, q);
        ForwardKinematics(model, rows, q);
        Crba(model, dense);
        ASSERT_TRUE(FactorMassMatrix(model, dense));
        rows.L_values.assign(rows.L_values.size(), 7.0);  // every entry must be written
        rows.L_diag.setConstant(7.0);
        ASSERT_TRUE(CrbaFactor(model, rows));
        EXPECT_EQ(rows.L_values, dense.L_values) << "state " << s;
        EXPECT_EQ(rows.L_diag, dense.L_diag) << "state " << s;
      }
    }
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
