#include "engine/sim/settings.h"

#include <cmath>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "engine/util/status_macros.h"

namespace moreau::sim {

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
        "still, contact-triggered touchdown (joint targets only: not under torque control)"},
       {ControllerKind::kHold, "hold",
        "joint PD (001 eq. 44) holding the joint angles of its first run, target rate 0"}});
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
  MOREAU_RETURN_IF_ERROR(Validate(s.contact));
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
  return absl::OkStatus();
}

}  // namespace moreau::sim
