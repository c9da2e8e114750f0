#include "engine/dynamics/crba.h"

#include "engine/dynamics/joint.h"
#include "engine/dynamics/kinematics.h"

namespace moreau {

const Eigen::MatrixXd& Crba(const Model& model, Data& data, const Eigen::VectorXd& q) {
  ForwardKinematics(model, data, q);
  Eigen::MatrixXd& M = data.M;
  const int nb = model.nbodies;
  // 001 Alg. 5: I^c_i = I_i, then I^c_λ(i) += ^iX_λ(i)ᵀ I^c_i ^iX_λ(i).
  for (int i = 1; i < nb; ++i) data.Ic[i] = model.inertia[i];
  for (int i = nb - 1; i >= 1; --i) {
    const int p = model.parent[i];
    if (p > 0) data.Ic[p] += data.Ic[i].ExpressedInParent(data.X_up[i]);
  }
  for (int i = nb - 1; i >= 1; --i) {
    const int vi = model.v_index[i];
    if (model.joint_type[i] == JointType::kFree) {
      // The base block: M_kl = S_kᵀ I^c S_l over the six columns.
      Force F[6];
      Motion S[6];
      for (int k = 0; k < 6; ++k) {
        S[k] = joint::FreeMotionSubspace(data.R_base, k);
        F[k] = data.Ic[i] * S[k];
      }
      for (int k = 0; k < 6; ++k)
        for (int l = 0; l <= k; ++l) M(vi + k, vi + l) = M(vi + l, vi + k) = S[k].Dot(F[l]);
      continue;
    }
    // F = I^c_i S_i; M_ii = S_iᵀ F; then up the support path:
    // F = ^jX_λ(j)ᵀ F, j = λ(j), M_ij = M_ji = Fᵀ S_j.
    Force F = data.Ic[i] * joint::MotionSubspace(model, i);
    M(vi, vi) = joint::MotionSubspace(model, i).Dot(F);
    int j = i;
    while (model.parent[j] > 0) {
      F = data.X_up[j].ApplyTranspose(F);
      j = model.parent[j];
      const int vj = model.v_index[j];
      if (model.joint_type[j] == JointType::kFree) {
        for (int k = 0; k < 6; ++k)
          M(vi, vj + k) = M(vj + k, vi) = joint::FreeMotionSubspace(data.R_base, k).Dot(F);
      } else {
        M(vi, vj) = M(vj, vi) = joint::MotionSubspace(model, j).Dot(F);
      }
    }
  }
  // Entries between DOFs on different branches stay zero (set at MakeData and
  // never written).
  return M;
}

bool FactorMassMatrix(const Model& model, Data& data) {
  (void)model;
  Eigen::MatrixXd& H = data.LTDL;
  H = data.M;  // same size: no allocation
  const std::vector<int>& lambda = data.dof_parent;
  const int n = static_cast<int>(H.rows());
  // RBDA Table 6.3 (LTDL): for k = n..1, eliminate along k's ancestors.
  for (int k = n - 1; k >= 0; --k) {
    if (!(H(k, k) > 0.0)) return false;
    for (int i = lambda[k]; i >= 0; i = lambda[i]) {
      const double a = H(k, i) / H(k, k);
      for (int j = i; j >= 0; j = lambda[j]) H(i, j) -= a * H(k, j);
      H(k, i) = a;
    }
  }
  return true;
}

void SolveMassMatrix(const Data& data, Eigen::Ref<Eigen::VectorXd> x) {
  const Eigen::MatrixXd& H = data.LTDL;
  const std::vector<int>& lambda = data.dof_parent;
  const int n = static_cast<int>(H.rows());
  // M = Lᵀ D L: solve Lᵀ y = x (backward along the tree), D z = y, L x = z.
  for (int i = n - 1; i >= 0; --i)
    for (int j = lambda[i]; j >= 0; j = lambda[j]) x[j] -= H(i, j) * x[i];
  for (int i = 0; i < n; ++i) x[i] /= H(i, i);
  for (int i = 0; i < n; ++i)
    for (int j = lambda[i]; j >= 0; j = lambda[j]) x[i] -= H(i, j) * x[j];
}

}  // namespace moreau
