// Agreement of two runs of the same scenario (paper 001 §7's measures): mean
// absolute errors of the trunk position and orientation, contact timing
// agreement and mean absolute normal-force error, over the samples both runs
// have.
#ifndef MOREAU_BENCH_VS_MUJOCO_METRICS_H_
#define MOREAU_BENCH_VS_MUJOCO_METRICS_H_

#include <Eigen/Core>
#include <vector>

#include "bench/vs_mujoco/scenario.h"

namespace moreau::bench::vs_mujoco {

// A foot is in contact when its normal force exceeds this (N): 001's
// "contact activation" (force nonzero), with a threshold above the
// numerical noise of a soft contact that is opening.
inline constexpr double kContactForceThreshold = 1.0;

struct Agreement {
  int samples = 0;                                            // compared samples
  Eigen::Vector3d trunk_pos_mae_m = Eigen::Vector3d::Zero();  // x, y, z
  // Roll, pitch, yaw (Z-Y-X Euler angles of the trunk), differences
  // wrapped to (−180°, 180°].
  Eigen::Vector3d trunk_rot_mae_deg = Eigen::Vector3d::Zero();
  double joint_mae_deg = 0.0;          // over all joints
  double contact_agreement_pct = 0.0;  // % of (sample, foot) pairs with the same flag
  double grf_mae_n = 0.0;              // over all feet and samples
  std::vector<double> grf_mae_n_per_foot;
  // Final trunk positions and their distance (m).
  Eigen::Vector3d final_a = Eigen::Vector3d::Zero();
  Eigen::Vector3d final_b = Eigen::Vector3d::Zero();
  double final_distance_m = 0.0;
};

// Compares run a (Moreau) with run b (MuJoCo) sample by sample; both must
// have been recorded at the same sample period.
Agreement Compare(const RunResult& a, const RunResult& b);

// Roll, pitch, yaw (rad) of a unit quaternion (w, x, y, z): R = Rz(yaw)
// Ry(pitch) Rx(roll).
Eigen::Vector3d RollPitchYaw(const Eigen::Vector4d& wxyz);

}  // namespace moreau::bench::vs_mujoco

#endif  // MOREAU_BENCH_VS_MUJOCO_METRICS_H_
