// A fast all-finite test for the step's hot paths (Eigen's allFinite()
// branches per entry).
#ifndef MOREAU_ENGINE_UTIL_FINITE_H_
#define MOREAU_ENGINE_UTIL_FINITE_H_

#include <Eigen/Core>

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

}  // namespace moreau

#endif  // MOREAU_ENGINE_UTIL_FINITE_H_
