#include "engine/dynamics/crba.h"

#include <type_traits>

#include "engine/dynamics/joint.h"
#include "engine/dynamics/kinematics.h"
#include "engine/spatial/articulated_inertia.h"
#include "engine/spatial/axis_transform.h"
#include "engine/util/compiler.h"

namespace moreau {

const Eigen::MatrixXd& Crba(const Model& model, Data& data, const Eigen::VectorXd& q) {
  UpdateJointTransforms(model, data, q);
  return Crba(model, data);
}

namespace {

namespace axis = spatial::axis;
using spatial::PackedInertia;
using spatial::Sym;

// Ic_λ(i) += ^iX_λ(i)ᵀ Ic_i ^iX_λ(i) (RBDA Table 6.2) for X = rot(E) xlt(r),
// E the rotation about e_K, on the packed (m, h, Ī)
// (spatial::RigidInParentAboutAxis: 6 entries of Ī').
template <int K>
inline void AddInParentAboutAxis(double c, double s, const Vec3& r, const PackedInertia& Ic,
                                 PackedInertia& parent) {
  double hp[3], Ip[6];
  spatial::RigidInParentAboutAxis<K>(c, s, r, Ic, hp, Ip);
  for (int k = 0; k < 6; ++k) parent.I[k] += Ip[k];
  for (int a = 0; a < 3; ++a) parent.h[a] += hp[a];
  parent.m += Ic.m;
}

// F = Ic S for S = σ e_K (RBDA Table 6.2): n = σ Ī(:, K), f = σ e_K × h,
// i.e. column K of Ic read directly.
template <int K>
inline Force ColumnAboutAxis(double sigma, const PackedInertia& Ic) {
  constexpr int J = axis::kJ<K>, L = axis::kL<K>;
  Force F;
  F.angular[0] = sigma * Ic.I[Sym(0, K)];
  F.angular[1] = sigma * Ic.I[Sym(1, K)];
  F.angular[2] = sigma * Ic.I[Sym(2, K)];
  F.linear[K] = 0.0;
  F.linear[J] = -sigma * Ic.h[L];
  F.linear[L] = sigma * Ic.h[J];
  return F;
}

// F ← ^jX_λ(j)ᵀ F, by the axis form when body j's joint has one.
inline void MoveToParent(const Data& data, int j, Force& F) {
  const Transform& X = data.X_up[j];
  switch (data.rotation_axis[j]) {
    case 0:
      F = axis::ApplyTranspose<0>(axis::Cos<0>(X), axis::Sin<0>(X), X.r, F);
      return;
    case 1:
      F = axis::ApplyTranspose<1>(axis::Cos<1>(X), axis::Sin<1>(X), X.r, F);
      return;
    case 2:
      F = axis::ApplyTranspose<2>(axis::Cos<2>(X), axis::Sin<2>(X), X.r, F);
      return;
    default:
      F = X.ApplyTranspose(F);
  }
}

// Where CRBA's entries of M go: kRows false, the full symmetric data.M;
// kRows true, the factor's tree-sparse rows that FactorMassMatrix gathers
// (data.L_diag: M_kk; data.L_values row k: M_kj for the ancestors j of DOF k,
// nearest first), ready to be factored in place.
template <bool kRows>
inline void SetDiagonal(Data& data, int k, double value) {
  if constexpr (kRows) {
    data.L_diag[k] = value;
  } else {
    data.M(k, k) = value;
  }
}

// M_ij = M_ji = S_jᵀ F for the ancestors j of body i, F = I^c_i S_i moved up
// the support path (RBDA Table 6.2's inner loop); F is in body i's parent's
// coordinates on entry. The ancestors come nearest first, the order of DOF
// vi's factor row (a free joint's DOFs 5, 4, …, 0).
template <bool kRows>
inline void SupportPathColumns(const Model& model, Data& data, int vi, int j, Force F) {
  Eigen::MatrixXd& M = data.M;
  double* row = kRows ? data.L_values.data() + data.L_row_adr[vi] : nullptr;
  int t = 0;  // position in the row
  while (true) {
    const int vj = model.v_index[j];
    const int K = data.rotation_axis[j];
    if (K >= 0) {
      const double value = model.joint_axis[j][K] * F.angular[K];
      if constexpr (kRows) {
        row[t++] = value;
      } else {
        M(vi, vj) = M(vj, vi) = value;
      }
    } else if (model.joint_type[j] == JointType::kFree) {
      // Sᵀ F = [R f; n] for the base columns.
      const Vec3 f_world = data.R_base * F.linear;
      for (int k = 0; k < 3; ++k) {
        if constexpr (kRows) {
          row[t + 5 - k] = f_world[k];    // DOF vj + k
          row[t + 2 - k] = F.angular[k];  // DOF vj + 3 + k
        } else {
          M(vi, vj + k) = M(vj + k, vi) = f_world[k];
          M(vi, vj + 3 + k) = M(vj + 3 + k, vi) = F.angular[k];
        }
      }
      t += 6;
    } else {
      const double value = joint::MotionSubspace(model, j).Dot(F);
      if constexpr (kRows) {
        row[t++] = value;
      } else {
        M(vi, vj) = M(vj, vi) = value;
      }
    }
    if (model.parent[j] <= 0) return;
    MoveToParent(data, j, F);
    j = model.parent[j];
  }
}

// Body i of RBDA Table 6.2 for a revolute joint about σ e_K with X_tree a
// translation: F = I^c_i S_i, M_ii = S_iᵀ F (plus the rotor's reflected
// inertia N²·I_rotor, 002 §IV-C), I^c_λ(i) += Xᵀ I^c_i X, then the support path.
template <bool kRows, int K>
void CompositeBodyAboutAxis(const Model& model, Data& data, int i) {
  const int vi = model.v_index[i];
  const int p = model.parent[i];
  const double sigma = model.joint_axis[i][K];
  const PackedInertia& Ic = data.Ic[i];
  Force F = ColumnAboutAxis<K>(sigma, Ic);
  SetDiagonal<kRows>(data, vi, sigma * F.angular[K] + ArmatureOf(model, vi));
  if (p <= 0) return;
  const Transform& X = data.X_up[i];
  const double c = axis::Cos<K>(X), s = axis::Sin<K>(X);
  AddInParentAboutAxis<K>(c, s, X.r, Ic, data.Ic[p]);
  SupportPathColumns<kRows>(model, data, vi, p, axis::ApplyTranspose<K>(c, s, X.r, F));
}

// The same for any other joint, with the general forms.
template <bool kRows>
void CompositeBodyGeneral(const Model& model, Data& data, int i) {
  const int vi = model.v_index[i];
  const int p = model.parent[i];
  const Inertia Ic = data.Ic[i].Unpacked();
  const Transform& X = data.X_up[i];
  if (p > 0) data.Ic[p] += Ic.ExpressedInParent(X);
  if (model.joint_type[i] == JointType::kFree) {
    // The base block Sᵀ I^c S with S = [0 1; Rᵀ 0] for v_b = [ṗ; ω] and
    // I^c = [Ī h×; h×ᵀ m1]: [m1, −R h×; (−R h×)ᵀ, Ī].
    const Mat3 cross_block = -data.R_base * spatial::Skew(Ic.h);
    Mat6 block;
    block.topLeftCorner<3, 3>() = Ic.mass * Mat3::Identity();
    block.topRightCorner<3, 3>() = cross_block;
    block.bottomLeftCorner<3, 3>() = cross_block.transpose();
    block.bottomRightCorner<3, 3>() = Ic.Ibar;
    if constexpr (kRows) {
      // Row vi + a: M_aa, then M_ae for e = a − 1, …, 0 (the DOF chain).
      for (int a = 0; a < 6; ++a) {
        data.L_diag[vi + a] = block(a, a);
        double* row = data.L_values.data() + data.L_row_adr[vi + a];
        for (int e = 0; e < a; ++e) row[a - 1 - e] = block(a, e);
      }
    } else {
      data.M.block<6, 6>(vi, vi) = block;
    }
    return;
  }
  const Motion S_i = joint::MotionSubspace(model, i);
  const Force F = Ic * S_i;
  SetDiagonal<kRows>(data, vi, S_i.Dot(F) + ArmatureOf(model, vi));
  if (p > 0) SupportPathColumns<kRows>(model, data, vi, p, X.ApplyTranspose(F));
}

// 001 Alg. 5 / RBDA Table 6.2 in one sweep from the leaves: when body i is
// reached its composite inertia I^c_i is complete (its children come before
// it in the reversed Data::level_order), so its column of M is computed and
// I^c_i added to its parent's.
template <bool kRows>
void CompositeSweep(const Model& model, Data& data) {
  const int nb = model.nbodies;
  for (int i = 1; i < nb; ++i) data.Ic[i] = data.I_packed[i];  // I^c_i = I_i
  // Children before parents, a level at a time (Data::level_order).
  for (auto it = data.level_order.rbegin(); it != data.level_order.rend(); ++it) {
    const int i = *it;
    switch (data.rotation_axis[i]) {
      case 0:
        CompositeBodyAboutAxis<kRows, 0>(model, data, i);
        break;
      case 1:
        CompositeBodyAboutAxis<kRows, 1>(model, data, i);
        break;
      case 2:
        CompositeBodyAboutAxis<kRows, 2>(model, data, i);
        break;
      default:
        CompositeBodyGeneral<kRows>(model, data, i);
    }
  }
}

// The gathered rows of M's factor (data.L_*) as raw arrays: row k holds
// L[adr[k] + t] in column cols[adr[k] + t], t < len[k]; D is the diagonal;
// n rows. Value is double to write them, const double to read them.
template <typename Value>
struct FactorRowsView {
  int n;
  Value* L;
  const int* cols;
  const int* adr;
  const int* len;
  Value* D;
};

template <typename DataT>
auto RowsOf(DataT& data) {
  using Value = std::conditional_t<std::is_const_v<DataT>, const double, double>;
  return FactorRowsView<Value>{static_cast<int>(data.L_diag.size()),
                               data.L_values.data(),
                               data.L_cols.data(),
                               data.L_row_adr.data(),
                               data.L_row_len.data(),
                               data.L_diag.data()};
}

// RBDA Table 6.3 (LTDL) in place on the gathered rows (data.L_diag,
// data.L_values), k = n..1: for each ancestor i of k, a = H_ki / H_kk,
// H_ij −= a H_kj for j ∈ {i} ∪ ancestors(i), H_ki = a. The ancestors of i are
// the entries after i in row k (the DOF tree is a chain above k), so the
// update of row i is one contiguous axpy of length len_k − t − 1.
// The inner loops run over at most the tree depth; vectorizing them costs
// more in set-up than it saves.
MOREAU_NO_TREE_VECTORIZE bool FactorRows(Data& data) {
  const auto [n, L, cols, adr, len, D] = RowsOf(data);
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

}  // namespace

const Eigen::MatrixXd& Crba(const Model& model, Data& data) {
  CompositeSweep</*kRows=*/false>(model, data);
  // Entries between DOFs on different branches stay zero (set at MakeData and
  // never written).
  return data.M;
}

bool FactorMassMatrix(const Model& model, Data& data) {
  (void)model;
  const auto [n, L, cols, adr, len, D] = RowsOf(data);
  // Gather M's tree-sparse lower triangle: row k holds M_kj for the
  // ancestors j of k, nearest first.
  // (M is symmetric: read column k, which is contiguous.)
  for (int k = 0; k < n; ++k) {
    const double* M_k = data.M.col(k).data();
    D[k] = M_k[k];
    for (int t = 0; t < len[k]; ++t) L[adr[k] + t] = M_k[cols[adr[k] + t]];
  }
  return FactorRows(data);
}

bool CrbaFactor(const Model& model, Data& data) {
  CompositeSweep</*kRows=*/true>(model, data);
  return FactorRows(data);
}

void SolveMassMatrix(const Data& data, Eigen::Ref<Eigen::VectorXd> x) {
  // M = Lᵀ D L: solve Lᵀ y = x (leaves to root), D z = y, L x = z.
  SolveMassMatrixHalf(data, x);
  SolveMassMatrixFromHalf(data, x);
}

void SolveMassMatrixHalf(const Data& data, Eigen::Ref<Eigen::VectorXd> x) {
  const auto [n, L, cols, adr, len, D] = RowsOf(data);
  for (int i = n - 1; i >= 0; --i)
    for (int t = 0; t < len[i]; ++t) x[cols[adr[i] + t]] -= L[adr[i] + t] * x[i];
}

void SolveMassMatrixFromHalf(const Data& data, Eigen::Ref<Eigen::VectorXd> x) {
  const auto [n, L, cols, adr, len, D] = RowsOf(data);
  // D z = y, then L x = z (root to leaves).
  for (int i = 0; i < n; ++i) x[i] /= D[i];
  for (int i = 0; i < n; ++i)
    for (int t = 0; t < len[i]; ++t) x[i] -= L[adr[i] + t] * x[cols[adr[i] + t]];
}

}  // namespace moreau
