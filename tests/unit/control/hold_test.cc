// The hold controller (hold.h): joint PD (001 eq. 44) to the joint angles of
// its first Compute, target rate 0; the held angles live in ControllerState,
// so a fresh controller given that state holds the same pose.
#include "engine/control/hold.h"

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <string>

#include "engine/control/controller.h"
#include "engine/control/pd.h"
#include "engine/model/loader.h"
#include "tests/unit/control/control_test_util.h"

namespace moreau::control {
namespace {

// q_default with every actuated joint moved by `offset` (rad).
Eigen::VectorXd Bent(const Model& model, double offset) {
  Eigen::VectorXd q = model.q_default;
  for (const Actuator& a : model.actuators) q[model.joints[a.joint].q_index] += offset;
  return q;
}

TEST(HoldController, HoldsThePoseOfItsFirstCall) {
  auto model = testing::MiniCheetah();
  ASSERT_NE(model, nullptr);
  ControllerOptions options;
  options.gains = {.kp = 30.0, .kd = 0.5};
  auto hold = MakeController("hold", *model, options);
  ASSERT_TRUE(hold.ok()) << hold.status();
  EXPECT_EQ((*hold)->Name(), "hold");

  const Eigen::VectorXd q0 = Bent(*model, 0.1);
  const Eigen::VectorXd v = Eigen::VectorXd::Constant(model->nv, 0.3);
  Eigen::VectorXd held(model->nu());
  ActuatorPositions(*model, q0, held);
  ControllerState state;
  Eigen::VectorXd tau(model->nv);
  (*hold)->Compute(*model, 0.0, 1e-3, q0, v, state, tau);
  EXPECT_TRUE(state.leg_targets_set);
  EXPECT_EQ((*hold)->LastTargets(), held);
  EXPECT_EQ((*hold)->LastTargetVelocities(), Eigen::VectorXd::Zero(model->nu()));

  // Later calls see other angles and still pull toward the first ones.
  const Eigen::VectorXd q1 = Bent(*model, -0.2);
  for (int k = 1; k < 5; ++k) (*hold)->Compute(*model, k * 1e-3, 1e-3, q1, v, state, tau);
  EXPECT_EQ((*hold)->LastTargets(), held);
  EXPECT_DOUBLE_EQ(state.elapsed_s, 5e-3);
  Eigen::VectorXd expected(model->nv);
  JointPd(*model, q1, v, held, Eigen::VectorXd::Zero(model->nu()), options.gains, expected);
  EXPECT_EQ(tau, expected);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(tau[i], 0.0) << "base " << i;
  // Every joint is pushed back up toward +0.1: k_p · 0.3 > k_d · 0.3.
  for (const Actuator& a : model->actuators) EXPECT_GT(tau[model->joints[a.joint].v_index], 0.0);
}

// The held angles are state: a new controller continues from it (as after a
// snapshot's restore) with the same τ, not with angles of its own first call.
TEST(HoldController, TheHeldPoseIsState) {
  auto model = testing::MiniCheetah();
  ASSERT_NE(model, nullptr);
  auto first = MakeController("hold", *model);
  auto second = MakeController("hold", *model);
  ASSERT_TRUE(first.ok() && second.ok());
  const Eigen::VectorXd v = Eigen::VectorXd::Zero(model->nv);
  ControllerState state;
  Eigen::VectorXd tau(model->nv);
  (*first)->Compute(*model, 0.0, 1e-3, Bent(*model, 0.1), v, state, tau);
  const ControllerState saved = state;  // trivially copyable: what a snapshot writes

  const Eigen::VectorXd q = Bent(*model, 0.05);
  Eigen::VectorXd tau_first(model->nv), tau_second(model->nv);
  ControllerState copy = saved;
  (*first)->Compute(*model, 1e-3, 1e-3, q, v, state, tau_first);
  (*second)->Compute(*model, 1e-3, 1e-3, q, v, copy, tau_second);
  EXPECT_EQ(tau_second, tau_first);
  EXPECT_EQ((*second)->LastTargets(), (*first)->LastTargets());

  // A state at the start of a run takes the pose anew.
  ControllerState fresh;
  (*second)->Compute(*model, 0.0, 1e-3, q, v, fresh, tau_second);
  Eigen::VectorXd angles(model->nu());
  ActuatorPositions(*model, q, angles);
  EXPECT_EQ((*second)->LastTargets(), angles);
}

// Under a target mode (ComputeTargets) the targets are the held angles.
TEST(HoldController, TargetsAreTheHeldAngles) {
  auto model = testing::UnitreeA1();
  ASSERT_NE(model, nullptr);
  auto hold = MakeController("hold", *model);
  ASSERT_TRUE(hold.ok()) << hold.status();
  const Eigen::VectorXd q0 = Bent(*model, 0.1);
  Eigen::VectorXd held(model->nu());
  ActuatorPositions(*model, q0, held);
  ControllerState state;
  Eigen::VectorXd targets(model->nu());
  const Eigen::VectorXd v = Eigen::VectorXd::Zero(model->nv);
  (*hold)->ComputeTargets(*model, 0.0, 1e-3, q0, v, {}, state, targets);
  EXPECT_EQ(targets, held);
  (*hold)->ComputeTargets(*model, 1e-3, 1e-3, Bent(*model, 0.3), v, {}, state, targets);
  EXPECT_EQ(targets, held);
}

// Any model with actuators: a pendulum, a cart-pole, a biped; no 3-joint
// legs needed.
TEST(HoldController, RunsOnModelsWithoutLegs) {
  for (const char* name : {"pendulum", "cartpole", "biped"}) {
    SCOPED_TRACE(name);
    auto model = LoadBuiltin(name);
    ASSERT_TRUE(model.ok()) << model.status();
    auto hold = MakeController("hold", **model);
    ASSERT_TRUE(hold.ok()) << hold.status();
    EXPECT_EQ((*hold)->LastTargets().size(), (*model)->nu());
  }
}

TEST(HoldController, RefusesBadGainsAndTooManyActuators) {
  auto model = testing::MiniCheetah();
  ASSERT_NE(model, nullptr);
  ControllerOptions options;
  options.gains.kp = -1.0;
  auto bad = MakeController("hold", *model, options);
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("kp"), std::string::npos) << bad.status();

  auto many = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(many.ok()) << many.status();
  Model big = **many;
  // More actuators than ControllerState has room for.
  while (big.nu() <= kMaxHeldJoints) big.actuators.push_back(big.actuators.front());
  auto refused = MakeHoldController(big, {});
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("at most 12"), std::string::npos) << refused.status();
}

}  // namespace
}  // namespace moreau::control
