// The Mini Cheetah with its joints held by PD (ControlMode::kPd) at their
// default angles: the simulation the sim tests step a standing robot with.
#ifndef MOREAU_TESTS_UNIT_SIM_PD_MINI_CHEETAH_H_
#define MOREAU_TESTS_UNIT_SIM_PD_MINI_CHEETAH_H_

#include <gtest/gtest.h>

#include <memory>
#include <utility>

#include "engine/model/loader.h"
#include "engine/sim/simulation.h"

namespace moreau::sim {

// The Mini Cheetah under `settings` with control.mode = kPd; nullptr (and a
// failed test) when it does not load or Simulation::Create refuses it.
inline std::unique_ptr<Simulation> PdMiniCheetah(Settings settings = {}) {
  auto model = LoadBuiltin("mini_cheetah");
  EXPECT_TRUE(model.ok()) << model.status();
  if (!model.ok()) return nullptr;
  settings.control.mode = ControlMode::kPd;
  auto sim = Simulation::Create(*model, settings);
  EXPECT_TRUE(sim.ok()) << sim.status();
  if (!sim.ok()) return nullptr;
  return std::move(*sim);
}

// The action that holds the joints at their default angles under PD.
inline Eigen::VectorXd HoldDefault(const Simulation& sim) {
  return sim.model().q_default.tail(sim.model().nu());
}

}  // namespace moreau::sim

#endif  // MOREAU_TESTS_UNIT_SIM_PD_MINI_CHEETAH_H_
