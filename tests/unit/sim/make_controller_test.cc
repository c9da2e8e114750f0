// MakeSimulationController: the controller a Simulation runs for its
// Settings, also for another engine's loop; none for "none"; refusals name
// the Settings' kind.
#include "engine/sim/make_controller.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "engine/model/loader.h"
#include "engine/sim/simulation.h"

namespace moreau::sim {
namespace {

TEST(MakeSimulationController, MakesWhatTheSimulationRuns) {
  auto model = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(model.ok()) << model.status();
  for (const auto& entry : ControllerKinds().entries()) {
    for (ControlMode mode : {ControlMode::kTorque, ControlMode::kIdConstraint}) {
      SCOPED_TRACE(std::string(entry.name) + " " + ControlModeName(mode));
      Settings settings;
      settings.control.mode = mode;
      settings.controller.kind = entry.value;
      auto made = MakeSimulationController(**model, settings);
      auto sim = Simulation::Create(*model, settings);
      ASSERT_EQ(made.ok(), sim.ok()) << made.status() << " / " << sim.status();
      if (!made.ok()) {
        EXPECT_EQ(made.status().message(), sim.status().message());
        continue;
      }
      if (entry.value == ControllerKind::kNone) {
        EXPECT_EQ(*made, nullptr);
        EXPECT_EQ((*sim)->controller(), nullptr);
      } else {
        ASSERT_NE(*made, nullptr);
        EXPECT_EQ((*made)->Name(), (*sim)->controller()->Name());
      }
    }
  }
}

TEST(MakeSimulationController, RefusalNamesTheKind) {
  auto pendulum = LoadBuiltin("pendulum");
  ASSERT_TRUE(pendulum.ok()) << pendulum.status();
  Settings settings;
  settings.controller.kind = ControllerKind::kPdTrot;
  auto made = MakeSimulationController(**pendulum, settings);
  ASSERT_FALSE(made.ok());
  EXPECT_EQ(std::string(made.status().message()).rfind("controller 'pd-trot': ", 0), 0u)
      << made.status();
  settings.controller.kind = ControllerKind::kHold;  // no legs needed
  made = MakeSimulationController(**pendulum, settings);
  ASSERT_TRUE(made.ok()) << made.status();
  EXPECT_EQ((*made)->Name(), "hold");
}

}  // namespace
}  // namespace moreau::sim
