// Arctangent of y/x in (−π, π] for the controllers' per-step angles (leg IK,
// heading): fdlibm's algorithm (s_atan.c, e_atan2.c), under 1 ulp from the
// correctly rounded value, in about half the instructions of the C
// library's atan2 and inline. Finite arguments only (the controllers' are
// finite); (0, 0) gives 0 like std::atan2(+0, +0).
//
// The constants and the method are fdlibm's:
// ====================================================
// Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
//
// Developed at SunSoft, a Sun Microsystems, Inc. business.
// Permission to use, copy, modify, and distribute this
// software is freely granted, provided that this notice
// is preserved.
// ====================================================
#ifndef MOREAU_ENGINE_CONTROL_ATAN2_H_
#define MOREAU_ENGINE_CONTROL_ATAN2_H_

#include <cmath>

namespace moreau::control {

// atan(t) for t ≥ 0: t reduced to |t'| < 7/16 by atan(t) = atan(c) +
// atan((t − c)/(1 + c t)) with c ∈ {0, ½, 1, 3/2, ∞}, then an odd
// polynomial of degree 23 in t' (fdlibm s_atan.c).
inline double AtanNonNegative(double t) {
  constexpr double kAtanHi[4] = {4.63647609000806093515e-01, 7.85398163397448278999e-01,
                                 9.82793723247329054082e-01, 1.57079632679489655800e+00};
  constexpr double kAtanLo[4] = {2.26987774529616870924e-17, 3.06161699786838301793e-17,
                                 1.39033110312309984516e-17, 6.12323399573676603587e-17};
  constexpr double kT[11] = {
      3.33333333333329318027e-01,  -1.99999999998764832476e-01, 1.42857142725034663711e-01,
      -1.11111104054623557880e-01, 9.09088713343650656196e-02,  -7.69187620504482999495e-02,
      6.66107313738753120669e-02,  -5.83357013379057348645e-02, 4.97687799461593236017e-02,
      -3.65315727442169155270e-02, 1.62858201153657823623e-02};
  if (t >= 0x1p66) return kAtanHi[3] + kAtanLo[3];
  int id = -1;
  double x = t;
  if (t >= 0.4375) {
    if (t < 1.1875) {
      if (t < 0.6875) {
        id = 0;
        x = (2.0 * t - 1.0) / (2.0 + t);
      } else {
        id = 1;
        x = (t - 1.0) / (t + 1.0);
      }
    } else if (t < 2.4375) {
      id = 2;
      x = (t - 1.5) / (1.0 + 1.5 * t);
    } else {
      id = 3;
      x = -1.0 / t;
    }
  } else if (t < 0x1p-27) {
    return t;
  }
  const double z = x * x;
  const double w = z * z;
  const double s1 =
      z * (kT[0] + w * (kT[2] + w * (kT[4] + w * (kT[6] + w * (kT[8] + w * kT[10])))));
  const double s2 = w * (kT[1] + w * (kT[3] + w * (kT[5] + w * (kT[7] + w * kT[9]))));
  if (id < 0) return x - x * (s1 + s2);
  return kAtanHi[id] - ((x * (s1 + s2) - kAtanLo[id]) - x);
}

// atan2(y, x) for finite y, x (fdlibm e_atan2.c's quadrants).
inline double Atan2(double y, double x) {
  constexpr double kPi = 3.1415926535897931160e+00;
  constexpr double kPiLo = 1.2246467991473531772e-16;
  constexpr double kHalfPi = 1.57079632679489655800e+00;
  if (y == 0.0) {
    // ±0 on the positive x axis, ±π on the negative one.
    if (std::signbit(x)) return std::copysign(kPi, y);
    return y;
  }
  if (x == 0.0) return y > 0.0 ? kHalfPi : -kHalfPi;
  const double ay = std::abs(y);
  const double ax = std::abs(x);
  double z;
  if (ay > 0x1p60 * ax) {
    z = kHalfPi + 0.5 * kPiLo;  // |y/x| > 2⁶⁰
  } else if (x < 0.0 && ay < 0x1p-60 * ax) {
    z = 0.0;  // |y|/|x| < 2⁻⁶⁰ with x < 0
  } else {
    z = AtanNonNegative(ay / ax);
  }
  if (x > 0.0) return y > 0.0 ? z : -z;
  return y > 0.0 ? kPi - (z - kPiLo) : (z - kPiLo) - kPi;
}

}  // namespace moreau::control

#endif  // MOREAU_ENGINE_CONTROL_ATAN2_H_
