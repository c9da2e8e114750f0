// The controller inside the simulation (Settings::controller): it gives the
// same trajectory, bit for bit, as computing it outside and stepping; its
// state is part of State, so a snapshot restores it, also into a fresh
// instance; it runs at its period with its command held between; an action
// adds to its command; controllers the model or the control mode cannot run
// are refused at Create.
#include "engine/control/controller.h"

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "engine/model/loader.h"
#include "engine/sim/simulation.h"
#include "engine/sim/state.h"

namespace moreau::sim {
namespace {

std::shared_ptr<const Model> MiniCheetah() {
  auto model = LoadBuiltin("mini_cheetah");
  EXPECT_TRUE(model.ok()) << model.status();
  return model.ok() ? *model : nullptr;
}

std::unique_ptr<Simulation> Make(const Settings& settings,
                                 std::shared_ptr<const Model> model = MiniCheetah()) {
  auto sim = Simulation::Create(std::move(model), settings);
  EXPECT_TRUE(sim.ok()) << sim.status();
  return sim.ok() ? *std::move(sim) : nullptr;
}

// `steps` steps of StepAction with a zero action.
void StepZero(Simulation& sim, int steps) {
  const Eigen::VectorXd none = Eigen::VectorXd::Zero(sim.model().nu());
  for (int k = 0; k < steps; ++k) ASSERT_TRUE(sim.StepAction(none, 1).ok()) << "step " << k;
}

void ExpectSameState(const State& a, const State& b) {
  EXPECT_EQ(a.time, b.time);
  EXPECT_EQ(a.steps, b.steps);
  for (Eigen::Index i = 0; i < a.q.size(); ++i) ASSERT_EQ(a.q[i], b.q[i]) << "q " << i;
  for (Eigen::Index i = 0; i < a.v.size(); ++i) ASSERT_EQ(a.v[i], b.v[i]) << "v " << i;
  EXPECT_EQ(a.controller.phase, b.controller.phase);
  EXPECT_EQ(a.controller.elapsed_s, b.controller.elapsed_s);
  EXPECT_EQ(a.controller.heading_integral, b.controller.heading_integral);
  EXPECT_EQ(a.controller.foothold, b.controller.foothold);
  EXPECT_EQ(a.controller_command, b.controller_command);
}

// Torque control: the controller's τ, as Compute then Step(τ) outside.
TEST(SimulationController, TorqueControlEqualsComputeThenStep) {
  for (const char* name : {"stand", "trot", "hold"}) {
    SCOPED_TRACE(name);
    Settings settings;
    auto outside = Make(settings);
    settings.controller.kind = *ParseControllerKind(name);
    auto inside = Make(settings);
    ASSERT_NE(outside, nullptr);
    ASSERT_NE(inside, nullptr);
    const Model& m = outside->model();
    auto controller = control::MakeController(name, m);
    ASSERT_TRUE(controller.ok()) << controller.status();
    control::ControllerState cs;
    Eigen::VectorXd tau = Eigen::VectorXd::Zero(m.nv);
    for (int k = 0; k < 800; ++k) {  // past the trot's start delay
      const State& s = outside->state();
      (*controller)->Compute(m, s.time, settings.dt, s.q, s.v, cs, tau);
      ASSERT_TRUE(outside->Step(tau, 1).ok());
    }
    StepZero(*inside, 800);
    const State& a = outside->state();
    const State& b = inside->state();
    for (Eigen::Index i = 0; i < a.q.size(); ++i) ASSERT_EQ(a.q[i], b.q[i]) << "q " << i;
    for (Eigen::Index i = 0; i < a.v.size(); ++i) ASSERT_EQ(a.v[i], b.v[i]) << "v " << i;
    EXPECT_EQ(cs.phase, b.controller.phase);
    EXPECT_GT(b.controller.elapsed_s, 0.79);
  }
}

// A target mode: the targets for the end of the step (Compute over the step,
// then at its end with dt = 0), as StepAction(targets) outside.
TEST(SimulationController, TargetModeEqualsTargetsThenStepAction) {
  Settings settings;
  settings.control.mode = ControlMode::kPd;
  settings.dt = 2e-3;
  auto outside = Make(settings);
  settings.controller.kind = ControllerKind::kTrot;
  auto inside = Make(settings);
  ASSERT_NE(outside, nullptr);
  ASSERT_NE(inside, nullptr);
  const Model& m = outside->model();
  auto controller = control::MakeController("trot", m);
  ASSERT_TRUE(controller.ok()) << controller.status();
  control::ControllerState cs;
  Eigen::VectorXd tau = Eigen::VectorXd::Zero(m.nv);
  for (int k = 0; k < 400; ++k) {
    const State& s = outside->state();
    (*controller)->Compute(m, s.time, settings.dt, s.q, s.v, cs, tau);
    (*controller)->Compute(m, s.time + settings.dt, 0.0, s.q, s.v, cs, tau);
    ASSERT_TRUE(outside->StepAction((*controller)->LastTargets(), 1).ok());
  }
  StepZero(*inside, 400);
  const State& a = outside->state();
  const State& b = inside->state();
  for (Eigen::Index i = 0; i < a.q.size(); ++i) ASSERT_EQ(a.q[i], b.q[i]) << "q " << i;
  for (Eigen::Index i = 0; i < a.v.size(); ++i) ASSERT_EQ(a.v[i], b.v[i]) << "v " << i;
  EXPECT_EQ(inside->controller()->Name(), "trot");
}

// Snapshot mid-gait, run on; restore (into the same and into a fresh
// instance) and run on again: the same state bit for bit.
void ExpectSnapshotRestoresTheController(const Settings& settings, int before, int after) {
  auto a = Make(settings);
  ASSERT_NE(a, nullptr);
  StepZero(*a, before);
  const std::string blob = a->Snapshot();
  StepZero(*a, after);
  const State expected = a->state();

  ASSERT_TRUE(a->Restore(blob).ok());
  StepZero(*a, after);
  ExpectSameState(expected, a->state());

  auto fresh = Make(settings);
  ASSERT_NE(fresh, nullptr);
  ASSERT_TRUE(fresh->Restore(blob).ok());
  StepZero(*fresh, after);
  ExpectSameState(expected, fresh->state());
}

TEST(SimulationController, SnapshotRestoresTheTrot) {
  Settings settings;
  settings.controller.kind = ControllerKind::kTrot;
  ExpectSnapshotRestoresTheController(settings, 900, 400);  // mid-gait (delay 0.5 s)
}

TEST(SimulationController, SnapshotRestoresTheVelocityTrot) {
  Settings settings;
  settings.dt = 0.01;
  settings.control.mode = ControlMode::kIdConstraint;
  settings.controller.kind = ControllerKind::kTrot;
  auto sim = Make(settings);
  ASSERT_NE(sim, nullptr);
  EXPECT_EQ(sim->controller()->Name(), "velocity-trot");
  ExpectSnapshotRestoresTheController(settings, 120, 60);  // swings under way
}

// The hold's pose is the one of its first run, at step 0: restored mid-run
// (into the same and into a fresh instance, whose hold has not run yet) it
// holds that pose, not the one at the restore.
TEST(SimulationController, SnapshotRestoresTheHold) {
  Settings settings;
  settings.controller.kind = ControllerKind::kHold;
  ExpectSnapshotRestoresTheController(settings, 300, 300);  // falling onto its feet
  auto sim = Make(settings);
  ASSERT_NE(sim, nullptr);
  StepZero(*sim, 300);
  const Model& m = sim->model();
  for (int a = 0; a < m.nu(); ++a) {
    const double q0 = m.q_default[m.joints[m.actuators[a].joint].q_index];
    EXPECT_EQ(sim->state().controller.leg_targets[a], q0) << a;
  }
}

// Under the target modes the hold's set point is the held pose, as the
// stand's is its stand pose: pd tracks the held angles themselves; id and
// id-constraint approach them no faster than the PD (k_d/k_p).
TEST(SimulationController, HoldTargetsTheHeldPoseInTheTargetModes) {
  for (ControlMode mode : {ControlMode::kPd, ControlMode::kId, ControlMode::kIdConstraint}) {
    SCOPED_TRACE(ControlModeName(mode));
    Settings settings;
    settings.control.mode = mode;
    settings.controller.kind = ControllerKind::kHold;
    auto sim = Make(settings);
    ASSERT_NE(sim, nullptr);
    const Model& m = sim->model();
    Eigen::VectorXd held(m.nu());
    control::ActuatorPositions(m, sim->state().q, held);
    StepZero(*sim, 1);
    const control::PdGains gains;
    for (int a = 0; a < m.nu(); ++a) {
      // The first run: the joints are at the held angles, so are the targets.
      EXPECT_EQ(sim->state().controller_command[a], held[a]) << a;
    }
    // Later runs: the set point stays the held pose as the robot moves.
    StepZero(*sim, 50);
    const Eigen::VectorXd q = sim->state().q;
    StepZero(*sim, 1);
    for (int a = 0; a < m.nu(); ++a) {
      const double q_a = q[m.joints[m.actuators[a].joint].q_index];
      const double expected = mode == ControlMode::kPd
                                  ? held[a]
                                  : q_a + settings.dt * (held[a] - q_a) * gains.kp / gains.kd;
      EXPECT_DOUBLE_EQ(sim->state().controller_command[a], expected) << a;
    }
    StepZero(*sim, 1);
    EXPECT_FALSE(sim->diverged());
  }
}

// A blob without the controller section (a state at the start of a run, or
// one written before the section existed) restores the controller at its
// start; one with it round-trips the controller.
TEST(SimulationController, BlobControllerSectionIsOptional) {
  auto model = MiniCheetah();
  ASSERT_NE(model, nullptr);
  State state = DefaultState(*model);
  state.time = 0.25;
  const std::string plain = SerializeState(state);
  auto restored = DeserializeState(*model, plain);
  ASSERT_TRUE(restored.ok()) << restored.status();
  EXPECT_EQ(restored->time, 0.25);
  EXPECT_EQ(restored->controller.elapsed_s, 0.0);
  EXPECT_EQ(restored->controller_command, Eigen::VectorXd::Zero(model->nv));

  state.controller.phase = 0.375;
  state.controller.touched[2] = true;
  state.controller.lift_off[7] = -1.5;
  state.controller_command[6] = 3.0;
  const std::string with = SerializeState(state);
  // The section: 536 bytes of ControllerState, the command's size and nv doubles.
  EXPECT_EQ(with.size(), plain.size() + 536 + 4 + 8 * static_cast<size_t>(model->nv));
  auto round = DeserializeState(*model, with);
  ASSERT_TRUE(round.ok()) << round.status();
  EXPECT_EQ(round->controller.phase, 0.375);
  EXPECT_TRUE(round->controller.touched[2]);
  EXPECT_FALSE(round->controller.touched[1]);
  EXPECT_EQ(round->controller.lift_off[7], -1.5);
  EXPECT_EQ(round->controller_command[6], 3.0);
  // A partial section is trailing bytes.
  EXPECT_FALSE(DeserializeState(*model, with.substr(0, with.size() - 8)).ok());
}

// period_steps = 4: the controller runs at steps 0, 4, 8, … over 4 Δt; its
// command is held in between.
TEST(SimulationController, RunsAtItsPeriodHoldingTheCommand) {
  Settings settings;
  settings.controller.kind = ControllerKind::kStand;
  settings.controller.period_steps = 4;
  auto sim = Make(settings);
  ASSERT_NE(sim, nullptr);
  std::vector<Eigen::VectorXd> commands;
  for (int k = 0; k < 9; ++k) {
    StepZero(*sim, 1);
    commands.push_back(sim->state().controller_command);
  }
  for (int k = 1; k < 4; ++k) EXPECT_EQ(commands[k], commands[0]) << k;
  EXPECT_NE(commands[4], commands[3]);
  for (int k = 5; k < 8; ++k) EXPECT_EQ(commands[k], commands[4]) << k;
  EXPECT_NE(commands[8], commands[7]);
  EXPECT_DOUBLE_EQ(sim->state().controller.elapsed_s, 3 * 4 * settings.dt);
}

// Torque control: the action's torques add to the controller's.
TEST(SimulationController, ActionAddsToTheCommand) {
  Settings settings;
  settings.controller.kind = ControllerKind::kStand;
  auto sim = Make(settings);
  ASSERT_NE(sim, nullptr);
  const Model& m = sim->model();
  const Eigen::VectorXd action = Eigen::VectorXd::Constant(m.nu(), 0.5);
  ASSERT_TRUE(sim->StepAction(action, 1).ok());
  for (int a = 0; a < m.nu(); ++a) {
    const int dof = m.joints[m.actuators[a].joint].v_index;
    EXPECT_EQ(sim->applied_torques()[dof], 0.5 + sim->state().controller_command[dof]) << a;
  }
  // Step(τ) applies τ as given: the controller does not run.
  const control::ControllerState before = sim->state().controller;
  ASSERT_TRUE(sim->Step(Eigen::VectorXd::Zero(m.nv), 1).ok());
  EXPECT_EQ(sim->state().controller.elapsed_s, before.elapsed_s);
}

// Under id and id-constraint the stand's set point is reached no faster than
// its PD would (time constant k_d/k_p = 25 ms): at Δt = 1 ms with T = 0 the
// targets are q_A + Δt (q_d − q_A)/(k_d/k_p), not q_d in one step, and the
// Mini Cheetah stands up from its initial pose without diverging.
TEST(SimulationController, StandReachesItsSetPointInTheIdModes) {
  for (ControlMode mode : {ControlMode::kId, ControlMode::kIdConstraint}) {
    SCOPED_TRACE(ControlModeName(mode));
    Settings settings;
    settings.control.mode = mode;
    settings.controller.kind = ControllerKind::kStand;
    auto sim = Make(settings);
    ASSERT_NE(sim, nullptr);
    const Model& m = sim->model();
    const Eigen::VectorXd q0 = sim->state().q;
    StepZero(*sim, 1);
    const auto controller = control::MakeController("stand", m);
    ASSERT_TRUE(controller.ok()) << controller.status();
    const Eigen::VectorXd& q_d = (*controller)->LastTargets();
    const control::PdGains gains;
    for (int a = 0; a < m.nu(); ++a) {
      const double q_a = q0[m.joints[m.actuators[a].joint].q_index];
      EXPECT_DOUBLE_EQ(sim->state().controller_command[a],
                       q_a + settings.dt * (q_d[a] - q_a) * gains.kp / gains.kd)
          << a;
    }
    StepZero(*sim, 999);
    EXPECT_FALSE(sim->diverged());
    EXPECT_NEAR(sim->state().q[2], 0.287, 0.01);  // the stand height
  }
}

TEST(SimulationController, RefusesWhatTheModelOrModeCannotRun) {
  Settings settings;
  settings.controller.kind = ControllerKind::kVelocityTrot;  // torque control
  auto made = Simulation::Create(MiniCheetah(), settings);
  ASSERT_FALSE(made.ok());
  EXPECT_EQ(made.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(made.status().message().find("controller 'velocity-trot'"), std::string::npos)
      << made.status();
  EXPECT_NE(made.status().message().find("torque"), std::string::npos) << made.status();

  auto pendulum = LoadBuiltin("pendulum");
  ASSERT_TRUE(pendulum.ok()) << pendulum.status();
  settings.controller.kind = ControllerKind::kTrot;
  made = Simulation::Create(*pendulum, settings);
  ASSERT_FALSE(made.ok());
  EXPECT_NE(made.status().message().find("controller 'trot'"), std::string::npos) << made.status();

  settings.controller.kind = ControllerKind::kStand;
  settings.controller.period_steps = 0;
  made = Simulation::Create(MiniCheetah(), settings);
  ASSERT_FALSE(made.ok());
  EXPECT_NE(made.status().message().find("period_steps"), std::string::npos) << made.status();
}

// Each refusal names the controller kind of the Settings once.
TEST(SimulationController, RefusalNamesTheKindOnce) {
  auto pendulum = LoadBuiltin("pendulum");
  ASSERT_TRUE(pendulum.ok()) << pendulum.status();
  for (ControllerKind kind :
       {ControllerKind::kStand, ControllerKind::kTrot, ControllerKind::kPdTrot}) {
    Settings settings;
    settings.controller.kind = kind;
    auto made = Simulation::Create(*pendulum, settings);
    ASSERT_FALSE(made.ok());
    const std::string message(made.status().message());
    const std::string prefix = std::string("controller '") + ControllerKindName(kind) + "': ";
    EXPECT_EQ(message.rfind(prefix, 0), 0u) << message;
    EXPECT_EQ(message.find("controller '", 1), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace moreau::sim
