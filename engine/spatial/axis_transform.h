// Plücker transforms X = rot(E) xlt(r) whose rotation E turns about a
// coordinate axis e_K (Featherstone RBDA §2.8 and Table 4.1: the joint
// transform of a revolute joint about ±e_K composed with a tree transform that
// is a pure translation). E is the identity except in the (J, L) plane,
// J = K+1, L = K+2 (mod 3):
//   E(J, J) = E(L, L) = c,  E(J, L) = −E(L, J) = s,
// so E x and Eᵀ x cost 4 multiplies instead of 9. K is a template argument so
// every index is a compile-time constant in the ABA/RNEA loops.
#ifndef MOREAU_ENGINE_SPATIAL_AXIS_TRANSFORM_H_
#define MOREAU_ENGINE_SPATIAL_AXIS_TRANSFORM_H_

#include "engine/spatial/motion.h"
#include "engine/spatial/transform.h"

namespace moreau::spatial::axis {

template <int K>
constexpr int kJ = (K + 1) % 3;
template <int K>
constexpr int kL = (K + 2) % 3;

// E x: (E x)_J = c x_J + s x_L, (E x)_L = −s x_J + c x_L, (E x)_K = x_K.
template <int K>
inline Vec3 Rotate(double c, double s, const Vec3& x) {
  constexpr int J = kJ<K>, L = kL<K>;
  Vec3 y;
  y[K] = x[K];
  y[J] = c * x[J] + s * x[L];
  y[L] = c * x[L] - s * x[J];
  return y;
}

// Eᵀ x: (Eᵀ x)_J = c x_J − s x_L, (Eᵀ x)_L = s x_J + c x_L.
template <int K>
inline Vec3 RotateTranspose(double c, double s, const Vec3& x) {
  constexpr int J = kJ<K>, L = kL<K>;
  Vec3 y;
  y[K] = x[K];
  y[J] = c * x[J] - s * x[L];
  y[L] = c * x[L] + s * x[J];
  return y;
}

// Writes X = (E, r) with E as above.
template <int K>
inline void Write(double c, double s, const Vec3& r, Transform& X) {
  constexpr int J = kJ<K>, L = kL<K>;
  X.E.setIdentity();
  X.E(J, J) = c;
  X.E(L, L) = c;
  X.E(J, L) = s;
  X.E(L, J) = -s;
  X.r = r;
}

// The plane entries (c, s) of a transform written by Write<K>.
template <int K>
inline double Cos(const Transform& X) {
  return X.E(kJ<K>, kJ<K>);
}
template <int K>
inline double Sin(const Transform& X) {
  return X.E(kJ<K>, kL<K>);
}

// X m = [E ω; E (v − r × ω)] (Transform::Apply).
template <int K>
inline Motion Apply(double c, double s, const Vec3& r, const Motion& m) {
  return {Rotate<K>(c, s, m.angular), Rotate<K>(c, s, m.linear - r.cross(m.angular))};
}

// Xᵀ f: f' = Eᵀ f_lin, n' = Eᵀ n + r × f' (Transform::ApplyTranspose).
template <int K>
inline Force ApplyTranspose(double c, double s, const Vec3& r, const Force& f) {
  const Vec3 lin = RotateTranspose<K>(c, s, f.linear);
  return {RotateTranspose<K>(c, s, f.angular) + r.cross(lin), lin};
}

// x × (w e_K): the only nonzero components are J (w x_L) and L (−w x_J).
template <int K>
inline Vec3 CrossAxis(const Vec3& x, double w) {
  constexpr int J = kJ<K>, L = kL<K>;
  Vec3 y;
  y[K] = 0.0;
  y[J] = w * x[L];
  y[L] = -w * x[J];
  return y;
}

}  // namespace moreau::spatial::axis

#endif  // MOREAU_ENGINE_SPATIAL_AXIS_TRANSFORM_H_
