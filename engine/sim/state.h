// State: everything a snapshot holds and determinism is defined on
// (docs/architecture.md): q, v, time, contact memory (stick anchors, previous
// impulses for the warm start), the step count and the controller's state and
// held command (Settings::controller).
#ifndef MOREAU_ENGINE_SIM_STATE_H_
#define MOREAU_ENGINE_SIM_STATE_H_

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/contact/contact_state.h"
#include "engine/control/controller.h"
#include "engine/model/model.h"

namespace moreau::sim {

struct State {
  Eigen::VectorXd q;  // nq
  Eigen::VectorXd v;  // nv
  double time = 0.0;  // s
  uint64_t steps = 0;
  std::vector<contact::ContactState> contact_states;  // one per contact point
  std::vector<double> impulses;                       // 3 per contact point (N, T1, T2), warm start
  // Hard contact: the bilateral rows' impulses of the last step (warm start),
  // one per actuator (id-constraint joint rows) then 5 per loop closure.
  std::vector<double> bilateral_impulses;
  // Settings::controller: its time-varying state, and the command of its
  // last run, held until the next (nv: τ under torque control; under the
  // target modes the first nu entries are the joint targets).
  control::ControllerState controller;
  Eigen::VectorXd controller_command;
};

// The parts of a State beyond q, v, time, steps and the contact states that a
// step can change: the impulses (contact models that solve for them: hard,
// least-constraint, micro-macro) and the controller's state and command
// (with Settings::controller).
struct StateParts {
  bool impulses = true;
  bool controller = true;
};

// to = from without allocating when their vectors already have equal sizes
// (the step's rollback copy), `parts` alone of the parts above; otherwise
// as to = from, every part.
void CopyState(const State& from, State& to, StateParts parts = {});

// Bilateral rows of a hard-contact step for `model`: actuators + 5 per loop closure.
int BilateralRowCount(const Model& model);

// A state at rest in the model's default configuration.
State DefaultState(const Model& model);

// The version SerializeState writes; DeserializeState reads it, version 2
// (no controller command) and version 1 (no bilateral impulses). A blob of
// version 2 or 3 ends with an optional controller section (State::controller
// and controller_command), written when they differ from the start of a run
// (DefaultState); without it they restore at the start.
inline constexpr uint32_t kStateFormatVersion = 3;

// Versioned, portable byte blob (little-endian IEEE-754): a state restored
// from it continues bit-exactly on any machine running the same version.
std::string SerializeState(const State& state);
// InvalidArgument when the blob is malformed, of another version, or does not
// fit `model` (sizes); the message names the problem.
absl::StatusOr<State> DeserializeState(const Model& model, std::string_view bytes);

}  // namespace moreau::sim

#endif  // MOREAU_ENGINE_SIM_STATE_H_
