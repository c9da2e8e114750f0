// The scenarios both engines run, and the timed run of one scenario on one
// engine.
//
//   drop   a passive drop: the robot, legs straight (Model::q_default),
//          released kDropHeight above the ground with the "hold" controller
//          (joint PD, the "stand" gains, holding the initial joint angles),
//          so the legs act as springs; it lands and comes to rest.
//   stand  the "stand" controller from Model::q_default (feet on the
//          ground, legs straight): it squats to the standing height.
//   trot   the "trot" controller from Model::q_default: it stands for
//          0.5 s, then trots forward (ControllerOptions defaults plus the
//          stance legs' weight feed-forward, which the 13.7 kg A1 needs to
//          trot on every contact model at 001's k_p = 40).
//   limp   from Model::q_default, feet on the ground, zero joint torque: the
//          legs fold and the robot comes to rest on whatever touches the
//          ground — its feet alone with collision kFeet (the trunk then
//          passes through the ground), its knees and trunk with kAll.
// Both engines run the scenario's controller from one sim::ControllerSettings
// (ScenarioController): Moreau's simulation inside its step, MuJoCo's adapter
// by the same factory (sim::MakeSimulationController).
#ifndef MOREAU_BENCH_VS_MUJOCO_SCENARIO_H_
#define MOREAU_BENCH_VS_MUJOCO_SCENARIO_H_

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "bench/vs_mujoco/engine_adapter.h"
#include "engine/model/model.h"
#include "engine/sim/settings.h"

namespace moreau::bench::vs_mujoco {

// Height of the drop: the lowest foot starts this far above the ground (m).
inline constexpr double kDropHeight = 0.1;

enum class Scenario { kDrop, kStand, kTrot, kLimp };
const char* ScenarioName(Scenario scenario);
// "drop", "stand", "trot", "limp"; InvalidArgument naming the value otherwise.
absl::StatusOr<Scenario> ParseScenario(absl::string_view name);

// The controller that drives the scenario, every step (period 1); an
// engine adapter is made with it.
sim::ControllerSettings ScenarioController(Scenario scenario);
// The initial state (q, v) in Moreau's coordinates.
void InitialState(Scenario scenario, const Model& model, Eigen::VectorXd& q, Eigen::VectorXd& v);

struct RunOptions {
  double dt = 1e-3;             // s
  double duration = 10.0;       // s
  double sample_period = 0.01;  // s between samples (rounded to whole steps)
};

// What one engine did in one scenario.
struct RunResult {
  std::string engine;   // "moreau", "mujoco"
  std::string contact;  // Moreau contact model or MuJoCo cone
  double dt = 0.0;
  int64_t steps = 0;    // steps done (fewer than planned when it diverged)
  double wall_s = 0.0;  // wall time of the stepping loops only (controller included)
  bool diverged = false;
  std::string error;            // why it stopped early
  std::vector<Sample> samples;  // t = 0, then every sample period

  double steps_per_s() const { return wall_s > 0.0 ? static_cast<double>(steps) / wall_s : 0.0; }
};

// Resets the engine (made with ScenarioController(scenario)) to the
// scenario's initial state and runs it for options.duration
// (round(duration / dt) steps), recording a sample every sample period. Only
// the stepping loop is timed (recording is not). A diverged engine ends the
// run early (diverged, error); other failures are returned.
absl::StatusOr<RunResult> RunScenario(Scenario scenario, const Model& model, EngineAdapter& engine,
                                      const RunOptions& options);

// True when the run's trunk dropped below a third of its initial height or
// tilted more than 60° at some sample (as `moreau sim` judges a fall).
bool Fell(const RunResult& run);

}  // namespace moreau::bench::vs_mujoco

#endif  // MOREAU_BENCH_VS_MUJOCO_SCENARIO_H_
