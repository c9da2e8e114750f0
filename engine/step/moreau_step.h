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
#include "engine/step/explicit_step.h"
#include "engine/step/workspace.h"

namespace moreau::step {

// Advances (q, v) by dt. `impulses` (3 per contact slot: N, T1, T2) holds the
// previous step's percussions for the warm start and receives this step's
// (zero for inactive slots). Contact forces Λ/Δt land in w.contacts.
// FailedPrecondition when M is not positive definite at the midpoint.
absl::Status MoreauStep(const Model& model, const contact::Terrain& terrain,
                        const contact::ProxParams& prox, const contact::ContactLaw& law, double dt,
                        const StepInputs& inputs, Eigen::VectorXd& q, Eigen::VectorXd& v,
                        std::span<double> impulses, StepWorkspace& w);

}  // namespace moreau::step

#endif  // MOREAU_ENGINE_STEP_MOREAU_STEP_H_
