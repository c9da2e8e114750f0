// Per-env terms of the Python client's legged tasks (moreau/tasks.py),
// computed in one pass over the batch instead of numpy's dozens of small
// array operations. Each value comes from the same IEEE operations in the
// same order as the numpy formulas of tasks.py (this file is compiled
// without floating-point contraction), so both give identical bits.
#ifndef MOREAU_CLIENTS_PYTHON_NATIVE_TASK_TERMS_H_
#define MOREAU_CLIENTS_PYTHON_NATIVE_TASK_TERMS_H_

namespace moreau::local {

// The number of values per env LeggedBaseTerms writes.
inline constexpr int kLeggedBaseTerms = 10;

// For `n` envs with base poses `pose` (n × 7, row-major: x, y, z, qw, qx,
// qy, qz) and twists `twist` (n × 6: linear then angular velocity, world
// frame), writes `out` (n × 10, row-major): the base height; the gravity
// direction in the base frame (3, tasks.projected_gravity); the linear
// velocity in the base frame (3, tasks.quat_rotate_inverse); the angular
// velocity (3, as given).
void LeggedBaseTerms(const double* pose, const double* twist, long n, double* out);

}  // namespace moreau::local

#endif  // MOREAU_CLIENTS_PYTHON_NATIVE_TASK_TERMS_H_
