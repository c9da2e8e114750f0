// Contact-point Jacobians (001 Alg. 6) against finite differences of the
// contact-point positions, and J̇v against the finite difference of J v.
#include "engine/dynamics/jacobians.h"

#include <gtest/gtest.h>

#include <random>

#include "engine/dynamics/configuration.h"
#include "engine/dynamics/data.h"
#include "engine/dynamics/kinematics.h"
#include "tests/unit/dynamics/test_models.h"

namespace moreau {
namespace {

constexpr int kStates = 100;

std::vector<Vec3> ContactPositions(const Model& model, Data& data, const Eigen::VectorXd& q) {
  ContactJacobians(model, data, q);
  return data.contact_position;
}

TEST(Jacobians, MatchFiniteDifferencesOnEveryModel) {
  std::mt19937_64 rng(5);
  std::normal_distribution<double> normal(0.0, 1.0);
  int checked = 0;
  for (const auto& [label, model_ptr] : testing::AllTestModels()) {
    SCOPED_TRACE(label);
    const Model& model = *model_ptr;
    if (model.contact_points.empty()) continue;
    Data data = MakeData(model);
    for (int s = 0; s < kStates; ++s) {
      const Eigen::VectorXd q = RandomConfiguration(model, rng);
      ContactJacobians(model, data, q);
      const std::vector<Matrix3Xd> J = data.contact_J;
      const double h = 1e-6;
      for (int k = 0; k < model.nv; ++k) {
        const Eigen::VectorXd e = Eigen::VectorXd::Unit(model.nv, k);
        Eigen::VectorXd qp = q, qm = q;
        IntegrateConfiguration(model, qp, e, h);
        IntegrateConfiguration(model, qm, e, -h);
        const auto pp = ContactPositions(model, data, qp);
        const auto pm = ContactPositions(model, data, qm);
        for (size_t c = 0; c < pp.size(); ++c) {
          const Vec3 fd = (pp[c] - pm[c]) / (2 * h);
          EXPECT_LT((J[c].col(k) - fd).norm(), 1e-6)
              << "contact " << model.contact_points[c].name << " column " << k;
        }
      }
      ++checked;
    }
  }
  EXPECT_GE(checked, 3 * kStates);  // mini_cheetah, a1 and the sphere at least
}

TEST(Jacobians, JdotVMatchesFiniteDifference) {
  std::mt19937_64 rng(9);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (const char* name : {"mini_cheetah", "sphere"}) {
    SCOPED_TRACE(name);
    auto model = testing::Builtin(name);
    ASSERT_NE(model, nullptr);
    Data data = MakeData(*model);
    for (int s = 0; s < 20; ++s) {
      const Eigen::VectorXd q = RandomConfiguration(*model, rng);
      Eigen::VectorXd v(model->nv);
      for (int i = 0; i < model->nv; ++i) v[i] = normal(rng);
      ContactJdotV(*model, data, q, v);
      const std::vector<Vec3> Jdv = data.contact_Jdot_v;
      // Along q(t) = q ⊕ t v (constant v, so q̈ = 0): d/dt (J v) = J̇ v.
      const double h = 1e-5;
      Eigen::VectorXd qp = q, qm = q;
      IntegrateConfiguration(*model, qp, v, h);
      IntegrateConfiguration(*model, qm, v, -h);
      ContactJacobians(*model, data, qp);
      std::vector<Vec3> vp;
      for (const auto& J : data.contact_J) vp.push_back(J * v);
      ContactJacobians(*model, data, qm);
      for (size_t c = 0; c < vp.size(); ++c) {
        const Vec3 fd = (vp[c] - data.contact_J[c] * v) / (2 * h);
        EXPECT_LT((Jdv[c] - fd).norm(), 1e-5 * std::max(1.0, fd.norm())) << "contact " << c;
      }
    }
  }
}

}  // namespace
}  // namespace moreau
