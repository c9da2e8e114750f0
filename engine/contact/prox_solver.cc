#include "engine/contact/prox_solver.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "engine/util/finite.h"

namespace moreau::contact {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The checks of Validate without building a Status (Solve allocates nothing).
// Written so that NaN fails every test.
bool ParamsOk(const ProxParams& p) {
  return (p.method == ProxMethod::kJor || p.method == ProxMethod::kSor) && p.alpha > 0.0 &&
         p.alpha < 2.0 && p.T_rel >= 0.0 && p.T_rel < kInf && p.T_abs >= 0.0 && p.T_abs < kInf &&
         p.max_iterations >= 1;
}

bool LawOk(const ContactLaw& l) {
  return l.mu >= 0.0 && l.mu < kInf && l.eps_N >= 0.0 && l.eps_N <= 1.0 && l.eps_T >= 0.0 &&
         l.eps_T <= 1.0;
}

// prox onto the disc D_T = {‖x‖ ≤ radius}, radius ≥ 0 (000 eq. 13): the
// Euclidean projection (R = 1/r I, 000 after eq. 11).
inline void ProjectOntoDisc(double radius, double& x, double& y) {
  const double norm2 = x * x + y * y;
  if (norm2 <= radius * radius) return;
  const double scale = radius / std::sqrt(norm2);  // norm2 > radius² ≥ 0
  x *= scale;
  y *= scale;
}

// γ = c + G Λ, four rows at a time (one 4-vector accumulator against a
// column slice of G, Λ_j broadcast), then two, then the last row.
void ContactVelocity(Eigen::Ref<const Eigen::MatrixXd> G, Eigen::Ref<const Eigen::VectorXd> c,
                     Eigen::Ref<const Eigen::VectorXd> Lambda, Eigen::Ref<Eigen::VectorXd> gamma) {
  const Eigen::Index n = Lambda.size();
  const Eigen::Index stride = G.outerStride();
  const double* __restrict g = G.data();
  const double* __restrict l = Lambda.data();
  double* __restrict out = gamma.data();
  Eigen::Index i = 0;
  for (; i + 4 <= n; i += 4) {
    Eigen::Vector4d acc = Eigen::Map<const Eigen::Vector4d>(c.data() + i);
    for (Eigen::Index j = 0; j < n; ++j) {
      acc += Eigen::Map<const Eigen::Vector4d>(g + j * stride + i) * l[j];
    }
    Eigen::Map<Eigen::Vector4d>(out + i) = acc;
  }
  if (i + 2 <= n) {
    Eigen::Vector2d acc = Eigen::Map<const Eigen::Vector2d>(c.data() + i);
    for (Eigen::Index j = 0; j < n; ++j) {
      acc += Eigen::Map<const Eigen::Vector2d>(g + j * stride + i) * l[j];
    }
    Eigen::Map<Eigen::Vector2d>(out + i) = acc;
    i += 2;
  }
  for (; i < n; ++i) {
    double acc = c[i];
    for (Eigen::Index j = 0; j < n; ++j) acc += g[j * stride + i] * l[j];
    out[i] = acc;
  }
}

// The abort test of 000 after eq. 16, component by component, over a sweep.
struct AbortTest {
  double T_rel;
  double T_abs;
  bool converged = true;
  bool finite = true;
  double residual = 0.0;

  [[gnu::always_inline]] void Check(double old_value, double new_value) {
    const double change = std::abs(new_value - old_value);
    finite = finite && change < kInf;  // false for ±∞ and NaN
    residual = std::max(residual, change);
    converged = converged && change <= std::abs(old_value) * T_rel + T_abs;
  }
};

}  // namespace

absl::Status Validate(const ProxParams& p) {
  if (p.method != ProxMethod::kJor && p.method != ProxMethod::kSor) {
    return absl::InvalidArgumentError(
        absl::StrCat("prox.method must be kJor or kSor, got ", static_cast<int>(p.method)));
  }
  if (!(p.alpha > 0.0 && p.alpha < 2.0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("prox.alpha must be in (0, 2) (000 after eq. 16), got ", p.alpha));
  }
  if (!(p.T_rel >= 0.0 && p.T_rel < kInf)) {
    return absl::InvalidArgumentError(
        absl::StrCat("prox.T_rel must be finite and >= 0, got ", p.T_rel));
  }
  if (!(p.T_abs >= 0.0 && p.T_abs < kInf)) {
    return absl::InvalidArgumentError(
        absl::StrCat("prox.T_abs must be finite and >= 0, got ", p.T_abs));
  }
  if (p.max_iterations < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("prox.max_iterations must be >= 1, got ", p.max_iterations));
  }
  return absl::OkStatus();
}

