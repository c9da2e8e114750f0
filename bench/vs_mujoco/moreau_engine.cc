#include "bench/vs_mujoco/moreau_engine.h"

#include <utility>
#include <variant>

#include "absl/strings/str_cat.h"
#include "engine/contact/contact_set.h"
#include "engine/util/status_macros.h"

namespace moreau::bench::vs_mujoco {

absl::StatusOr<sim::Settings> MoreauSettings(std::string_view contact, double dt, double mu,
                                             const sim::ControllerSettings& controller) {
  sim::Settings settings;
  settings.control.mode = sim::ControlMode::kTorque;
  settings.controller = controller;
  MOREAU_ASSIGN_OR_RETURN(const sim::ContactModel model, sim::ParseContactModel(contact));
  settings.contact = sim::DefaultContactSettings(model);
  settings.dt = dt;
  // μ of the impulse law and of the force laws (hertz: static and dynamic).
  if (auto* s = std::get_if<sim::MoreauSettings>(&settings.contact)) s->law.mu = mu;
  if (auto* s = std::get_if<sim::SpringDamperSettings>(&settings.contact)) s->law.mu = mu;
  if (auto* s = std::get_if<sim::HertzSettings>(&settings.contact)) {
    s->law.mu_static = mu;
    s->law.mu_dynamic = mu;
  }
  if (auto* s = std::get_if<sim::MicroSettings>(&settings.contact)) s->law.mu = mu;
  MOREAU_RETURN_IF_ERROR(sim::Validate(settings));
  return settings;
}

absl::StatusOr<std::unique_ptr<MoreauEngine>> MoreauEngine::Create(
    std::shared_ptr<const Model> model, const sim::Settings& settings) {
  MOREAU_ASSIGN_OR_RETURN(std::unique_ptr<sim::Simulation> simulation,
                          sim::Simulation::Create(std::move(model), settings));
  return std::unique_ptr<MoreauEngine>(new MoreauEngine(std::move(simulation)));
}

MoreauEngine::MoreauEngine(std::unique_ptr<sim::Simulation> simulation)
    : simulation_(std::move(simulation)),
      zero_action_(Eigen::VectorXd::Zero(simulation_->model().nu())),
      feet_(FootSlots(simulation_->model())) {}

std::string MoreauEngine::ContactName() const {
  return sim::ContactModelName(sim::ModelOf(simulation_->settings().contact));
}

absl::Status MoreauEngine::Reset(const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  simulation_->Reset();
  sim::State state = simulation_->state();
  state.q = q;
  state.v = v;
  state.time = 0.0;
  return simulation_->SetState(state);
}

absl::Status MoreauEngine::Advance(int steps) {
  // τ = the controller's τ (+ a zero action), clamped to the effort limits.
  return simulation_->StepAction(zero_action_, steps);
}

void MoreauEngine::Record(Sample& sample) const {
  const Model& model = simulation_->model();
  const sim::State& s = simulation_->state();
  sample.t = s.time;
  sample.trunk_position = s.q.head<3>();
  sample.trunk_quaternion = s.q.segment<4>(3);
  sample.joints.resize(model.nu());
  for (int a = 0; a < model.nu(); ++a) {
    sample.joints[static_cast<Eigen::Index>(a)] =
        s.q[model.joints[model.actuators[a].joint].q_index];
  }
  const std::vector<contact::Contact>& contacts = simulation_->contacts().contacts;
  sample.foot_normal_force.resize(static_cast<Eigen::Index>(feet_.size()));
  for (size_t f = 0; f < feet_.size(); ++f) {
    sample.foot_normal_force[static_cast<Eigen::Index>(f)] = contacts[feet_[f]].NormalForce();
  }
}

}  // namespace moreau::bench::vs_mujoco
