// Validation of a Model's loop closures (cut joints of closed kinematic
// chains, model.h § Closed kinematic chains; 000 eq. 19–20, 004 §3.1).
#ifndef MOREAU_ENGINE_MODEL_LOOP_CLOSURES_H_
#define MOREAU_ENGINE_MODEL_LOOP_CLOSURES_H_

#include "absl/status/status.h"
#include "engine/model/model.h"

namespace moreau {

// InvalidArgument naming the loop closure (index and name) and the field
// unless: both bodies are in [0, nbodies) and differ, the points are finite,
// the axes are finite unit vectors (|‖a‖ − 1| ≤ 1e-9), the type is known.
absl::Status ValidateLoopClosures(const Model& model);

}  // namespace moreau

#endif  // MOREAU_ENGINE_MODEL_LOOP_CLOSURES_H_
