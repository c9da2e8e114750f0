#include "engine/dynamics/aba.h"

#include <cmath>

#include "engine/dynamics/joint.h"
#include "engine/spatial/articulated_inertia.h"

namespace moreau {
namespace {

using spatial::ArticulatedInertia;
namespace axis = spatial::axis;

inline int AxisOf(const Model& model, const Data& data, int i) {
  (void)model;
  return data.rotation_axis[i];
}

// Pass 1 for body i (RBDA Table 7.1): I^A_i = I_i, p^A_i = v_i ×* I_i v_i − f^x_i.
inline void InitArticulated(const Model& model, Data& data, int i,
                            const std::vector<Force>* f_ext) {
  const Inertia& I = model.inertia[i];
  data.IA[i] = data.I_rigid[i];  // I.SetRigid at MakeData
  const Motion& vel = data.v[i];
  data.pA[i] = vel.CrossForce(I * vel);
  if (f_ext != nullptr) data.pA[i] -= (*f_ext)[i];
}

// Pass 1 for a revolute joint about σ e_K (S = σ e_K, X_tree = xlt(r)):
// X_i = rot(E_J(q)) xlt(r), v_i = X_i v_λ + S q̇, c_i = v_i × S q̇ (c_J = 0),
// I^A_i = I_i, p^A_i = v_i ×* I_i v_i − f^x_i, with c, s, w and v_i kept in
// registers between the steps.
template <int K>
void ForwardVelocityAxis(const Model& model, Data& data, int i, const double* q,
                         const Eigen::VectorXd& v, const std::vector<Force>* f_ext) {
  const double sigma = model.joint_axis[i][K];
  Transform& X = data.X_up[i];
  double c, s;
  if (q != nullptr) {
    joint::AxisJointTransformUp<K>(model, i, q, X, c, s);
  } else {
    c = axis::Cos<K>(X);
    s = axis::Sin<K>(X);
  }
  const double w = sigma * v[model.v_index[i]];  // S q̇ = w e_K
  const int p = model.parent[i];
  Motion vel = p == 0 ? Motion::Zero() : axis::Apply<K>(c, s, X.r, data.v[p]);
  vel.angular[K] += w;
  const Inertia& I = model.inertia[i];
  Force pA = vel.CrossForce(I * vel);
  if (f_ext != nullptr) pA -= (*f_ext)[i];
  // v × (w e_K) = [ω × w e_K; v_lin × w e_K] (zero at a root: v = v_J).
  data.c_bias[i] = Motion(axis::CrossAxis<K>(vel.angular, w), axis::CrossAxis<K>(vel.linear, w));
  Motion& vJ = data.vJ[i];
  vJ.angular.setZero();
  vJ.angular[K] = w;
  vJ.linear.setZero();
  data.v[i] = vel;
  data.pA[i] = pA;
  // I.SetRigid at MakeData; a leaf's pass 2 reads I_packed instead.
  if (!data.is_leaf[i]) data.IA[i] = data.I_rigid[i];
}

// Pass 1 for any other joint: X_i, v_i = X_i v_λ + v_J, c_i = c_J + v_i × v_J.
// q == nullptr: X_up and R_base are already those of the current q.
void ForwardVelocityGeneral(const Model& model, Data& data, int i, const double* q,
                            const Eigen::VectorXd& v) {
  const int vi = model.v_index[i];
  const int p = model.parent[i];
  Transform& X = data.X_up[i];
  if (q != nullptr) joint::JointTransformUp(model, i, q, X, data.R_base);
  const bool free = model.joint_type[i] == JointType::kFree;
  Motion vJ;
  if (free) {
    vJ = joint::FreeJointVelocity(data.R_base, v.data() + vi);
    data.c_bias[i] = joint::FreeJointBias(vJ);
  } else {
    vJ = joint::MotionSubspace(model, i) * v[vi];
    data.c_bias[i] = Motion::Zero();
  }
  data.vJ[i] = vJ;
  if (p == 0) {
    data.v[i] = vJ;  // v × v_J = 0
  } else {
    data.v[i] = X.Apply(data.v[p]) + vJ;
    data.c_bias[i] += data.v[i].Cross(vJ);
  }
}

void ForwardPassVelocities(const Model& model, Data& data, const double* q,
                           const Eigen::VectorXd& v, const std::vector<Force>* f_ext) {
  for (const int i : data.level_order) {
    switch (AxisOf(model, data, i)) {
      case 0:
        ForwardVelocityAxis<0>(model, data, i, q, v, f_ext);
        break;
      case 1:
        ForwardVelocityAxis<1>(model, data, i, q, v, f_ext);
        break;
      case 2:
        ForwardVelocityAxis<2>(model, data, i, q, v, f_ext);
        break;
      default:
        ForwardVelocityGeneral(model, data, i, q, v);
        InitArticulated(model, data, i, f_ext);
    }
  }
}

// Pass 2 for body i with U_i = I^A_i S_i, D_i⁻¹ (D_i with the rotor's
// reflected inertia N²·I_rotor, 002 §IV-C) and u_i already stored: I^a = I^A − U D⁻¹ Uᵀ
// and p^a = p^A + I^a c + U D⁻¹ u = p^A + I^A c + U D⁻¹ (u − Uᵀ c), left in
// data.IA[i] and returned.
inline Force ArticulatedBias(Data& data, int i) {
  const Vec6& U = data.U[i];
  const double Dinv = data.Dinv[i];
  const Motion& c = data.c_bias[i];
  ArticulatedInertia& IA = data.IA[i];
  const double coeff = (data.u[i] - U.head<3>().dot(c.angular) - U.tail<3>().dot(c.linear)) * Dinv;
  Force pa = data.pA[i] + IA * c;
  pa.angular += U.head<3>() * coeff;
  pa.linear += U.tail<3>() * coeff;
  IA.SubtractOuter(U, Dinv);
  return pa;
}

// Pass 2 for a revolute joint about σ e_K: U = I^A S = σ × column K of I^A,
// D = I^A_KK + armature, u = τ − σ p^A_K, and with X = ^iX_λ
//   I^A_λ += Xᵀ I^a X = Xᵀ I^A X − (XᵀU) D⁻¹ (XᵀU)ᵀ,
//   p^A_λ += Xᵀ p^a = Xᵀ (p^A + I^A c) + (XᵀU) D⁻¹ (u − Uᵀ c),
// (c_K = 0 for c = v × w e_K), X by the rotation in the (J, L) plane and the
// translation r. Moving I^A and p^A + I^A c first and the rank-one terms
// last keeps the division off the path from a body to its parent.
template <int K>
void BackwardAxis(const Model& model, Data& data, int i, const Eigen::VectorXd& tau) {
  const int vi = model.v_index[i];
  const double sigma = model.joint_axis[i][K];
  const ArticulatedInertia& IA = data.IA[i];
  Vec6 U;
  for (int r = 0; r < 3; ++r) {
    U[r] = sigma * IA.a(r, K);
    U[r + 3] = sigma * IA.b(K, r);  // (Bᵀ)(r, K)
  }
  data.U[i] = U;
  const double Dinv = 1.0 / (IA.a(K, K) + ArmatureOf(model, vi));
  data.Dinv[i] = Dinv;
  const double u = tau[vi] - sigma * data.pA[i].angular[K];
  data.u[i] = u;
  const int p = model.parent[i];
  if (p == 0) return;
  const Transform& X = data.X_up[i];
  const double c = axis::Cos<K>(X), s = axis::Sin<K>(X);
  const Motion& cb = data.c_bias[i];
  Force pc = spatial::MultiplyPlane<K>(IA, cb);  // p^A + I^A c
  pc += data.pA[i];
  const Force W = axis::ApplyTranspose<K>(c, s, X.r, Force(U.head<3>(), U.tail<3>()));
  constexpr int J = axis::kJ<K>, L = axis::kL<K>;
  const double coeff = (u - U[J] * cb.angular[J] - U[L] * cb.angular[L] - U[3 + J] * cb.linear[J] -
                        U[3 + L] * cb.linear[L]) *
                       Dinv;
  spatial::AddArticulatedAboutAxis<K>(IA, W, Dinv, c, s, X.r, data.IA[p]);
  Force& pA_parent = data.pA[p];
  pA_parent += axis::ApplyTranspose<K>(c, s, X.r, pc);
  pA_parent.angular += W.angular * coeff;
  pA_parent.linear += W.linear * coeff;
}

// BackwardAxis for a body without children, whose I^A = I is rigid
// (m, h, Ī) (RBDA Table 7.1, pass 1): U = I S = σ [Ī(:, K); e_K × h],
// p^A + I c by the rigid product, and Xᵀ I X by the rigid form
// (spatial::AddRigidArticulatedAboutAxis).
template <int K>
void BackwardAxisLeaf(const Model& model, Data& data, int i, const Eigen::VectorXd& tau) {
  constexpr int J = axis::kJ<K>, L = axis::kL<K>;
  const int vi = model.v_index[i];
  const double sigma = model.joint_axis[i][K];
  const spatial::PackedInertia& I = data.I_packed[i];
  Vec6 U;
  for (int r = 0; r < 3; ++r) U[r] = sigma * I.Ibar(r, K);
  U[3 + K] = 0.0;
  U[3 + J] = -sigma * I.h[L];
  U[3 + L] = sigma * I.h[J];
  data.U[i] = U;
  const double Dinv = 1.0 / (I.Ibar(K, K) + ArmatureOf(model, vi));
  data.Dinv[i] = Dinv;
  const double u = tau[vi] - sigma * data.pA[i].angular[K];
  data.u[i] = u;
  const int p = model.parent[i];
  if (p == 0) return;
  const Transform& X = data.X_up[i];
  const double c = axis::Cos<K>(X), s = axis::Sin<K>(X);
  const Motion& cb = data.c_bias[i];
  // p^A + I c, I c = [Ī c_ω + h × c_v; m c_v − h × c_ω] with c_K = 0.
  const Vec3 h(I.h[0], I.h[1], I.h[2]);
  Force pc = data.pA[i];
  for (int r = 0; r < 3; ++r)
    pc.angular[r] += I.Ibar(r, J) * cb.angular[J] + I.Ibar(r, L) * cb.angular[L];
  pc.angular += h.cross(cb.linear);
  pc.linear += I.m * cb.linear - h.cross(cb.angular);
  const Force W = axis::ApplyTranspose<K>(c, s, X.r, Force(U.head<3>(), U.tail<3>()));
  const double coeff = (u - U[J] * cb.angular[J] - U[L] * cb.angular[L] - U[3 + J] * cb.linear[J] -
                        U[3 + L] * cb.linear[L]) *
                       Dinv;
  spatial::AddRigidArticulatedAboutAxis<K>(I, W, Dinv, c, s, X.r, data.IA[p]);
  Force& pA_parent = data.pA[p];
  pA_parent += axis::ApplyTranspose<K>(c, s, X.r, pc);
  pA_parent.angular += W.angular * coeff;
  pA_parent.linear += W.linear * coeff;
}

// Pass 2 for any other 1-DOF joint, with S in body coordinates.
void BackwardGeneral(const Model& model, Data& data, int i, const Eigen::VectorXd& tau) {
  const int vi = model.v_index[i];
  const Motion S = joint::MotionSubspace(model, i);
  const Force U = data.IA[i] * S;
  data.U[i] << U.angular, U.linear;
  data.Dinv[i] = 1.0 / (S.Dot(U) + ArmatureOf(model, vi));
  data.u[i] = tau[vi] - S.Dot(data.pA[i]);
  const int p = model.parent[i];
  if (p == 0) return;
  const Force pa = ArticulatedBias(data, i);
  const Transform& X = data.X_up[i];
  if (model.X_tree_pure_translation[i] && model.joint_type[i] == JointType::kPrismatic) {
    spatial::AddTranslated(X.r, data.IA[i], data.IA[p]);  // E = 1
  } else {
    spatial::AddTransformed(X, data.IA[i], data.IA[p]);
  }
  data.pA[p] += X.ApplyTranspose(pa);
}

void BackwardPass(const Model& model, Data& data, const Eigen::VectorXd& tau) {
  for (auto it = data.level_order.rbegin(); it != data.level_order.rend(); ++it) {
    const int i = *it;
    if (model.joint_type[i] == JointType::kFree) continue;  // the root, pass 3
    // K, or K + 3 for a leaf (BackwardAxisLeaf); −1 without an axis.
    const int K = AxisOf(model, data, i);
    switch (K < 0 ? -1 : K + 3 * data.is_leaf[i]) {
      case 0:
        BackwardAxis<0>(model, data, i, tau);
        break;
      case 1:
        BackwardAxis<1>(model, data, i, tau);
        break;
      case 2:
        BackwardAxis<2>(model, data, i, tau);
        break;
      case 3:
        BackwardAxisLeaf<0>(model, data, i, tau);
        break;
      case 4:
        BackwardAxisLeaf<1>(model, data, i, tau);
        break;
      case 5:
        BackwardAxisLeaf<2>(model, data, i, tau);
        break;
      default:
        BackwardGeneral(model, data, i, tau);
    }
  }
}

// Pass 3 for a 1-DOF joint, a_0 = −g: a' = X a_λ + c, q̈ = D⁻¹(u − Uᵀ a'),
// a = a' + S q̈. K ≥ 0: the rotation-about-e_K form of X and S = σ e_K.
template <int K>
inline void ForwardAccelerationOneDof(const Model& model, Data& data, int i,
                                      const Motion& a_parent) {
  const Transform& X = data.X_up[i];
  Motion a;
  if constexpr (K >= 0) {
    a = axis::Apply<K>(axis::Cos<K>(X), axis::Sin<K>(X), X.r, a_parent);
  } else {
    a = X.Apply(a_parent);
  }
  a += data.c_bias[i];
  const Vec6& U = data.U[i];
  const double qdd =
      (data.u[i] - U.head<3>().dot(a.angular) - U.tail<3>().dot(a.linear)) * data.Dinv[i];
  data.qacc[model.v_index[i]] = qdd;
  if constexpr (K >= 0) {
    a.angular[K] += model.joint_axis[i][K] * qdd;
  } else {
    a += joint::MotionSubspace(model, i) * qdd;
  }
  data.a[i] = a;
}

// Floating base (RBDA §9.3): I^A a_1 + p^A = F with Sᵀ F = τ_b. In body
// coordinates S = [0 1; Rᵀ 0] for v_b = [ṗ; ω], so F = (τ_ω, Rᵀ τ_p), and
// S q̈_b = a_1 − a' inverts as ω̇ = α_ang, p̈ = R α_lin.
void ForwardAccelerationFree(const Model& model, Data& data, int i, const Motion& a_parent,
                             const Eigen::VectorXd& tau) {
  const int vi = model.v_index[i];
  const Motion a_prime = data.X_up[i].Apply(a_parent) + data.c_bias[i];
  const Force F(tau.segment<3>(vi + 3), data.R_base.transpose() * tau.segment<3>(vi));
  data.a[i] = Motion::FromVector(spatial::Solve(data.IA[i], (F - data.pA[i]).ToVector()));
  const Motion alpha = data.a[i] - a_prime;
  data.qacc.segment<3>(vi) = data.R_base * alpha.linear;
  data.qacc.segment<3>(vi + 3) = alpha.angular;
}

void ForwardPassAccelerations(const Model& model, Data& data, const Eigen::VectorXd& tau) {
  const Motion a0(Vec3::Zero(), -model.gravity);
  for (const int i : data.level_order) {
    const int p = model.parent[i];
    const Motion& a_parent = p == 0 ? a0 : data.a[p];
    if (model.joint_type[i] == JointType::kFree) {
      ForwardAccelerationFree(model, data, i, a_parent, tau);
      continue;
    }
    switch (AxisOf(model, data, i)) {
      case 0:
        ForwardAccelerationOneDof<0>(model, data, i, a_parent);
        break;
      case 1:
        ForwardAccelerationOneDof<1>(model, data, i, a_parent);
        break;
      case 2:
        ForwardAccelerationOneDof<2>(model, data, i, a_parent);
        break;
      default:
        ForwardAccelerationOneDof<-1>(model, data, i, a_parent);
    }
  }
}

}  // namespace

// Featherstone's three passes (RBDA Table 7.1) in body coordinates, with the
// joint transforms and velocities computed in the first pass (no world
// placements needed) and articulated inertias moved to the parent by (E, r)
// block formulas.
const Eigen::VectorXd& Aba(const Model& model, Data& data, const Eigen::VectorXd& q,
                           const Eigen::VectorXd& v, const Eigen::VectorXd& tau,
                           const std::vector<Force>* f_ext) {
  ForwardPassVelocities(model, data, q.data(), v, f_ext);
  BackwardPass(model, data, tau);
  ForwardPassAccelerations(model, data, tau);
  return data.qacc;
}

void AbaVelocities(const Model& model, Data& data, const Eigen::VectorXd& v,
                   const std::vector<Force>* f_ext) {
  ForwardPassVelocities(model, data, nullptr, v, f_ext);
}

const Eigen::VectorXd& AbaAccelerations(const Model& model, Data& data,
                                        const Eigen::VectorXd& tau) {
  BackwardPass(model, data, tau);
  ForwardPassAccelerations(model, data, tau);
  return data.qacc;
}

}  // namespace moreau
