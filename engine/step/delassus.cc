#include "engine/step/delassus.h"

namespace moreau::step {
namespace {

// Bound on a support path's DOF count for the stack buffer of AssembleDelassus;
// longer paths fall back to the unscaled loop.
constexpr int kMaxSupport = 64;

// The contact frame direction l (0: n, 1: t1, 2: t2).
const Vec3& Direction(const contact::Contact& ct, int l) {
  return l == 0 ? ct.normal : (l == 1 ? ct.t1 : ct.t2);
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

void AssembleDelassus(const Data& data, const contact::ContactSet& contacts,
                      std::span<const int> active, std::span<const int> support,
                      std::span<const int> support_len, Eigen::Ref<Eigen::MatrixXd> Y,
                      Eigen::Ref<Eigen::MatrixXd> G) {
  const int nv = static_cast<int>(Y.rows());
  const int nc = static_cast<int>(active.size());
  const double* L = data.L_values.data();
  const int* cols = data.L_cols.data();
  const int* adr = data.L_row_adr.data();
  const int* len = data.L_row_len.data();
  // Y = L⁻ᵀ W column by column: w = Jᵀ d on the support, then Lᵀ y = w from
  // the leaves to the root (RBDA §6.5), which only touches the path.
  for (int a = 0; a < nc; ++a) {
    const contact::Contact& ct = contacts.contacts[active[a]];
    const Matrix3Xd& J = data.contact_J[active[a]];
    const int* dofs = support.data() + a * nv;
    const int m = support_len[a];
    for (int l = 0; l < 3; ++l) {
      const Vec3& d = Direction(ct, l);
      double* y = Y.col(3 * a + l).data();
      for (int i = 0; i < nv; ++i) y[i] = 0.0;
      for (int s = 0; s < m; ++s) y[dofs[s]] = J.col(dofs[s]).dot(d);
      for (int s = 0; s < m; ++s) {
        const int i = dofs[s];
        const double yi = y[i];
        for (int t = 0; t < len[i]; ++t) y[cols[adr[i] + t]] -= L[adr[i] + t] * yi;
      }
    }
  }
  // G = Yᵀ D⁻¹ Y, lower triangle over column p's support (y_p D⁻¹ gathered
  // once per column), mirrored.
  const double* D = data.L_diag.data();
  double yp_scaled[kMaxSupport];
  for (int a = 0; a < nc; ++a) {
    const int* dofs = support.data() + a * nv;
    const int m = support_len[a];
    for (int l = 0; l < 3; ++l) {
      const int p = 3 * a + l;
      const double* yp = Y.col(p).data();
      const bool gathered = m <= kMaxSupport;
      if (gathered) {
        for (int s = 0; s < m; ++s) yp_scaled[s] = yp[dofs[s]] / D[dofs[s]];
      }
      for (int q = 0; q <= p; ++q) {
        const double* yq = Y.col(q).data();
        double sum = 0.0;
        if (gathered) {
          for (int s = 0; s < m; ++s) sum += yp_scaled[s] * yq[dofs[s]];
        } else {
          for (int s = 0; s < m; ++s) sum += yp[dofs[s]] * yq[dofs[s]] / D[dofs[s]];
        }
        G(p, q) = sum;
        G(q, p) = sum;
      }
    }
  }
}

void ContactSpaceVelocity(const Data& data, const contact::ContactSet& contacts,
                          std::span<const int> active, std::span<const int> support,
                          std::span<const int> support_len, const Eigen::VectorXd& u,
                          Eigen::Ref<Eigen::VectorXd> out) {
  const int nv = static_cast<int>(u.size());
  for (size_t a = 0; a < active.size(); ++a) {
    const contact::Contact& ct = contacts.contacts[active[a]];
    const Matrix3Xd& J = data.contact_J[active[a]];
    const int* dofs = support.data() + a * nv;
    Vec3 vel = Vec3::Zero();
    for (int s = 0; s < support_len[a]; ++s) vel += J.col(dofs[s]) * u[dofs[s]];
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
    const Matrix3Xd& J = data.contact_J[active[a]];
    const int* dofs = support.data() + a * nv;
    const Vec3 f =
        Lambda[3 * a] * ct.normal + Lambda[3 * a + 1] * ct.t1 + Lambda[3 * a + 2] * ct.t2;
    for (int s = 0; s < support_len[a]; ++s) out[dofs[s]] += J.col(dofs[s]).dot(f);
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

void BilateralRowVelocity(Eigen::Ref<const Eigen::MatrixXd> B, std::span<const int> support,
                          std::span<const int> support_len, const Eigen::VectorXd& u,
                          Eigen::Ref<Eigen::VectorXd> out) {
  const int nv = static_cast<int>(B.rows());
  for (size_t r = 0; r < support_len.size(); ++r) {
    const int* dofs = support.data() + r * nv;
    double sum = 0.0;
    for (int s = 0; s < support_len[r]; ++s) sum += B(dofs[s], r) * u[dofs[s]];
    out[static_cast<Eigen::Index>(r)] = sum;
  }
}

void AddBilateralImpulse(Eigen::Ref<const Eigen::MatrixXd> B, std::span<const int> support,
                         std::span<const int> support_len, Eigen::Ref<const Eigen::VectorXd> Lambda,
                         Eigen::Ref<Eigen::VectorXd> out) {
  const int nv = static_cast<int>(B.rows());
  for (size_t r = 0; r < support_len.size(); ++r) {
    const int* dofs = support.data() + r * nv;
    const double l = Lambda[static_cast<Eigen::Index>(r)];
    for (int s = 0; s < support_len[r]; ++s) out[dofs[s]] += B(dofs[s], r) * l;
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
