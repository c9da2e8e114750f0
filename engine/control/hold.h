// "hold": joint PD (001 eq. 44, ControllerOptions::gains) holding the
// actuated joint angles of its first Compute, target rate q̇_d = 0:
//
//   τ_j = clamp(k_p (q_0,j − q_j) − k_d q̇_j, ±τ_max,j)
//
// as printed (JointPd, pd.h), so the legs of a dropped robot act as springs
// about the pose it was released in. Any model with actuators: no legs are
// needed. The held angles q_0 are part of ControllerState (leg_targets, with
// leg_targets_set once taken), so a snapshot carries them and a restored run
// holds the same pose; a state at the start of a run (leg_targets_set false)
// takes them anew.
#ifndef MOREAU_ENGINE_CONTROL_HOLD_H_
#define MOREAU_ENGINE_CONTROL_HOLD_H_

#include <memory>

#include "absl/status/statusor.h"
#include "engine/control/controller.h"
#include "engine/control/pd.h"
#include "engine/model/model.h"

namespace moreau::control {

// Actuators whose angles the hold can keep: the room of
// ControllerState::leg_targets.
inline constexpr int kMaxHeldJoints = 3 * kMaxControllerLegs;

// The "hold" controller for `model` with PD gains `gains` (checked by
// MakeController). InvalidArgument for a model with more than kMaxHeldJoints
// actuators.
absl::StatusOr<std::unique_ptr<Controller>> MakeHoldController(const Model& model,
                                                               const PdGains& gains);

}  // namespace moreau::control

#endif  // MOREAU_ENGINE_CONTROL_HOLD_H_
