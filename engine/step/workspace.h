// Scratch buffers of one simulation step, sized once for a Model (no
// allocation while stepping).
#ifndef MOREAU_ENGINE_STEP_WORKSPACE_H_
#define MOREAU_ENGINE_STEP_WORKSPACE_H_

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/LU>
#include <span>
#include <vector>

#include "engine/contact/contact_forces.h"
#include "engine/contact/contact_set.h"
#include "engine/contact/contact_state.h"
#include "engine/contact/prox_solver.h"
#include "engine/contact/qp_solver.h"
#include "engine/dynamics/data.h"
#include "engine/model/model.h"

namespace moreau::step {

// Moreau's prox solve (MoreauStep, 000 eq. 6–19): the contact laws of the
// active contacts and the solver.
struct ProxWorkspace {
  std::vector<contact::ContactLaw> laws;  // max_contacts
  contact::ProxSolver solver{0};
  contact::ProxResult last{};  // the last step's solve
};

// Bilateral rows (000 eq. 19–20) of the prox solve, after the contact rows in
// StepWorkspace's Y, G, c and Lambda (sized 3 max_contacts + max_bilateral):
// first the joint-velocity rows of id-constraint control (one per actuator at
// most), then kLoopRows per loop closure.
struct BilateralWorkspace {
  Eigen::MatrixXd B;             // nv × max_bilateral: row directions b_r
  std::vector<int> row_support;  // nv per row: DOFs of b_r, decreasing
  std::vector<int> row_support_len;
  std::vector<int> dof_mark;       // nv: scratch for support unions
  Eigen::VectorXd row_lo, row_hi;  // max_bilateral: impulse box
  Eigen::MatrixXd loop_J;          // kLoopRows × nv: one cut joint's rows
  Eigen::VectorXd loop_phi;        // kLoopRows: its position error
  // Direct loop solve (LoopSolver::kDirect): G_LL, G_LL⁻¹ G_LR, G_LL⁻¹ c_L.
  Eigen::MatrixXd G_LL;
  Eigen::MatrixXd Z;
  Eigen::VectorXd z;
  Eigen::LDLT<Eigen::MatrixXd> ldlt{0};
};

// The QP models' contact solve (LeastConstraintContactSolve, MembraneForces,
// MacroContactSolve), n ≤ 3 max_contacts unknowns.
struct QpWorkspace {
  contact::QpSolver solver{0};
  Eigen::MatrixXd P;                       // 3 n_c × 3 n_c: the QP's P
  Eigen::MatrixXd P2;                      // 3 n_c × 3 n_c: second P (staggered friction) / A
  Eigen::VectorXd q;                       // 3 n_c: the QP's q
  Eigen::VectorXd x;                       // 3 n_c: the QP's x
  Eigen::VectorXd target;                  // 3 n_c: right-hand sides (003 eq. 32's v)
  Eigen::VectorXd prev;                    // 3 n_c: previous staggered iterate
  Eigen::VectorXd impact_Lambda;           // 3 n_c: impact percussions (004 eq. 24)
  std::vector<contact::ConeBlock> blocks;  // ≤ 3 n_c blocks
  std::vector<int> select;                 // ≤ n_c: positions in `active` taking part
  std::vector<int> kind;                   // n_c: per active contact, model-specific kind
  std::vector<int> var;                    // n_c: first QP unknown of each active contact
  Eigen::MatrixXd dir;                     // 3 × 3 n_c: contact-frame direction of each unknown
  Eigen::VectorXd h_contact;               // nv: the membrane's Σ J_kᵀ λ_k
  contact::QpResult last{};                // summed iterations of the last step's QPs
  bool last_impact = false;                // least-constraint: the last step projected an impact
};

// The force laws' explicit integration (ExplicitStep): Runge–Kutta stages.
struct ForceLawWorkspace {
  std::vector<contact::ContactState> stage_states;  // per-stage copy of the contact memory
  Eigen::VectorXd q_stage;                          // nq
  Eigen::VectorXd k_v[4];                           // nv: stage velocities (RK)
  Eigen::VectorXd k_a[4];                           // nv: stage accelerations (RK)
  Eigen::VectorXd v_sum;                            // nv
};

// Hertz friction by backward Euler (implicit_friction.h), 2 max_contacts
// unknowns: the slip velocities v⁺ of the active contacts, padded.
struct ImplicitFrictionWorkspace {
  Eigen::MatrixXd A;  // Δt G_TT
  Eigen::MatrixXd J;  // Newton's I + A H
  Eigen::MatrixXd H;  // 2 × 2 max_contacts: each contact's ∂φ/∂v
  Eigen::PartialPivLU<Eigen::MatrixXd> lu{0};
  Eigen::VectorXd c;      // free slip velocities W_Tᵀ(v + Δt q̈₀)
  Eigen::VectorXd v;      // v⁺
  Eigen::VectorXd phi;    // φ(v⁺)
  Eigen::VectorXd R;      // residual v⁺ − c + A φ
  Eigen::VectorXd step;   // Newton step
  Eigen::VectorXd trial;  // v⁺ − t step
  Eigen::VectorXd fn;     // max_contacts: normal forces
  // The step's friction, solved at its first stage and held by the others:
  // W_T λ_T (nv) and each slot's force λ_T1 t1 + λ_T2 t2 (world; 0 if open).
  Eigen::VectorXd tau;
  std::vector<Vec3> force;
  int last_iterations = 0;     // Newton iterations of the last solve
  bool last_converged = true;  // its residual met the tolerance
};

// Scratch of one step, grouped by the stage (stages.h) that owns each buffer:
// the stage that writes it first in a step; later stages read it. The
// contact-solve strategies each own one group.
struct StepWorkspace {
  // --- positions, velocities, smooth dynamics (Data's own groups) ---
  Data data;

