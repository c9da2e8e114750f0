// Moreau's midpoint time-stepping for hard contact (000 eq. 6–19): unilateral
// contact with spatial Coulomb friction and a Newton-type impact law, solved
// in the velocities by JOR or SOR prox iteration (engine/contact/prox_solver).
#ifndef MOREAU_ENGINE_STEP_MOREAU_STEP_H_
#define MOREAU_ENGINE_STEP_MOREAU_STEP_H_

#include <Eigen/Core>
#include <span>

#include "absl/status/status.h"
#include "engine/contact/prox_solver.h"
#include "engine/contact/terrain.h"
#include "engine/model/model.h"
#include "engine/step/contact_activation.h"
#include "engine/step/stages.h"
#include "engine/step/workspace.h"

namespace moreau::step {

// How the loop-closure rows of a closed kinematic chain are solved.
enum class LoopSolver {
  // In the JOR/SOR prox iteration with every other row (unbounded box).
  kProx,
  // Directly through G_LL⁻¹ (LDLT with pivoting, rows whose Jacobian vanishes
  // dropped): Λ_L = −G_LL⁻¹ (c_L + G_LR Λ_R) substituted into the remaining
  // rows (a Schur complement), which the prox iteration solves.
  kDirect,
};

// Desired joint velocities as bilateral velocity constraints (002's
// inverse-dynamics constraints, 000 eq. 19–20): row r asks u_E[dofs[r]] =
// v_des[r] with an impulse |Λ_r| ≤ bound[r] (τ_max Δt; +∞ allowed). Each dof
// must be a 1-DOF joint's coordinate.
struct JointVelocityRows {
  std::span<const int> dofs;
  std::span<const double> v_des;
  std::span<const double> bound;
};

struct BilateralInputs {
  JointVelocityRows joints;  // empty: no joint rows
  LoopSolver loop_solver = LoopSolver::kProx;
  // The rows' impulses (joint rows first, then loop rows), at least one per
  // row: in, the previous step's (warm start); out, this step's.
  std::span<double> impulses;
};

// Advances (q, v) by dt. `impulses` (3 per contact slot: N, T1, T2) holds the
// previous step's percussions for the warm start and receives this step's
// (zero for inactive slots). Contact forces Λ/Δt land in w.contacts.
// FailedPrecondition when M is not positive definite at the midpoint.
//
// Bilateral rows (000 eq. 19–20) join the contacts in the same prox problem:
// `bilateral.joints` (id-constraint control) and every Model::loop_closures
// cut joint (kLoopRows rows, unbounded, with the velocity target −φ/(½Δt)
// that removes the midpoint's position error φ by the step's end: position
// stabilisation without drift). Their impulses land in bilateral.impulses
// (joint rows first, then loop rows) and warm-start the next step.
// InvalidArgument as ValidateBilateral. The stages, in order: the midpoint
// q_M, ForwardKinematics, SmoothDynamics, Actuation, ContactDetection and
// the velocities, ActivateContacts (horizon ½Δt), ProxContactSolve,
// Integrate over the second half step.
absl::Status MoreauStep(const Model& model, const contact::Terrain& terrain,
                        const contact::ProxParams& prox, const contact::ContactLaw& law, double dt,
                        const StepInputs& inputs, Eigen::VectorXd& q, Eigen::VectorXd& v,
                        std::span<double> impulses, StepWorkspace& w,
                        const BilateralInputs& bilateral = {});

// InvalidArgument when the bilateral rows do not fit the workspace, a span's
// size differs from dofs' or bilateral.impulses has fewer entries than rows.
absl::Status ValidateBilateral(const Model& model, const BilateralInputs& bilateral,
                               const StepWorkspace& w);

// The contact-solve stage of Moreau's step, after ActivateContacts at the
// midpoint (with M factored and w.h from Actuation there): Λ by the JOR/SOR
// prox iteration (000 eq. 11–18) over the active contacts, each with `law`,
// and the bilateral rows (ValidateBilateral'd); the end velocity
// u_E = u_S + M⁻¹ (h Δt + W Λ + B Λ_B) (000 eq. 11) in w.u_free, u_S = v.
// Writes each active slot's impulses and force Λ/Δt, bilateral.impulses and
// w.prox.last. Allocation-free.
void ProxContactSolve(const Model& model, const contact::ProxParams& prox,
                      const contact::ContactLaw& law, double dt, const BilateralInputs& bilateral,
                      const ActiveSet& set, const Eigen::VectorXd& v, std::span<double> impulses,
                      StepWorkspace& w);

}  // namespace moreau::step

#endif  // MOREAU_ENGINE_STEP_MOREAU_STEP_H_
