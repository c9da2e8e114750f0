// Simulation::StepActionUntil, the one sub-step loop that holds an action:
// the action is checked once, before any sub-step; without a deadline it is
// StepAction; with one it starts no sub-step at or after it, keeps the
// sub-steps taken and says how many; a past deadline steps nothing, whatever
// the state, while a diverged simulation is refused before the deadline is
// looked at.
#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "engine/model/loader.h"
#include "engine/sim/simulation.h"
#include "engine/sim/state.h"
#include "tests/unit/sim/pd_mini_cheetah.h"

namespace moreau::sim {
namespace {

// The Mini Cheetah on spring-damper contact, its joints held by PD at their
// default angles (τ depends on the state, so each sub-step recomputes it).
std::unique_ptr<Simulation> MakeSim() {
  Settings settings;
  settings.contact = DefaultContactSettings(ContactModel::kSpringDamper);
  settings.dt = 1e-3;
  return PdMiniCheetah(settings);
}

TEST(StepActionUntil, WithoutDeadlineItIsStepActionBitForBit) {
  auto a = MakeSim();
  auto b = MakeSim();
  auto c = MakeSim();
  const Eigen::VectorXd action = HoldDefault(*a);
  ASSERT_TRUE(a->StepActionUntil(action, 40, absl::InfiniteFuture()).ok());
  ASSERT_TRUE(b->StepAction(action, 40).ok());
  for (int k = 0; k < 40; ++k) ASSERT_TRUE(c->StepAction(action, 1).ok());
  EXPECT_EQ(a->Snapshot(), b->Snapshot());
  EXPECT_EQ(a->Snapshot(), c->Snapshot());
  EXPECT_EQ(a->state().steps, 40u);
}

TEST(StepActionUntil, DeadlineNotReachedStepsEverySubStep) {
  auto a = MakeSim();
  auto b = MakeSim();
  const Eigen::VectorXd action = HoldDefault(*a);
  const absl::Status status = a->StepActionUntil(action, 25, absl::Now() + absl::Hours(1));
  ASSERT_TRUE(status.ok()) << status;
  ASSERT_TRUE(b->StepAction(action, 25).ok());
  EXPECT_EQ(a->Snapshot(), b->Snapshot());
}

TEST(StepActionUntil, PastDeadlineStepsNothing) {
  auto sim = MakeSim();
  const std::string before = sim->Snapshot();
  const absl::Status status =
      sim->StepActionUntil(HoldDefault(*sim), 5, absl::Now() - absl::Seconds(1));
  EXPECT_EQ(status.code(), absl::StatusCode::kDeadlineExceeded) << status;
  EXPECT_EQ(status.message(), "stepped 0 of 5 sub-steps before the call's deadline");
  EXPECT_EQ(sim->Snapshot(), before);
  EXPECT_FALSE(sim->diverged());
}

// Far more sub-steps than fit in 20 ms: the loop stops at the deadline, keeps
// what it stepped and says how much that was.
TEST(StepActionUntil, DeadlineReachedKeepsTheSubStepsTaken) {
  auto sim = MakeSim();
  constexpr int kSubsteps = 10'000'000;
  const absl::Status status =
      sim->StepActionUntil(HoldDefault(*sim), kSubsteps, absl::Now() + absl::Milliseconds(20));
  EXPECT_EQ(status.code(), absl::StatusCode::kDeadlineExceeded) << status;
  EXPECT_EQ(status.message(), absl::StrCat("stepped ", sim->state().steps, " of ", kSubsteps,
                                           " sub-steps before the call's deadline"));
  EXPECT_LT(sim->state().steps, static_cast<uint64_t>(kSubsteps));
  EXPECT_FALSE(sim->diverged());
}

TEST(StepActionUntil, TheActionIsCheckedBeforeAnySubStep) {
  auto sim = MakeSim();
  const std::string before = sim->Snapshot();
  const absl::Status short_action =
      sim->StepActionUntil(Eigen::VectorXd::Zero(3), 5, absl::InfiniteFuture());
  EXPECT_EQ(short_action.code(), absl::StatusCode::kInvalidArgument) << short_action;
  EXPECT_EQ(short_action.message(), absl::StrCat("action has size 3, expected ", sim->model().nu(),
                                                 " (one entry per actuator)"));
  Eigen::VectorXd action = HoldDefault(*sim);
  action[2] = std::numeric_limits<double>::infinity();
  // Checked before the deadline, too.
  const absl::Status infinite = sim->StepActionUntil(action, 5, absl::Now() - absl::Seconds(1));
  EXPECT_EQ(infinite.code(), absl::StatusCode::kInvalidArgument) << infinite;
  EXPECT_NE(infinite.message().find("action[2]"), std::string::npos) << infinite;
  EXPECT_EQ(sim->Snapshot(), before);
}

TEST(StepActionUntil, DivergedSimulationIsRefusedBeforeTheDeadline) {
  auto sim = MakeSim();
  sim->MarkDiverged("simulation diverged at t = 1 s");
  const absl::Status status =
      sim->StepActionUntil(HoldDefault(*sim), 5, absl::Now() - absl::Seconds(1));
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << status;
}

// A state set beyond max_speed with the deadline already past: the deadline
// answers, and the state is not marked diverged until a step finds it so.
TEST(StepActionUntil, PastDeadlineAnswersBeforeTheStateIsChecked) {
  auto sim = MakeSim();
  State s = sim->state();
  s.v[9] = 1e9;
  ASSERT_TRUE(sim->SetState(s).ok());
  const Eigen::VectorXd action = HoldDefault(*sim);
  const absl::Status late = sim->StepActionUntil(action, 5, absl::Now() - absl::Seconds(1));
  EXPECT_EQ(late.code(), absl::StatusCode::kDeadlineExceeded) << late;
  EXPECT_FALSE(sim->diverged());
  const absl::Status refused = sim->StepActionUntil(action, 5, absl::InfiniteFuture());
  EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition) << refused;
  EXPECT_TRUE(sim->diverged());
}

}  // namespace
}  // namespace moreau::sim
