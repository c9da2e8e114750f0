// The "command" control mode: the action is the controller's command. The
// trot follows forward, sideways and turning commands on the Mini Cheetah and
// the Unitree A1; the command is clamped to its bounds and kept in the State;
// a missing controller or a malformed command is refused naming it.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <memory>
#include <string>

#include "engine/sim/simulation.h"
#include "tests/unit/control/control_test_util.h"

namespace moreau::sim {
namespace {

Settings CommandSettings(const std::string& controller) {
  Settings settings;
  settings.contact = DefaultContactSettings(ContactModel::kMoreauJor);
  settings.dt = 1e-3;
  settings.control.mode = ControlMode::kCommand;
  settings.controller.kind = *ParseControllerKind(controller);
  return settings;
}

double Yaw(const Eigen::VectorXd& q) {
  const double w = q[3], x = q[4], y = q[5], z = q[6];
  return std::atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z));
}

struct Outcome {
  double x, y, yaw, height;
};

// 8 s of the trot under a constant command.
Outcome Trot(const std::shared_ptr<const Model>& model, const Eigen::Vector3d& command) {
  auto sim = Simulation::Create(model, CommandSettings("trot"));
  EXPECT_TRUE(sim.ok()) << sim.status();
  if (!sim.ok()) return {};
  EXPECT_EQ((*sim)->action_size(), 3);
  const Eigen::VectorXd action = command;
  double lowest = 1e9;
  for (int k = 0; k < 8; ++k) {
    EXPECT_TRUE((*sim)->StepAction(action, 1000).ok());
    lowest = std::min(lowest, (*sim)->state().q[2]);
  }
  const Eigen::VectorXd& q = (*sim)->state().q;
  return {q[0], q[1], Yaw(q), lowest};
}

class CommandTrotTest : public ::testing::TestWithParam<std::string> {
 protected:
  std::shared_ptr<const Model> Robot() const {
    return GetParam() == "mini_cheetah" ? testing::MiniCheetah() : testing::UnitreeA1();
  }
};

TEST_P(CommandTrotTest, FollowsForwardSidewaysAndTurningCommands) {
  const std::shared_ptr<const Model> model = Robot();
  ASSERT_NE(model, nullptr);
  // About 6.5 s of full command after the start delay and ramp.
  const Outcome forward = Trot(model, {0.3, 0.0, 0.0});
  EXPECT_GT(forward.x, 1.2);
  EXPECT_LT(std::abs(forward.y), 0.3);
  const Outcome sideways = Trot(model, {0.0, 0.15, 0.0});
  EXPECT_GT(sideways.y, 0.5);
  EXPECT_LT(std::abs(sideways.x), 0.4);
  const Outcome left = Trot(model, {0.0, 0.0, 0.3});
  EXPECT_GT(left.yaw, 1.5);
  const Outcome right = Trot(model, {0.0, 0.0, -0.3});
  EXPECT_LT(right.yaw, -1.5);
  const Outcome in_place = Trot(model, {0.0, 0.0, 0.0});
  EXPECT_LT(std::hypot(in_place.x, in_place.y), 0.4);
  EXPECT_LT(std::abs(in_place.yaw), 0.2);
  for (const Outcome& o : {forward, sideways, left, right, in_place}) {
    EXPECT_GT(o.height, 0.15) << "fell";
  }
}

INSTANTIATE_TEST_SUITE_P(Robots, CommandTrotTest, ::testing::Values("mini_cheetah", "unitree_a1"));

