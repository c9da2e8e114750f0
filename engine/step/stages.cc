#include "engine/step/stages.h"

#include <cstdint>
#include <span>

#include "engine/contact/contact_set.h"
#include "engine/contact/contact_witness.h"
#include "engine/dynamics/configuration.h"
#include "engine/dynamics/crba.h"
#include "engine/dynamics/jacobians.h"
#include "engine/dynamics/rnea.h"

namespace moreau::step {

absl::Status SmoothDynamics(const Model& model, Data& data) {
  if (!CrbaFactor(model, data)) {
    return absl::FailedPreconditionError("mass matrix is not positive definite");
  }
  NonlinearEffects(model, data);
  return absl::OkStatus();
}

void Actuation(const Model& model, const StepInputs& inputs, StepWorkspace& w) {
  w.h = -w.data.tau;
  if (inputs.tau != nullptr) w.h += *inputs.tau;
  if (inputs.f_ext != nullptr) {
    ExternalWrenchForce(model, w.data, *inputs.f_ext, w.tau_total);
    w.h -= w.tau_total;  // ExternalWrenchForce gives −Σ Jᵀ f_ext
  }
}

void ContactDetection(const Model& model, const contact::Terrain& terrain, double horizon,
                      StepWorkspace& w) {
  contact::BroadPhase& broad = w.contacts.broad;
  if (!broad.bounds.empty()) {  // no body with two slots or more: every slot is near
    contact::RunBroadPhase(w.data, terrain, w.contacts.activation_margin, horizon, broad);
  }
  ContactPositions(
      model, w.data,
      broad.any_far ? std::span<const uint8_t>(broad.near) : std::span<const uint8_t>());
  contact::UpdateWitnessPoints(model, terrain, broad, w.data);
  contact::DetectContacts(model, w.data, terrain, w.contacts);
}

void Integrate(const Model& model, double h, const StepWorkspace& w, Eigen::VectorXd& q,
               Eigen::VectorXd& v) {
  v = w.u_free;
  IntegrateConfiguration(model, q, v, h);
  NormalizeConfiguration(model, q);
}

}  // namespace moreau::step
