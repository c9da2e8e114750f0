#include "engine/sim/settings.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "engine/util/status_macros.h"

namespace moreau::sim {

const char* ContactModelName(ContactModel model) {
  switch (model) {
    case ContactModel::kSpringDamper:
      return "spring-damper";
    case ContactModel::kHertz:
      return "hertz";
    case ContactModel::kMicro:
      return "micro";
    case ContactModel::kMoreauJor:
      return "moreau-jor";
    case ContactModel::kMoreauSor:
      return "moreau-sor";
    case ContactModel::kLeastConstraint:
      return "least-constraint";
    case ContactModel::kMicroMacro:
      return "micro-macro";
  }
  return "unknown";
}

absl::StatusOr<ContactModel> ParseContactModel(std::string_view name) {
  for (ContactModel m : {ContactModel::kSpringDamper, ContactModel::kHertz, ContactModel::kMicro,
                         ContactModel::kMoreauJor, ContactModel::kMoreauSor,
                         ContactModel::kLeastConstraint, ContactModel::kMicroMacro}) {
    if (name == ContactModelName(m)) return m;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown contact model '", std::string(name),
                   "' (expected spring-damper, hertz, micro, moreau-jor, moreau-sor, "
                   "least-constraint or micro-macro)"));
}

bool IsHardContact(ContactModel model) {
  return model == ContactModel::kMoreauJor || model == ContactModel::kMoreauSor;
}

bool IsQpContact(ContactModel model) {
  return model == ContactModel::kLeastConstraint || model == ContactModel::kMicroMacro;
}

const char* IntegratorName(step::Integrator integrator) {
  switch (integrator) {
    case step::Integrator::kSemiImplicitEuler:
      return "euler";
    case step::Integrator::kHeun:
      return "heun";
    case step::Integrator::kRk4:
      return "rk4";
  }
  return "unknown";
}

absl::StatusOr<step::Integrator> ParseIntegrator(std::string_view name) {
  for (step::Integrator i :
       {step::Integrator::kSemiImplicitEuler, step::Integrator::kHeun, step::Integrator::kRk4}) {
    if (name == IntegratorName(i)) return i;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown integrator '", std::string(name), "' (expected euler, heun or rk4)"));
}

const char* LoopSolverName(step::LoopSolver solver) {
  switch (solver) {
    case step::LoopSolver::kProx:
      return "prox";
    case step::LoopSolver::kDirect:
      return "direct";
  }
  return "unknown";
}

absl::StatusOr<step::LoopSolver> ParseLoopSolver(std::string_view name) {
  for (step::LoopSolver s : {step::LoopSolver::kProx, step::LoopSolver::kDirect}) {
    if (name == LoopSolverName(s)) return s;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown loop solver '", std::string(name), "' (expected prox or direct)"));
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
  if (s.loop_solver != step::LoopSolver::kProx && s.loop_solver != step::LoopSolver::kDirect) {
    return absl::InvalidArgumentError(
        absl::StrCat("loop_solver must be prox or direct, got ", static_cast<int>(s.loop_solver)));
  }
  return absl::OkStatus();
}

}  // namespace moreau::sim
