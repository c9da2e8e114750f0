#include "engine/control/push.h"

namespace moreau::control {

void ApplyPush(const Push& push, double t, const Model& model, std::vector<spatial::Force>& f_ext,
               const Data& data) {
  if (push.Active(t)) ApplyPushWrench(push, model, f_ext, data);
}

void ApplyPushWrench(const Push& push, const Model& model, std::vector<spatial::Force>& f_ext,
                     const Data& data) {
  const int b = push.body;
  if (b < 1 || model.nbodies <= b || static_cast<int>(f_ext.size()) <= b ||
      static_cast<int>(data.X_0.size()) <= b) {
    return;
  }
  // World → body coordinates; the force at p has the moment p × f about
  // the body origin.
  const Vec3 force = data.X_0[b].E * push.force_world;
  f_ext[b].linear += force;
  f_ext[b].angular += push.point.cross(force) + data.X_0[b].E * push.torque_world;
}

}  // namespace moreau::control
