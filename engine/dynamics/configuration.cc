#include "engine/dynamics/configuration.h"

#include <cmath>

#include "engine/spatial/quaternion.h"

namespace moreau {

void IntegrateConfiguration(const Model& model, Eigen::Ref<Eigen::VectorXd> q,
                            const Eigen::VectorXd& v, double dt) {
  for (const Joint& j : model.joints) {
    if (j.type == JointType::kFree) {
      q.segment<3>(j.q_index) += dt * v.segment<3>(j.v_index);
      spatial::QuatIntegrateBody(q.data() + j.q_index + 3, v.segment<3>(j.v_index + 3), dt);
    } else {
      q[j.q_index] += dt * v[j.v_index];
    }
  }
}

bool NormalizeConfiguration(const Model& model, Eigen::Ref<Eigen::VectorXd> q) {
  if (!model.floating_base) return true;
  return spatial::QuatNormalize(q.data() + model.joints[0].q_index + 3);
}

Eigen::VectorXd RandomConfiguration(const Model& model, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  Eigen::VectorXd q = model.q_default;
  for (const Joint& j : model.joints) {
    if (j.type == JointType::kFree) {
      for (int k = 0; k < 3; ++k) q[j.q_index + k] = unit(rng);
      Eigen::Vector4d quat(normal(rng), normal(rng), normal(rng), normal(rng));
      quat.normalize();
      q.segment<4>(j.q_index + 3) = quat;
      continue;
    }
    double lo = j.type == JointType::kRevolute ? -M_PI : -1.0;
    double hi = -lo;
    if (j.limits.has_position_limits) {
      lo = std::max(lo, j.limits.lower);
      hi = std::min(hi, j.limits.upper);
      if (lo > hi) lo = hi = 0.5 * (j.limits.lower + j.limits.upper);
    }
    q[j.q_index] = lo + 0.5 * (unit(rng) + 1.0) * (hi - lo);
  }
  return q;
}

}  // namespace moreau
