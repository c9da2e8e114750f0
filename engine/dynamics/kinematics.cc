#include "engine/dynamics/kinematics.h"

#include "engine/dynamics/joint.h"

namespace moreau {

void ForwardKinematics(const Model& model, Data& data, const Eigen::VectorXd& q) {
  const double* qp = q.data();
  for (int i = 1; i < model.nbodies; ++i) {
    // 001 Alg. 1: ^iX_λ(i) = X_J X_T; ^iX_0 = ^iX_λ(i) ^λ(i)X_0.
    data.X_up[i] = joint::JointTransformUp(model, i, qp, &data.R_base);
    const int p = model.parent[i];
    data.X_0[i] = p == 0 ? data.X_up[i] : data.X_up[i] * data.X_0[p];
  }
}

void ForwardKinematics(const Model& model, Data& data, const Eigen::VectorXd& q,
                       const Eigen::VectorXd& v) {
  ForwardKinematics(model, data, q);
  for (int i = 1; i < model.nbodies; ++i) {
    const int vi = model.v_index[i];
    if (model.joint_type[i] == JointType::kFree) {
      data.vJ[i] = joint::FreeJointVelocity(data.R_base, v.data() + vi);
      data.cJ[i] = joint::FreeJointBias(data.vJ[i]);
    } else {
      data.vJ[i] = joint::MotionSubspace(model, i) * v[vi];
    }
    // 001 Alg. 1: v_i = ^iX_λ(i) v_λ(i) + S_i q̇_i.
    const int p = model.parent[i];
    data.v[i] = p == 0 ? data.vJ[i] : data.X_up[i].Apply(data.v[p]) + data.vJ[i];
  }
}

}  // namespace moreau
