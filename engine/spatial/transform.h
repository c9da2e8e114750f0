// Plücker transforms kept as (E, r) rather than 6×6 matrices (Featherstone,
// RBDA §2.8; paper 001 App. A).
//
// X = B_X_A maps motion vectors from frame A coordinates to frame B coordinates:
//   E: the rotation taking A coordinates to B coordinates (B_R_A),
//   r: the position of B's origin expressed in A coordinates.
// As a matrix X = [E 0; −E r× E] and, for forces, X* = [E −E r×; 0 E].
#ifndef MOREAU_ENGINE_SPATIAL_TRANSFORM_H_
#define MOREAU_ENGINE_SPATIAL_TRANSFORM_H_

#include "engine/spatial/motion.h"

namespace moreau::spatial {

struct Transform {
  Mat3 E = Mat3::Identity();
  Vec3 r = Vec3::Zero();

  Transform() = default;
  Transform(const Mat3& rotation, const Vec3& translation) : E(rotation), r(translation) {}
  static Transform Identity() { return Transform(); }
  // The transform to a frame whose axes are `rotation_b_to_a` (B's axes in A) and
  // whose origin is `origin_in_a`: the usual pose (R, p) of B relative to A.
  static Transform FromPose(const Mat3& rotation_b_to_a, const Vec3& origin_in_a) {
    return Transform(rotation_b_to_a.transpose(), origin_in_a);
  }
  // The pose of B in A: R = Eᵀ (B's axes in A coordinates), p = r.
  Mat3 Rotation() const { return E.transpose(); }
  const Vec3& Translation() const { return r; }

  // X m: ω' = E ω, v' = E (v − r × ω).
  Motion Apply(const Motion& m) const {
    return {E * m.angular, E * (m.linear - r.cross(m.angular))};
  }
  // X* f: n' = E (n − r × f), f' = E f.
  Force Apply(const Force& f) const { return {E * (f.angular - r.cross(f.linear)), E * f.linear}; }
  // X⁻¹ m (from B back to A): ω = Eᵀ ω', v = Eᵀ v' + r × ω.
  Motion ApplyInverse(const Motion& m) const {
    const Vec3 w = E.transpose() * m.angular;
    return {w, E.transpose() * m.linear + r.cross(w)};
  }
  // Xᵀ f = (X*)⁻¹ f (a force in B back to A): f = Eᵀ f', n = Eᵀ n' + r × f.
  Force ApplyTranspose(const Force& f) const {
    const Vec3 lin = E.transpose() * f.linear;
    return {E.transpose() * f.angular + r.cross(lin), lin};
  }

  // C_X_A = C_X_B * B_X_A: E = E_CB E_BA, r = r_BA + E_BAᵀ r_CB.
  Transform operator*(const Transform& b_x_a) const {
    return {E * b_x_a.E, b_x_a.r + b_x_a.E.transpose() * r};
  }
  // A_X_B.
  Transform Inverse() const { return {E.transpose(), -(E * r)}; }

  // The point with coordinates p in A, expressed in B: E (p − r).
  Vec3 TransformPoint(const Vec3& p) const { return E * (p - r); }
  // The point with coordinates p in B, expressed in A: Eᵀ p + r.
  Vec3 InverseTransformPoint(const Vec3& p) const { return E.transpose() * p + r; }

  Mat6 MotionMatrix() const {
    Mat6 x = Mat6::Zero();
    x.topLeftCorner<3, 3>() = E;
    x.bottomLeftCorner<3, 3>() = -E * Skew(r);
    x.bottomRightCorner<3, 3>() = E;
    return x;
  }
  Mat6 ForceMatrix() const {
    Mat6 x = Mat6::Zero();
    x.topLeftCorner<3, 3>() = E;
    x.topRightCorner<3, 3>() = -E * Skew(r);
    x.bottomRightCorner<3, 3>() = E;
    return x;
  }
};

}  // namespace moreau::spatial

#endif  // MOREAU_ENGINE_SPATIAL_TRANSFORM_H_
