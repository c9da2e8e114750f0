// Simulation::Step allocates nothing (STYLE.md house rule 5), for every
// contact model and integrator, on a robot whose feet touch and leave the
// ground during the run.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/time/time.h"
#include "engine/model/loader.h"
#include "engine/sim/inspection.h"
#include "engine/sim/simulation.h"
#include "tests/unit/sim/pd_mini_cheetah.h"
#include "tests/unit/testing/allocation_counter.h"

namespace moreau::sim {
namespace {

// `run` (warmed up by the caller) succeeds without allocating.
void ExpectAllocatesNothing(absl::FunctionRef<absl::Status()> run) {
  const long before = ::moreau::testing::HeapAllocationCount();
  const absl::Status status = run();
  const long allocations = ::moreau::testing::HeapAllocationCount() - before;
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(allocations, 0);
}

// StepAction holding 0.2 on every actuator: 5 warm-up steps, then 200 steps
// that must not allocate.
void ExpectStepActionAllocatesNothing(Simulation& sim) {
  const Eigen::VectorXd action = Eigen::VectorXd::Constant(sim.model().nu(), 0.2);
  ASSERT_TRUE(sim.StepAction(action, 5).ok());  // warm up
  ExpectAllocatesNothing([&] { return sim.StepAction(action, 200); });
}

// The same for a new simulation of `model` under `settings`.
void ExpectStepActionAllocatesNothing(std::shared_ptr<const Model> model,
                                      const Settings& settings) {
  auto sim = Simulation::Create(std::move(model), settings);
  ASSERT_TRUE(sim.ok()) << sim.status();
  ExpectStepActionAllocatesNothing(**sim);
}

TEST(SimulationNoAllocation, StepEveryContactModel) {
  auto model = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(model.ok()) << model.status();
  for (ContactModel cm : {ContactModel::kSpringDamper, ContactModel::kHertz, ContactModel::kMicro,
                          ContactModel::kMoreauJor, ContactModel::kMoreauSor,
                          ContactModel::kLeastConstraint, ContactModel::kMicroMacro}) {
    for (step::Integrator integrator :
         {step::Integrator::kSemiImplicitEuler, step::Integrator::kHeun, step::Integrator::kRk4}) {
      SCOPED_TRACE(std::string(ContactModelName(cm)) + " " + IntegratorName(integrator));
      Settings settings;
      settings.contact = DefaultContactSettings(cm);
      if (step::Integrator* own = ForceLawIntegrator(settings.contact)) *own = integrator;
      settings.dt = 1e-3;
      auto sim = Simulation::Create(*model, settings);
      ASSERT_TRUE(sim.ok()) << sim.status();
      Eigen::VectorXd tau = Eigen::VectorXd::Zero((*model)->nv);
      for (int i = 6; i < (*model)->nv; ++i) tau[i] = 0.3;
      std::vector<Force> f_ext((*model)->nbodies, Force::Zero());
      ASSERT_TRUE((*sim)->Step(tau, 5, &f_ext).ok());  // warm up
      ExpectAllocatesNothing([&] { return (*sim)->Step(tau, 200, &f_ext); });
    }
  }
}

// Whole-body collision (LoadOptions::collision = all) on the Unitree A1:
// sphere witness points, cylinder rims, boxes, many coupled slots (JOR's
// row-sum step, least-constraint's J̇v at the witness points), limp so that
// the trunk and legs touch down during the run.
TEST(SimulationNoAllocation, StepEveryContactModelWithWholeBodyCollision) {
  LoadOptions options;
  options.collision = CollisionMode::kAll;
  auto model = LoadUrdfFile(std::string(MOREAU_MODELS_DIR) + "/unitree_a1/a1.urdf", options);
  ASSERT_TRUE(model.ok()) << model.status();
  for (ContactModel cm : {ContactModel::kSpringDamper, ContactModel::kHertz, ContactModel::kMicro,
                          ContactModel::kMoreauJor, ContactModel::kMoreauSor,
                          ContactModel::kLeastConstraint, ContactModel::kMicroMacro}) {
    SCOPED_TRACE(ContactModelName(cm));
    Settings settings;
    settings.contact = DefaultContactSettings(cm);
    settings.dt = IsHardContact(cm) || IsQpContact(cm) ? 1e-3 : 1e-4;
    auto sim = Simulation::Create(*model, settings);
    ASSERT_TRUE(sim.ok()) << sim.status();
    const Eigen::VectorXd tau = Eigen::VectorXd::Zero((*model)->nv);
    ASSERT_TRUE((*sim)->Step(tau, 5).ok());  // warm up
    const int steps = static_cast<int>(0.4 / settings.dt);
    ExpectAllocatesNothing([&] { return (*sim)->Step(tau, steps); });
    EXPECT_GT((*sim)->contacts().peak_active, 4);  // more than the feet touched
  }
}

// Hertz friction stepped implicitly (Newton over the contacts, the Delassus
// blocks, the held friction of later stages), with the feet on the ground.
TEST(SimulationNoAllocation, HertzImplicitFrictionOnTheGround) {
  auto model = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(model.ok()) << model.status();
  for (step::Integrator integrator :
       {step::Integrator::kSemiImplicitEuler, step::Integrator::kHeun, step::Integrator::kRk4}) {
    SCOPED_TRACE(IntegratorName(integrator));
    Settings settings;
    HertzSettings hertz;
    hertz.law.implicit_friction = true;
    hertz.integrator = integrator;
    settings.contact = hertz;
    settings.dt = 1e-3;
    settings.control.mode = ControlMode::kPd;
    auto sim = Simulation::Create(*model, settings);
    ASSERT_TRUE(sim.ok()) << sim.status();
    // PD holding the default joint angles: it drops onto its feet and stands.
    const Eigen::VectorXd action = (*model)->q_default.tail((*model)->nu());
    ASSERT_TRUE((*sim)->StepAction(action, 600).ok());
    int active = 0;
    for (const contact::Contact& c : (*sim)->contacts().contacts) active += c.active ? 1 : 0;
    EXPECT_GT(active, 0);
    ExpectAllocatesNothing([&] { return (*sim)->StepAction(action, 200); });
  }
}

// The QP models through every path: the biped dropped onto its box feet
// (arriving contacts, 004's impact projection, hyperstatic soles, static and
// kinetic points of 003), with both QP methods and both friction couplings.
TEST(SimulationNoAllocation, QpModelsDropTheBiped) {
  auto model = LoadBuiltin("biped");
  ASSERT_TRUE(model.ok()) << model.status();
  for (ContactModel cm : {ContactModel::kLeastConstraint, ContactModel::kMicroMacro}) {
    for (contact::QpMethod method : {contact::QpMethod::kAdmm, contact::QpMethod::kApgd}) {
      for (step::FrictionCoupling coupling :
           {step::FrictionCoupling::kStaggered, step::FrictionCoupling::kCone}) {
        if (cm == ContactModel::kMicroMacro && coupling == step::FrictionCoupling::kCone) continue;
        SCOPED_TRACE(std::string(ContactModelName(cm)) + " " + contact::QpMethodName(method) + " " +
                     step::FrictionCouplingName(coupling));
        Settings settings;
        settings.contact = DefaultContactSettings(cm);
        settings.control.mode = ControlMode::kPd;
        if (auto* least = std::get_if<LeastConstraintSettings>(&settings.contact)) {
          least->params.qp.method = method;
          least->params.friction = coupling;
        }
        if (auto* micro_macro = std::get_if<MicroMacroSettings>(&settings.contact)) {
          micro_macro->params.qp.method = method;
        }
        auto sim = Simulation::Create(*model, settings);
        ASSERT_TRUE(sim.ok()) << sim.status();
        State s = (*sim)->state();
        s.q[2] += 0.02;
        s.v[0] = 0.3;  // sliding on landing: kinetic points
        ASSERT_TRUE((*sim)->SetState(s).ok());
        const Eigen::VectorXd action = Eigen::VectorXd::Zero((*model)->nu());
        ASSERT_TRUE((*sim)->StepAction(action, 2).ok());  // warm up
        const long before = ::moreau::testing::HeapAllocationCount();
        bool impact = false;
        int contacts = 0;
        for (int k = 0; k < 150; ++k) {
          ASSERT_TRUE((*sim)->StepAction(action, 1).ok());
          impact = impact || (*sim)->last_report().impact;
          contacts = std::max(contacts, (*sim)->last_report().active_contacts);
        }
        const long allocations = ::moreau::testing::HeapAllocationCount() - before;
        EXPECT_EQ(allocations, 0);
        EXPECT_EQ(contacts, 8);  // both soles landed
        if (cm == ContactModel::kLeastConstraint) {
          EXPECT_TRUE(impact);
        }
      }
    }
  }
}

TEST(SimulationNoAllocation, StepActionBothControlModes) {
  auto model = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(model.ok()) << model.status();
  for (ControlMode mode : {ControlMode::kTorque, ControlMode::kPd}) {
    SCOPED_TRACE(ControlModeName(mode));
    Settings settings;
    settings.control.mode = mode;
    ExpectStepActionAllocatesNothing(*model, settings);
  }
}

// With a transmission (Settings::transmission): the armature terms of CRBA
// (Moreau step) and ABA (explicit step) allocate nothing either.
TEST(SimulationNoAllocation, StepActionWithTransmission) {
  auto model = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(model.ok()) << model.status();
  for (ContactModel cm : {ContactModel::kSpringDamper, ContactModel::kMoreauSor}) {
    SCOPED_TRACE(ContactModelName(cm));
    Settings settings;
    settings.contact = DefaultContactSettings(cm);
    settings.control.mode = ControlMode::kPd;
    settings.transmission = {6.0, 1e-4};
    auto sim = Simulation::Create(*model, settings);
    ASSERT_TRUE(sim.ok()) << sim.status();
    ASSERT_GT((*sim)->model().armature.maxCoeff(), 0.0);
    ExpectStepActionAllocatesNothing(**sim);
  }
}

TEST(SimulationNoAllocation, StepActionInverseDynamicsModes) {
  auto model = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(model.ok()) << model.status();
  for (ControlMode mode : {ControlMode::kId, ControlMode::kIdConstraint}) {
    for (ContactModel contact :
         {ContactModel::kMoreauSor, ContactModel::kMoreauJor, ContactModel::kSpringDamper}) {
      if (mode == ControlMode::kIdConstraint && !IsHardContact(contact)) continue;
      SCOPED_TRACE(std::string(ControlModeName(mode)) + " " + ContactModelName(contact));
      Settings settings;
      settings.control.mode = mode;
      settings.contact = DefaultContactSettings(contact);
      ExpectStepActionAllocatesNothing(*model, settings);
    }
  }
}

TEST(SimulationNoAllocation, StepClosedChainBothLoopSolvers) {
  auto model = LoadBuiltin("four_bar");
  ASSERT_TRUE(model.ok()) << model.status();
  for (step::LoopSolver solver : {step::LoopSolver::kProx, step::LoopSolver::kDirect}) {
    SCOPED_TRACE(LoopSolverName(solver));
    Settings settings;
    MoreauSettings moreau;  // moreau-sor
    moreau.loop_solver = solver;
    settings.contact = moreau;
    auto sim = Simulation::Create(*model, settings);
    ASSERT_TRUE(sim.ok()) << sim.status();
    State start = (*sim)->state();
    start.v[0] = 1.0;
    start.v[1] = -1.0;
    start.v[2] = 1.0;
    ASSERT_TRUE((*sim)->SetState(start).ok());
    const Eigen::VectorXd tau = Eigen::VectorXd::Zero((*model)->nv);
    ASSERT_TRUE((*sim)->Step(tau, 5).ok());  // warm up
    ExpectAllocatesNothing([&] { return (*sim)->Step(tau, 200); });
  }
}

// The loop with a deadline (the server's path): reading the clock before each
// sub-step allocates nothing either.
TEST(SimulationNoAllocation, StepActionUntilADeadline) {
  std::unique_ptr<Simulation> sim = PdMiniCheetah();
  ASSERT_NE(sim, nullptr);
  const Eigen::VectorXd action = HoldDefault(*sim);
  const absl::Time stop_at = absl::Now() + absl::Hours(1);
  ASSERT_TRUE(sim->StepActionUntil(action, 5, stop_at).ok());  // warm up
  ExpectAllocatesNothing([&] { return sim->StepActionUntil(action, 200, stop_at); });
}

// An Inspection kept and pointed at state after state (a Watch stream's body
// poses) allocates nothing once it has inspected one.
TEST(SimulationNoAllocation, InspectionOfStateAfterState) {
  auto model = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(model.ok()) << model.status();
  auto sim = Simulation::Create(*model, Settings{});
  ASSERT_TRUE(sim.ok()) << sim.status();
  Inspection inspection((*sim)->model());
  const Eigen::VectorXd tau = Eigen::VectorXd::Zero((*model)->nv);
  ASSERT_TRUE((*sim)->Step(tau, 5).ok());
  inspection.Inspect((*sim)->state());  // warm up
  long allocations = 0;
  for (int k = 0; k < 20; ++k) {
    ASSERT_TRUE((*sim)->Step(tau, 5).ok());
    const long before = ::moreau::testing::HeapAllocationCount();
    inspection.Inspect((*sim)->state());
    allocations += ::moreau::testing::HeapAllocationCount() - before;
  }
  EXPECT_EQ(allocations, 0);
}

}  // namespace
}  // namespace moreau::sim