TEST(CommandMode, CommandIsClampedToItsBoundsAndKeptInTheState) {
  auto sim = Simulation::Create(testing::MiniCheetah(), CommandSettings("trot"));
  ASSERT_TRUE(sim.ok()) << sim.status();
  const auto elements = (*sim)->controller()->CommandElements();
  ASSERT_EQ(elements.size(), 3u);
  EXPECT_STREQ(elements[0].name, "forward_velocity");
  EXPECT_STREQ(elements[1].name, "lateral_velocity");
  EXPECT_STREQ(elements[2].name, "yaw_rate");
  ASSERT_TRUE((*sim)->StepAction(Eigen::Vector3d(100.0, -100.0, 0.1), 1).ok());
  const control::ControllerState& c = (*sim)->state().controller;
  EXPECT_TRUE(c.command_set);
  EXPECT_EQ(c.command[0], elements[0].upper);
  EXPECT_EQ(c.command[1], elements[1].lower);
  EXPECT_EQ(c.command[2], 0.1);
  // A snapshot carries it.
  auto copy = Simulation::Create(testing::MiniCheetah(), CommandSettings("trot"));
  ASSERT_TRUE(copy.ok());
  ASSERT_TRUE((*copy)->Restore((*sim)->Snapshot()).ok());
  EXPECT_EQ((*copy)->state().controller.command, c.command);
}

TEST(CommandMode, ARestoredCommandActsOnlyUnderTheCommandModeAndWithinBounds) {
  auto steered = Simulation::Create(testing::MiniCheetah(), CommandSettings("trot"));
  ASSERT_TRUE(steered.ok());
  ASSERT_TRUE((*steered)->StepAction(Eigen::Vector3d(0.4, 0.1, 0.2), 5).ok());
  const std::string blob = (*steered)->Snapshot();
  // Into a trot on its own options: no command.
  Settings plain = CommandSettings("trot");
  plain.control.mode = ControlMode::kTorque;
  auto trot = Simulation::Create(testing::MiniCheetah(), plain);
  ASSERT_TRUE(trot.ok());
  ASSERT_TRUE((*trot)->Restore(blob).ok());
  EXPECT_FALSE((*trot)->state().controller.command_set);
  EXPECT_EQ((*trot)->state().controller.command, (std::array<double, 3>{0.0, 0.0, 0.0}));
  // A command beyond the bounds in a set state is clamped.
  State state = (*steered)->state();
  state.controller.command = {50.0, 0.0, -50.0};
  ASSERT_TRUE((*steered)->SetState(state).ok());
  const auto elements = (*steered)->controller()->CommandElements();
  EXPECT_EQ((*steered)->state().controller.command[0], elements[0].upper);
  EXPECT_EQ((*steered)->state().controller.command[2], elements[2].lower);
  EXPECT_TRUE((*steered)->state().controller.command_set);
}

TEST(CommandMode, StandTakesAnEmptyCommand) {
  auto sim = Simulation::Create(testing::MiniCheetah(), CommandSettings("stand"));
  ASSERT_TRUE(sim.ok()) << sim.status();
  EXPECT_EQ((*sim)->action_size(), 0);
  EXPECT_TRUE((*sim)->StepAction(Eigen::VectorXd(0), 10).ok());
  EXPECT_EQ((*sim)->StepAction(Eigen::VectorXd::Zero(12), 1).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(CommandMode, RefusesNoControllerAndMalformedCommands) {
  for (const std::string kind : {"none", "zero", "hold", "velocity-trot"}) {
    const absl::Status refused =
        Simulation::Create(testing::MiniCheetah(), CommandSettings(kind)).status();
    EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument) << kind;
    EXPECT_NE(refused.message().find("control mode 'command'"), std::string::npos) << refused;
    EXPECT_NE(refused.message().find("needs the controller stand, trot or pd-trot, got " + kind),
              std::string::npos)
        << refused;
  }

  auto sim = Simulation::Create(testing::MiniCheetah(), CommandSettings("trot"));
  ASSERT_TRUE(sim.ok());
  const absl::Status size = (*sim)->StepAction(Eigen::VectorXd::Zero(12), 1);
  EXPECT_EQ(size.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(size.message().find("action has size 12, expected 3"), std::string::npos) << size;
  const absl::Status nan = (*sim)->StepAction(Eigen::Vector3d(0.0, std::nan(""), 0.0), 1);
  EXPECT_EQ(nan.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(nan.message().find("action[1] (lateral_velocity) is nan"), std::string::npos) << nan;
  EXPECT_EQ((*sim)->state().steps, 0u);
}

}  // namespace
}  // namespace moreau::sim
