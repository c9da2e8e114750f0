// Joint transforms that rotate about a coordinate axis and then translate: a
// revolute joint about ±e_a (Data::joint_axis_index[i] = a) whose tree
// transform is a pure translation (Model::X_tree_pure_translation[i]), the
// usual URDF leg joint. Its ^iX_λ(i) = (E, r) has E equal to the identity but
// in the plane (j, k) = (a+1, a+2) mod 3, where E_jj = E_kk = c and
// E_jk = −E_kj = s (RBDA §2.8, rot), so a product with E touches two rows or
// columns instead of three. Shared by the CRBA and kinematics passes (ABA has
// its own, RotateArticulatedInPlane). Internal to engine/dynamics.
#ifndef MOREAU_ENGINE_DYNAMICS_PLANE_TRANSFORM_H_
#define MOREAU_ENGINE_DYNAMICS_PLANE_TRANSFORM_H_

#include "engine/dynamics/data.h"
#include "engine/model/model.h"

namespace moreau::plane {

struct PlaneTransform {
  int j = 1, k = 2;         // the rotated plane
  double c = 1.0, s = 0.0;  // E_jj = E_kk = c, E_jk = −E_kj = s
  const Vec3* r = nullptr;  // the translation (X_up's r)
};

// Body i's X_up as a PlaneTransform; false when its joint is not of that kind.
inline bool FromJoint(const Model& model, const Data& data, int i, PlaneTransform& x) {
  const int axis = data.joint_axis_index[i];
  if (axis < 0 || !model.X_tree_pure_translation[i]) return false;
  constexpr int kNext[3] = {1, 2, 0};
  const Transform& X = data.X_up[i];
  x.j = kNext[axis];
  x.k = kNext[x.j];
  x.c = X.E(x.j, x.j);
  x.s = X.E(x.j, x.k);
  x.r = &X.r;
  return true;
}

// E v: (E v)_j = c v_j + s v_k, (E v)_k = −s v_j + c v_k.
inline Vec3 Rotate(const PlaneTransform& x, const Vec3& v) {
  Vec3 out = v;
  out[x.j] = x.c * v[x.j] + x.s * v[x.k];
  out[x.k] = -x.s * v[x.j] + x.c * v[x.k];
  return out;
}

// Eᵀ v: (Eᵀ v)_j = c v_j − s v_k, (Eᵀ v)_k = s v_j + c v_k.
inline Vec3 RotateTranspose(const PlaneTransform& x, const Vec3& v) {
  Vec3 out = v;
  out[x.j] = x.c * v[x.j] - x.s * v[x.k];
  out[x.k] = x.s * v[x.j] + x.c * v[x.k];
  return out;
}

}  // namespace moreau::plane

#endif  // MOREAU_ENGINE_DYNAMICS_PLANE_TRANSFORM_H_
