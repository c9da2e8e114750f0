// The Moreau side of the comparison: a sim::Simulation running its
// Settings::controller inside its step, stepped with a zero action, as
// `moreau sim` runs it.
#ifndef MOREAU_BENCH_VS_MUJOCO_MOREAU_ENGINE_H_
#define MOREAU_BENCH_VS_MUJOCO_MOREAU_ENGINE_H_

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "bench/vs_mujoco/engine_adapter.h"
#include "engine/model/model.h"
#include "engine/sim/settings.h"
#include "engine/sim/simulation.h"

namespace moreau::bench::vs_mujoco {

// Settings for `contact` at time step dt with friction coefficient μ for
// every contact law (as `moreau sim --mu`) and the controller `controller`
// under torque control; everything else at its default.
absl::StatusOr<sim::Settings> MoreauSettings(std::string_view contact, double dt, double mu,
                                             const sim::ControllerSettings& controller);

class MoreauEngine : public EngineAdapter {
 public:
  static absl::StatusOr<std::unique_ptr<MoreauEngine>> Create(std::shared_ptr<const Model> model,
                                                              const sim::Settings& settings);

  std::string EngineName() const override { return "moreau"; }
  std::string ContactName() const override;
  absl::Status Reset(const Eigen::VectorXd& q, const Eigen::VectorXd& v) override;
  absl::Status Advance(int steps) override;
  void Record(Sample& sample) const override;

 private:
  explicit MoreauEngine(std::unique_ptr<sim::Simulation> simulation);

  std::unique_ptr<sim::Simulation> simulation_;
  Eigen::VectorXd zero_action_;  // nu: the controller alone drives the joints
  std::vector<int> feet_;        // FootSlots of the model
};

}  // namespace moreau::bench::vs_mujoco

#endif  // MOREAU_BENCH_VS_MUJOCO_MOREAU_ENGINE_H_
