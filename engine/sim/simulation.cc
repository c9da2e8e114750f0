#include "engine/sim/simulation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <variant>

#include "absl/strings/str_cat.h"
#include "engine/model/loop_closures.h"
#include "engine/sim/explicit_substeps.h"
#include "engine/sim/make_controller.h"
#include "engine/step/explicit_step.h"
#include "engine/step/least_constraint_step.h"
#include "engine/step/micro_macro_step.h"
#include "engine/step/moreau_step.h"
#include "engine/util/finite.h"
#include "engine/util/status_macros.h"

namespace moreau::sim {
namespace {

// `value` within a command element's bounds.
double Clamp(const control::CommandElement& element, double value) {
  return std::clamp(value, element.lower, element.upper);
}

// The law and parameters step::ExplicitStep evaluates for a force-law model
// (spring-damper, hertz, micro); the spring-damper defaults, unused, for the
// others.
contact::ContactForceParams ForceLawParams(const ContactSettings& contact) {
  contact::ContactForceParams params;
  if (const auto* s = std::get_if<SpringDamperSettings>(&contact)) {
    params.law = contact::ContactForceLaw::kSpringDamper;
    params.spring_damper = s->law;
  } else if (const auto* s = std::get_if<HertzSettings>(&contact)) {
    params.law = contact::ContactForceLaw::kHertz;
    params.hertz = s->law;
  } else if (const auto* s = std::get_if<MicroSettings>(&contact)) {
    params.law = contact::ContactForceLaw::kMicro;
    params.micro = s->law;
  }
  return params;
}

// Explicit updates per step (Simulation::force_law_substeps): the
// spring-damper's given count, or its stability count (explicit_substeps.h),
// which must stay within kMaxExplicitSubsteps; 1 for the other models.
absl::StatusOr<int> ForceLawSubsteps(const Model& model, const Settings& settings) {
  const auto* s = std::get_if<SpringDamperSettings>(&settings.contact);
  if (s == nullptr) return 1;
  if (s->substeps > 0) return s->substeps;
  const double mass = LightestContactMass(model, settings.terrain);
  const double stable = StableSpringDamperStep(s->law, mass);
  if (settings.dt > kMaxExplicitSubsteps * stable) {
    return absl::InvalidArgumentError(absl::StrCat(
        "spring-damper: the lightest contact point of model '", model.name, "' (", mass,
        " kg) is stable up to steps of ", stable, " s: dt = ", settings.dt,
        " s would need more than ", kMaxExplicitSubsteps,
        " explicit updates per step; lower the stiffness, the damping or dt, or set the "
        "contact parameter substeps"));
  }
  return SpringDamperSubsteps(s->law, mass, settings.dt);
}

}  // namespace

absl::StatusOr<std::unique_ptr<Simulation>> Simulation::Create(std::shared_ptr<const Model> model,
                                                               const Settings& settings) {
  if (model == nullptr) return absl::InvalidArgumentError("no model");
  const Settings& s = settings;
  MOREAU_RETURN_IF_ERROR(Validate(s));
  MOREAU_RETURN_IF_ERROR(ValidateLoopClosures(*model));
  const ContactModel contact_model = ModelOf(s.contact);
  if (s.control.mode == ControlMode::kIdConstraint && !IsHardContact(contact_model)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "control mode '", ControlModeName(s.control.mode), "' needs a hard-contact model ",
        "(moreau-jor or moreau-sor), got contact model '", ContactModelName(contact_model), "'"));
  }
  if (!model->loop_closures.empty() && !IsHardContact(contact_model)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "model '", model->name, "' has ", model->loop_closures.size(),
        " loop closure(s) (cut joints), which need a hard-contact model (moreau-jor or "
        "moreau-sor), got contact model '",
        ContactModelName(contact_model), "'"));
  }
  if (s.gravity != model->gravity || s.transmission.active()) {
    // The model is shared and immutable: a different gravity or transmission
    // gets its own copy.
    auto copy = std::make_shared<Model>(*model);
    copy->gravity = s.gravity;
    if (s.transmission.active()) {
      for (Actuator& actuator : copy->actuators) {
        if (s.transmission.gear > 0.0) actuator.gear = s.transmission.gear;
        if (s.transmission.rotor_inertia > 0.0) {
          actuator.rotor_inertia = s.transmission.rotor_inertia;
        }
      }
      UpdateArmature(*copy);  // 002 §IV-C: N²·I_rotor on M's diagonal
    }
    model = std::move(copy);
  }
  MOREAU_ASSIGN_OR_RETURN(std::unique_ptr<control::Controller> controller,
                          MakeSimulationController(*model, s));
  if (s.control.mode == ControlMode::kCommand) {
    const ControllerKind kind = s.controller.kind;
    if (kind != ControllerKind::kStand && kind != ControllerKind::kTrot &&
        kind != ControllerKind::kPdTrot) {
      return absl::InvalidArgumentError(absl::StrCat(
          "control mode 'command' drives the controller by its command: needs the controller "
          "stand, trot or pd-trot, got ",
          kind == ControllerKind::kNone ? "none" : ControllerKindName(kind)));
    }
  }
  MOREAU_ASSIGN_OR_RETURN(const int force_law_substeps, ForceLawSubsteps(*model, s));
  return std::unique_ptr<Simulation>(
      new Simulation(std::move(model), s, std::move(controller), force_law_substeps));
}

