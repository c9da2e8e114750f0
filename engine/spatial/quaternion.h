// Unit quaternions stored (w, x, y, z), as in q of a floating base (000 eq. 21–22;
// MuJoCo's free-joint convention). The quaternion rotates base coordinates to
// world coordinates.
#ifndef MOREAU_ENGINE_SPATIAL_QUATERNION_H_
#define MOREAU_ENGINE_SPATIAL_QUATERNION_H_

#include <cmath>

#include "engine/spatial/motion.h"

namespace moreau::spatial {

// Reads (w, x, y, z) starting at data[0].
inline Eigen::Quaterniond QuatFromWxyz(const double* data) {
  return Eigen::Quaterniond(data[0], data[1], data[2], data[3]);
}
inline void QuatToWxyz(const Eigen::Quaterniond& quat, double* data) {
  data[0] = quat.w();
  data[1] = quat.x();
  data[2] = quat.y();
  data[3] = quat.z();
}

// Rotation matrix of a unit quaternion (w, x, y, z).
inline Mat3 QuatToRotation(const double* wxyz) {
  const double w = wxyz[0], x = wxyz[1], y = wxyz[2], z = wxyz[3];
  Mat3 R;
  R << 1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),  //
      2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),   //
      2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y);
  return R;
}

// q ← q ⊗ exp(ω_body Δt / 2): integrates a body-frame angular velocity over Δt
// exactly for constant ω (000 eq. 22), then renormalizes.
inline void QuatIntegrateBody(double* wxyz, const Vec3& omega_body, double dt) {
  const double angle = omega_body.norm() * dt;
  Eigen::Quaterniond dq = Eigen::Quaterniond::Identity();
  if (angle > 1e-12) {
    dq = Eigen::Quaterniond(Eigen::AngleAxisd(angle, omega_body.normalized()));
  } else {
    // Second-order expansion near zero.
    const Vec3 half = 0.5 * dt * omega_body;
    dq = Eigen::Quaterniond(1.0, half.x(), half.y(), half.z());
  }
  Eigen::Quaterniond q = QuatFromWxyz(wxyz) * dq;
  q.normalize();
  QuatToWxyz(q, wxyz);
}

// Normalizes (w, x, y, z) in place; returns false when its norm is not finite
// or is too small to normalize.
inline bool QuatNormalize(double* wxyz) {
  const double n =
      std::sqrt(wxyz[0] * wxyz[0] + wxyz[1] * wxyz[1] + wxyz[2] * wxyz[2] + wxyz[3] * wxyz[3]);
  if (!std::isfinite(n) || n < 1e-12) return false;
  for (int k = 0; k < 4; ++k) wxyz[k] /= n;
  return true;
}

}  // namespace moreau::spatial

#endif  // MOREAU_ENGINE_SPATIAL_QUATERNION_H_
