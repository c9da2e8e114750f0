// State blobs as a client sends them (SetState, Reset with a state, `moreau
// sim --state-in`): sim::Simulation::Restore on a simulation of one of the
// built-in models, then one step. Input: byte 0 picks the model, byte 1 the
// contact model, the rest is the blob. A blob Restore accepts must leave a
// simulation that steps and whose own snapshot restores again. One step, not
// more: a step that runs the contact solvers to their iteration limits (the
// 16-contact biped under least-constraint from a tumbling state: ≈ 9 ms in
// Release, ≈ 0.3 s under ASan) is bounded work, and five of them would pass
// the 1 s bound that marks a hang.
#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/loader.h"
#include "engine/sim/contact_parameters.h"
#include "engine/sim/simulation.h"
#include "tests/fuzz/state_models.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const auto& cases = moreau::fuzz::StateCases();
  const moreau::fuzz::StateCase& c = cases[data[0] % cases.size()];
  moreau::sim::Settings settings;
  const auto contact = moreau::sim::ParseContactModel(
      moreau::fuzz::kContactModels[data[1] % moreau::fuzz::kContactModels.size()]);
  if (!contact.ok()) std::abort();
  settings.contact = moreau::sim::DefaultContactSettings(*contact);
  auto sim = moreau::sim::Simulation::Create(c.model, settings);
  if (!sim.ok()) return 0;
  const std::string_view blob(reinterpret_cast<const char*>(data) + 2, size - 2);
  if (!(*sim)->Restore(blob).ok()) return 0;
  const Eigen::VectorXd action = Eigen::VectorXd::Zero(c.model->nu());
  (*sim)->StepAction(action, 1).IgnoreError();
  if (!(*sim)->Restore((*sim)->Snapshot()).ok()) std::abort();
  return 0;
}
