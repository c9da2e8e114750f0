// The step's finiteness and bounds tests (engine/util/finite.h) against their
// definitions, entry by entry, for every length up to past two 4-lane blocks.
#include "engine/util/finite.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace moreau {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

Eigen::VectorXd Ramp(Eigen::Index n) {
  Eigen::VectorXd x(n);
  for (Eigen::Index i = 0; i < n; ++i) x[i] = (i % 2 == 0 ? 1.0 : -1.0) * static_cast<double>(i);
  return x;
}

TEST(AllFinite, EveryLengthAndEveryPosition) {
  for (Eigen::Index n = 0; n <= 10; ++n) {
    EXPECT_TRUE(AllFinite(Ramp(n))) << n;
    for (Eigen::Index i = 0; i < n; ++i) {
      for (double bad : {kInf, -kInf, kNan}) {
        Eigen::VectorXd x = Ramp(n);
        x[i] = bad;
        EXPECT_FALSE(AllFinite(x)) << "n " << n << " at " << i << " value " << bad;
      }
    }
  }
  // Columns with an outer stride: a block of a larger matrix.
  Eigen::MatrixXd m = Eigen::MatrixXd::Ones(7, 5);
  m(6, 4) = kNan;  // outside the block below
  EXPECT_TRUE(AllFinite(m.topLeftCorner(6, 5)));
  EXPECT_FALSE(AllFinite(m));
}

TEST(AllWithin, EveryLengthAndEveryPosition) {
  const double bound = 5.0;
  for (Eigen::Index n = 0; n <= 10; ++n) {
    const Eigen::VectorXd inside = Ramp(n).cwiseMax(-bound).cwiseMin(bound);
    EXPECT_TRUE(AllWithin(inside, bound)) << n;
    for (Eigen::Index i = 0; i < n; ++i) {
      for (double value :
           {bound, -bound, std::nextafter(bound, kInf), -6.0, 1e300, kInf, -kInf, kNan}) {
        Eigen::VectorXd x = inside;
        x[i] = value;
        const bool expected = std::abs(value) <= bound;  // false for NaN
        EXPECT_EQ(AllWithin(x, bound), expected) << "n " << n << " at " << i << " value " << value;
      }
    }
  }
}

TEST(AllWithin, TheLargestFiniteBoundStillRejectsInfinity) {
  const double largest = std::numeric_limits<double>::max();
  EXPECT_TRUE(AllWithin(Eigen::VectorXd::Constant(6, largest), largest));
  Eigen::VectorXd x = Eigen::VectorXd::Constant(6, 1.0);
  x[5] = kInf;
  EXPECT_FALSE(AllWithin(x, largest));
}

}  // namespace
}  // namespace moreau
