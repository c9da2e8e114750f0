#include "engine/sim/settings.h"

#include <cmath>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "engine/util/status_macros.h"

namespace moreau::sim {

const EnumTable<ContactModel>& ContactModels() {
  static const EnumTable<ContactModel>* const table = new EnumTable<ContactModel>(
      "contact model",
      {{ContactModel::kSpringDamper, "spring-damper",
        "linear spring-damper force law, stick-slip friction, explicit integration (000 Alg. 1)"},
       {ContactModel::kHertz, "hertz",
        "Hertz force law with Hunt-Crossley damping and Stribeck friction, explicit integration "
        "(001 eq. 34-38)"},
       {ContactModel::kMicro, "micro",
        "micro (membrane) contact force law, explicit integration (003 eq. 14-15)"},
       {ContactModel::kMoreauJor, "moreau-jor",
        "hard contact, Moreau time-stepping, Jacobi (JOR) prox iteration (000 eq. 6-19)"},
       {ContactModel::kMoreauSor, "moreau-sor",
        "hard contact, Moreau time-stepping, Gauss-Seidel (SOR) prox iteration (000 eq. 6-19)"},
       {ContactModel::kLeastConstraint, "least-constraint",
        "Gauss's principle of least constraint as a QP per step, inelastic impacts (004 eq. "
        "3-24)"},
       {ContactModel::kMicroMacro, "micro-macro",
        "membrane (micro) plus a regularised least-squares QP (macro) per step (003 eq. "
        "14-36)"}});
  return *table;
}

const char* ContactModelName(ContactModel model) { return ContactModels().Name(model); }

absl::StatusOr<ContactModel> ParseContactModel(std::string_view name) {
  return ContactModels().Parse(name);
}

bool IsHardContact(ContactModel model) {
  return model == ContactModel::kMoreauJor || model == ContactModel::kMoreauSor;
}

bool IsQpContact(ContactModel model) {
  return model == ContactModel::kLeastConstraint || model == ContactModel::kMicroMacro;
}

const EnumTable<step::Integrator>& Integrators() {
  static const EnumTable<step::Integrator>* const table = new EnumTable<step::Integrator>(
      "integrator", {{step::Integrator::kSemiImplicitEuler, "euler", "semi-implicit Euler"},
                     {step::Integrator::kHeun, "heun", "Heun's second-order method"},
                     {step::Integrator::kRk4, "rk4", "classical fourth-order Runge-Kutta"}});
  return *table;
}

const char* IntegratorName(step::Integrator integrator) { return Integrators().Name(integrator); }

absl::StatusOr<step::Integrator> ParseIntegrator(std::string_view name) {
  return Integrators().Parse(name);
}

const EnumTable<step::LoopSolver>& LoopSolvers() {
  static const EnumTable<step::LoopSolver>* const table = new EnumTable<step::LoopSolver>(
      "loop solver",
      {{step::LoopSolver::kProx, "prox",
        "the cut joints' constraints in the prox iteration with the contacts"},
       {step::LoopSolver::kDirect, "direct", "through the inverse of their Delassus block"}});
  return *table;
}

const char* LoopSolverName(step::LoopSolver solver) { return LoopSolvers().Name(solver); }

absl::StatusOr<step::LoopSolver> ParseLoopSolver(std::string_view name) {
  return LoopSolvers().Parse(name);
}

const EnumTable<ControllerKind>& ControllerKinds() {
  static const EnumTable<ControllerKind>* const table = new EnumTable<ControllerKind>(
      "controller",
      {{ControllerKind::kNone, "none", "no controller: the actions alone drive the joints"},
       {ControllerKind::kZero, "zero", "zero torque; under a target mode, the measured pose"},
       {ControllerKind::kStand, "stand",
        "joint PD (001 eq. 44) to a standing pose, feet under the hips"},
       {ControllerKind::kTrot, "trot",
        "a trotting gait on four legs: velocity-trot under --control id-constraint, pd-trot "
        "otherwise"},
       {ControllerKind::kPdTrot, "pd-trot",
        "001 section 6.2's trot for PD-held legs (oscillator, Bezier foot paths, leg IK, joint "
        "PD) with balance feedback"},
       {ControllerKind::kVelocityTrot, "velocity-trot",
        "a trot for velocity-level joints: stance legs from one base twist with the feet "
        "still, contact-triggered touchdown (joint targets only: not under torque control)"}});
  return *table;
}

const char* ControllerKindName(ControllerKind kind) { return ControllerKinds().Name(kind); }

absl::StatusOr<ControllerKind> ParseControllerKind(std::string_view name) {
  return ControllerKinds().Parse(name);
}

bool RunsVelocityTrot(ControllerKind kind, ControlMode mode) {
  return kind == ControllerKind::kVelocityTrot ||
         (kind == ControllerKind::kTrot && mode == ControlMode::kIdConstraint);
}

absl::Status Validate(const Settings& s) {
  if (!(std::isfinite(s.dt) && s.dt > 0.0 && s.dt <= 1.0)) {
    return absl::InvalidArgumentError(absl::StrCat("dt must be in (0, 1] s, got ", s.dt));
  }
  if (!s.gravity.allFinite()) return absl::InvalidArgumentError("gravity must be finite");
  if (!(s.max_speed > 0.0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("max_speed must be positive, got ", s.max_speed));
  }
  MOREAU_RETURN_IF_ERROR(contact::Validate(s.force_law));
  MOREAU_RETURN_IF_ERROR(contact::Validate(s.prox));
  MOREAU_RETURN_IF_ERROR(contact::Validate(s.hard_contact));
  MOREAU_RETURN_IF_ERROR(step::Validate(s.least_constraint));
  MOREAU_RETURN_IF_ERROR(step::Validate(s.micro_macro));
  MOREAU_RETURN_IF_ERROR(Validate(s.control));
  if (!(std::isfinite(s.transmission.gear) && s.transmission.gear >= 0.0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "transmission gear must be finite and ≥ 0 (0: the model's), got ", s.transmission.gear));
  }
  if (!(std::isfinite(s.transmission.rotor_inertia) && s.transmission.rotor_inertia >= 0.0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "transmission rotor_inertia must be finite and ≥ 0 kg m² (0: the model's), got ",
        s.transmission.rotor_inertia));
  }
  if (ControllerKinds().Name(s.controller.kind) == std::string_view("unknown")) {
    return absl::InvalidArgumentError(
        absl::StrCat("controller kind ", static_cast<int>(s.controller.kind), " is not one of ",
                     ControllerKinds().NameList()));
  }
  if (s.controller.period_steps < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("controller period_steps must be ≥ 1, got ", s.controller.period_steps));
  }
  if (s.loop_solver != step::LoopSolver::kProx && s.loop_solver != step::LoopSolver::kDirect) {
    return absl::InvalidArgumentError(
        absl::StrCat("loop_solver must be prox or direct, got ", static_cast<int>(s.loop_solver)));
  }
  return absl::OkStatus();
}

}  // namespace moreau::sim
