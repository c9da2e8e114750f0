// Impulse solver of Moreau's midpoint time-stepping (000 eq. 7–18): the
// unilateral contacts with spatial Coulomb friction (a friction disc, not a
// pyramid) and a Newton-type impact law, written as prox equations (000
// eq. 12–13) and solved by the projected over-relaxed Jacobi (JOR) or
// Gauss–Seidel (SOR) prox iteration (000 eq. 16) on the contact-space problem.
//
// The caller (step/) assembles at the midpoint q_M, for n_c active contacts
// with frames (n, t1, t2) and n = 3 n_c, ordered per contact [N, T1, T2]:
//   G       = Wᵀ M⁻¹ W                (n × n, the Delassus matrix, 000 eq. 12)
//   c       = Wᵀ (u_S + M⁻¹ h Δt)     (n, free end velocity: γ_E = c + G Λ)
//   gamma_S = Wᵀ u_S                  (n, start velocity of the impact law)
// and gets Λ (n, the percussions, N s) with, per contact i (000 eq. 7, 13):
//   ξ_i   = γ_E,i + ε_i γ_S,i,        ε_i = diag(ε_N, ε_T, ε_T)
//   Λ_N   = prox_{R⁺}(Λ_N − r_N ξ_N)                  (unilateral)
//   Λ_T   = prox_{D_T}(Λ_T − r_T ξ_T), D_T = {‖x‖ ≤ μ Λ_N}  (spatial Coulomb)
// (000 writes Λ = −prox_{R₀⁻}(−Λ + r ξ); R₀⁻ and the disc are symmetric, so
// this is the same map.) Then u_E = u_S + M⁻¹ (h Δt + W Λ) (000 eq. 17).
//
// Bilateral rows (000 eq. 19–20) may follow the contact rows: m rows b_jᵀ u_E
// = target_j whose percussion lies in a box [lo_j, hi_j] (±∞ allowed), e.g.
// 002's inverse-dynamics constraints (a desired joint velocity, |Λ_j| ≤
// τ_max Δt) or the cut joints of a closed kinematic chain (unbounded). The
// caller puts target_j into c (c_j = b_jᵀ u_free − target_j, so ξ_j = γ_E,j)
// and G and Λ grow to n + m; each row is projected on its own set:
//   Λ_j   = prox_{[lo_j, hi_j]}(Λ_j − r_j γ_E,j),  r_j = α / G_jj,
// jointly with the contacts in the same JOR/SOR sweep, so a bounded row never
// trades a contact's friction away: the skating quadruped of 002 §IV-B
// (Shepherd et al., "Fast multi-body simulations of robots controlled with
// error feedback"), whose solver had to violate the inverse-dynamics
// constraints to fit friction.
#ifndef MOREAU_ENGINE_CONTACT_PROX_SOLVER_H_
#define MOREAU_ENGINE_CONTACT_PROX_SOLVER_H_

#include <Eigen/Core>
#include <span>

#include "absl/status/status.h"

