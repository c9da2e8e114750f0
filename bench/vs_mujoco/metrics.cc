#include "bench/vs_mujoco/metrics.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace moreau::bench::vs_mujoco {
namespace {

constexpr double kDegrees = 180.0 / std::numbers::pi;

// a − b wrapped to (−π, π].
double AngleDifference(double a, double b) {
  double d = std::remainder(a - b, 2.0 * std::numbers::pi);
  if (d <= -std::numbers::pi) d += 2.0 * std::numbers::pi;
  return d;
}

}  // namespace

Eigen::Vector3d RollPitchYaw(const Eigen::Vector4d& wxyz) {
  const Eigen::Vector4d q = wxyz.normalized();
  const double w = q[0], x = q[1], y = q[2], z = q[3];
  const double roll = std::atan2(2.0 * (w * x + y * z), 1.0 - 2.0 * (x * x + y * y));
  const double pitch = std::asin(std::clamp(2.0 * (w * y - z * x), -1.0, 1.0));
  const double yaw = std::atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z));
  return {roll, pitch, yaw};
}

Agreement Compare(const RunResult& a, const RunResult& b) {
  Agreement result;
  const size_t n = std::min(a.samples.size(), b.samples.size());
  result.samples = static_cast<int>(n);
  if (n == 0) return result;
  const Eigen::Index feet =
      std::min(a.samples[0].foot_normal_force.size(), b.samples[0].foot_normal_force.size());
  result.grf_mae_n_per_foot.assign(static_cast<size_t>(feet), 0.0);
  int64_t same_flag = 0;
  double joint_sum = 0.0;
  int64_t joint_count = 0;
  for (size_t i = 0; i < n; ++i) {
    const Sample& sa = a.samples[i];
    const Sample& sb = b.samples[i];
    result.trunk_pos_mae_m += (sa.trunk_position - sb.trunk_position).cwiseAbs();
    const Eigen::Vector3d rpy_a = RollPitchYaw(sa.trunk_quaternion);
    const Eigen::Vector3d rpy_b = RollPitchYaw(sb.trunk_quaternion);
    for (int k = 0; k < 3; ++k) {
      result.trunk_rot_mae_deg[k] += std::abs(AngleDifference(rpy_a[k], rpy_b[k])) * kDegrees;
    }
    const Eigen::Index joints = std::min(sa.joints.size(), sb.joints.size());
    for (Eigen::Index j = 0; j < joints; ++j) {
      joint_sum += std::abs(AngleDifference(sa.joints[j], sb.joints[j])) * kDegrees;
      ++joint_count;
    }
    for (Eigen::Index k = 0; k < feet; ++k) {
      const double fa = sa.foot_normal_force[k];
      const double fb = sb.foot_normal_force[k];
      result.grf_mae_n_per_foot[static_cast<size_t>(k)] += std::abs(fa - fb);
      if ((fa > kContactForceThreshold) == (fb > kContactForceThreshold)) ++same_flag;
    }
  }
  const double count = static_cast<double>(n);
  result.trunk_pos_mae_m /= count;
  result.trunk_rot_mae_deg /= count;
  result.joint_mae_deg = joint_count > 0 ? joint_sum / static_cast<double>(joint_count) : 0.0;
  double grf_sum = 0.0;
  for (double& foot : result.grf_mae_n_per_foot) {
    foot /= count;
    grf_sum += foot;
  }
  if (feet > 0) {
    result.grf_mae_n = grf_sum / static_cast<double>(feet);
    result.contact_agreement_pct =
        100.0 * static_cast<double>(same_flag) / (count * static_cast<double>(feet));
  }
  result.final_a = a.samples[n - 1].trunk_position;
  result.final_b = b.samples[n - 1].trunk_position;
  result.final_distance_m = (result.final_a - result.final_b).norm();
  return result;
}

}  // namespace moreau::bench::vs_mujoco
