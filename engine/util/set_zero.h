// x = 0 for the step's hot paths, as one memset.
#ifndef MOREAU_ENGINE_UTIL_SET_ZERO_H_
#define MOREAU_ENGINE_UTIL_SET_ZERO_H_

#include <Eigen/Core>
#include <algorithm>

namespace moreau {

// Every entry of x set to 0. Eigen's setZero() on a Ref, whose alignment is
// known only at run time, zeroes an unaligned head, an aligned body and a
// tail separately: three memset calls for a vector of a few dozen entries.
inline void SetZero(Eigen::Ref<Eigen::VectorXd> x) { std::fill_n(x.data(), x.size(), 0.0); }

}  // namespace moreau

#endif  // MOREAU_ENGINE_UTIL_SET_ZERO_H_