namespace moreau::contact {

// Succession pattern of the prox iteration (000 § "JOR and SOR Prox
// Iteration"). In both, a contact's friction disc has the radius μ Λ_N of
// that contact's just-projected Λ_N.
enum class ProxMethod {
  // Jacobi: every contact is projected with γ_E = c + G Λᵏ of the previous
  // iterate; one G·Λ product per sweep.
  kJor,
  // Gauss–Seidel: contacts in order, each using the freshest Λ; γ_E is
  // updated incrementally (G's columns) after the normal projection and again
  // after the tangential one, the fine-grained pattern of 000 after eq. 19.
  kSor,
};

// Numerical parameters; defaults are 000's.
struct ProxParams {
  // SOR: with G assembled, a sweep of either scheme costs one pass over G
  // (n² multiply-adds), and 000 § "Number of Hard Contact Iterations" finds
  // SOR "faster and more reliable" in convergence. (000 preferred JOR only in
  // its velocity-space form, eq. 17–18, where a SOR update touches all of u.)
  ProxMethod method = ProxMethod::kSor;
  // Relaxation α of r = α / G_ll (000 after eq. 16); admissible α ∈ (0, 2)
  // (ibid.). 0.6 is 000 Table 1's value for minimal coordinates, JOR and SOR
  // (HmJ, HmS): half the empirical upper limit of convergence, "a good
  // compromise between robustness and speed" (000 § "Number of Hard Contact
  // Iterations"). Larger α converges faster up to a problem-dependent limit:
  // without friction or unilateral switching, JOR is the Jacobi iteration
  // and diverges for α ≥ 2/λ_max(diag(G)⁻¹G), while SOR converges for any
  // α ∈ (0, 2) on a positive definite G (Ostrowski–Reich); with friction
  // neither is guaranteed.
  double alpha = 0.6;
  // Abort test |Λᵏ⁺¹ − Λᵏ| ≤ |Λᵏ| T_rel + T_abs on every component (000 after
  // eq. 16); 000 § "Accuracy" uses T_rel = T_abs = 1e-6 (Λ in N s).
  double T_rel = 1e-6;
  double T_abs = 1e-6;
  // Cap on sweeps; 000 gives none. At α = 0.6 and 000's tolerances the unit
  // tests' 4-contact problems take, from Λ = 0, 16–98 JOR and 19–82 SOR
  // sweeps (a box resting and landing on its corners, an 18-DOF
  // quadruped-like system), and 1–2 from a warm start; 200 is twice the worst
  // cold start and bounds a step's cost (200 n² multiply-adds) when α is too
  // aggressive for the configuration or the iterate cycles (000 after eq. 20).
  int max_iterations = 200;
  // JOR step sizes from the block row sums instead of the diagonals:
  // r_N = α / Σ_l |G_Nl|, r_T = α / max over the two tangent rows of
  // Σ_l |G_Tl| (l over every row of G). By Gershgorin's theorem Σ_l |G_kl| ≥
  // λ_max(G), so the Jacobi step stays below α / λ_max and the iteration
  // contracts for α < 2 however many contacts couple — with whole-body
  // collision (tens of slots on one rigid body) the diagonal step 000 uses
  // diverges. Smaller steps converge more slowly. SOR ignores it (it
  // converges with the diagonal step on a positive definite G). MoreauStep
  // sets it for models with slots beyond the feet.
  bool row_sum_step = false;
  // Start from the Λ passed in (the previous step's percussions, kept in the
  // contact memory) rather than from zero.
  bool warm_start = true;
};

// InvalidArgument naming the field and value unless α is finite in (0, 2),
// T_rel and T_abs are finite and ≥ 0, max_iterations ≥ 1 and method is a
// ProxMethod enumerator.
absl::Status Validate(const ProxParams& params);

// Contact law of one contact (000 eq. 5, 7, 9); defaults are 000 § "Evaluation"
// (μ = 0.8, ε_N = ε_T = 0: inelastic).
struct ContactLaw {
  double mu = 0.8;     // friction coefficient μ ≥ 0: disc radius μ Λ_N
  double eps_N = 0.0;  // Newton-type restitution ε_N ∈ [0, 1], normal
  double eps_T = 0.0;  // restitution ε_T ∈ [0, 1], both tangents
};

// InvalidArgument naming the field and value unless μ is finite ≥ 0 and
// ε_N, ε_T are in [0, 1] (000 after eq. 4).
absl::Status Validate(const ContactLaw& law);

struct ProxResult {
  int iterations = 0;      // sweeps done (1 = the warm start was already a solution)
  bool converged = false;  // the abort test held for every component
  // max_l |Λᵏ⁺¹_l − Λᵏ_l| of the last sweep (N s); +∞ when the inputs were
  // rejected (see Solve), 0 when n_c = 0.
  double residual = 0.0;
};

// JOR/SOR prox solver with a workspace sized once for at most max_contacts
// contacts: Solve does no heap allocation. One instance per simulation
// instance (not thread-safe; Solve mutates the workspace).
class ProxSolver {
 public:
  // max_contacts, max_bilateral < 0 are taken as 0.
  explicit ProxSolver(int max_contacts, int max_bilateral = 0);

