#include "clients/python/native/task_terms.h"

namespace moreau::local {
namespace {

// a × b, as tasks._cross.
void Cross(const double a[3], const double b[3], double out[3]) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

}  // namespace

void LeggedBaseTerms(const double* pose, const double* twist, long n, double* out) {
  for (long i = 0; i < n; ++i, pose += 7, twist += 6, out += kLeggedBaseTerms) {
    const double w = pose[3], x = pose[4], y = pose[5], z = pose[6];
    out[0] = pose[2];
    // tasks.projected_gravity: −(2(xz − wy), 2(yz + wx), 1 − 2(x² + y²)).
    out[1] = -(2.0 * (x * z - w * y));
    out[2] = -(2.0 * (y * z + w * x));
    out[3] = -(1.0 - 2.0 * (x * x + y * y));
    // tasks.quat_rotate_inverse: t = 2 u × v; v − w t + u × t.
    const double u[3] = {x, y, z};
    double t[3], ut[3];
    Cross(u, twist, t);
    for (double& c : t) c = 2.0 * c;
    Cross(u, t, ut);
    for (int k = 0; k < 3; ++k) out[4 + k] = (twist[k] - w * t[k]) + ut[k];
    for (int k = 0; k < 3; ++k) out[7 + k] = twist[3 + k];
  }
}

}  // namespace moreau::local
