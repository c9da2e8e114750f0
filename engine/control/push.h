// A push on the base: a constant world-frame force at the base origin for a
// time window, for disturbance tests (000 §"robustness": the standing robot is
// pushed over at its main body until it falls on its side).
#ifndef MOREAU_ENGINE_CONTROL_PUSH_H_
#define MOREAU_ENGINE_CONTROL_PUSH_H_

#include <vector>

#include "engine/dynamics/data.h"
#include "engine/model/model.h"
#include "engine/spatial/motion.h"

namespace moreau::control {

struct Push {
  double start_s = 0.0;             // s
  double duration_s = 0.0;          // s; active for start_s ≤ t < start_s + duration_s
  Vec3 force_world = Vec3::Zero();  // N, world frame, applied at the base origin

  bool Active(double t) const { return t >= start_s && t < start_s + duration_s; }
};

// While the push is active at time t, adds it to the base body's (body 1)
// external wrench: f_ext[1] += (0, E f_world) in base coordinates about the
// base origin (the RNEA/ABA convention of rnea.h), E = data.X_0[1].E the
// world-to-base rotation from the last ForwardKinematics. f_ext: per body,
// size nbodies. Adds nothing when inactive, for a model without bodies, or
// when f_ext is too short. Allocation-free.
void ApplyPush(const Push& push, double t, const Model& model, std::vector<spatial::Force>& f_ext,
               const Data& data);

}  // namespace moreau::control

#endif  // MOREAU_ENGINE_CONTROL_PUSH_H_
