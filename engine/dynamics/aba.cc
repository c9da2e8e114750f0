#include "engine/dynamics/aba.h"

#include <Eigen/Cholesky>

#include "engine/dynamics/jacobians.h"
#include "engine/dynamics/kinematics.h"

namespace moreau {

// Featherstone's three passes (RBDA Table 7.1) written in world coordinates
// (every motion and force about the world origin). A body-fixed axis S then
// moves as Ṡ = v × S, the bias is c_i = v_i × S_i q̇_i, and the articulated
// inertia I^a_i adds to its parent's without a coordinate transform.
const Eigen::VectorXd& Aba(const Model& model, Data& data, const Eigen::VectorXd& q,
                           const Eigen::VectorXd& v, const Eigen::VectorXd& tau,
                           const std::vector<Force>* f_ext) {
  ForwardKinematics(model, data, q);
  ComputeJointAxesWorld(model, data);
  const int nb = model.nbodies;

  // Pass 1 (root to leaves): v_i = v_λ(i) + S_i q̇_i, c_i = Ṡ_i q̇_i,
  // IA_i = I_i, p^A_i = v_i ×* I_i v_i − f_ext,i.
  for (int i = 1; i < nb; ++i) {
    const int vi = model.v_index[i];
    const int p = model.parent[i];
    Motion vJ;
    if (model.joint_type[i] == JointType::kFree) {
      vJ = Motion::FromVector(data.S_world.middleCols<6>(vi) * v.segment<6>(vi));
      // Free joint (MuJoCo coordinates): only the rotational columns are
      // body-fixed, so Ṡ v = −v × (translational part) = [0; −ω × ṗ].
      data.oc[i] = Motion(Vec3::Zero(), -vJ.angular.cross(v.segment<3>(vi)));
    } else {
      vJ = Motion::FromVector(data.S_world.col(vi) * v[vi]);
    }
    data.ov[i] = p == 0 ? vJ : data.ov[p] + vJ;
    if (model.joint_type[i] != JointType::kFree) data.oc[i] = data.ov[i].Cross(vJ);
    const Inertia oI = model.inertia[i].ExpressedInParent(data.X_0[i]);
    oI.WriteMatrix(data.IA[i]);
    data.pA[i] = data.ov[i].CrossForce(oI * data.ov[i]);
    if (f_ext != nullptr) data.pA[i] -= data.X_0[i].ApplyTranspose((*f_ext)[i]);
  }

  // Pass 2 (leaves to root): U = IA S, D = Sᵀ U, u = τ − Sᵀ p^A,
  // I^a = IA − U D⁻¹ Uᵀ, p^a = p^A + I^a c + U D⁻¹ u, added to the parent.
  for (int i = nb - 1; i >= 1; --i) {
    if (model.joint_type[i] == JointType::kFree) continue;  // the root, pass 3
    const int vi = model.v_index[i];
    const auto S = data.S_world.col(vi);
    data.U[i].noalias() = data.IA[i] * S;
    data.D[i] = S.dot(data.U[i]);
    data.u[i] = tau[vi] - S.dot(data.pA[i].ToVector());
    const int p = model.parent[i];
    if (p == 0) continue;
    // I^a_i = IA_i − U D⁻¹ Uᵀ goes straight into the parent, and
    // p^a = p^A + I^a c + U D⁻¹ u = p^A + IA c + U D⁻¹ (u − Uᵀ c).
    const double Dinv = 1.0 / data.D[i];
    const Vec6 c = data.oc[i].ToVector();
    const double coeff = (data.u[i] - data.U[i].dot(c)) * Dinv;
    data.IA[p] += data.IA[i];
    data.IA[p].noalias() -= data.U[i] * (data.U[i].transpose() * Dinv);
    data.pA[p] += data.pA[i] + spatial::Multiply(data.IA[i], data.oc[i]) +
                  Force::FromVector(data.U[i] * coeff);
  }

  // Pass 3 (root to leaves), a_0 = −g.
  const Motion a0(Vec3::Zero(), -model.gravity);
  for (int i = 1; i < nb; ++i) {
    const int vi = model.v_index[i];
    const int p = model.parent[i];
    const Motion a_prime = (p == 0 ? a0 : data.a[p]) + data.oc[i];
    if (model.joint_type[i] == JointType::kFree) {
      // Floating base (RBDA §9.3): IA a_1 + p^A = F with Sᵀ F = τ_b. In world
      // coordinates S = [0 R; 1 p×R] for v_b = [ṗ; ω], so F = (R τ_ω + p × τ_p,
      // τ_p), and S q̈_b = a_1 − a' inverts as ω̇ = Rᵀ α_ang, p̈ = α_lin − p × α_ang.
      const Vec3& p_base = data.X_0[i].r;
      const Vec3 f_lin = tau.segment<3>(vi);
      const Force F(data.R_base * tau.segment<3>(vi + 3) + p_base.cross(f_lin), f_lin);
      const Vec6 a1 = data.IA[i].llt().solve((F - data.pA[i]).ToVector());
      const Motion alpha = Motion::FromVector(a1) - a_prime;
      data.qacc.segment<3>(vi) = alpha.linear - p_base.cross(alpha.angular);
      data.qacc.segment<3>(vi + 3) = data.R_base.transpose() * alpha.angular;
      data.a[i] = Motion::FromVector(a1);
      continue;
    }
    const auto S = data.S_world.col(vi);
    const double qdd = (data.u[i] - data.U[i].dot(a_prime.ToVector())) / data.D[i];
    data.qacc[vi] = qdd;
    data.a[i] = a_prime + Motion::FromVector(S * qdd);
  }
  return data.qacc;
}

}  // namespace moreau
