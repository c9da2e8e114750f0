#include "engine/step/smooth_dynamics.h"

#include "engine/dynamics/crba.h"
#include "engine/dynamics/rnea.h"

namespace moreau::step {

absl::Status MassMatrixAndForces(const Model& model, const StepInputs& inputs, StepWorkspace& w) {
  Data& data = w.data;
  // M's entries straight into the factor's rows (data.M is not formed).
  if (!CrbaFactorFromKinematics(model, data)) {
    return absl::FailedPreconditionError("mass matrix is not positive definite");
  }
  w.h = -NonlinearEffectsFromKinematics(model, data);
  if (inputs.tau != nullptr) w.h += *inputs.tau;
  if (inputs.f_ext != nullptr) {
    ExternalWrenchForce(model, data, *inputs.f_ext, w.tau_total);
    w.h -= w.tau_total;  // ExternalWrenchForce gives −Σ Jᵀ f_ext
  }
  return absl::OkStatus();
}

}  // namespace moreau::step
