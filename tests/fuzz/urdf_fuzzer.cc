// URDF text as a client sends it (GetModel, CreateInstances, `moreau info`):
// LoadUrdfString — the size scan, TinyXML, urdfdom, the tree and model
// builders — with the default limits; every model it accepts is then
// simulated for a few steps, as a created instance would be.
#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/model/loader.h"
#include "engine/sim/simulation.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto model = moreau::LoadUrdfString(text);
  if (!model.ok()) return 0;
  auto sim = moreau::sim::Simulation::Create(*model, moreau::sim::Settings{});
  if (!sim.ok()) return 0;
  const Eigen::VectorXd action = Eigen::VectorXd::Zero((*model)->nu());
  (*sim)->StepAction(action, 3).IgnoreError();  // divergence is a status, not a crash
  return 0;
}
