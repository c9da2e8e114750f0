// One step of the `least-constraint` contact model (004 §2.1, §3.2–3.3):
// contact forces from Gauss's principle of least constraint as a QP in the
// contact forces (004 eq. 5, 16–18) that keeps the closed contact points from
// moving at the end of the step (004 eq. 13c), with λ_N ≥ 0, Coulomb friction
// and complementarity with the gap; an inelastic impact (004 eq. 7–8, 19–24)
// projects the velocity when contact points arrive with approaching
// velocity; the step integrates with 004's explicit (semi-implicit) Euler
// scheme (004 eq. 9, §3.2: "Δt ... the Euler integration time step").
#ifndef MOREAU_ENGINE_STEP_LEAST_CONSTRAINT_STEP_H_
#define MOREAU_ENGINE_STEP_LEAST_CONSTRAINT_STEP_H_

#include <Eigen/Core>
#include <span>

#include "absl/status/status.h"
#include "engine/contact/qp_solver.h"
#include "engine/contact/terrain.h"
#include "engine/model/model.h"
#include "engine/step/contact_activation.h"
#include "engine/step/stages.h"
#include "engine/step/workspace.h"

namespace moreau::step {

// How friction enters the QP.
enum class FrictionCoupling {
  // 004 literally: one QP over all of λ with the friction cone as a
  // constraint, ‖λ_T‖ ≤ μ λ_N. Its KKT conditions make the end-of-step
  // contact velocity γ lie in the dual cone, μ‖γ_T‖ ≤ γ_N: a sliding contact
  // must separate at γ_N = μ‖γ_T‖ (the convex relaxation's "gliding"): the
  // box of box_friction_test launched at 2 m/s with μ = 0.5 stops after the
  // Coulomb distance but hops up to 19 mm (normal velocity up to 0.6 m/s)
  // on the way.
  kCone,
  // Staggered projections (Kaufman, Sueda, James & Pai, "Staggered
  // projections for frictional contact in multibody systems", SIGGRAPH Asia
  // 2008): alternately the normal QP (004 eq. 18 over λ_N ≥ 0, λ_T fixed) and
  // the friction QP (eq. 18 over λ_T with ‖λ_T,i‖ ≤ μ λ_N,i, λ_N fixed), each
  // a Gauss least-constraint problem on its own variables. The fixed point is
  // Signorini + maximal dissipation (Coulomb): closed contacts neither
  // penetrate nor lift while sliding, the friction opposes the slip.
  kStaggered,
};

// "cone", "staggered".
const char* FrictionCouplingName(FrictionCoupling coupling);

struct LeastConstraintParams {
  // Friction coefficient μ. 004 gives no value (its simulator takes it per
  // robot); 0.8 is 000's, as for the Moreau laws (contact::ContactLaw).
  double mu = 0.8;
  // kStaggered: ours, see FrictionCoupling (004's kCone is available).
  FrictionCoupling friction = FrictionCoupling::kStaggered;
  // Tikhonov term ε mean(diag A) added to A = J M⁻¹ Jᵀ's diagonal (ours; 004
  // has none): with more than three coplanar contact points on one body
  // (a box-shaped sole: the hyperstatic case of 003 §III-B) A is singular and
  // the force distribution not unique; ε picks the least-norm one so that the
  // four corner forces of a sole are the same from step to step.
  double regularization = 1e-6;
  // A closed contact (g_N ≤ 0) approaching faster than this (m/s) triggers
  // 004's impact projection (eq. 22–24) before the forces are solved. Ours:
  // 004 applies it at every collision; below 0.1 mm/s the force QP's end-
  // of-step constraint (eq. 13c) stops the point by itself within the step.
  double impact_velocity = 1e-4;
  // Solves of the force QP per step: the first with 004's J̇ν (start
  // velocity) in eq. 13c, each further one with J̇ evaluated at the previous
  // solve's end velocity (ours; see LeastConstraintStep). 2: at landing the
  // biped's soles then end the step at rest (< 0.1 mm/s) instead of
  // 4.5 mm/s.
  int jdot_passes = 2;
  // kStaggered: at most this many normal/friction alternations, stopping when
  // no λ entry moves by more than qp's tolerances (ours; Kaufman et al.
  // report a few per step, warm-started).
  int max_staggered_iterations = 50;
  // The QP iterations one step may spend over all its solves (the impact,
  // each J̇ pass, each staggered alternation): each QP is cut to what is
  // left, no further alternation or pass starts once it is spent, and the
  // step reports not converged (ours: a bound on one step's work, ten full
  // QP solves; the quadrupeds' steps take tens to hundreds, a falling
  // biped's up to about ten thousand).
  int max_step_qp_iterations = 10000;
  contact::QpParams qp;
};

// InvalidArgument naming the field ("least_constraint.<field>") and value
// unless μ is finite ≥ 0, regularization finite ≥ 0, impact_velocity finite
// ≥ 0, jdot_passes ≥ 1, max_staggered_iterations ≥ 1, max_step_qp_iterations ≥ 1,
// friction a FrictionCoupling and qp valid.
absl::Status Validate(const LeastConstraintParams& params);

// Advances (q, v) by dt. Contacts in the QP: the closed ones (g_N ≤ 0) and
// those the motion would close within the step (g_N + Δt γ_N ≤ 0), whose
// normal row then targets the surface (end gap ≥ 0) instead of zero
// velocity: λ_N > 0 only where the gap closes (004 §2.1.1's complementarity).
// `impulses` (3 per contact slot: N, T1, T2, N s) holds the previous step's
// λΔt for the warm start and receives this step's. Forces λ (world) land in
// w.contacts[k].force; the QP iterations in w.qp.last; w.qp.last_impact tells
// whether the impact projection ran. FailedPrecondition when M is not
// positive definite. The stages, in order: ContactJdotV (kinematics with
// J̇v), SmoothDynamics, Actuation, ContactDetection and the velocities,
// ActivateContacts, LeastConstraintContactSolve, Integrate.
absl::Status LeastConstraintStep(const Model& model, const contact::Terrain& terrain,
                                 const LeastConstraintParams& params, double dt,
                                 const StepInputs& inputs, Eigen::VectorXd& q, Eigen::VectorXd& v,
                                 std::span<double> impulses, StepWorkspace& w);

// The contact-solve stage of the least-constraint step, after
// ActivateContacts (horizon Δt) with the kinematics, J̇v, M's factor and w.h
// of (q, v): the impact projection when a closed contact approaches faster
// than params.impact_velocity (004 eq. 19–24), then the force QP (004
// eq. 13c, 18) params.jdot_passes times; the end velocity u_E = ν + Δt M⁻¹
// (Sτ − h + Jᵀ λ) in w.u_free. Writes the active slots' impulses and forces,
// contacts.num_active, w.qp.last and w.qp.last_impact. Allocation-free.
void LeastConstraintContactSolve(const Model& model, const LeastConstraintParams& params, double dt,
                                 const ActiveSet& set, const Eigen::VectorXd& q,
                                 const Eigen::VectorXd& v, std::span<double> impulses,
                                 StepWorkspace& w);

}  // namespace moreau::step

#endif  // MOREAU_ENGINE_STEP_LEAST_CONSTRAINT_STEP_H_
