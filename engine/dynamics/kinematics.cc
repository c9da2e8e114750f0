#include "engine/dynamics/kinematics.h"

#include "engine/dynamics/joint.h"

namespace moreau {
namespace {

// 001 Alg. 1: ^iX_0 = ^iX_λ(i) ^λ(i)X_0.
void UpdateWorldPlacements(const Model& model, Data& data) {
  for (int i = 1; i < model.nbodies; ++i) {
    const int p = model.parent[i];
    if (p == 0) {
      data.X_0[i] = data.X_up[i];
      continue;
    }
    // C_X_A = C_X_B B_X_A: E = E_CB E_BA, r = r_BA + E_BAᵀ r_CB.
    const Transform& up = data.X_up[i];
    const Transform& parent = data.X_0[p];
    data.X_0[i].E.noalias() = up.E * parent.E;
    data.X_0[i].r.noalias() = parent.r + parent.E.transpose() * up.r;
  }
}

// 001 Alg. 1: v_i = ^iX_λ(i) v_λ(i) + S_i q̇_i (needs X_up).
void UpdateBodyVelocities(const Model& model, Data& data, const Eigen::VectorXd& v) {
  for (int i = 1; i < model.nbodies; ++i) {
    const int vi = model.v_index[i];
    if (model.joint_type[i] == JointType::kFree) {
      data.vJ[i] = joint::FreeJointVelocity(data.R_base, v.data() + vi);
      data.cJ[i] = joint::FreeJointBias(data.vJ[i]);
    } else {
      data.vJ[i] = joint::MotionSubspace(model, i) * v[vi];
    }
    const int p = model.parent[i];
    data.v[i] = p == 0 ? data.vJ[i] : data.X_up[i].Apply(data.v[p]) + data.vJ[i];
  }
}

}  // namespace

void UpdateJointTransforms(const Model& model, Data& data, const Eigen::VectorXd& q) {
  const double* qp = q.data();
  // 001 Alg. 1: ^iX_λ(i) = X_J(q_i) X_T(i).
  for (int i = 1; i < model.nbodies; ++i)
    joint::JointTransformUp(model, i, qp, data.X_up[i], data.R_base);
}

void UpdateJointTransformsAndVelocities(const Model& model, Data& data, const Eigen::VectorXd& q,
                                        const Eigen::VectorXd& v) {
  UpdateJointTransforms(model, data, q);
  UpdateBodyVelocities(model, data, v);
}

void ForwardKinematics(const Model& model, Data& data, const Eigen::VectorXd& q) {
  UpdateJointTransforms(model, data, q);
  UpdateWorldPlacements(model, data);
}

void ForwardKinematics(const Model& model, Data& data, const Eigen::VectorXd& q,
                       const Eigen::VectorXd& v) {
  ForwardKinematics(model, data, q);
  UpdateBodyVelocities(model, data, v);
}

}  // namespace moreau
