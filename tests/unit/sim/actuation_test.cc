// Actions → joint torques (engine/sim/actuation.h) and Simulation::StepAction.
#include "engine/sim/actuation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/model/loader.h"
#include "engine/sim/simulation.h"

namespace moreau::sim {
namespace {

std::shared_ptr<const Model> Cheetah() {
  auto model = LoadBuiltin("mini_cheetah");
  EXPECT_TRUE(model.ok()) << model.status();
  return *model;
}

Eigen::Index Nu(const Model& m) { return m.nu(); }

TEST(ParseControlMode, KnownAndUnknown) {
  EXPECT_EQ(*ParseControlMode("pd"), ControlMode::kPd);
  EXPECT_EQ(*ParseControlMode("torque"), ControlMode::kTorque);
  const auto bad = ParseControlMode("position");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("position"), std::string_view::npos);
}

TEST(ActionTorques, TorqueModePlacesAndClampsPerActuator) {
  auto limited = std::make_shared<Model>(*Cheetah());
  limited->actuators[0].effort_limit = 17.0;  // the URDF sets no effort limits
  std::shared_ptr<const Model> model = limited;
  ControlSettings control;
  Eigen::VectorXd action(Nu(*model));
  for (Eigen::Index a = 0; a < action.size(); ++a) action[a] = 0.5 * static_cast<double>(a) - 2.0;
  action[0] = 1e6;  // far past any effort limit
  const ActuationScratch scratch = MakeActuationScratch(*model, 1e-3);
  Eigen::VectorXd tau = Eigen::VectorXd::Constant(model->nv, 99.0);
  ActionTorques(*model, control, action, model->q_default, Eigen::VectorXd::Zero(model->nv),
                scratch, tau);
  EXPECT_TRUE(tau.head<6>().isZero());  // the floating base is unactuated
  for (Eigen::Index a = 0; a < action.size(); ++a) {
    const Actuator& act = model->actuators[a];
    const double expected = std::clamp(action[a], -act.effort_limit, act.effort_limit);
    EXPECT_EQ(tau[model->joints[act.joint].v_index], expected) << act.name;
  }
  EXPECT_EQ(tau[model->joints[model->actuators[0].joint].v_index], 17.0);
}

TEST(ActionTorques, ActuatorsOutOfDofOrderArePlacedByTheirJoints) {
  // The Mini Cheetah's actuators drive dofs 6, 7, …: one consecutive block.
  EXPECT_EQ(MakeActuationScratch(*Cheetah(), 1e-3).dof_block, 6);
  auto swapped = std::make_shared<Model>(*Cheetah());
  std::swap(swapped->actuators[0], swapped->actuators[1]);
  swapped->actuators[1].effort_limit = 3.0;
  std::shared_ptr<const Model> model = swapped;
  const ActuationScratch scratch = MakeActuationScratch(*model, 1e-3);
  EXPECT_EQ(scratch.dof_block, -1);
  Eigen::VectorXd action(Nu(*model));
  for (Eigen::Index a = 0; a < action.size(); ++a) action[a] = 1.5 * static_cast<double>(a) - 4.0;
  action[1] = 10.0;  // past its limit of 3
  Eigen::VectorXd tau = Eigen::VectorXd::Constant(model->nv, 99.0);
  ActionTorques(*model, ControlSettings{}, action, model->q_default,
                Eigen::VectorXd::Zero(model->nv), scratch, tau);
  EXPECT_TRUE(tau.head<6>().isZero());
  for (Eigen::Index a = 0; a < action.size(); ++a) {
    const Actuator& act = model->actuators[a];
    EXPECT_EQ(tau[model->joints[act.joint].v_index],
              std::clamp(action[a], -act.effort_limit, act.effort_limit))
        << act.name;
  }
  EXPECT_EQ(tau[model->joints[model->actuators[1].joint].v_index], 3.0);
  EXPECT_EQ(tau[model->joints[model->actuators[0].joint].v_index], -4.0);
}

TEST(ActionTorques, PdModeIsJointPdWithZeroTargetRateBelowTheDampingCap) {
  auto model = Cheetah();
  ControlSettings control{ControlMode::kPd, control::PdGains{30.0, 0.7}};
  Eigen::VectorXd target(Nu(*model));
  control::ActuatorPositions(*model, model->q_default, target);
  target.array() += 0.1;
  Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(model->nv, -1.0, 1.0);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(Nu(*model));
  // At 001's Δt = 1e-4 every joint is below the cap: eq. 44 exactly.
  const ActuationScratch scratch = MakeActuationScratch(*model, 1e-4);
  Eigen::VectorXd tau(model->nv), expected(model->nv);
  ActionTorques(*model, control, target, model->q_default, v, scratch, tau);
  control::JointPd(*model, model->q_default, v, target, zero, control.gains, expected);
  EXPECT_EQ(tau, expected);
  EXPECT_FALSE(tau.tail(model->nv - 6).isZero());
}

TEST(StepAction, PdModeStaysStableAtLargeTimeSteps) {
  // 001's k_d = 1 on the Mini Cheetah's light lower legs is explicit-unstable
  // beyond Δt ≈ 1–2 ms; the capped damper is not.
  auto model = Cheetah();
  Settings settings;
  settings.control.mode = ControlMode::kPd;
  settings.dt = 2.5e-3;
  auto sim = Simulation::Create(model, settings);
  ASSERT_TRUE(sim.ok());
  Eigen::VectorXd target(12);
  control::ActuatorPositions(*model, model->q_default, target);
  target.array() += 0.3;
  ASSERT_TRUE((*sim)->StepAction(target, 800).ok());  // 2 s
  EXPECT_LT((*sim)->state().v.lpNorm<Eigen::Infinity>(), 5.0);
}

TEST(StepAction, RejectsWrongSizeAndNonFiniteKeepingState) {
  auto sim = Simulation::Create(Cheetah(), Settings{});
  ASSERT_TRUE(sim.ok());
  ASSERT_TRUE((*sim)->StepAction(Eigen::VectorXd::Zero(12), 3).ok());
  const std::string before = (*sim)->Snapshot();

  absl::Status s = (*sim)->StepAction(Eigen::VectorXd::Zero(11), 1);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("size 11, expected 12"), std::string_view::npos) << s;