absl::Status Validate(const ContactLaw& law) {
  if (!(law.mu >= 0.0 && law.mu < kInf)) {
    return absl::InvalidArgumentError(
        absl::StrCat("contact_law.mu must be finite and >= 0, got ", law.mu));
  }
  if (!(law.eps_N >= 0.0 && law.eps_N <= 1.0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("contact_law.eps_N must be in [0, 1], got ", law.eps_N));
  }
  if (!(law.eps_T >= 0.0 && law.eps_T <= 1.0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("contact_law.eps_T must be in [0, 1], got ", law.eps_T));
  }
  return absl::OkStatus();
}

ProxSolver::ProxSolver(int max_contacts, int max_bilateral)
    : max_contacts_(std::max(max_contacts, 0)),
      max_bilateral_(std::max(max_bilateral, 0)),
      gamma_(Eigen::VectorXd::Zero(3 * static_cast<Eigen::Index>(max_contacts_) + max_bilateral_)),
      r_B_(Eigen::VectorXd::Zero(max_bilateral_)),
      r_N_(Eigen::VectorXd::Zero(max_contacts_)),
      r_T_(Eigen::VectorXd::Zero(max_contacts_)) {}

ProxResult ProxSolver::Solve(const ProxParams& params, std::span<const ContactLaw> laws,
                             Eigen::Ref<const Eigen::MatrixXd> G,
                             Eigen::Ref<const Eigen::VectorXd> c,
                             Eigen::Ref<const Eigen::VectorXd> gamma_S,
                             Eigen::Ref<Eigen::VectorXd> Lambda) {
  const Eigen::Map<const Eigen::VectorXd> none(nullptr, 0);
  return Solve(params, laws, G, c, gamma_S, Lambda, none, none);
}

