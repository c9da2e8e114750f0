// A push: a constant world-frame force at a point of a body (the base origin
// by default) and a world-frame torque, for a time window — disturbance tests
// (000 §"robustness": the standing robot is pushed over at its main body
// until it falls on its side) and robustness training.
#ifndef MOREAU_ENGINE_CONTROL_PUSH_H_
#define MOREAU_ENGINE_CONTROL_PUSH_H_

#include <vector>

#include "engine/dynamics/data.h"
#include "engine/model/model.h"
#include "engine/spatial/motion.h"

namespace moreau::control {

struct Push {
  double start_s = 0.0;              // s
  double duration_s = 0.0;           // s; active for start_s ≤ t < start_s + duration_s
  Vec3 force_world = Vec3::Zero();   // N, world frame, applied at `point`
  Vec3 torque_world = Vec3::Zero();  // N m, world frame
  int body = 1;                      // the body pushed (1: the base)
  Vec3 point = Vec3::Zero();         // where the force acts, in the body frame

  bool Active(double t) const { return t >= start_s && t < start_s + duration_s; }
};

// While the push is active at time t, adds it to its body's external wrench
// in body coordinates about the body origin (the RNEA/ABA convention of
// rnea.h): f_ext[b] += (p × E f + E τ, E f), E = data.X_0[b].E the
// world-to-body rotation from the last ForwardKinematics, p the point.
// f_ext: per body, size nbodies. Adds nothing when inactive, for a body out
// of range (or the world), or when f_ext is too short. Allocation-free.
void ApplyPush(const Push& push, double t, const Model& model, std::vector<spatial::Force>& f_ext,
               const Data& data);
// The same whatever the time (the caller decides when the push acts).
void ApplyPushWrench(const Push& push, const Model& model, std::vector<spatial::Force>& f_ext,
                     const Data& data);

}  // namespace moreau::control

#endif  // MOREAU_ENGINE_CONTROL_PUSH_H_
