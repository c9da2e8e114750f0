// Simulation::diverged(): set, with the failed step's message, by a step that
// blows the state up or finds it beyond the limits; steps are refused while
// it is set; Reset, ResetWithNoise, SetState and Restore clear it (a refused
// SetState or Restore does not); MarkDiverged sets it as a checkpoint
// restores it. Steps refused for their arguments leave it alone.
#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "engine/model/loader.h"
#include "engine/sim/simulation.h"
#include "engine/sim/state.h"

namespace moreau::sim {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The Mini Cheetah on spring-damper contact; `max_speed` = ∞ leaves only
// non-finite entries and the coordinate bound as divergence.
std::unique_ptr<Simulation> MakeSim(double max_speed = 1e3) {
  auto model = LoadBuiltin("mini_cheetah");
  EXPECT_TRUE(model.ok()) << model.status();
  Settings settings;
  settings.contact = DefaultContactSettings(ContactModel::kSpringDamper);
  settings.dt = 1e-3;
  settings.max_speed = max_speed;
  auto sim = Simulation::Create(*model, settings);
  EXPECT_TRUE(sim.ok()) << sim.status();
  return std::move(*sim);
}

// The largest torque there is on one knee: the state leaves every bound (or
// stops being finite) within the first step.
Eigen::VectorXd BlowUpTorque(const Model& model) {
  Eigen::VectorXd tau = Eigen::VectorXd::Zero(model.nv);
  tau[8] = std::numeric_limits<double>::max();
  return tau;
}

// Steps `sim` into divergence; returns the failed step's status.
absl::Status Diverge(Simulation& sim) { return sim.Step(BlowUpTorque(sim.model()), 5); }

TEST(Divergence, NotDivergedWhenCreated) {
  auto sim = MakeSim();
  EXPECT_FALSE(sim->diverged());
  EXPECT_EQ(sim->diverged_message(), "");
}

TEST(Divergence, BlownUpStepMarksItDivergedAndKeepsTheLastGoodState) {
  auto sim = MakeSim(kInf);
  ASSERT_TRUE(sim->Step(Eigen::VectorXd::Zero(sim->model().nv), 3).ok());
  const std::string before = sim->Snapshot();
  const absl::Status status = Diverge(*sim);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << status;
  EXPECT_TRUE(sim->diverged());
  EXPECT_EQ(sim->diverged_message(), status.message());
  EXPECT_NE(sim->diverged_message().find("non-finite or exploding"), std::string::npos);
  EXPECT_EQ(sim->Snapshot(), before);
  EXPECT_TRUE(sim->state().q.allFinite());
  EXPECT_TRUE(sim->state().v.allFinite());
}

// Under every contact model, with and without a controller: a step blown up
// by an external wrench after good steps on the ground leaves the whole state
// of the last good step (q, v, contact memory, impulses, the controller's
// state and command: the snapshot), though the failed step had run the
// controller and the contact solve.
TEST(Divergence, EveryContactModelAndControllerKeepTheWholeLastGoodState) {
  auto model = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(model.ok()) << model.status();
  for (ContactModel contact :
       {ContactModel::kSpringDamper, ContactModel::kHertz, ContactModel::kMicro,
        ContactModel::kMoreauJor, ContactModel::kMoreauSor, ContactModel::kLeastConstraint,
        ContactModel::kMicroMacro}) {
    for (ControllerKind controller : {ControllerKind::kNone, ControllerKind::kStand}) {
      SCOPED_TRACE(std::string(ContactModelName(contact)) +
                   (controller == ControllerKind::kNone ? "" : ", stand"));
      Settings settings;
      settings.contact = DefaultContactSettings(contact);
      settings.dt = 1e-3;
      settings.max_speed = kInf;
      settings.controller.kind = controller;
      auto sim = Simulation::Create(*model, settings);
      ASSERT_TRUE(sim.ok()) << sim.status();
      const Eigen::VectorXd hold = Eigen::VectorXd::Zero((*sim)->action_size());
      ASSERT_TRUE((*sim)->StepAction(hold, 300).ok());  // settled on its feet
      const std::string before = (*sim)->Snapshot();
      std::vector<Force> f_ext((*model)->nbodies, Force::Zero());
      f_ext[1].linear = spatial::Vec3(0.0, 0.0, -std::numeric_limits<double>::max());
      const absl::Status status = (*sim)->StepAction(hold, 5, &f_ext);
      EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << status;
      EXPECT_TRUE((*sim)->diverged());
      EXPECT_EQ((*sim)->Snapshot(), before);
    }
  }
}

TEST(Divergence, StepsAreRefusedWhileDiverged) {
  auto sim = MakeSim();
  ASSERT_FALSE(Diverge(*sim).ok());
  const std::string message = sim->diverged_message();
  const std::string before = sim->Snapshot();
  const absl::Status step = sim->Step(Eigen::VectorXd::Zero(sim->model().nv), 1);
  EXPECT_EQ(step.code(), absl::StatusCode::kFailedPrecondition) << step;
  EXPECT_NE(step.message().find(message), std::string::npos) << step;
  const absl::Status action = sim->StepAction(Eigen::VectorXd::Zero(sim->model().nu()), 1);
  EXPECT_EQ(action.code(), absl::StatusCode::kFailedPrecondition) << action;
  EXPECT_EQ(sim->Snapshot(), before);
  // The refusal is not a new divergence: the first message stays.
  EXPECT_EQ(sim->diverged_message(), message);
}

TEST(Divergence, EveryNewStateClearsIt) {
  auto reference = MakeSim();
  const std::string snapshot = reference->Snapshot();
  const State state = reference->state();
  const std::vector<std::pair<std::string, std::function<absl::Status(Simulation&)>>> ways = {
      {"Reset",
       [](Simulation& s) {
         s.Reset();
         return absl::OkStatus();
       }},
      {"ResetWithNoise",
       [](Simulation& s) {
         s.ResetWithNoise(7, 0.01);
         return absl::OkStatus();
       }},
      {"SetState", [&state](Simulation& s) { return s.SetState(state); }},
      {"Restore", [&snapshot](Simulation& s) { return s.Restore(snapshot); }},
  };
  for (const auto& [name, renew] : ways) {
    SCOPED_TRACE(name);
    auto sim = MakeSim();
    ASSERT_FALSE(Diverge(*sim).ok());
    ASSERT_TRUE(sim->diverged());
    ASSERT_TRUE(renew(*sim).ok());
    EXPECT_FALSE(sim->diverged());
    EXPECT_EQ(sim->diverged_message(), "");
    const absl::Status step = sim->Step(Eigen::VectorXd::Zero(sim->model().nv), 2);
    EXPECT_TRUE(step.ok()) << step;
  }
}

TEST(Divergence, RefusedStateOrBlobKeepsIt) {
  auto sim = MakeSim();
  ASSERT_FALSE(Diverge(*sim).ok());
  const std::string message = sim->diverged_message();
  EXPECT_EQ(sim->Restore("garbage").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(sim->diverged());
  State wrong = sim->state();
  wrong.q.resize(3);
  EXPECT_EQ(sim->SetState(wrong).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(sim->diverged());
  EXPECT_EQ(sim->diverged_message(), message);
}

// A state set beyond max_speed is accepted as a state; the step that finds it
// so refuses to start and marks the simulation diverged.
TEST(Divergence, StateSetBeyondTheSpeedLimitIsMarkedByTheNextStep) {
  auto sim = MakeSim();
  State s = sim->state();
  s.v[9] = 1e9;
  ASSERT_TRUE(sim->SetState(s).ok());
  EXPECT_FALSE(sim->diverged());
  const absl::Status status = sim->Step(Eigen::VectorXd::Zero(sim->model().nv), 1);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << status;
  EXPECT_TRUE(sim->diverged());
  EXPECT_EQ(sim->diverged_message(), status.message());
  EXPECT_NE(sim->diverged_message().find("max_speed"), std::string::npos);
}

TEST(Divergence, StepsRefusedForTheirArgumentsLeaveItAlone) {
  auto sim = MakeSim();
  EXPECT_EQ(sim->Step(Eigen::VectorXd::Zero(2), 1).code(), absl::StatusCode::kInvalidArgument);
  Eigen::VectorXd action = Eigen::VectorXd::Zero(sim->model().nu());
  action[1] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(sim->StepAction(action, 1).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(sim->Step(Eigen::VectorXd::Zero(sim->model().nv), 0).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(sim->diverged());
}

// What a checkpoint of a diverged simulation restores: the state, then the
// flag with its message.
TEST(Divergence, MarkDivergedRefusesStepsUntilANewState) {
  auto sim = MakeSim();
  const std::string snapshot = sim->Snapshot();
  ASSERT_TRUE(sim->Restore(snapshot).ok());
  sim->MarkDiverged("simulation diverged at t = 0.025 s");
  EXPECT_TRUE(sim->diverged());
  EXPECT_EQ(sim->diverged_message(), "simulation diverged at t = 0.025 s");
  const absl::Status step = sim->Step(Eigen::VectorXd::Zero(sim->model().nv), 1);
  EXPECT_EQ(step.code(), absl::StatusCode::kFailedPrecondition) << step;
  EXPECT_NE(step.message().find("t = 0.025 s"), std::string::npos) << step;
  ASSERT_TRUE(sim->Restore(snapshot).ok());
  EXPECT_FALSE(sim->diverged());
  EXPECT_TRUE(sim->Step(Eigen::VectorXd::Zero(sim->model().nv), 1).ok());
}

}  // namespace
}  // namespace moreau::sim
