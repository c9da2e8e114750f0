// sin and cos of one joint angle together, inlined: Cody–Waite reduction by
// π/2 and the minimax polynomials of fdlibm's __kernel_sin / __kernel_cos on
// [−π/4, π/4] (error below 1 ulp there; a few ulp overall for |x| ≤ 1e5).
// About 40 instructions against the ~120 of a libm sincos call, which the
// joint transforms of RNEA/ABA make once per revolute joint.
#ifndef MOREAU_ENGINE_SPATIAL_SINCOS_H_
#define MOREAU_ENGINE_SPATIAL_SINCOS_H_

#include <cmath>

namespace moreau::spatial {

inline void SinCos(double x, double& s, double& c) {
  // Beyond this (or NaN/inf) the three-part reduction loses accuracy: libm.
  if (!(std::abs(x) <= 1e5)) {
    s = std::sin(x);
    c = std::cos(x);
    return;
  }
  // x = n π/2 + r, |r| ≤ π/4 (plus rounding); π/2 split in three parts so
  // n·kPio2Hi is exact for |n| < 2^20 (fdlibm's pio2_1, pio2_2, pio2_2t).
  constexpr double kTwoOverPi = 6.36619772367581382433e-01;
  constexpr double kPio2Hi = 1.57079632673412561417e+00;
  constexpr double kPio2Mid = 6.07710050630396597660e-11;
  constexpr double kPio2Lo = 2.02226624879595063154e-21;
  const double n = std::nearbyint(x * kTwoOverPi);
  const double r = ((x - n * kPio2Hi) - n * kPio2Mid) - n * kPio2Lo;
  const double z = r * r;
  // __kernel_sin: r + r³ (S1 + z S2 + … + z⁵ S6).
  const double sin_r =
      r + r * z *
              (-1.66666666666666324348e-01 +
               z * (8.33333333332248946124e-03 +
                    z * (-1.98412698298579493134e-04 +
                         z * (2.75573137070700676789e-06 + z * (-2.50507602534068634195e-08 +
                                                                z * 1.58969099521155010221e-10)))));
  // __kernel_cos: 1 − z/2 + z² (C1 + z C2 + … + z⁵ C6).
  const double cos_r =
      1.0 - 0.5 * z +
      z * z *
          (4.16666666666666019037e-02 +
           z * (-1.38888888888741095749e-03 +
                z * (2.48015872894767294178e-05 +
                     z * (-2.75573143513906633035e-07 +
                          z * (2.08757232129817482790e-09 + z * -1.13596475577881948265e-11)))));
  // Quadrant n mod 4 without branches (joint angles hit all four).
  const int quadrant = static_cast<int>(static_cast<long>(n) & 3);
  const double a = (quadrant & 1) ? cos_r : sin_r;
  const double b = (quadrant & 1) ? sin_r : cos_r;
  s = (quadrant & 2) ? -a : a;
  c = ((quadrant + 1) & 2) ? -b : b;
}

}  // namespace moreau::spatial

#endif  // MOREAU_ENGINE_SPATIAL_SINCOS_H_