Simulation::Simulation(std::shared_ptr<const Model> model, const Settings& settings,
                       std::unique_ptr<control::Controller> controller, int force_law_substeps)
    : model_(std::move(model)),
      settings_(settings),
      force_law_(ForceLawParams(settings.contact)),
      integrator_(ForceLawIntegrator(settings.contact) != nullptr
                      ? *ForceLawIntegrator(settings.contact)
                      : step::Integrator::kSemiImplicitEuler),
      force_law_substeps_(force_law_substeps),
      state_(DefaultState(*model_)),
      last_good_(state_),
      workspace_(step::MakeStepWorkspace(*model_)),
      tau_(Eigen::VectorXd::Zero(model_->nv)),
      actuation_(MakeActuationScratch(*model_, settings.dt)),
      controller_(std::move(controller)),
      controlled_action_(Eigen::VectorXd::Zero(model_->nu())) {
  // A force law's step writes no impulses (step::ExplicitStep).
  step_writes_.impulses = ForceLawIntegrator(settings_.contact) == nullptr;
  step_writes_.controller = controller_ != nullptr;
}

void Simulation::Reset() {
  state_ = DefaultState(*model_);
  state_checked_ = false;
  diverged_ = false;
  diverged_message_.clear();
}

void Simulation::ResetWithNoise(uint64_t seed, double scale) {
  Reset();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-scale, scale);
  for (const Joint& j : model_->joints) {
    if (j.type != JointType::kFree) state_.q[j.q_index] += u(rng);
  }
  for (int i = 0; i < model_->nv; ++i) state_.v[i] = u(rng);
}

absl::Status Simulation::SetState(const State& s) {
  const Model& m = *model_;
  if (s.q.size() != m.nq) {
    return absl::InvalidArgumentError(absl::StrCat("q has size ", s.q.size(), ", expected ", m.nq));
  }
  if (s.v.size() != m.nv) {
    return absl::InvalidArgumentError(absl::StrCat("v has size ", s.v.size(), ", expected ", m.nv));
  }
  if (!s.q.allFinite() || !s.v.allFinite() || !std::isfinite(s.time)) {
    return absl::InvalidArgumentError("state has non-finite q, v or time");
  }
  State next = s;
  if (next.contact_states.size() != m.contact_points.size()) {
    next.contact_states.assign(m.contact_points.size(), contact::ContactState{});
  }
  if (next.impulses.size() != 3 * m.contact_points.size()) {
    next.impulses.assign(3 * m.contact_points.size(), 0.0);
  }
  if (m.floating_base) {
    const double n = next.q.segment<4>(3).norm();
    if (!(n > 1e-9)) return absl::InvalidArgumentError("base quaternion has zero norm");
    next.q.segment<4>(3) /= n;
  }
  if (next.bilateral_impulses.size() != static_cast<size_t>(BilateralRowCount(m))) {
    next.bilateral_impulses.assign(static_cast<size_t>(BilateralRowCount(m)), 0.0);
  }
  if (next.controller_command.size() != m.nv || !next.controller_command.allFinite()) {
    next.controller_command = Eigen::VectorXd::Zero(m.nv);
  }
  state_ = std::move(next);
  FitCommand();
  state_checked_ = false;
  diverged_ = false;
  diverged_message_.clear();
  return absl::OkStatus();
}

void Simulation::FitCommand() {
  control::ControllerState& c = state_.controller;
  if (settings_.control.mode != ControlMode::kCommand || controller_ == nullptr) {
    c.command_set = false;
    c.command.fill(0.0);
    return;
  }
  const std::span<const control::CommandElement> elements = controller_->CommandElements();
  for (size_t k = 0; k < c.command.size(); ++k) {
    c.command[k] = k < elements.size() ? Clamp(elements[k], c.command[k]) : 0.0;
  }
}