  Eigen::VectorXd nan_action = Eigen::VectorXd::Zero(12);
  nan_action[4] = std::numeric_limits<double>::quiet_NaN();
  s = (*sim)->StepAction(nan_action, 1);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("action[4]"), std::string_view::npos) << s;

  nan_action[4] = std::numeric_limits<double>::infinity();
  EXPECT_EQ((*sim)->StepAction(nan_action, 1).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ((*sim)->StepAction(Eigen::VectorXd::Zero(12), 0).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ((*sim)->Snapshot(), before);
}

TEST(StepAction, TorqueModeMatchesStepWithTheSameTorques) {
  auto model = Cheetah();
  auto a = Simulation::Create(model, Settings{});
  auto b = Simulation::Create(model, Settings{});
  ASSERT_TRUE(a.ok() && b.ok());
  Eigen::VectorXd action = Eigen::VectorXd::LinSpaced(12, -3.0, 3.0);
  Eigen::VectorXd tau = Eigen::VectorXd::Zero(model->nv);
  for (Eigen::Index k = 0; k < 12; ++k) {
    tau[model->joints[model->actuators[k].joint].v_index] = action[k];
  }
  ASSERT_TRUE((*a)->StepAction(action, 50).ok());
  ASSERT_TRUE((*b)->Step(tau, 50).ok());
  EXPECT_EQ((*a)->Snapshot(), (*b)->Snapshot());
  EXPECT_EQ((*a)->applied_torques(), tau);
}

TEST(StepAction, PdModeHoldsTheDefaultPoseBetterThanZeroTorque) {
  auto model = Cheetah();
  Settings pd;
  pd.control.mode = ControlMode::kPd;
  auto held = Simulation::Create(model, pd);
  auto limp = Simulation::Create(model, Settings{});
  ASSERT_TRUE(held.ok() && limp.ok());
  Eigen::VectorXd target(12);
  control::ActuatorPositions(*model, model->q_default, target);
  ASSERT_TRUE((*held)->StepAction(target, 500).ok());
  ASSERT_TRUE((*limp)->StepAction(Eigen::VectorXd::Zero(12), 500).ok());
  Eigen::VectorXd q_held(12), q_limp(12);
  control::ActuatorPositions(*model, (*held)->state().q, q_held);
  control::ActuatorPositions(*model, (*limp)->state().q, q_limp);
  EXPECT_LT((q_held - target).norm(), 0.5 * (q_limp - target).norm());
}

}  // namespace
}  // namespace moreau::sim
