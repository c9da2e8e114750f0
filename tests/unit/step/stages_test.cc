// The step's stages (engine/step/stages.h): smooth dynamics and actuation
// against RNEA and the dense mass matrix, integration, and each contact
// model's step as its stages called in order, bit for bit.
#include "engine/step/stages.h"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <random>
#include <vector>

#include "engine/contact/contact_set.h"
#include "engine/dynamics/configuration.h"
#include "engine/dynamics/crba.h"
#include "engine/dynamics/jacobians.h"
#include "engine/dynamics/kinematics.h"
#include "engine/dynamics/rnea.h"
#include "engine/model/loader.h"
#include "engine/step/least_constraint_step.h"
#include "engine/step/micro_macro_step.h"
#include "engine/step/moreau_step.h"

namespace moreau::step {
namespace {

std::shared_ptr<const Model> MiniCheetah() {
  auto loaded = LoadBuiltin("mini_cheetah");
  EXPECT_TRUE(loaded.ok()) << loaded.status();
  return *loaded;
}

// The default pose lowered by `drop` (m), so that some feet press into the
// ground, with a small sideways and downward velocity and joint torques.
struct Start {
  Eigen::VectorXd q, v, tau;
  std::vector<Force> f_ext;
};
Start Pressed(const Model& model, double drop) {
  Start s;
  s.q = model.q_default;
  s.q[2] -= drop;
  s.v = Eigen::VectorXd::Zero(model.nv);
  s.v[0] = 0.1;
  s.v[2] = -0.3;
  s.tau = Eigen::VectorXd::Zero(model.nv);
  for (int i = 6; i < model.nv; ++i) s.tau[i] = 0.5 * (i % 3) - 0.4;
  s.f_ext.assign(model.nbodies, Force::Zero());
  s.f_ext[1] = Force(Vec3(0.0, 0.2, 0.0), Vec3(3.0, 0.0, 1.0));
  return s;
}

TEST(StagesTest, SmoothDynamicsAndActuationGiveTheRightHandSide) {
  const auto model = MiniCheetah();
  StepWorkspace w = MakeStepWorkspace(*model);
  std::mt19937_64 rng(3);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (int trial = 0; trial < 5; ++trial) {
    SCOPED_TRACE(trial);
    const Eigen::VectorXd q = RandomConfiguration(*model, rng);
    Eigen::VectorXd v(model->nv), tau(model->nv);
    for (int i = 0; i < model->nv; ++i) {
      v[i] = normal(rng);
      tau[i] = normal(rng);
    }
    std::vector<Force> f_ext(model->nbodies, Force::Zero());
    f_ext[2] = Force(Vec3(0.1, -0.2, 0.3), Vec3(1.0, 2.0, -3.0));
    ForwardKinematics(*model, w.data, q, v);
    ASSERT_TRUE(SmoothDynamics(*model, w.data).ok());
    Actuation(*model, {&tau, &f_ext}, w);

    // h = τ − RNEA(q, v, 0, f_ext) = τ − c − g + Σ Jᵀ f_ext.
    Data ref = MakeData(*model);
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model->nv);
    const Eigen::VectorXd expected = tau - Rnea(*model, ref, q, v, zero, &f_ext);
    EXPECT_LT((w.h - expected).lpNorm<Eigen::Infinity>(), 1e-9 * (1.0 + expected.norm()));
    // The factor solves with M from the dense CRBA.
    const Eigen::MatrixXd M = Crba(*model, ref, q);
    Eigen::VectorXd x = w.h;
    SolveMassMatrix(w.data, x);
    EXPECT_LT((M * x - w.h).lpNorm<Eigen::Infinity>(), 1e-9 * (1.0 + w.h.norm()));
  }
}

TEST(StagesTest, IntegrateTakesTheEndVelocityAndNormalizes) {
  const auto model = MiniCheetah();
  StepWorkspace w = MakeStepWorkspace(*model);
  Eigen::VectorXd q = model->q_default;
  Eigen::VectorXd v = Eigen::VectorXd::Zero(model->nv);
  w.u_free = Eigen::VectorXd::Zero(model->nv);
  w.u_free[0] = 1.0;  // base moving along x
  w.u_free[5] = 2.0;  // spinning about its z axis
  w.u_free[7] = -0.5;
  Eigen::VectorXd expected_q = q;
  IntegrateConfiguration(*model, expected_q, w.u_free, 0.01);
  NormalizeConfiguration(*model, expected_q);
  Integrate(*model, 0.01, w, q, v);
  EXPECT_EQ(v, w.u_free);
  EXPECT_EQ(q, expected_q);
  EXPECT_NEAR(q.segment<4>(3).norm(), 1.0, 1e-15);
}

// Each step equals its stages called in order, bit for bit: one run through
// the step function, one through its stages, from the same pressed start.
class StepIsItsStagesTest : public ::testing::Test {
 protected:
  struct Run {
    StepWorkspace w;
    Eigen::VectorXd q, v;
    std::vector<double> impulses;
  };
  Run Fresh(double impulse) const {
    return Run{MakeStepWorkspace(*model), s.q, s.v, std::vector<double>(3 * nc, impulse)};
  }

