#include "engine/control/push.h"

namespace moreau::control {

void ApplyPush(const Push& push, double t, const Model& model, std::vector<spatial::Force>& f_ext,
               const Data& data) {
  constexpr int kBase = 1;
  if (!push.Active(t) || model.nbodies <= kBase || static_cast<int>(f_ext.size()) <= kBase ||
      static_cast<int>(data.X_0.size()) <= kBase) {
    return;
  }
  // At the origin: no moment about it. World → base coordinates.
  f_ext[kBase].linear += data.X_0[kBase].E * push.force_world;
}

}  // namespace moreau::control