  int max_contacts() const { return max_contacts_; }
  int max_bilateral() const { return max_bilateral_; }

  // Solves 000 eq. 12–13 for Λ with n_c = laws.size() contacts, n = 3 n_c.
  //  - G: n × n (e.g. the top-left block of a preallocated max-size matrix;
  //    a column-major block binds to the Ref without a copy, anything else is
  //    copied by the caller's Ref conversion and allocates). Symmetric PSD.
  //  - c, gamma_S: n. laws: n_c.
  //  - Lambda: n. In: the warm start (ignored, i.e. zeros, when
  //    !params.warm_start or when it holds a non-finite value). Out: the
  //    percussions, always finite and admissible (Λ_N ≥ 0, ‖Λ_T‖ ≤ μ Λ_N),
  //    the last iterate when not converged.
  // Safety: wrong sizes (n_c > max_contacts, or any size ≠ n), invalid
  // params, a non-finite entry of G, c or gamma_S, or an invalid law →
  // Λ = 0, {0, false, +∞}. A contact with G_NN ≤ 0 is held at Λ_i = 0, one
  // with max(G_T1T1, G_T2T2) ≤ 0 at Λ_T,i = 0, and the result is reported
  // not converged (Λ for the others is still solved). An iterate that
  // overflows → Λ = 0, converged = false, residual +∞.
  ProxResult Solve(const ProxParams& params, std::span<const ContactLaw> laws,
                   Eigen::Ref<const Eigen::MatrixXd> G, Eigen::Ref<const Eigen::VectorXd> c,
                   Eigen::Ref<const Eigen::VectorXd> gamma_S, Eigen::Ref<Eigen::VectorXd> Lambda);

  // The same with m = lo.size() bilateral rows after the 3 n_c contact rows
  // (see the top of this file): G is (n + m)², c and Lambda n + m, gamma_S n
  // (contacts only), lo and hi m with lo_j ≤ hi_j (±∞ allowed; NaN or lo > hi
  // rejects the problem). A bilateral row with G_jj ≤ 1e-14 max(1, max_l G_ll)
  // — a constraint whose Jacobian vanishes, e.g. an out-of-plane row of a
  // planar mechanism — has no prox step and is held at Λ_j = 0 without
  // affecting `converged`. Also rejected: m > max_bilateral.
  ProxResult Solve(const ProxParams& params, std::span<const ContactLaw> laws,
                   Eigen::Ref<const Eigen::MatrixXd> G, Eigen::Ref<const Eigen::VectorXd> c,
                   Eigen::Ref<const Eigen::VectorXd> gamma_S, Eigen::Ref<Eigen::VectorXd> Lambda,
                   Eigen::Ref<const Eigen::VectorXd> lo, Eigen::Ref<const Eigen::VectorXd> hi);

  // γ_E = c + G Λ (n, or n + m) at the Λ returned by the last Solve (zeros after a
  // rejected one, empty after a size mismatch); valid until the next Solve.
  Eigen::VectorBlock<const Eigen::VectorXd> gamma_E() const { return gamma_.head(n_); }

 private:
  int max_contacts_ = 0;
  int max_bilateral_ = 0;
  int n_ = 0;              // 3 n_c + m of the last Solve
  Eigen::VectorXd gamma_;  // 3 max_contacts + max_bilateral: γ_E = c + G Λ (000 eq. 12)
  Eigen::VectorXd r_B_;    // max_bilateral: α / G_jj, 0 = row held at 0
  Eigen::VectorXd r_N_;    // max_contacts: α / G_NN, 0 = contact held at 0
  Eigen::VectorXd r_T_;    // max_contacts: α / max(G_T1T1, G_T2T2), 0 = Λ_T held at 0
};

}  // namespace moreau::contact

#endif  // MOREAU_ENGINE_CONTACT_PROX_SOLVER_H_
