#include "engine/dynamics/kinematics.h"

#include "engine/dynamics/joint.h"

namespace moreau {
namespace {

namespace axis = spatial::axis;

// ^iX_λ(i) = X_J(q_i) X_T(i) (001 Alg. 1), by the rotation-about-e_K form
// (joint.h's AxisJointTransformUp: c, s and r only) when the joint has one.
inline void JointTransform(const Model& model, Data& data, int i, const double* q) {
  double c, s;
  switch (data.rotation_axis[i]) {
    case 0:
      return joint::AxisJointTransformUp<0>(model, i, q, data.X_up[i], c, s);
    case 1:
      return joint::AxisJointTransformUp<1>(model, i, q, data.X_up[i], c, s);
    case 2:
      return joint::AxisJointTransformUp<2>(model, i, q, data.X_up[i], c, s);
    default:
      joint::JointTransformUp(model, i, q, data.X_up[i], data.R_base);
  }
}

// ^iX_0 = ^iX_λ(i) ^λ(i)X_0 (001 Alg. 1) for X_up = rot(E) xlt(r), E about
// e_K: E E_λ changes only rows J and L of E_λ (axis::Rotate on its columns).
template <int K>
inline void WorldPlacementAboutAxis(const Transform& up, const Transform& parent, Transform& X0) {
  constexpr int J = axis::kJ<K>, L = axis::kL<K>;
  const double c = axis::Cos<K>(up), s = axis::Sin<K>(up);
  X0.E.row(K) = parent.E.row(K);
  X0.E.row(J) = c * parent.E.row(J) + s * parent.E.row(L);
  X0.E.row(L) = c * parent.E.row(L) - s * parent.E.row(J);
  X0.r.noalias() = parent.r + parent.E.transpose() * up.r;
}

// 001 Alg. 1: ^iX_0 = ^iX_λ(i) ^λ(i)X_0.
void UpdateWorldPlacements(const Model& model, Data& data) {
  for (const int i : data.level_order) {  // parents first (Data::level_order)
    const int p = model.parent[i];
    const Transform& up = data.X_up[i];
    if (p == 0) {
      data.X_0[i] = up;
      continue;
    }
    const Transform& parent = data.X_0[p];
    switch (data.rotation_axis[i]) {
      case 0:
        WorldPlacementAboutAxis<0>(up, parent, data.X_0[i]);
        break;
      case 1:
        WorldPlacementAboutAxis<1>(up, parent, data.X_0[i]);
        break;
      case 2:
        WorldPlacementAboutAxis<2>(up, parent, data.X_0[i]);
        break;
      default:
        // C_X_A = C_X_B B_X_A: E = E_CB E_BA, r = r_BA + E_BAᵀ r_CB.
        data.X_0[i].E.noalias() = up.E * parent.E;
        data.X_0[i].r.noalias() = parent.r + parent.E.transpose() * up.r;
    }
  }
}

// v_i = ^iX_λ(i) v_λ(i) + S_i q̇_i (001 Alg. 1) for S = σ e_K.
template <int K>
inline void BodyVelocityAboutAxis(const Model& model, Data& data, int i, const Eigen::VectorXd& v) {
  const Transform& X = data.X_up[i];
  const double w = model.joint_axis[i][K] * v[model.v_index[i]];
  Motion& vJ = data.vJ[i];
  vJ.angular.setZero();
  vJ.angular[K] = w;
  vJ.linear.setZero();
  const int p = model.parent[i];
  Motion vel =
      p == 0 ? Motion::Zero() : axis::Apply<K>(axis::Cos<K>(X), axis::Sin<K>(X), X.r, data.v[p]);
  vel.angular[K] += w;
  data.v[i] = vel;
}

// 001 Alg. 1: v_i = ^iX_λ(i) v_λ(i) + S_i q̇_i (needs X_up).
void UpdateBodyVelocities(const Model& model, Data& data, const Eigen::VectorXd& v) {
  for (const int i : data.level_order) {  // parents first (Data::level_order)
    switch (data.rotation_axis[i]) {
      case 0:
        BodyVelocityAboutAxis<0>(model, data, i, v);
        continue;
      case 1:
        BodyVelocityAboutAxis<1>(model, data, i, v);
        continue;
      case 2:
        BodyVelocityAboutAxis<2>(model, data, i, v);
        continue;
      default:
        break;
    }
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
  for (int i = 1; i < model.nbodies; ++i) JointTransform(model, data, i, qp);
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