  // --- actuation (Actuation) ---
  Eigen::VectorXd h;          // nv: τ − c − g (− Σ Jᵀ f_ext), then + the membrane's W λ
  Eigen::VectorXd tau_total;  // nv: −Σ Jᵀ f_ext; explicit: actuation (+ held W_T λ_T)

  // --- contacts (ContactDetection, the contact velocities, ActivateContacts) ---
  contact::ContactSet contacts;
  int max_contacts = 0;
  std::vector<int> active;   // slots of the active contacts
  std::vector<int> closed;   // positions in `active` of the closed ones
  std::vector<int> support;  // nv per active contact: its SupportDofs
  std::vector<int> support_len;

  // --- contact solve, shared by the solves (000 eq. 6–19), for up to
  // max_contacts active contacts and max_bilateral rows ---
  int max_bilateral = 0;
  Eigen::MatrixXd Y;       // nv × 3 n_c: L⁻ᵀ W, W = [w_N, w_T1, w_T2] per contact
  Eigen::MatrixXd Y_path;  // nv × 6 n_c: Y and D⁻¹ Y on each support path (AssembleDelassus)
  Eigen::MatrixXd G;       // 3 n_c × 3 n_c Delassus matrix Wᵀ M⁻¹ W = Yᵀ D⁻¹ Y
  Eigen::VectorXd W_Lambda;  // nv: M⁻¹ W Λ (MoreauStep without bilateral rows: L⁻ᵀ (h Δt + W Λ))
  Eigen::VectorXd c;         // 3 n_c: Wᵀ u_free
  Eigen::VectorXd gamma_S;  // 3 n_c: Wᵀ u_S
  Eigen::VectorXd Lambda;   // 3 n_c: impulses (in: the warm start, ActivateContacts)
  Eigen::VectorXd u_free;   // nv: u_S + M⁻¹ h Δt; out: the end velocity u_E (Integrate)
  Eigen::VectorXd v_stage;  // nv: least-constraint's velocity of a J̇v pass; explicit: Heun

  // --- contact solve strategies, one group each ---
  ProxWorkspace prox;
  BilateralWorkspace bilateral;
  QpWorkspace qp;
  ForceLawWorkspace force_law;
  ImplicitFrictionWorkspace friction;
};

// Rows per loop closure (a revolute cut joint: 3 translations, 2 tilts).
inline constexpr int kLoopRows = 5;

StepWorkspace MakeStepWorkspace(const Model& model);

// The first nc active contacts of a step, as the Delassus and impulse
// routines (delassus.h) take them: their slots, and each one's support path
// (nv entries per contact, support_len of them used).
struct ActiveContacts {
  std::span<const int> active;
  std::span<const int> support;
  std::span<const int> support_len;
};
inline ActiveContacts ActiveContactsOf(const StepWorkspace& w, int nc, int nv) {
  return {std::span<const int>(w.active.data(), nc),
          std::span<const int>(w.support.data(), static_cast<size_t>(nc) * nv),
          std::span<const int>(w.support_len.data(), nc)};
}

}  // namespace moreau::step

#endif  // MOREAU_ENGINE_STEP_WORKSPACE_H_