absl::Status Simulation::Restore(std::string_view bytes) {
  MOREAU_ASSIGN_OR_RETURN(State s, DeserializeState(*model_, bytes));
  state_ = std::move(s);
  FitCommand();
  state_checked_ = false;
  diverged_ = false;
  diverged_message_.clear();
  return absl::OkStatus();
}

void Simulation::MarkDiverged(std::string message) {
  diverged_ = true;
  diverged_message_ = std::move(message);
}

absl::Status Simulation::RecordDivergence(absl::Status failure) {
  MarkDiverged(std::string(failure.message()));
  return failure;
}

bool Simulation::StateOutOfBounds() const {
  // The bounds are finite: an infinite max_speed bounds by the largest double.
  const double speed_bound = std::min(settings_.max_speed, std::numeric_limits<double>::max());
  return !AllWithin(state_.q, kMaxCoordinate) || !AllWithin(state_.v, speed_bound);
}

absl::Status Simulation::StepOnce(const Eigen::VectorXd& tau, const std::vector<Force>* f_ext,
                                  const step::JointVelocityRows& joint_rows) {
  const step::StepInputs inputs{&tau, f_ext};
  const double dt = settings_.dt;
  if (const auto* moreau = std::get_if<MoreauSettings>(&settings_.contact)) {
    // The bilateral rows' warm start is part of the State (snapshots restore it).
    const step::BilateralInputs bilateral{joint_rows, moreau->loop_solver,
                                          state_.bilateral_impulses};
    MOREAU_RETURN_IF_ERROR(step::MoreauStep(*model_, settings_.terrain, moreau->prox, moreau->law,
                                            dt, inputs, state_.q, state_.v, state_.impulses,
                                            workspace_, bilateral));
    report_.solver_iterations = workspace_.prox.last.iterations;
    report_.solver_converged = workspace_.prox.last.converged;
  } else if (const auto* least = std::get_if<LeastConstraintSettings>(&settings_.contact)) {
    MOREAU_RETURN_IF_ERROR(step::LeastConstraintStep(*model_, settings_.terrain, least->params, dt,
                                                     inputs, state_.q, state_.v, state_.impulses,
                                                     workspace_));
    report_.solver_iterations = workspace_.qp.last.iterations;
    report_.solver_converged = workspace_.qp.last.converged;
    report_.impact = workspace_.qp.last_impact;
  } else if (const auto* micro_macro = std::get_if<MicroMacroSettings>(&settings_.contact)) {
    MOREAU_RETURN_IF_ERROR(step::MicroMacroStep(*model_, settings_.terrain, micro_macro->params, dt,
                                                inputs, state_.q, state_.v, state_.contact_states,
                                                state_.impulses, workspace_));
    report_.solver_iterations = workspace_.qp.last.iterations;
    report_.solver_converged = workspace_.qp.last.converged;
  } else {
    // Δt in force_law_substeps_ explicit updates of Δt / n, τ held.
    const double h = force_law_substeps_ == 1 ? dt : dt / force_law_substeps_;
    for (int k = 0; k < force_law_substeps_; ++k) {
      step::ExplicitStep(*model_, settings_.terrain, force_law_, integrator_, h, inputs, state_.q,
                         state_.v, state_.contact_states, workspace_);
    }
    // Hertz friction stepped implicitly reports its Newton solve; the other
    // force laws solve nothing.
    const bool implicit =
        force_law_.law == contact::ContactForceLaw::kHertz && force_law_.hertz.implicit_friction;
    report_.solver_iterations = implicit ? workspace_.friction.last_iterations : 0;
    report_.solver_converged = !implicit || workspace_.friction.last_converged;
  }
  report_.active_contacts = workspace_.contacts.num_active;
  if (!std::holds_alternative<LeastConstraintSettings>(settings_.contact)) report_.impact = false;
  state_.time += dt;
  ++state_.steps;
  return absl::OkStatus();
}