ProxResult ProxSolver::Solve(const ProxParams& params, std::span<const ContactLaw> laws,
                             Eigen::Ref<const Eigen::MatrixXd> G,
                             Eigen::Ref<const Eigen::VectorXd> c,
                             Eigen::Ref<const Eigen::VectorXd> gamma_S,
                             Eigen::Ref<Eigen::VectorXd> Lambda,
                             Eigen::Ref<const Eigen::VectorXd> lo,
                             Eigen::Ref<const Eigen::VectorXd> hi) {
  const Eigen::Index nc = static_cast<Eigen::Index>(laws.size());
  const Eigen::Index n = 3 * nc;
  const Eigen::Index m = lo.size();
  const Eigen::Index nt = n + m;
  const ProxResult rejected{0, false, kInf};
  n_ = 0;

  // --- inputs ---
  if (nc > max_contacts_ || m > max_bilateral_ || hi.size() != m || G.rows() != nt ||
      G.cols() != nt || c.size() != nt || gamma_S.size() != n || Lambda.size() != nt) {
    Lambda.setZero();
    return rejected;
  }
  n_ = static_cast<int>(nt);
  auto gamma = gamma_.head(nt);  // γ_E = c + G Λ (000 eq. 12 with ε = 0)
  gamma.setZero();
  if (nt == 0) return ProxResult{0, true, 0.0};
  bool laws_ok = true;
  for (const ContactLaw& law : laws) laws_ok = laws_ok && LawOk(law);
  bool boxes_ok = true;
  for (Eigen::Index j = 0; j < m; ++j) boxes_ok = boxes_ok && lo[j] <= hi[j];  // NaN fails
  if (!ParamsOk(params) || !laws_ok || !boxes_ok || !AllFinite(G) || !AllFinite(c) ||
      !AllFinite(gamma_S)) {
    Lambda.setZero();
    return rejected;
  }
  if (!params.warm_start || !AllFinite(Lambda)) Lambda.setZero();

  // Bilateral rows: r_j = α / G_jj (000 after eq. 16); a row whose Jacobian
  // vanishes (G_jj ≈ 0 relative to G's scale) is held at 0.
  double g_max = 1.0;
  for (Eigen::Index l = 0; l < nt; ++l) g_max = std::max(g_max, G(l, l));
  for (Eigen::Index j = 0; j < m; ++j) {
    const Eigen::Index k = n + j;
    r_B_[j] = G(k, k) > 1e-14 * g_max ? params.alpha / G(k, k) : 0.0;
    Lambda[k] = r_B_[j] > 0.0 ? std::clamp(Lambda[k], lo[j], hi[j]) : 0.0;
  }

  // r_N = α / G_NN, r_T = α / max(G_T1T1, G_T2T2) (000 after eq. 16). A
  // contact whose diagonal is not > 0 has no prox step: its Λ is held at 0.
  bool degenerate = false;
  const bool row_sum = params.row_sum_step && params.method == ProxMethod::kJor;
  for (Eigen::Index i = 0; i < nc; ++i) {
    const Eigen::Index k = 3 * i;
    // Row-sum step (ProxParams::row_sum_step): Gershgorin bounds λ_max(G) by
    // the absolute row sums.
    const double d_N = row_sum ? G.row(k).cwiseAbs().sum() : G(k, k);
    const double d_T = row_sum
                           ? std::max(G.row(k + 1).cwiseAbs().sum(), G.row(k + 2).cwiseAbs().sum())
                           : std::max(G(k + 1, k + 1), G(k + 2, k + 2));
    const double r_N = params.alpha / d_N;
    const double r_T = params.alpha / d_T;
    r_N_[i] = G(k, k) > 0.0 && r_N < kInf ? r_N : 0.0;
    r_T_[i] = r_N_[i] > 0.0 && r_T > 0.0 && r_T < kInf ? r_T : 0.0;
    if (r_N_[i] == 0.0) Lambda.segment<3>(k).setZero();
    if (r_T_[i] == 0.0) Lambda.segment<2>(k + 1).setZero();
    degenerate = degenerate || r_N_[i] == 0.0 || r_T_[i] == 0.0;
  }

  // --- JOR / SOR prox iteration (000 eq. 16) ---
  const bool sor = params.method == ProxMethod::kSor;
  if (sor) ContactVelocity(G, c, Lambda, gamma);
  ProxResult result;
  for (int it = 1; it <= params.max_iterations; ++it) {
    // Jacobi: every projection of this sweep sees γ_E(Λᵏ).
    if (!sor) ContactVelocity(G, c, Lambda, gamma);
    AbortTest test{params.T_rel, params.T_abs};
    for (Eigen::Index i = 0; i < nc; ++i) {
      if (r_N_[i] == 0.0) continue;
      const Eigen::Index k = 3 * i;
      const ContactLaw& law = laws[i];

      // Normal: ξ_N = γ_E,N + ε_N γ_S,N (000 eq. 7), Λ_N = prox_{R⁺}(Λ_N − r_N ξ_N) (000 eq. 13).
      const double old_N = Lambda[k];
      const double xi_N = gamma[k] + law.eps_N * gamma_S[k];
      const double new_N = std::max(0.0, old_N - r_N_[i] * xi_N);
      Lambda[k] = new_N;
      test.Check(old_N, new_N);
      // SOR: the tangential step sees the new normal percussion (000 after eq. 19).
      if (sor && new_N != old_N) gamma += G.col(k) * (new_N - old_N);

      // Tangential: Λ_T = prox_{D_T}(Λ_T − r_T ξ_T) onto the disc of radius μ Λ_N with
      // this contact's new Λ_N (000 eq. 13, spatial Coulomb).
      if (r_T_[i] == 0.0) continue;
      const double old_T1 = Lambda[k + 1];
      const double old_T2 = Lambda[k + 2];
      double new_T1 = old_T1 - r_T_[i] * (gamma[k + 1] + law.eps_T * gamma_S[k + 1]);
      double new_T2 = old_T2 - r_T_[i] * (gamma[k + 2] + law.eps_T * gamma_S[k + 2]);
      ProjectOntoDisc(law.mu * new_N, new_T1, new_T2);
      Lambda[k + 1] = new_T1;
      Lambda[k + 2] = new_T2;
      test.Check(old_T1, new_T1);
      test.Check(old_T2, new_T2);
      if (sor && (new_T1 != old_T1 || new_T2 != old_T2)) {
        gamma += G.col(k + 1) * (new_T1 - old_T1) + G.col(k + 2) * (new_T2 - old_T2);
      }
    }
    // Bilateral rows (000 eq. 19–20): Λ_j = prox_{[lo_j, hi_j]}(Λ_j − r_j γ_E,j),
    // each on its own box.
    for (Eigen::Index j = 0; j < m; ++j) {
      if (r_B_[j] == 0.0) continue;
      const Eigen::Index k = n + j;
      const double old_value = Lambda[k];
      const double new_value = std::clamp(old_value - r_B_[j] * gamma[k], lo[j], hi[j]);
      Lambda[k] = new_value;
      test.Check(old_value, new_value);
      if (sor && new_value != old_value) gamma += G.col(k) * (new_value - old_value);
    }
    result.iterations = it;
    result.residual = test.residual;
    if (!test.finite) {
      // Overflow (α far too aggressive for this G): no usable iterate.
      Lambda.setZero();
      gamma.setZero();
      return ProxResult{it, false, kInf};
    }
    if (test.converged) {
      result.converged = !degenerate;
      break;
    }
  }
  // JOR: γ_E at the returned Λᵏ⁺¹ (the sweep used Λᵏ).
  if (!sor) ContactVelocity(G, c, Lambda, gamma);
  if (!AllFinite(gamma)) {
    // G Λ overflowed although Λ stayed finite (a projection can absorb ∞).
    Lambda.setZero();
    gamma.setZero();
    return ProxResult{result.iterations, false, kInf};
  }
  return result;
}

}  // namespace moreau::contact
