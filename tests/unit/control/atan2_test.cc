// Atan2 (fdlibm's method) against the C library's atan2.
#include "engine/control/atan2.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>

namespace moreau::control {
namespace {

// |a − b| in units in the last place of b.
double UlpDistance(double a, double b) {
  const double ulp =
      std::nextafter(std::abs(b), std::numeric_limits<double>::infinity()) - std::abs(b);
  return std::abs(a - b) / ulp;
}

TEST(Atan2, WithinOneUlpOfTheCLibrary) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> g(0.0, 1.0);
  std::uniform_real_distribution<double> log_scale(-40.0, 40.0);
  double worst = 0.0;
  for (int i = 0; i < 200000; ++i) {
    double y = g(rng), x = g(rng);
    if (i % 2 == 0) {  // also far from 1: every reduction branch and both extremes
      y *= std::exp(log_scale(rng));
      x *= std::exp(log_scale(rng));
    }
    const double ours = Atan2(y, x);
    const double libm = std::atan2(y, x);
    worst = std::max(worst, UlpDistance(ours, libm));
    ASSERT_LE(UlpDistance(ours, libm), 1.0) << "y = " << y << ", x = " << x;
  }
  EXPECT_GT(worst, 0.0);  // not the library itself
}

TEST(Atan2, AxesQuadrantsAndSignedZeros) {
  constexpr double kPi = std::numbers::pi;
  EXPECT_EQ(Atan2(0.0, 1.0), 0.0);
  EXPECT_TRUE(std::signbit(Atan2(-0.0, 1.0)));
  EXPECT_EQ(Atan2(0.0, -1.0), kPi);
  EXPECT_EQ(Atan2(-0.0, -1.0), -kPi);
  EXPECT_EQ(Atan2(0.0, 0.0), 0.0);
  EXPECT_EQ(Atan2(1.0, 0.0), kPi / 2);
  EXPECT_EQ(Atan2(-1.0, 0.0), -kPi / 2);
  EXPECT_EQ(Atan2(1.0, 1.0), kPi / 4);
  EXPECT_EQ(Atan2(-1.0, -1.0), std::atan2(-1.0, -1.0));
  EXPECT_EQ(Atan2(1e-300, -1.0), kPi);
  EXPECT_EQ(Atan2(1.0, 1e-300), kPi / 2);
  EXPECT_EQ(Atan2(1e-300, 1.0), 1e-300);
}

}  // namespace
}  // namespace moreau::control
