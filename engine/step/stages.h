// The stages of a time step, as MuJoCo's mj_step reads (mj_fwdPosition,
// mj_fwdVelocity, mj_fwdActuation, mj_fwdAcceleration, mj_fwdConstraint,
// mj_Euler). Every contact model's step runs them in this order; a contact
// model is a strategy for the contact-solve stage only.
//
//   1. positions    ForwardKinematics(q) (kinematics.h): X_up, X_0
//   2. velocities   ForwardKinematics(q, v) or AbaVelocities: body twists
//   3. smooth       SmoothDynamics: M = LᵀDL (CRBA) and c + g (RNEA)
//   4. actuation    Actuation: h = τ − c − g − Σ Jᵀ f_ext
//   5. contacts     ContactDetection, the contact velocities
//                   (contact_set.h), ActivateContacts (contact_activation.h)
//   6. contact solve, by contact model: the force laws (contact_forces.h,
//                   with ABA), ProxContactSolve (moreau_step.h),
//                   LeastConstraintContactSolve, MicroMacroContactSolve
//   7. integration  Integrate (or the explicit step's Euler, Heun, RK4)
//
// The stages read what the earlier ones left in the workspace's Data and
// contact set; none recomputes another's output.
#ifndef MOREAU_ENGINE_STEP_STAGES_H_
#define MOREAU_ENGINE_STEP_STAGES_H_

#include <Eigen/Core>
#include <vector>

#include "absl/status/status.h"
#include "engine/contact/terrain.h"
#include "engine/dynamics/data.h"
#include "engine/model/model.h"
#include "engine/step/contact_activation.h"
#include "engine/step/workspace.h"

namespace moreau::step {

// The forces acting during one step: joint torques τ (nv, base entries
// usually zero) and external wrenches per body (body coordinates, may be
// null).
struct StepInputs {
  const Eigen::VectorXd* tau = nullptr;
  const std::vector<Force>* f_ext = nullptr;
};

// Stage 3, smooth dynamics, after ForwardKinematics(q, v) (or ContactJdotV):
// M by CRBA straight into its factor LᵀDL (data.M is not formed) and
// data.tau = c + g by RNEA (000 eq. 1; 004 eq. 1–2). FailedPrecondition when
// M is not positive definite. Allocation-free.
absl::Status SmoothDynamics(const Model& model, Data& data);

// Stage 4, actuation, after SmoothDynamics: w.h = τ − c − g − Σ Jᵀ f_ext,
// the right-hand side of M u̇ = h + W λ (000 eq. 1; 004 eq. 1–2:
// M ν̇_f = Sτ − h). Allocation-free.
void Actuation(const Model& model, const StepInputs& inputs, StepWorkspace& w);

// Stage 5, contact detection at the q of the last ForwardKinematics: the
// broad phase (contact/broad_phase.h), then for the slots of the near bodies
// the contact points' world positions (data.contact_position; the witness
// points of sphere-bottom and rim slots, contact_witness.h) and every slot's
// gap, frame and active flag (contact::DetectContacts). `horizon` is the t of
// the activation rule the step applies next (ActivateContacts), 0 for a step
// that activates by g_N alone; with t > 0 data.v must hold the body twists at
// the step's q and v. Allocation-free.
void ContactDetection(const Model& model, const contact::Terrain& terrain, double horizon,
                      StepWorkspace& w);

// Stage 7, integration, after a contact solve that left the end velocity
// u_E in w.u_free: v = u_E and q ← q ⊕ h v (000 eq. 7, 22), the quaternion
// renormalized. Allocation-free.
void Integrate(const Model& model, double h, const StepWorkspace& w, Eigen::VectorXd& q,
               Eigen::VectorXd& v);

}  // namespace moreau::step

#endif  // MOREAU_ENGINE_STEP_STAGES_H_
