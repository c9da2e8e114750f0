// Joint models: the joint transform X_J(q) and motion subspace S of each
// body's joint (Featherstone RBDA Table 4.1; floating base per 000 eq. 21–22
// in MuJoCo's free-joint coordinates). The algorithms call these instead of
// testing joint types themselves.
#ifndef MOREAU_ENGINE_DYNAMICS_JOINT_H_
#define MOREAU_ENGINE_DYNAMICS_JOINT_H_

#include <cmath>

#include "engine/model/model.h"
#include "engine/spatial/axis_transform.h"
#include "engine/spatial/quaternion.h"
#include "engine/spatial/sincos.h"

namespace moreau::joint {

using spatial::Motion;

// X_up = i_X_λ(i) = X_J(q) X_tree for body i ≥ 1, written in place, and
// (floating base) the base rotation R (base→world).
inline void JointTransformUp(const Model& model, int i, const double* q, Transform& X_up,
                             Mat3& R_base) {
  const Transform& Xt = model.X_tree[i];
  switch (model.joint_type[i]) {
    case JointType::kRevolute: {
      // X_J = rot(E_J) with E_J = R(axis, q)ᵀ = 1 − sin q [a]× + (1 − cos q)[a]×².
      const double angle = q[model.q_index[i]];
      double s, c;
      spatial::SinCos(angle, s, c);
      const Vec3& a = model.joint_axis[i];
      const double t = 1.0 - c;
      Mat3 E_J;
      E_J(0, 0) = c + t * a.x() * a.x();
      E_J(0, 1) = t * a.x() * a.y() + s * a.z();
      E_J(0, 2) = t * a.x() * a.z() - s * a.y();
      E_J(1, 0) = t * a.x() * a.y() - s * a.z();
      E_J(1, 1) = c + t * a.y() * a.y();
      E_J(1, 2) = t * a.y() * a.z() + s * a.x();
      E_J(2, 0) = t * a.x() * a.z() + s * a.y();
      E_J(2, 1) = t * a.y() * a.z() - s * a.x();
      E_J(2, 2) = c + t * a.z() * a.z();
      if (model.X_tree_pure_translation[i]) {
        X_up.E = E_J;
      } else {
        X_up.E.noalias() = E_J * Xt.E;
      }
      X_up.r = Xt.r;
      return;
    }
    case JointType::kPrismatic: {
      // X_J = xlt(axis q): the translation, given in the child frame, moved to
      // the parent frame by E_treeᵀ.
      const double d = q[model.q_index[i]];
      X_up.E = Xt.E;
      X_up.r.noalias() = Xt.r + Xt.E.transpose() * (model.joint_axis[i] * d);
      return;
    }
    case JointType::kFree: {
      // 000 eq. 21: position p in world, unit quaternion base→world.
      const int k = model.q_index[i];
      R_base = spatial::QuatToRotation(q + k + 3);
      X_up.E = R_base.transpose();
      X_up.r = Vec3(q[k], q[k + 1], q[k + 2]);
      return;
    }
  }
}

// K ∈ {0, 1, 2} when body i's joint is revolute about ±e_K and its tree
// transform a pure translation, so X_up = rot(E_J) xlt(r) with E_J a rotation
// about e_K (spatial/axis_transform.h); −1 otherwise. `joint_axis_index` is
// Data::joint_axis_index.
inline int RotationAxis(const Model& model, const std::vector<int>& joint_axis_index, int i) {
  return model.X_tree_pure_translation[i] ? joint_axis_index[i] : -1;
}

// JointTransformUp for such a joint: E_J = R(σ e_K, q)ᵀ has c = cos q and
// s = σ sin q in the (J, L) plane (the general formula with a = σ e_K).
template <int K>
inline void AxisJointTransformUp(const Model& model, int i, const double* q, Transform& X_up,
                                 double& c, double& s) {
  const double angle = q[model.q_index[i]];
  double sin_q;
  spatial::SinCos(angle, sin_q, c);
  s = model.joint_axis[i][K] * sin_q;
  spatial::axis::Write<K>(c, s, model.X_tree[i].r, X_up);
}

// S of a 1-DOF joint in body coordinates.
inline Motion MotionSubspace(const Model& model, int i) {
  return model.joint_type[i] == JointType::kRevolute ? Motion(model.joint_axis[i], Vec3::Zero())
                                                     : Motion(Vec3::Zero(), model.joint_axis[i]);
}

// Column k (0..5) of the floating base's S in body coordinates. With
// v_base = [ṗ (world); ω (base)]: columns 0–2 are [0; Rᵀ e_k], 3–5 are [e_k; 0].
inline Motion FreeMotionSubspace(const Mat3& R_base, int k) {
  if (k < 3) return Motion(Vec3::Zero(), R_base.row(k).transpose());
  return Motion(Vec3::Unit(k - 3), Vec3::Zero());
}

// The floating base's body twist S v_base = [ω; Rᵀ ṗ].
inline Motion FreeJointVelocity(const Mat3& R_base, const double* v_base) {
  return Motion(Vec3(v_base[3], v_base[4], v_base[5]),
                R_base.transpose() * Vec3(v_base[0], v_base[1], v_base[2]));
}
// Ṡ v_base = [0; −ω × (Rᵀ ṗ)] (the rate of Rᵀ), the free joint's bias cJ.
inline Motion FreeJointBias(const Motion& vJ) {
  return Motion(Vec3::Zero(), -vJ.angular.cross(vJ.linear));
}
// Generalized base force Sᵀ f = [R f_lin; n] for a body force f.
inline void FreeJointProjectForce(const Mat3& R_base, const spatial::Force& f, double* out) {
  const Vec3 lin = R_base * f.linear;
  out[0] = lin.x();
  out[1] = lin.y();
  out[2] = lin.z();
  out[3] = f.angular.x();
  out[4] = f.angular.y();
  out[5] = f.angular.z();
}

}  // namespace moreau::joint

#endif  // MOREAU_ENGINE_DYNAMICS_JOINT_H_
