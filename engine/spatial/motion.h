// Spatial motion and force vectors (Featherstone; paper 001 App. A).
//
// Both are 6-vectors stored as two 3-vectors, angular part first:
//   motion m = [ω; v]  (angular velocity, linear velocity of the frame origin)
//   force  f = [n; f]  (moment about the frame origin, linear force)
// The cross operators are those of 001 App. A: m× (crm) acting on motions and
// m×* (crf) acting on forces.
#ifndef MOREAU_ENGINE_SPATIAL_MOTION_H_
#define MOREAU_ENGINE_SPATIAL_MOTION_H_

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace moreau::spatial {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;

// Skew-symmetric matrix a× such that (a×) b = a × b.
inline Mat3 Skew(const Vec3& a) {
  Mat3 s;
  s(0, 0) = 0.0;
  s(1, 0) = a.z();
  s(2, 0) = -a.y();
  s(0, 1) = -a.z();
  s(1, 1) = 0.0;
  s(2, 1) = a.x();
  s(0, 2) = a.y();
  s(1, 2) = -a.x();
  s(2, 2) = 0.0;
  return s;
}

struct Force;

struct Motion {
  Vec3 angular = Vec3::Zero();
  Vec3 linear = Vec3::Zero();

  Motion() = default;
  Motion(const Vec3& w, const Vec3& v) : angular(w), linear(v) {}
  static Motion Zero() { return Motion(); }
  static Motion FromVector(const Vec6& x) { return Motion(x.head<3>(), x.tail<3>()); }
  Vec6 ToVector() const {
    Vec6 x;
    x << angular, linear;
    return x;
  }

  Motion operator+(const Motion& o) const { return {angular + o.angular, linear + o.linear}; }
  Motion operator-(const Motion& o) const { return {angular - o.angular, linear - o.linear}; }
  Motion operator-() const { return {-angular, -linear}; }
  Motion operator*(double s) const { return {angular * s, linear * s}; }
  Motion& operator+=(const Motion& o) {
    angular += o.angular;
    linear += o.linear;
    return *this;
  }
  Motion& operator-=(const Motion& o) {
    angular -= o.angular;
    linear -= o.linear;
    return *this;
  }

  // m × m2 (001 App. A, crm): [ω×ω2; ω×v2 + v×ω2].
  Motion Cross(const Motion& m2) const {
    return {angular.cross(m2.angular), angular.cross(m2.linear) + linear.cross(m2.angular)};
  }
  // m ×* f (001 App. A, crf): [ω×n + v×f; ω×f].
  inline Force CrossForce(const Force& f) const;
  // Power m · f.
  inline double Dot(const Force& f) const;
};

struct Force {
  Vec3 angular = Vec3::Zero();  // moment n about the frame origin
  Vec3 linear = Vec3::Zero();   // force f

  Force() = default;
  Force(const Vec3& n, const Vec3& f) : angular(n), linear(f) {}
  static Force Zero() { return Force(); }
  static Force FromVector(const Vec6& x) { return Force(x.head<3>(), x.tail<3>()); }
  Vec6 ToVector() const {
    Vec6 x;
    x << angular, linear;
    return x;
  }

  Force operator+(const Force& o) const { return {angular + o.angular, linear + o.linear}; }
  Force operator-(const Force& o) const { return {angular - o.angular, linear - o.linear}; }
  Force operator-() const { return {-angular, -linear}; }
  Force operator*(double s) const { return {angular * s, linear * s}; }
  Force& operator+=(const Force& o) {
    angular += o.angular;
    linear += o.linear;
    return *this;
  }
  Force& operator-=(const Force& o) {
    angular -= o.angular;
    linear -= o.linear;
    return *this;
  }
};

inline Force Motion::CrossForce(const Force& f) const {
  return {angular.cross(f.angular) + linear.cross(f.linear), angular.cross(f.linear)};
}
inline double Motion::Dot(const Force& f) const {
  return angular.dot(f.angular) + linear.dot(f.linear);
}

// 6×6 matrix forms of the cross operators, for tests and dense algorithms.
inline Mat6 CrmMatrix(const Motion& m) {
  Mat6 x = Mat6::Zero();
  x.topLeftCorner<3, 3>() = Skew(m.angular);
  x.bottomLeftCorner<3, 3>() = Skew(m.linear);
  x.bottomRightCorner<3, 3>() = Skew(m.angular);
  return x;
}
inline Mat6 CrfMatrix(const Motion& m) { return -CrmMatrix(m).transpose(); }

}  // namespace moreau::spatial

#endif  // MOREAU_ENGINE_SPATIAL_MOTION_H_
