// Snapshot then restore continues bit-exactly; two runs with the same inputs
// give identical bytes; malformed blobs are rejected without touching the
// current state.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>

#include "engine/model/loader.h"
#include "engine/sim/simulation.h"
#include "engine/sim/state.h"

namespace moreau::sim {
namespace {

std::unique_ptr<Simulation> MakeSim(ContactModel cm) {
  auto model = LoadBuiltin("mini_cheetah");
  EXPECT_TRUE(model.ok()) << model.status();
  Settings settings;
  settings.contact = DefaultContactSettings(cm);
  settings.dt = 1e-3;
  auto sim = Simulation::Create(*model, settings);
  EXPECT_TRUE(sim.ok()) << sim.status();
  return std::move(*sim);
}

// Varied torques so contacts open and close.
Eigen::VectorXd Torque(const Model& m, int k) {
  Eigen::VectorXd tau = Eigen::VectorXd::Zero(m.nv);
  for (int i = 6; i < m.nv; ++i) tau[i] = 0.5 * std::sin(0.01 * k + i);
  return tau;
}

// The step's rollback copy: every field, including the controller's, and a
// plain assignment when the shapes differ.
TEST(Snapshot, CopyStateCopiesEveryField) {
  auto sim = MakeSim(ContactModel::kMoreauJor);
  const Model& m = sim->model();
  for (int k = 0; k < 50; ++k) ASSERT_TRUE(sim->Step(Torque(m, k), 1).ok());
  State from = sim->state();
  from.controller.phase = 0.25;
  from.controller.leg_targets[2] = -1.5;
  from.controller_command.setConstant(3.0);
  State to = DefaultState(m);
  CopyState(from, to);
  EXPECT_EQ(SerializeState(to), SerializeState(from));

  State smaller;
  CopyState(from, smaller);
  EXPECT_EQ(SerializeState(smaller), SerializeState(from));
}

TEST(Snapshot, RestoreContinuesBitExactly) {
  // The QP models keep their warm starts (previous impulses) and the
  // membrane's anchors in the State, so they restore bit-exactly too.
  for (ContactModel cm :
       {ContactModel::kMoreauJor, ContactModel::kSpringDamper, ContactModel::kHertz,
        ContactModel::kMicro, ContactModel::kLeastConstraint, ContactModel::kMicroMacro}) {
    SCOPED_TRACE(ContactModelName(cm));
    auto a = MakeSim(cm);
    a->ResetWithNoise(7, 0.05);
    for (int k = 0; k < 200; ++k) ASSERT_TRUE(a->Step(Torque(a->model(), k), 1).ok());
    const std::string snap = a->Snapshot();
    for (int k = 200; k < 400; ++k) ASSERT_TRUE(a->Step(Torque(a->model(), k), 1).ok());

    auto b = MakeSim(cm);
    ASSERT_TRUE(b->Restore(snap).ok());
    for (int k = 200; k < 400; ++k) ASSERT_TRUE(b->Step(Torque(b->model(), k), 1).ok());
    EXPECT_EQ(a->Snapshot(), b->Snapshot());
  }
}

// The bilateral rows' warm start (id-constraint joint rows, loop closures) is
// part of the State too: the Mini Cheetah under id-constraint, the four-bar
// swinging from 0.6 rad with its cut joint.
TEST(Snapshot, BilateralRowsRestoreBitExactly) {
  for (const char* name : {"mini_cheetah", "four_bar"}) {
    SCOPED_TRACE(name);
    const bool loop = std::string_view(name) == "four_bar";
    auto model = LoadBuiltin(name);
    ASSERT_TRUE(model.ok()) << model.status();
    Settings settings;
    settings.dt = 5e-3;
    if (!loop) settings.control.mode = ControlMode::kIdConstraint;
    auto make = [&] {
      auto sim = Simulation::Create(*model, settings);
      EXPECT_TRUE(sim.ok()) << sim.status();
      return std::move(*sim);
    };
    const Eigen::Index nu = (*model)->nu();
    auto step = [&](Simulation& sim, int k) {
      if (loop) return sim.Step(Eigen::VectorXd::Zero((*model)->nv), 1);
      Eigen::VectorXd targets(nu);
      for (Eigen::Index j = 0; j < nu; ++j) targets[j] = 0.2 * std::sin(0.05 * k + j);
      return sim.StepAction(targets, 1);
    };
    auto a = make();
    State start = a->state();
    if (loop) {
      start.q << 0.6, -0.6, 0.6;  // the parallelogram's q = (θ, −θ, θ)
    } else {
      start.q[2] += 0.05;
    }
    ASSERT_TRUE(a->SetState(start).ok());
    for (int k = 0; k < 100; ++k) ASSERT_TRUE(step(*a, k).ok()) << k;
    const std::string snap = a->Snapshot();
    ASSERT_TRUE(std::any_of(a->state().bilateral_impulses.begin(),
                            a->state().bilateral_impulses.end(), [](double x) { return x != 0; }));
    for (int k = 100; k < 200; ++k) ASSERT_TRUE(step(*a, k).ok()) << k;
    auto b = make();
    ASSERT_TRUE(b->Restore(snap).ok());
    for (int k = 100; k < 200; ++k) ASSERT_TRUE(step(*b, k).ok()) << k;
    EXPECT_EQ(a->Snapshot(), b->Snapshot());
  }
}

TEST(Snapshot, SameInputsSameBytes) {
  auto a = MakeSim(ContactModel::kMoreauSor);
  auto b = MakeSim(ContactModel::kMoreauSor);
  a->ResetWithNoise(3, 0.1);
  b->ResetWithNoise(3, 0.1);
  for (int k = 0; k < 300; ++k) {
    ASSERT_TRUE(a->Step(Torque(a->model(), k), 1).ok());
    ASSERT_TRUE(b->Step(Torque(b->model(), k), 1).ok());
  }
  EXPECT_EQ(a->Snapshot(), b->Snapshot());
}

TEST(Snapshot, AVersion2BlobRestoresWithoutACommand) {
  // A trotting Mini Cheetah's blob (with its controller section), rewritten
  // as version 2 wrote it: the same bytes without the controller's command
  // (3 doubles and a flag, just before the section's command size and nv
  // entries).
  auto model = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(model.ok());
  Settings settings;
  settings.contact = DefaultContactSettings(ContactModel::kMoreauJor);
  settings.controller.kind = ControllerKind::kTrot;
  auto sim = Simulation::Create(*model, settings);
  ASSERT_TRUE(sim.ok()) << sim.status();
  ASSERT_TRUE((*sim)->StepAction(Eigen::VectorXd::Zero(12), 300).ok());
  const std::string current = (*sim)->Snapshot();
  const size_t nv = static_cast<size_t>((*model)->nv);
  const size_t command_end = current.size() - (4 + 8 * nv);
  const size_t command_bytes = 8 * control::kMaxCommandSize + 4;
  std::string v2 = current.substr(0, command_end - command_bytes) + current.substr(command_end);
  const uint32_t version = 2;
  std::memcpy(v2.data() + 4, &version, 4);
  auto restored = Simulation::Create(*model, settings);
  ASSERT_TRUE(restored.ok());
  ASSERT_TRUE((*restored)->Restore(v2).ok());
  // Everything came back; re-serialized it is the version-3 blob again.
  EXPECT_EQ((*restored)->Snapshot(), current);
  EXPECT_FALSE((*restored)->state().controller.command_set);
  // Truncated inside the section it is refused.
  EXPECT_FALSE((*restored)->Restore(v2.substr(0, v2.size() - 3)).ok());
}

TEST(Snapshot, MalformedBlobsRejectedStateKept) {
  auto a = MakeSim(ContactModel::kMoreauSor);
  const std::string before = a->Snapshot();
  EXPECT_EQ(a->Restore("").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(a->Restore(before.substr(0, before.size() / 2)).code(),
            absl::StatusCode::kInvalidArgument);
  std::string wrong_version = before;
  wrong_version[4] = 9;
  EXPECT_EQ(a->Restore(wrong_version).code(), absl::StatusCode::kInvalidArgument);
  auto sphere = LoadBuiltin("sphere");
  ASSERT_TRUE(sphere.ok());
  auto other = Simulation::Create(*sphere, Settings{});
  ASSERT_TRUE(other.ok());
  const absl::Status mismatch = a->Restore((*other)->Snapshot());
  EXPECT_EQ(mismatch.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(mismatch.message().find("do not match"), std::string::npos) << mismatch;
  EXPECT_EQ(a->Snapshot(), before);
}

TEST(Simulation, BadInputsNameTheProblem) {
  auto a = MakeSim(ContactModel::kMoreauSor);
  const std::string before = a->Snapshot();
  Eigen::VectorXd tau = Eigen::VectorXd::Zero(5);
  absl::Status s = a->Step(tau, 1);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("tau has size 5"), std::string::npos) << s;
  tau = Eigen::VectorXd::Zero(a->model().nv);
  tau[7] = std::nan("");
  EXPECT_EQ(a->Step(tau, 1).code(), absl::StatusCode::kInvalidArgument);
  tau[7] = -std::numeric_limits<double>::infinity();
  EXPECT_EQ(a->Step(tau, 1).code(), absl::StatusCode::kInvalidArgument);
  tau[7] = 0.0;
  EXPECT_EQ(a->Step(tau, 0).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(a->Snapshot(), before);
  Settings bad;
  bad.dt = -1.0;
  auto created = Simulation::Create(a->shared_model(), bad);
  EXPECT_EQ(created.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Simulation, DivergenceIsReportedAndLastGoodStateKept) {
  auto a = MakeSim(ContactModel::kSpringDamper);
  Eigen::VectorXd tau = Eigen::VectorXd::Zero(a->model().nv);
  tau[8] = 1e12;  // an absurd torque blows the state up within a step
  const std::string before = a->Snapshot();
  const absl::Status s = a->Step(tau, 5);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_NE(s.message().find("diverged"), std::string::npos);
  EXPECT_EQ(a->Snapshot(), before);
  EXPECT_TRUE(a->state().q.allFinite());
}

// Settings::max_speed: a generalized velocity entry above it is a divergence
// (the fall under gravity reaches 1 mm/s within the first step); the last
// good state is kept.
TEST(Simulation, SpeedAboveTheLimitIsADivergence) {
  auto model = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(model.ok()) << model.status();
  Settings settings;
  settings.dt = 1e-3;
  settings.max_speed = 1e-3;
  auto sim = Simulation::Create(*model, settings);
  ASSERT_TRUE(sim.ok()) << sim.status();
  const std::string before = (*sim)->Snapshot();
  const absl::Status s = (*sim)->Step(Eigen::VectorXd::Zero((*sim)->model().nv), 1);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_NE(s.message().find("diverged"), std::string::npos);
  EXPECT_EQ((*sim)->Snapshot(), before);
}

// A state set beyond max_speed (a client's SetState or state blob) is refused
// before any step, and left as it is.
TEST(Simulation, StateAboveTheSpeedLimitIsNotStepped) {
  auto sim = MakeSim(ContactModel::kLeastConstraint);
  State s = sim->state();
  s.v[9] = 1.65e98;
  ASSERT_TRUE(sim->SetState(s).ok());
  const std::string before = sim->Snapshot();
  const absl::Status status = sim->Step(Eigen::VectorXd::Zero(sim->model().nv), 5);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << status;
  EXPECT_NE(status.message().find("max_speed"), std::string::npos) << status;
  EXPECT_EQ(sim->Snapshot(), before);
}

// A coordinate beyond kMaxCoordinate (a base 1e11 m below the ground) is a
// diverged state too: refused before any step.
TEST(Simulation, CoordinateBeyondTheLimitIsNotStepped) {
  auto sim = MakeSim(ContactModel::kLeastConstraint);
  State s = sim->state();
  s.q[2] = -10.0 * kMaxCoordinate;
  ASSERT_TRUE(sim->SetState(s).ok());
  const std::string before = sim->Snapshot();
  const absl::Status status = sim->Step(Eigen::VectorXd::Zero(sim->model().nv), 1);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << status;
  EXPECT_EQ(sim->Snapshot(), before);
}

// A state blob whose contact memory (an impulse, an anchor) is not finite is
// refused by name.
TEST(Simulation, BlobWithNonFiniteContactMemoryIsRefused) {
  auto sim = MakeSim(ContactModel::kMoreauSor);
  for (int which = 0; which < 2; ++which) {
    State s = sim->state();
    ASSERT_FALSE(s.impulses.empty());
    if (which == 0) s.impulses[1] = std::numeric_limits<double>::quiet_NaN();
    if (which == 1) s.contact_states[0].anchor[2] = std::numeric_limits<double>::infinity();
    const absl::Status status = sim->Restore(SerializeState(s));
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
    EXPECT_NE(status.message().find("non-finite contact anchor or impulse"), std::string::npos)
        << status;
  }
}

// A state blob whose base quaternion is far from unit (zero: no rotation
// matrix at all) is refused by name; a snapshot's own restores.
TEST(Simulation, BlobWithNonUnitQuaternionIsRefused) {
  auto sim = MakeSim(ContactModel::kLeastConstraint);
  ASSERT_TRUE(sim->Restore(sim->Snapshot()).ok());
  for (double scale : {0.0, 0.5, 1.001}) {
    State s = sim->state();
    s.q.segment<4>(3) *= scale;
    const absl::Status status = sim->Restore(SerializeState(s));
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << scale;
    EXPECT_NE(status.message().find("quaternion"), std::string::npos) << status;
  }
}

}  // namespace
}  // namespace moreau::sim