  const std::shared_ptr<const Model> model = MiniCheetah();
  const contact::Terrain terrain;
  const double dt = 1e-3;
  const Start s = Pressed(*model, 0.02);
  const StepInputs inputs{&s.tau, &s.f_ext};
  const int nc = static_cast<int>(model->contact_points.size());
};

TEST_F(StepIsItsStagesTest, MoreauStepIsItsStagesInOrder) {
  auto [w1, q1, v1, impulses1] = Fresh(0.01);
  ASSERT_TRUE(MoreauStep(*model, terrain, {}, {}, dt, inputs, q1, v1, impulses1, w1).ok());

  auto [w2, q2, v2, impulses2] = Fresh(0.01);
  IntegrateConfiguration(*model, q2, v2, 0.5 * dt);
  ForwardKinematics(*model, w2.data, q2, v2);
  ASSERT_TRUE(SmoothDynamics(*model, w2.data).ok());
  Actuation(*model, inputs, w2);
  ComputeJointAxesWorld(*model, w2.data);
  ContactDetection(*model, terrain, /*horizon=*/0.5 * dt, w2);
  contact::ComputeContactVelocities(*model, w2.data, w2.contacts);
  const ActiveSet set = ActivateContacts(*model, {.horizon = 0.5 * dt}, impulses2, w2);
  ASSERT_GT(set.nc, 0);
  ProxContactSolve(*model, {}, {}, dt, {}, set, v2, impulses2, w2);
  Integrate(*model, 0.5 * dt, w2, q2, v2);

  EXPECT_EQ(q1, q2);
  EXPECT_EQ(v1, v2);
  EXPECT_EQ(impulses1, impulses2);
}

TEST_F(StepIsItsStagesTest, LeastConstraintStepIsItsStagesInOrder) {
  const LeastConstraintParams params;

  auto [w1, q1, v1, impulses1] = Fresh(0.0);
  ASSERT_TRUE(LeastConstraintStep(*model, terrain, params, dt, inputs, q1, v1, impulses1, w1).ok());

  auto [w2, q2, v2, impulses2] = Fresh(0.0);
  ContactJdotV(*model, w2.data, q2, v2);
  ASSERT_TRUE(SmoothDynamics(*model, w2.data).ok());
  Actuation(*model, inputs, w2);
  ComputeJointAxesWorld(*model, w2.data);
  ContactDetection(*model, terrain, /*horizon=*/dt, w2);
  contact::ComputeContactVelocitiesOnPaths(*model, w2.data, v2, w2.contacts);
  const ActiveSet set = ActivateContacts(*model, {.horizon = dt}, impulses2, w2);
  ASSERT_GT(set.nc, 0);
  LeastConstraintContactSolve(*model, params, dt, set, q2, v2, impulses2, w2);
  Integrate(*model, dt, w2, q2, v2);

  EXPECT_EQ(q1, q2);
  EXPECT_EQ(v1, v2);
  EXPECT_EQ(impulses1, impulses2);
  EXPECT_EQ(w1.qp.last.iterations, w2.qp.last.iterations);
}

TEST_F(StepIsItsStagesTest, MicroMacroStepIsItsStagesInOrder) {
  const MicroMacroParams params;

  auto [w1, q1, v1, impulses1] = Fresh(0.0);
  std::vector<contact::ContactState> states1 = contact::MakeContactStates(*model);
  ASSERT_TRUE(
      MicroMacroStep(*model, terrain, params, dt, inputs, q1, v1, states1, impulses1, w1).ok());

  auto [w2, q2, v2, impulses2] = Fresh(0.0);
  std::vector<contact::ContactState> states2 = contact::MakeContactStates(*model);
  ForwardKinematics(*model, w2.data, q2, v2);
  ASSERT_TRUE(SmoothDynamics(*model, w2.data).ok());
  Actuation(*model, inputs, w2);
  ComputeJointAxesWorld(*model, w2.data);
  ContactDetection(*model, terrain, /*horizon=*/dt, w2);
  contact::ComputeContactVelocitiesOnPaths(*model, w2.data, v2, w2.contacts);
  MembraneForces(*model, params, dt, states2, w2);
  const ActiveSet set =
      ActivateContacts(*model, {.horizon = dt, .keep_forces = true}, impulses2, w2);
  ASSERT_GT(set.nc, 0);
  MacroContactSolve(*model, params, dt, set, v2, impulses2, w2);
  Integrate(*model, dt, w2, q2, v2);

  EXPECT_EQ(q1, q2);
  EXPECT_EQ(v1, v2);
  EXPECT_EQ(impulses1, impulses2);
  for (int k = 0; k < nc; ++k) {
    EXPECT_EQ(w1.contacts.contacts[k].force, w2.contacts.contacts[k].force);
    EXPECT_EQ(states1[k].closed, states2[k].closed);
  }
}

}  // namespace
}  // namespace moreau::step
