// Fast all-finite and bounds tests for the step's hot paths (Eigen's
// allFinite() branches per entry).
#ifndef MOREAU_ENGINE_UTIL_FINITE_H_
#define MOREAU_ENGINE_UTIL_FINITE_H_

#include <Eigen/Core>
#include <algorithm>
#include <cmath>

namespace moreau {

// True when every entry of x is finite: x·0 is ±0 for a finite x and NaN for
// ±∞ or NaN, and the sum of ±0s is 0 (in any order). Four rows at a time per
// column into one 4-vector, the rest into a scalar.
inline bool AllFinite(Eigen::Ref<const Eigen::MatrixXd> x) {
  const Eigen::Index rows = x.rows();
  const Eigen::Index stride = x.outerStride();
  const double* p = x.data();
  Eigen::Vector4d sum4 = Eigen::Vector4d::Zero();
  double sum = 0.0;
  for (Eigen::Index j = 0; j < x.cols(); ++j, p += stride) {
    Eigen::Index i = 0;
    for (; i + 4 <= rows; i += 4) sum4 += Eigen::Map<const Eigen::Vector4d>(p + i) * 0.0;
    for (; i < rows; ++i) sum += p[i] * 0.0;
  }
  return sum4.sum() + sum == 0.0;
}

// True when |x_i| ≤ bound for every i and x is finite (so false for NaN and
// ±∞; bound ≥ 0): the largest |x_i| four lanes at a time, with the x·0 sum of
// AllFinite catching NaN, which max() would pass over.
inline bool AllWithin(const Eigen::VectorXd& x, double bound) {
  const Eigen::Index n = x.size();
  const double* p = x.data();
  Eigen::Array4d largest4 = Eigen::Array4d::Zero();
  Eigen::Array4d zero4 = Eigen::Array4d::Zero();
  Eigen::Index i = 0;
  for (; i + 4 <= n; i += 4) {
    const Eigen::Array4d xi = Eigen::Map<const Eigen::Array4d>(p + i);
    largest4 = largest4.max(xi.abs());
    zero4 += xi * 0.0;
  }
  double largest = largest4.maxCoeff();
  double zero = zero4.sum();
  for (; i < n; ++i) {
    largest = std::max(largest, std::abs(p[i]));
    zero += p[i] * 0.0;
  }
  return zero == 0.0 && largest <= bound;
}

}  // namespace moreau

#endif  // MOREAU_ENGINE_UTIL_FINITE_H_
