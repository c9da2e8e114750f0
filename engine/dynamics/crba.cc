#include "engine/dynamics/crba.h"

#include "engine/dynamics/joint.h"
#include "engine/dynamics/kinematics.h"
#include "engine/spatial/axis_transform.h"

namespace moreau {

const Eigen::MatrixXd& Crba(const Model& model, Data& data, const Eigen::VectorXd& q) {
  UpdateJointTransforms(model, data, q);
  return CrbaFromKinematics(model, data);
}

namespace {

namespace axis = spatial::axis;

// parent += Xᵀ I X (RBDA Table 2.8, Inertia::ExpressedInParent) for
// X = rot(E) xlt(r) with E a rotation about e_K (spatial/axis_transform.h):
// Eᵀ Ī E touches only rows and columns J, L; then the translation by r:
// h' = Eᵀh + m r, Ī' = EᵀĪE − (Eᵀh) rᵀ − r h'ᵀ + (r·Eᵀh + h'·r) 1.
template <int K>
void AddInParentAboutAxis(const Transform& X, const Inertia& I, Inertia& parent) {
  constexpr int j = (K + 1) % 3, k = (K + 2) % 3;
  const double c = axis::Cos<K>(X), s = axis::Sin<K>(X);
  const Vec3& r = X.r;
  Mat3 A = I.Ibar;
  for (int row = 0; row < 3; ++row) {  // Ī E: columns J, L
    const double mj = A(row, j), mk = A(row, k);
    A(row, j) = mj * c - mk * s;
    A(row, k) = mj * s + mk * c;
  }
  for (int col = 0; col < 3; ++col) {  // Eᵀ (Ī E): rows J, L
    const double mj = A(j, col), mk = A(k, col);
    A(j, col) = c * mj - s * mk;
    A(k, col) = s * mj + c * mk;
  }
  const Vec3 h_rot = axis::RotateTranspose<K>(c, s, I.h);
  const Vec3 h_new = h_rot + I.mass * r;
  A.noalias() -= h_rot * r.transpose();
  A.noalias() -= r * h_new.transpose();
  A.diagonal().array() += r.dot(h_rot) + h_new.dot(r);
  parent.mass += I.mass;
  parent.h += h_new;
  parent.Ibar += A;
}

// Ic_λ(i) += ^iX_λ(i)ᵀ Ic_i X (RBDA Table 6.2), by the axis form when body
// i's joint has one.
void AddInParent(const Model& model, const Data& data, int i, Inertia& parent) {
  const Transform& X = data.X_up[i];
  switch (joint::RotationAxis(model, data.joint_axis_index, i)) {
    case 0:
      return AddInParentAboutAxis<0>(X, data.Ic[i], parent);
    case 1:
      return AddInParentAboutAxis<1>(X, data.Ic[i], parent);
    case 2:
      return AddInParentAboutAxis<2>(X, data.Ic[i], parent);
    default:
      parent += data.Ic[i].ExpressedInParent(X);
  }
}

// ^jX_λ(j)ᵀ F, by the axis form when body j's joint has one.
Force TransformToParent(const Model& model, const Data& data, int j, const Force& F) {
  const Transform& X = data.X_up[j];
  switch (joint::RotationAxis(model, data.joint_axis_index, j)) {
    case 0:
      return axis::ApplyTranspose<0>(axis::Cos<0>(X), axis::Sin<0>(X), X.r, F);
    case 1:
      return axis::ApplyTranspose<1>(axis::Cos<1>(X), axis::Sin<1>(X), X.r, F);
    case 2:
      return axis::ApplyTranspose<2>(axis::Cos<2>(X), axis::Sin<2>(X), X.r, F);
    default:
      return X.ApplyTranspose(F);
  }
}

}  // namespace

const Eigen::MatrixXd& CrbaFromKinematics(const Model& model, Data& data) {
  Eigen::MatrixXd& M = data.M;
  const int nb = model.nbodies;
  // 001 Alg. 5: I^c_i = I_i, then I^c_λ(i) += ^iX_λ(i)ᵀ I^c_i ^iX_λ(i).
  for (int i = 1; i < nb; ++i) data.Ic[i] = model.inertia[i];
  for (int i = nb - 1; i >= 1; --i) {
    const int p = model.parent[i];
    if (p > 0) AddInParent(model, data, i, data.Ic[p]);
  }
  for (int i = nb - 1; i >= 1; --i) {
    const int vi = model.v_index[i];
    if (model.joint_type[i] == JointType::kFree) {
      // The base block Sᵀ I^c S with S = [0 1; Rᵀ 0] for v_b = [ṗ; ω] and
      // I^c = [Ī h×; h×ᵀ m1]: [m1, −R h×; (−R h×)ᵀ, Ī].
      const Inertia& Ic = data.Ic[i];
      const Mat3 cross_block = -data.R_base * spatial::Skew(Ic.h);
      M.block<3, 3>(vi, vi) = Ic.mass * Mat3::Identity();
      M.block<3, 3>(vi, vi + 3) = cross_block;
      M.block<3, 3>(vi + 3, vi) = cross_block.transpose();
      M.block<3, 3>(vi + 3, vi + 3) = Ic.Ibar;
      continue;
    }
    // F = I^c_i S_i; M_ii = S_iᵀ F; then up the support path:
    // F = ^jX_λ(j)ᵀ F, j = λ(j), M_ij = M_ji = Fᵀ S_j.
    const Motion S_i = joint::MotionSubspace(model, i);
    Force F = data.Ic[i] * S_i;
    // Plus the reflected rotor inertia N²·I_rotor (002 §IV-C).
    M(vi, vi) = S_i.Dot(F) + ArmatureOf(model, vi);
    int j = i;
    while (model.parent[j] > 0) {
      F = TransformToParent(model, data, j, F);
      j = model.parent[j];
      const int vj = model.v_index[j];
      if (model.joint_type[j] == JointType::kFree) {
        // Sᵀ F = [R f; n] for the base columns.
        const Vec3 f_world = data.R_base * F.linear;
        for (int k = 0; k < 3; ++k) {
          M(vi, vj + k) = M(vj + k, vi) = f_world[k];
          M(vi, vj + 3 + k) = M(vj + 3 + k, vi) = F.angular[k];
        }
      } else {
        M(vi, vj) = M(vj, vi) = joint::MotionSubspace(model, j).Dot(F);
      }
    }
  }
  // Entries between DOFs on different branches stay zero (set at MakeData and
  // never written).
  return M;
}

// The inner loops run over at most the tree depth; vectorizing them costs more
// in set-up than it saves.
__attribute__((optimize("no-tree-vectorize"))) bool FactorMassMatrix(const Model& model,
                                                                     Data& data) {
  (void)model;
  const int n = static_cast<int>(data.L_diag.size());
  double* L = data.L_values.data();
  const int* cols = data.L_cols.data();
  const int* adr = data.L_row_adr.data();
  const int* len = data.L_row_len.data();
  double* D = data.L_diag.data();
  // Gather M's tree-sparse lower triangle: row k holds M_kj for the
  // ancestors j of k, nearest first.
  // (M is symmetric: read column k, which is contiguous.)
  for (int k = 0; k < n; ++k) {
    const double* M_k = data.M.col(k).data();
    D[k] = M_k[k];
    for (int t = 0; t < len[k]; ++t) L[adr[k] + t] = M_k[cols[adr[k] + t]];
  }
  // RBDA Table 6.3 (LTDL), k = n..1: for each ancestor i of k,
  // a = H_ki / H_kk, H_ij −= a H_kj for j ∈ {i} ∪ ancestors(i), H_ki = a.
  // The ancestors of i are the entries after i in row k (the DOF tree is a
  // chain above k), so the update of row i is one contiguous axpy of length
  // len_k − t − 1.
  for (int k = n - 1; k >= 0; --k) {
    if (!(D[k] > 0.0)) return false;
    double* __restrict row_k = L + adr[k];
    const int* __restrict cols_k = cols + adr[k];
    const int len_k = len[k];
    const double inv_dk = 1.0 / D[k];
    for (int t = 0; t < len_k; ++t) {
      const int i = cols_k[t];
      const double l_ki = row_k[t];
      const double a = l_ki * inv_dk;
      D[i] -= a * l_ki;
      double* __restrict row_i = L + adr[i];
      for (int s = t + 1; s < len_k; ++s) row_i[s - t - 1] -= a * row_k[s];
      row_k[t] = a;
    }
  }
  return true;
}

void SolveMassMatrix(const Data& data, Eigen::Ref<Eigen::VectorXd> x) {
  const int n = static_cast<int>(data.L_diag.size());
  const double* L = data.L_values.data();
  const int* cols = data.L_cols.data();
  const int* adr = data.L_row_adr.data();
  const int* len = data.L_row_len.data();
  // M = Lᵀ D L: solve Lᵀ y = x (leaves to root), D z = y, L x = z.
  for (int i = n - 1; i >= 0; --i)
    for (int t = 0; t < len[i]; ++t) x[cols[adr[i] + t]] -= L[adr[i] + t] * x[i];
  SolveMassMatrixFromHalf(data, x);
}

void SolveMassMatrixFromHalf(const Data& data, Eigen::Ref<Eigen::VectorXd> x) {
  const int n = static_cast<int>(data.L_diag.size());
  const double* L = data.L_values.data();
  const int* cols = data.L_cols.data();
  const int* adr = data.L_row_adr.data();
  const int* len = data.L_row_len.data();
  // D z = y, then L x = z (root to leaves).
  for (int i = 0; i < n; ++i) x[i] /= data.L_diag[i];
  for (int i = 0; i < n; ++i)
    for (int t = 0; t < len[i]; ++t) x[i] -= L[adr[i] + t] * x[cols[adr[i] + t]];
}

}  // namespace moreau