template <typename SetTau, typename AfterStep>
absl::Status Simulation::StepLoop(int substeps, absl::Time stop_at, const std::vector<Force>* f_ext,
                                  SetTau set_tau, const step::JointVelocityRows& joint_rows,
                                  AfterStep after_step) {
  if (substeps < 1) {
    return absl::InvalidArgumentError(absl::StrCat("substeps must be ≥ 1, got ", substeps));
  }
  if (diverged_) {
    return absl::FailedPreconditionError(
        absl::StrCat("the simulation diverged (", diverged_message_,
                     "); reset it or set a state before stepping"));
  }
  const bool has_deadline = stop_at != absl::InfiniteFuture();
  for (int k = 0; k < substeps; ++k) {
    // The deadline first: a call past it steps nothing, whatever the state.
    if (has_deadline && absl::Now() >= stop_at) {
      return absl::DeadlineExceededError(
          absl::StrCat("stepped ", k, " of ", substeps, " sub-steps before the call's deadline"));
    }
    // A state set or restored beyond max_speed is not stepped: the step never
    // leaves one (it keeps the last good state), and solving contact from it
    // costs every solver its iteration limit. Later sub-steps start from a
    // state the previous one checked.
    if (k == 0 && !state_checked_ && StateOutOfBounds()) {
      return RecordDivergence(absl::FailedPreconditionError(absl::StrCat(
          "the state is diverged (a speed above max_speed = ", settings_.max_speed,
          " or a coordinate beyond ", kMaxCoordinate, "); set or reset a state before stepping")));
    }
    // From here on state_ is a checked state: this one, a step's that passed
    // the check below, or last_good_ put back.
    state_checked_ = true;
    CopyState(state_, last_good_, step_writes_);
    set_tau(state_);
    absl::Status status = StepOnce(tau_, f_ext, joint_rows);
    if (status.ok()) after_step();
    if (status.ok() && StateOutOfBounds()) {
      status = absl::FailedPreconditionError(
          absl::StrCat("simulation diverged at t = ", state_.time,
                       " s (non-finite or exploding state); the last good state is kept"));
    }
    if (!status.ok()) {
      CopyState(last_good_, state_, step_writes_);
      // A step that failed on the state (diverged, or M(q) not positive
      // definite) leaves the simulation diverged; other failures do not.
      if (absl::IsFailedPrecondition(status)) return RecordDivergence(std::move(status));
      return status;
    }
  }
  return absl::OkStatus();
}

absl::Status Simulation::ValidateExternalWrenches(const std::vector<Force>* f_ext) const {
  if (f_ext != nullptr && f_ext->size() != static_cast<size_t>(model_->nbodies)) {
    return absl::InvalidArgumentError(absl::StrCat("external wrenches for ", f_ext->size(),
                                                   " bodies, expected ", model_->nbodies));
  }
  return absl::OkStatus();
}

absl::Status Simulation::Step(const Eigen::VectorXd& tau, int substeps,
                              const std::vector<Force>* f_ext) {
  const Model& m = *model_;
  if (tau.size() != m.nv) {
    return absl::InvalidArgumentError(
        absl::StrCat("tau has size ", tau.size(), ", expected ", m.nv));
  }
  if (!AllFinite(tau)) return absl::InvalidArgumentError("tau has a non-finite entry");
  MOREAU_RETURN_IF_ERROR(ValidateExternalWrenches(f_ext));
  return StepLoop(
      substeps, absl::InfiniteFuture(), f_ext, [&](const State&) { tau_ = tau; }, {}, [] {});
}

void Simulation::RunController() {
  if (controller_ == nullptr) return;
  const int period = settings_.controller.period_steps;
  // Every period-th step (a 64-bit division saved at the usual period 1).
  if (period > 1 && state_.steps % static_cast<uint64_t>(period) != 0) return;
  const double dt = period * settings_.dt;  // the control period Δt_c
  switch (settings_.control.mode) {
    case ControlMode::kTorque:
    case ControlMode::kCommand:
      controller_->Compute(*model_, state_.time, dt, state_.q, state_.v, state_.controller,
                           state_.controller_command);
      break;
    case ControlMode::kPd:
      controller_->ComputeTargets(*model_, state_.time, dt, state_.q, state_.v, state_.impulses,
                                  state_.controller, state_.controller_command.head(model_->nu()));
      break;
    case ControlMode::kId:
    case ControlMode::kIdConstraint:
      // Targets for the end of the control period, reached over
      // h = max(Δt_c, T) as the actuation's v_des = (target − q)/max(Δt, T).
      controller_->ComputeReachTargets(*model_, state_.time, dt,
                                       std::max(dt, settings_.control.id_time_constant), state_.q,
                                       state_.v, state_.impulses, state_.controller,
                                       state_.controller_command.head(model_->nu()));
      break;
  }
}

const Eigen::VectorXd& Simulation::TargetAction(const Eigen::VectorXd& action) {
  if (controller_ == nullptr) return action;
  controlled_action_ = state_.controller_command.head(model_->nu()) + action;
  return controlled_action_;
}

absl::Status Simulation::StepAction(const Eigen::VectorXd& action, int substeps,
                                    const std::vector<Force>* f_ext) {
  return StepActionUntil(action, substeps, absl::InfiniteFuture(), f_ext);
}

