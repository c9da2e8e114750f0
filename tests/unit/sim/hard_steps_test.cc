// States on which one step is the most work the engine does: tumbling bipeds
// with every sole corner in contact under least-constraint, found by the state
// fuzzer (tests/fuzz/regressions/state/). Each step must stay within the
// contact solvers' budget and still leave a finite state.
#include <Eigen/Core>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "engine/model/loader.h"
#include "engine/sim/simulation.h"
#include "gtest/gtest.h"

namespace moreau::sim {
namespace {

// The fuzzer's input: byte 0 picks the model, byte 1 the contact model, the
// rest is the state blob.
std::string StateBlob(const std::string& name) {
  std::ifstream in(std::string(MOREAU_STATE_REGRESSIONS_DIR) + "/" + name, std::ios::binary);
  const std::string input((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return input.size() > 2 ? input.substr(2) : std::string();
}

class HardStepTest : public ::testing::TestWithParam<const char*> {};

TEST_P(HardStepTest, LeastConstraintStepStaysWithinTheQpBudget) {
  auto model = LoadBuiltin("biped");
  ASSERT_TRUE(model.ok());
  Settings settings;
  settings.contact = DefaultContactSettings(ContactModel::kLeastConstraint);
  auto sim = Simulation::Create(*model, settings);
  ASSERT_TRUE(sim.ok());
  const std::string blob = StateBlob(GetParam());
  ASSERT_FALSE(blob.empty());
  ASSERT_TRUE((*sim)->Restore(blob).ok());
  const absl::Status status = (*sim)->StepAction(Eigen::VectorXd::Zero((*model)->nu()), 1);
  const StepReport& report = (*sim)->last_report();
  EXPECT_TRUE(status.ok()) << status;
  EXPECT_GT(report.solver_iterations, 0);
  EXPECT_LE(report.solver_iterations,
            std::get<LeastConstraintSettings>(settings.contact).params.max_step_qp_iterations);
  EXPECT_TRUE((*sim)->state().q.allFinite());
  EXPECT_TRUE((*sim)->state().v.allFinite());
  std::printf("[ measured ] %s: %d QP iterations, converged %d, %d active contacts, %s\n",
              GetParam(), report.solver_iterations, report.solver_converged, report.active_contacts,
              status.ToString().c_str());
}

INSTANTIATE_TEST_SUITE_P(Regressions, HardStepTest,
                         ::testing::Values("biped_least_constraint_hard_step",
                                           "biped_least_constraint_staggered_loop",
                                           "biped_least_constraint_impact",
                                           "biped_least_constraint_bounded_step"));

}  // namespace
}  // namespace moreau::sim
