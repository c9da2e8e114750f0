// sim::Inspection: one kept and pointed at state after state (Inspect) shows
// exactly what a fresh Inspection of each state shows; one made from the
// model alone shows the default state at rest.
#include "engine/sim/inspection.h"

#include <gtest/gtest.h>

#include <memory>

#include "engine/model/loader.h"
#include "engine/sim/simulation.h"
#include "engine/sim/state.h"
#include "tests/unit/sim/pd_mini_cheetah.h"

namespace moreau::sim {
namespace {

void ExpectSameBodyTransforms(const Inspection& a, const Inspection& b) {
  ASSERT_EQ(a.BodyTransforms().size(), b.BodyTransforms().size());
  for (size_t i = 0; i < a.BodyTransforms().size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(a.BodyTransforms()[i].E, b.BodyTransforms()[i].E);
    EXPECT_EQ(a.BodyTransforms()[i].r, b.BodyTransforms()[i].r);
  }
}

TEST(Inspection, ModelOnlyShowsTheDefaultStateAtRest) {
  auto model = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(model.ok()) << model.status();
  const Inspection kept(**model);
  const Inspection fresh(**model, DefaultState(**model));
  ExpectSameBodyTransforms(kept, fresh);
  EXPECT_EQ(kept.KineticEnergy(), 0.0);
}

TEST(Inspection, InspectShowsWhatAFreshInspectionShows) {
  std::unique_ptr<Simulation> sim = PdMiniCheetah();
  ASSERT_NE(sim, nullptr);
  sim->ResetWithNoise(3, 0.2);
  const Eigen::VectorXd action = HoldDefault(*sim);
  Inspection kept(sim->model());
  for (int k = 0; k < 5; ++k) {
    SCOPED_TRACE(k);
    ASSERT_TRUE(sim->StepAction(action, 20).ok());
    kept.Inspect(sim->state());
    Inspection fresh(sim->model(), sim->state());
    ExpectSameBodyTransforms(kept, fresh);
    EXPECT_EQ(kept.KineticEnergy(), fresh.KineticEnergy());
    EXPECT_EQ(kept.PotentialEnergy(), fresh.PotentialEnergy());
    EXPECT_EQ(kept.MassMatrix(), fresh.MassMatrix());
    EXPECT_EQ(kept.BiasForces(), fresh.BiasForces());
  }
}

}  // namespace
}  // namespace moreau::sim