int Simulation::action_size() const {
  return settings_.control.mode == ControlMode::kCommand
             ? static_cast<int>(controller_->CommandElements().size())
             : model_->nu();
}

absl::Status Simulation::ValidateCommand(const Eigen::VectorXd& command) const {
  const std::span<const control::CommandElement> elements = controller_->CommandElements();
  if (command.size() != static_cast<Eigen::Index>(elements.size())) {
    return absl::InvalidArgumentError(
        absl::StrCat("action has size ", command.size(), ", expected ", elements.size(),
                     " (controller '", std::string(controller_->Name()), "' takes a command of ",
                     elements.size(), " under control mode 'command')"));
  }
  for (size_t k = 0; k < elements.size(); ++k) {
    if (!std::isfinite(command[k])) {
      return absl::InvalidArgumentError(absl::StrCat("action[", k, "] (", elements[k].name, ") is ",
                                                     command[k], ", expected a finite number"));
    }
  }
  return absl::OkStatus();
}

void Simulation::SetCommand(const Eigen::VectorXd& command) {
  const std::span<const control::CommandElement> elements = controller_->CommandElements();
  control::ControllerState& c = state_.controller;
  for (size_t k = 0; k < elements.size() && k < c.command.size(); ++k) {
    c.command[k] = Clamp(elements[k], command[k]);
  }
  c.command_set = true;
}

absl::Status Simulation::StepActionUntil(const Eigen::VectorXd& action, int substeps,
                                         absl::Time stop_at, const std::vector<Force>* f_ext) {
  const ControlSettings& control = settings_.control;
  if (control.mode == ControlMode::kCommand) {
    // The controller's command, within its bounds; its torques alone drive
    // the joints (clamped to the effort limits).
    MOREAU_RETURN_IF_ERROR(ValidateCommand(action));
    MOREAU_RETURN_IF_ERROR(ValidateExternalWrenches(f_ext));
    return StepLoop(
        substeps, stop_at, f_ext,
        [&](const State&) {
          SetCommand(action);
          RunController();
          ControlledActionTorques(actuation_.qd_zero, state_.controller_command, actuation_, tau_);
        },
        {}, [] {});
  }
  MOREAU_RETURN_IF_ERROR(ValidateAction(*model_, action));
  MOREAU_RETURN_IF_ERROR(ValidateExternalWrenches(f_ext));
  if (control.mode == ControlMode::kId) {
    return StepLoop(
        substeps, stop_at, f_ext,
        [&](const State& s) {
          RunController();
          InverseDynamicsTorques(*model_, control, TargetAction(action), s.q, s.v,
                                 workspace_.contacts, workspace_.data, actuation_, tau_);
        },
        {}, [] {});
  }
  if (control.mode == ControlMode::kIdConstraint) {
    // 002's inverse-dynamics constraints: τ = 0 on the actuated joints, the
    // rows' impulses Λ_j (|Λ_j| ≤ τ_max Δt) act instead and are reported
    // as Λ_j/Δt.
    const step::JointVelocityRows rows{
        actuation_.dofs,
        std::span<const double>(actuation_.v_des.data(),
                                static_cast<size_t>(actuation_.v_des.size())),
        std::span<const double>(actuation_.bound.data(),
                                static_cast<size_t>(actuation_.bound.size()))};
    return StepLoop(
        substeps, stop_at, f_ext,
        [&](const State& s) {
          RunController();
          DesiredJointVelocities(*model_, control, TargetAction(action), s.q, actuation_);
          tau_.setZero();
        },
        rows,
        [&] {
          for (size_t a = 0; a < actuation_.dofs.size(); ++a) {
            tau_[actuation_.dofs[a]] = state_.bilateral_impulses[a] / settings_.dt;
          }
        });
  }
  if (control.mode == ControlMode::kTorque) {
    // τ = the controller's τ + the action's torques, the sum clamped to the
    // effort limits.
    return StepLoop(
        substeps, stop_at, f_ext,
        [&](const State& s) {
          RunController();
          if (controller_ != nullptr) {
            ControlledActionTorques(action, state_.controller_command, actuation_, tau_);
          } else {
            ActionTorques(*model_, control, action, s.q, s.v, actuation_, tau_);
          }
        },
        {}, [] {});
  }
  return StepLoop(
      substeps, stop_at, f_ext,
      [&](const State& s) {
        RunController();
        ActionTorques(*model_, control, TargetAction(action), s.q, s.v, actuation_, tau_);
      },
      {}, [] {});
}

}  // namespace moreau::sim
