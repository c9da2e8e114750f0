// The smooth part of a time step shared by the steps that solve contact
// impulses or forces (Moreau, least-constraint, micro-macro): M and h at the
// kinematics already in the workspace's Data.
#ifndef MOREAU_ENGINE_STEP_SMOOTH_DYNAMICS_H_
#define MOREAU_ENGINE_STEP_SMOOTH_DYNAMICS_H_

#include "absl/status/status.h"
#include "engine/model/model.h"
#include "engine/step/explicit_step.h"
#include "engine/step/workspace.h"

namespace moreau::step {

// After ForwardKinematics (or ContactJdotV) into w.data: M by CRBA, factored
// (LᵀDL), and w.h = τ − c − g − Σ Jᵀ f_ext, the right-hand side of
// M u̇ = h + W λ (000 eq. 1; 004 eq. 1–2: M ν̇_f = Sτ − h). FailedPrecondition
// when M is not positive definite. Allocation-free.
absl::Status MassMatrixAndForces(const Model& model, const StepInputs& inputs, StepWorkspace& w);

}  // namespace moreau::step

#endif  // MOREAU_ENGINE_STEP_SMOOTH_DYNAMICS_H_
