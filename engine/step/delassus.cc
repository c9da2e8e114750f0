#include "engine/step/delassus.h"

#include <algorithm>
#include <cmath>

#include "engine/util/compiler.h"

namespace moreau::step {
namespace {

// The contact frame direction l (0: n, 1: t1, 2: t2).
const Vec3& Direction(const contact::Contact& ct, int l) {
  return l == 0 ? ct.normal : (l == 1 ? ct.t1 : ct.t2);
}

// The world wrench (p × u, u) of a direction u at the point p: its dot
// product with the world joint axis (ω_d, v_d) = S_world's column d is
// ω_d·(p × u) + v_d·u = (v_d + ω_d × p)·u = J_k,dᵀ u.
inline Vec6 PointWrench(const Vec3& p, const Vec3& u) {
  Vec6 wrench;
  wrench.head<3>() = p.cross(u);
  wrench.tail<3>() = u;
  return wrench;
}

}  // namespace

int SupportDofs(const Model& model, const Data& data, int body, int* dofs) {
  if (body <= 0) return 0;
  const int nvb = model.joint_type[body] == JointType::kFree ? 6 : 1;
  const int last = model.v_index[body] + nvb - 1;
  dofs[0] = last;
  const int adr = data.L_row_adr[last];
  const int len = data.L_row_len[last];
  for (int t = 0; t < len; ++t) dofs[1 + t] = data.L_cols[adr + t];
  return len + 1;
}

// The tiny per-path loops (a few DOFs) run faster scalar than with the
// vectorizer's set-up and alias checks.
MOREAU_NO_TREE_VECTORIZE void AssembleDelassus(
    const Data& data, const contact::ContactSet& contacts, std::span<const int> active,
    std::span<const int> support, std::span<const int> support_len, Eigen::Ref<Eigen::MatrixXd> Y,
    Eigen::Ref<Eigen::MatrixXd> Y_path, Eigen::Ref<Eigen::MatrixXd> G) {
  const int nv = static_cast<int>(Y_path.rows());
  const int nc = static_cast<int>(active.size());
  const int n = 3 * nc;
  const bool full = Y.cols() > 0;
  const double* L = data.L_values.data();
  const int* adr = data.L_row_adr.data();
  const double* D = data.L_diag.data();
  // Y = L⁻ᵀ W, three columns per contact, on the support path only: a path
  // from a DOF to the root is a chain, so the ancestors of dofs[s] are
  // dofs[s+1..m−1] (L's row dofs[s] holds exactly them, nearest first) and
  // the solve runs on the path's own m entries, in Y_path (entry s ↔ DOF
  // dofs[s]); D⁻¹ Y next to it (columns n + 3a + l).
  for (int a = 0; a < nc; ++a) {
    const contact::Contact& ct = contacts.contacts[active[a]];
    const Vec3& p = data.contact_position[active[a]];
    const int* dofs = support.data() + a * nv;
    const int m = support_len[a];
    double* __restrict y0 = Y_path.col(3 * a).data();
    double* __restrict y1 = Y_path.col(3 * a + 1).data();
    double* __restrict y2 = Y_path.col(3 * a + 2).data();
    // w = Jᵀ [n t1 t2] on the path (000 eq. 2), J's column d = v_d + ω_d × p
    // (PointWrench).
    const Vec6 w0 = PointWrench(p, ct.normal), w1 = PointWrench(p, ct.t1),
               w2 = PointWrench(p, ct.t2);
    for (int s = 0; s < m; ++s) {
      const auto axis = data.S_world.col(dofs[s]);
      y0[s] = axis.dot(w0);
      y1[s] = axis.dot(w1);
      y2[s] = axis.dot(w2);
    }
    // Lᵀ y = w from the leaves to the root (RBDA §6.5).
    for (int s = 0; s + 1 < m; ++s) {
      const double* __restrict l = L + adr[dofs[s]];
      const double v0 = y0[s], v1 = y1[s], v2 = y2[s];
      for (int t = s + 1; t < m; ++t) {
        const double l_t = l[t - s - 1];
        y0[t] -= l_t * v0;
        y1[t] -= l_t * v1;
        y2[t] -= l_t * v2;
      }
    }
    double* __restrict d0 = Y_path.col(n + 3 * a).data();
    double* __restrict d1 = Y_path.col(n + 3 * a + 1).data();
    double* __restrict d2 = Y_path.col(n + 3 * a + 2).data();
    for (int s = 0; s < m; ++s) {
      const double inv_d = 1.0 / D[dofs[s]];
      d0[s] = y0[s] * inv_d;
      d1[s] = y1[s] * inv_d;
      d2[s] = y2[s] * inv_d;
    }
    if (!full) continue;
    // Y's full columns (zero off the support).
    for (int l = 0; l < 3; ++l) {
      auto y = Y.col(3 * a + l);
      y.setZero();
      const double* yp = Y_path.col(3 * a + l).data();
      for (int s = 0; s < m; ++s) y[dofs[s]] = yp[s];
    }
  }
  // G = Yᵀ D⁻¹ Y. Two contacts' paths share their root ends up to the
  // deepest common DOF (for two feet of a quadruped: the base's six), so each
  // 3 × 3 block is a dot product over that common tail of the two paths; one
  // triangle of blocks, mirrored.
  for (int a = 0; a < nc; ++a) {
    const int* dofs_a = support.data() + a * nv;
    const int m_a = support_len[a];
    for (int b = 0; b <= a; ++b) {
      const int* dofs_b = support.data() + b * nv;
      const int m_b = support_len[b];
      int common = a == b ? m_a : 0;  // a path shares all of itself
      const int m_min = std::min(m_a, m_b);
      while (common < m_min && dofs_a[m_a - 1 - common] == dofs_b[m_b - 1 - common]) ++common;
      // D⁻¹ Y of contact a against Y of contact b.
      const double* a0 = Y_path.col(n + 3 * a).data() + (m_a - common);
      const double* a1 = Y_path.col(n + 3 * a + 1).data() + (m_a - common);
      const double* a2 = Y_path.col(n + 3 * a + 2).data() + (m_a - common);
      const double* b0 = Y_path.col(3 * b).data() + (m_b - common);
      const double* b1 = Y_path.col(3 * b + 1).data() + (m_b - common);
      const double* b2 = Y_path.col(3 * b + 2).data() + (m_b - common);
      double g00 = 0.0, g01 = 0.0, g02 = 0.0, g10 = 0.0, g11 = 0.0, g12 = 0.0, g20 = 0.0, g21 = 0.0,
             g22 = 0.0;
      for (int s = 0; s < common; ++s) {
        g00 += a0[s] * b0[s];
        g01 += a0[s] * b1[s];
        g02 += a0[s] * b2[s];
        g10 += a1[s] * b0[s];
        g11 += a1[s] * b1[s];
        g12 += a1[s] * b2[s];
        g20 += a2[s] * b0[s];
        g21 += a2[s] * b1[s];
        g22 += a2[s] * b2[s];
      }
      if (a == b) {
        // The diagonal block is symmetric (g01 = g10 etc. up to rounding):
        // one of each pair keeps G exactly symmetric.
        g10 = g01;
        g20 = g02;
        g21 = g12;
      }
      const double block[3][3] = {{g00, g01, g02}, {g10, g11, g12}, {g20, g21, g22}};
      for (int l = 0; l < 3; ++l) {
        for (int k = 0; k < 3; ++k) {
          G(3 * a + l, 3 * b + k) = block[l][k];
          G(3 * b + k, 3 * a + l) = block[l][k];
        }
      }
    }
  }
}

void PathImpulse(std::span<const int> support, std::span<const int> support_len,
                 Eigen::Ref<const Eigen::MatrixXd> Y_path, Eigen::Ref<const Eigen::VectorXd> Lambda,
                 Eigen::Ref<Eigen::VectorXd> out) {
  const int nv = static_cast<int>(out.size());
  out.setZero();
  for (size_t a = 0; a < support_len.size(); ++a) {
    const int* dofs = support.data() + a * nv;
    const auto i = static_cast<Eigen::Index>(3 * a);
    const double* y0 = Y_path.col(i).data();
    const double* y1 = Y_path.col(i + 1).data();
    const double* y2 = Y_path.col(i + 2).data();
    const double l0 = Lambda[i], l1 = Lambda[i + 1], l2 = Lambda[i + 2];
    for (int s = 0; s < support_len[a]; ++s) out[dofs[s]] += y0[s] * l0 + y1[s] * l1 + y2[s] * l2;
  }
}

void AddPathVelocity(std::span<const int> support, std::span<const int> support_len,
                     Eigen::Ref<const Eigen::MatrixXd> Y_path, Eigen::Ref<const Eigen::VectorXd> z,
                     Eigen::Ref<Eigen::VectorXd> out) {
  const int nv = static_cast<int>(z.size());
  const auto n = static_cast<Eigen::Index>(3 * support_len.size());
  for (size_t a = 0; a < support_len.size(); ++a) {
    const int* dofs = support.data() + a * nv;
    const auto i = static_cast<Eigen::Index>(3 * a);
    const double* d0 = Y_path.col(n + i).data();
    const double* d1 = Y_path.col(n + i + 1).data();
    const double* d2 = Y_path.col(n + i + 2).data();
    double s0 = 0.0, s1 = 0.0, s2 = 0.0;
    for (int s = 0; s < support_len[a]; ++s) {
      const double zs = z[dofs[s]];
      s0 += d0[s] * zs;
      s1 += d1[s] * zs;
      s2 += d2[s] * zs;
    }
    out[i] += s0;
    out[i + 1] += s1;
    out[i + 2] += s2;
  }
}

void ContactSpaceVelocity(const Data& data, const contact::ContactSet& contacts,
                          std::span<const int> active, std::span<const int> support,
                          std::span<const int> support_len, const Eigen::VectorXd& u,
                          Eigen::Ref<Eigen::VectorXd> out) {
  const int nv = static_cast<int>(u.size());
  for (size_t a = 0; a < active.size(); ++a) {
    const contact::Contact& ct = contacts.contacts[active[a]];
    const int* dofs = support.data() + a * nv;
    // J u = v_O + ω × p with the world twist (ω, v_O) = Σ S_world,d u_d.
    Vec6 twist = Vec6::Zero();
    for (int s = 0; s < support_len[a]; ++s) {
      twist.noalias() += data.S_world.col(dofs[s]) * u[dofs[s]];
    }
    const Vec3 vel = twist.tail<3>() + twist.head<3>().cross(data.contact_position[active[a]]);
    for (int l = 0; l < 3; ++l) out[3 * a + l] = Direction(ct, l).dot(vel);
  }
}

void GeneralizedImpulse(const Data& data, const contact::ContactSet& contacts,
                        std::span<const int> active, std::span<const int> support,
                        std::span<const int> support_len, Eigen::Ref<const Eigen::VectorXd> Lambda,
                        Eigen::Ref<Eigen::VectorXd> out) {
  const int nv = static_cast<int>(out.size());
  out.setZero();
  for (size_t a = 0; a < active.size(); ++a) {
    const contact::Contact& ct = contacts.contacts[active[a]];
    const int* dofs = support.data() + a * nv;
    const Vec3 f =
        Lambda[3 * a] * ct.normal + Lambda[3 * a + 1] * ct.t1 + Lambda[3 * a + 2] * ct.t2;
    const Vec6 wrench = PointWrench(data.contact_position[active[a]], f);
    for (int s = 0; s < support_len[a]; ++s) out[dofs[s]] += data.S_world.col(dofs[s]).dot(wrench);
  }
}

void AssembleBilateralRows(const Data& data, Eigen::Ref<const Eigen::MatrixXd> B,
                           std::span<const int> support, std::span<const int> support_len, int n,
                           Eigen::Ref<Eigen::MatrixXd> Y, Eigen::Ref<Eigen::MatrixXd> G) {
  const int nv = static_cast<int>(Y.rows());
  const int m = static_cast<int>(support_len.size());
  const double* L = data.L_values.data();
  const int* cols = data.L_cols.data();
  const int* adr = data.L_row_adr.data();
  const int* len = data.L_row_len.data();
  const double* D = data.L_diag.data();
  for (int r = 0; r < m; ++r) {
    const int* dofs = support.data() + r * nv;
    const int ms = support_len[r];
    // y = L⁻ᵀ b_r from the leaves to the root over the support (as in
    // AssembleDelassus; the support is closed under ancestry).
    double* y = Y.col(n + r).data();
    for (int i = 0; i < nv; ++i) y[i] = 0.0;
    for (int s = 0; s < ms; ++s) y[dofs[s]] = B(dofs[s], r);
    for (int s = 0; s < ms; ++s) {
      const int i = dofs[s];
      const double yi = y[i];
      for (int t = 0; t < len[i]; ++t) y[cols[adr[i] + t]] -= L[adr[i] + t] * yi;
    }
    // G = Yᵀ D⁻¹ Y against every earlier column (row p's support suffices).
    const int p = n + r;
    for (int q = 0; q <= p; ++q) {
      const double* yq = Y.col(q).data();
      double sum = 0.0;
      for (int s = 0; s < ms; ++s) sum += y[dofs[s]] * yq[dofs[s]] / D[dofs[s]];
      G(p, q) = sum;
      G(q, p) = sum;
    }
  }
}

void RecordContactImpulses(std::span<const int> active, Eigen::Ref<const Eigen::VectorXd> Lambda,
                           double dt, contact::ContactSet& contacts, std::span<double> impulses) {
  for (size_t a = 0; a < active.size(); ++a) {
    const int k = active[a];
    const auto i = static_cast<Eigen::Index>(3 * a);
    contact::Contact& ct = contacts.contacts[k];
    for (int l = 0; l < 3; ++l) impulses[3 * k + l] = Lambda[i + l];
    ct.force += (Lambda[i] * ct.normal + Lambda[i + 1] * ct.t1 + Lambda[i + 2] * ct.t2) / dt;
  }
}

}  // namespace moreau::step
