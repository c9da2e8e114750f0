#include "engine/dynamics/aba.h"

#include <Eigen/Cholesky>

#include "engine/dynamics/joint.h"

namespace moreau {
namespace {

// IA = I as a 6×6 matrix [Ī h×; h×ᵀ m1] (RBDA Table 7.1, pass 1: I^A_i = I_i).
inline void InitArticulated(const Inertia& I, Mat6& IA) { I.WriteMatrix(IA); }

// U = IA S for a 1-DOF axis S = [s_ang; s_lin] in body coordinates.
inline Vec6 ArticulatedTimesAxis(const Mat6& IA, const Motion& S) {
  Vec6 U;
  U.head<3>().noalias() =
      IA.topLeftCorner<3, 3>() * S.angular + IA.topRightCorner<3, 3>() * S.linear;
  U.tail<3>().noalias() =
      IA.bottomLeftCorner<3, 3>() * S.angular + IA.bottomRightCorner<3, 3>() * S.linear;
  return U;
}

// IA_λ += Xᵀ Ia X for X = ^iX_λ(i) = (E, r) and the symmetric Ia = [A B; Bᵀ C]
// of body i (RBDA eq. 7.43's transform, block form of TransformArticulated):
// with A' = EᵀAE, B' = EᵀBE, C' = EᵀCE and B⁺ = B' + r×C',
//   Xᵀ Ia X = [A' + r×B'ᵀ − B⁺ r×, B⁺; B⁺ᵀ, C'].
// Only 3×3 products: no 6×6 dense product.
inline void AddTransformedArticulated(const Transform& X, const Mat6& Ia, Mat6& IA_parent) {
  const Mat3& E = X.E;
  Mat3 tmp;
  tmp.noalias() = Ia.topLeftCorner<3, 3>() * E;
  Mat3 A;
  A.noalias() = E.transpose() * tmp;
  tmp.noalias() = Ia.topRightCorner<3, 3>() * E;
  Mat3 B;
  B.noalias() = E.transpose() * tmp;
  tmp.noalias() = Ia.bottomRightCorner<3, 3>() * E;
  Mat3 C;
  C.noalias() = E.transpose() * tmp;
  const Vec3& r = X.r;
  // B⁺ = B' + r×C' column by column; r×B'ᵀ and B⁺ r× = −(r×B⁺ᵀ)ᵀ likewise.
  Mat3 B_plus;
  Mat3 rx_Bt;
  Mat3 rx_Bpt;
  for (int k = 0; k < 3; ++k) B_plus.col(k) = B.col(k) + r.cross(C.col(k));
  for (int k = 0; k < 3; ++k) {
    rx_Bt.col(k) = r.cross(B.row(k).transpose());
    rx_Bpt.col(k) = r.cross(B_plus.row(k).transpose());
  }
  IA_parent.topLeftCorner<3, 3>() += A + rx_Bt + rx_Bpt.transpose();
  IA_parent.topRightCorner<3, 3>() += B_plus;
  IA_parent.bottomLeftCorner<3, 3>() += B_plus.transpose();
  IA_parent.bottomRightCorner<3, 3>() += C;
}

// Ia ← X_Rᵀ Ia X_R for X_R = diag(E, E) with E a rotation in the (j, k)
// plane of the body's coordinates: E_jj = E_kk = c, E_jk = −E_kj = s. The
// joint rotation of a revolute joint about a coordinate axis; 96 multiplies
// instead of the 162 of three general EᵀME.
inline void RotateArticulatedInPlane(Mat6& Ia, int j, int k, double c, double s) {
  for (int b = 0; b < 6; b += 3) {
    for (int row = 0; row < 6; ++row) {  // Ia X_R: columns j, k of each block
      const double mj = Ia(row, b + j), mk = Ia(row, b + k);
      Ia(row, b + j) = mj * c - mk * s;
      Ia(row, b + k) = mj * s + mk * c;
    }
  }
  for (int b = 0; b < 6; b += 3) {
    for (int col = 0; col < 6; ++col) {  // X_Rᵀ (Ia X_R): rows j, k
      const double mj = Ia(b + j, col), mk = Ia(b + k, col);
      Ia(b + j, col) = c * mj - s * mk;
      Ia(b + k, col) = s * mj + c * mk;
    }
  }
}

// IA_λ += Xᵀ Ia X for a pure translation X = (1, r): the block formula of
// AddTransformedArticulated with E = 1.
inline void AddTranslatedArticulated(const Vec3& r, const Mat6& Ia, Mat6& IA_parent) {
  const auto B = Ia.topRightCorner<3, 3>();
  const auto C = Ia.bottomRightCorner<3, 3>();
  Mat3 B_plus;
  Mat3 rx_Bt;
  Mat3 rx_Bpt;
  for (int k = 0; k < 3; ++k) B_plus.col(k) = B.col(k) + r.cross(C.col(k));
  for (int k = 0; k < 3; ++k) {
    rx_Bt.col(k) = r.cross(B.row(k).transpose());
    rx_Bpt.col(k) = r.cross(B_plus.row(k).transpose());
  }
  IA_parent.topLeftCorner<3, 3>() += Ia.topLeftCorner<3, 3>() + rx_Bt + rx_Bpt.transpose();
  IA_parent.topRightCorner<3, 3>() += B_plus;
  IA_parent.bottomLeftCorner<3, 3>() += B_plus.transpose();
  IA_parent.bottomRightCorner<3, 3>() += C;
}

// Pass 1 (root to leaves), RBDA Table 7.1: X_i, v_i = X_i v_λ + v_J,
// c_i = c_J + v_i × v_J, I^A_i = I_i, p^A_i = v_i ×* I_i v_i − f^x_i.
// q == nullptr: X_up and R_base are already those of the current q.
void ForwardPassVelocities(const Model& model, Data& data, const double* q,
                           const Eigen::VectorXd& v, const std::vector<Force>* f_ext) {
  for (int i = 1; i < model.nbodies; ++i) {
    const int vi = model.v_index[i];
    const int p = model.parent[i];
    Transform& X = data.X_up[i];
    if (q != nullptr) joint::JointTransformUp(model, i, q, X, data.R_base);
    Motion vJ;
    if (model.joint_type[i] == JointType::kFree) {
      vJ = joint::FreeJointVelocity(data.R_base, v.data() + vi);
      data.c_bias[i] = joint::FreeJointBias(vJ);
    } else {
      vJ = joint::MotionSubspace(model, i) * v[vi];
    }
    data.vJ[i] = vJ;
    if (p == 0) {
      data.v[i] = vJ;  // v × v_J = 0
      if (model.joint_type[i] != JointType::kFree) data.c_bias[i] = Motion::Zero();
    } else {
      data.v[i] = X.Apply(data.v[p]) + vJ;
      if (model.joint_type[i] == JointType::kFree) {
        data.c_bias[i] += data.v[i].Cross(vJ);
      } else {
        data.c_bias[i] = data.v[i].Cross(vJ);
      }
    }
    const Inertia& I = model.inertia[i];
    InitArticulated(I, data.IA[i]);
    data.pA[i] = data.v[i].CrossForce(I * data.v[i]);
    if (f_ext != nullptr) data.pA[i] -= (*f_ext)[i];
  }
}

// Pass 2 (leaves to root): U_i = I^A_i S_i, D_i = S_iᵀ U_i + armature_i (the
// rotor's reflected inertia N²·I_rotor, 002 §IV-C), u_i = τ_i − S_iᵀ p^A_i,
// I^a = I^A − U D⁻¹ Uᵀ, p^a = p^A + I^a c + U D⁻¹ u, and
// I^A_λ += Xᵀ I^a X, p^A_λ += Xᵀ p^a.
void BackwardPass(const Model& model, Data& data, const Eigen::VectorXd& tau) {
  for (int i = model.nbodies - 1; i >= 1; --i) {
    if (model.joint_type[i] == JointType::kFree) continue;  // the root, pass 3
    const int vi = model.v_index[i];
    const Motion S = joint::MotionSubspace(model, i);
    Mat6& IA = data.IA[i];
    const Vec6 U = ArticulatedTimesAxis(IA, S);
    data.U[i] = U;
    const double D = S.angular.dot(U.head<3>()) + S.linear.dot(U.tail<3>()) + ArmatureOf(model, vi);
    data.D[i] = D;
    data.u[i] = tau[vi] - S.Dot(data.pA[i]);
    const int p = model.parent[i];
    if (p == 0) continue;
    const double Dinv = 1.0 / D;
    // p^a = p^A + I^a c + U D⁻¹ u = p^A + I^A c + U D⁻¹ (u − Uᵀ c).
    const Motion& c = data.c_bias[i];
    const double coeff =
        (data.u[i] - U.head<3>().dot(c.angular) - U.tail<3>().dot(c.linear)) * Dinv;
    Force pa = data.pA[i] + spatial::Multiply(IA, c);
    pa.angular += U.head<3>() * coeff;
    pa.linear += U.tail<3>() * coeff;
    IA.noalias() -= U * (U.transpose() * Dinv);
    const Transform& X = data.X_up[i];
    const int axis = data.joint_axis_index[i];
    if (axis >= 0 && model.X_tree_pure_translation[i]) {
      // X = X_J X_tree with X_J = rot(E_J) about e_axis, X_tree = xlt(r):
      // rotate, then translate. E_J's plane entries are those of X.E.
      const int j = (axis + 1) % 3, k = (axis + 2) % 3;
      RotateArticulatedInPlane(IA, j, k, X.E(j, j), X.E(j, k));
      AddTranslatedArticulated(X.r, IA, data.IA[p]);
    } else {
      AddTransformedArticulated(X, IA, data.IA[p]);
    }
    data.pA[p] += data.X_up[i].ApplyTranspose(pa);
  }
}

// Pass 3 (root to leaves), a_0 = −g: a' = X a_λ + c, q̈ = D⁻¹(u − Uᵀ a'),
// a = a' + S q̈.
void ForwardPassAccelerations(const Model& model, Data& data, const Eigen::VectorXd& tau) {
  const Motion a0(Vec3::Zero(), -model.gravity);
  for (int i = 1; i < model.nbodies; ++i) {
    const int vi = model.v_index[i];
    const int p = model.parent[i];
    const Motion a_prime = data.X_up[i].Apply(p == 0 ? a0 : data.a[p]) + data.c_bias[i];
    if (model.joint_type[i] == JointType::kFree) {
      // Floating base (RBDA §9.3): I^A a_1 + p^A = F with Sᵀ F = τ_b. In body
      // coordinates S = [0 1; Rᵀ 0] for v_b = [ṗ; ω], so F = (τ_ω, Rᵀ τ_p),
      // and S q̈_b = a_1 − a' inverts as ω̇ = α_ang, p̈ = R α_lin.
      const Force F(tau.segment<3>(vi + 3), data.R_base.transpose() * tau.segment<3>(vi));
      const Vec6 a1 = data.IA[i].llt().solve((F - data.pA[i]).ToVector());
      data.a[i] = Motion::FromVector(a1);
      const Motion alpha = data.a[i] - a_prime;
      data.qacc.segment<3>(vi) = data.R_base * alpha.linear;
      data.qacc.segment<3>(vi + 3) = alpha.angular;
      continue;
    }
    const Vec6& U = data.U[i];
    const double qdd =
        (data.u[i] - U.head<3>().dot(a_prime.angular) - U.tail<3>().dot(a_prime.linear)) /
        data.D[i];
    data.qacc[vi] = qdd;
    data.a[i] = a_prime + joint::MotionSubspace(model, i) * qdd;
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

const Eigen::VectorXd& AbaFromKinematics(const Model& model, Data& data, const Eigen::VectorXd& v,
                                         const Eigen::VectorXd& tau,
                                         const std::vector<Force>* f_ext) {
  ForwardPassVelocities(model, data, nullptr, v, f_ext);
  BackwardPass(model, data, tau);
  ForwardPassAccelerations(model, data, tau);
  return data.qacc;
}

}  // namespace moreau
