#include "engine/sim/contact_parameters.h"

#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace moreau::sim {
namespace {

constexpr char kMaxIterations[] = "max_iterations";
constexpr char kImplicitFriction[] = "implicit_friction";

// The named double parameters of the chosen contact model.
std::vector<std::pair<const char*, double*>> DoubleParameters(Settings& s) {
  switch (s.contact) {
    case ContactModel::kSpringDamper: {
      auto& p = s.force_law.spring_damper;
      return {{"normal_stiffness", &p.normal_stiffness},
              {"normal_damping", &p.normal_damping},
              {"tangential_stiffness", &p.tangential_stiffness},
              {"tangential_damping", &p.tangential_damping},
              {"mu", &p.mu},
              {"stick_velocity", &p.stick_velocity}};
    }
    case ContactModel::kHertz: {
      auto& p = s.force_law.hertz;
      return {{"stiffness", &p.stiffness},
              {"exponent", &p.exponent},
              {"damping", &p.damping},
              {"ramp_depth", &p.ramp_depth},
              {"mu_static", &p.mu_static},
              {"mu_dynamic", &p.mu_dynamic},
              {"stiction_velocity", &p.stiction_velocity},
              {"sliding_velocity", &p.sliding_velocity}};
    }
    case ContactModel::kMicro: {
      auto& p = s.force_law.micro;
      return {{"stiffness", &p.stiffness},
              {"damping", &p.damping},
              {"mu", &p.mu},
              {"tangential_stiffness", &p.tangential_stiffness},
              {"tangential_damping", &p.tangential_damping},
              {"stick_velocity", &p.stick_velocity}};
    }
    case ContactModel::kLeastConstraint: {
      auto& p = s.least_constraint;
      return {{"mu", &p.mu},
              {"regularization", &p.regularization},
              {"impact_velocity", &p.impact_velocity},
              {"tol_abs", &p.qp.abs_tolerance},
              {"tol_rel", &p.qp.rel_tolerance}};
    }
    case ContactModel::kMicroMacro: {
      auto& p = s.micro_macro;
      return {{"membrane_stiffness", &p.membrane.stiffness},
              {"membrane_damping", &p.membrane.damping},
              {"membrane_mu", &p.membrane.mu},
              {"restitution", &p.restitution},
              {"mu_static", &p.mu_static},
              {"mu_kinetic", &p.mu_kinetic},
              {"lambda", &p.lambda},
              {"slip_velocity", &p.slip_velocity},
              {"tol_abs", &p.qp.abs_tolerance},
              {"tol_rel", &p.qp.rel_tolerance}};
    }
    case ContactModel::kMoreauJor:
    case ContactModel::kMoreauSor:
      return {{"mu", &s.hard_contact.mu},
              {"restitution_normal", &s.hard_contact.eps_N},
              {"restitution_tangential", &s.hard_contact.eps_T},
              {"alpha", &s.prox.alpha},
              {"tol_rel", &s.prox.T_rel},
              {"tol_abs", &s.prox.T_abs}};
  }
  return {};
}

// Models whose solver takes an iteration cap.
bool HasMaxIterations(ContactModel model) { return IsHardContact(model) || IsQpContact(model); }

int& MaxIterations(Settings& s) {
  switch (s.contact) {
    case ContactModel::kLeastConstraint:
      return s.least_constraint.qp.max_iterations;
    case ContactModel::kMicroMacro:
      return s.micro_macro.qp.max_iterations;
    default:
      return s.prox.max_iterations;
  }
}

}  // namespace

std::vector<std::string> ContactParameterNames(ContactModel model) {
  Settings s;
  s.contact = model;
  std::vector<std::string> names;
  for (const auto& entry : DoubleParameters(s)) names.emplace_back(entry.first);
  if (HasMaxIterations(model)) names.emplace_back(kMaxIterations);
  if (model == ContactModel::kHertz) names.emplace_back(kImplicitFriction);
  return names;
}

absl::Status SetContactParameter(Settings& settings, absl::string_view name, double value) {
  if (!std::isfinite(value)) {
    return absl::InvalidArgumentError(
        absl::StrCat("contact parameter '", name, "' is ", value, ", expected a finite number"));
  }
  if (HasMaxIterations(settings.contact) && name == kMaxIterations) {
    if (value < 1 || value > 100000 || value != std::floor(value)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "contact parameter 'max_iterations' must be an integer in [1, 100000], got ", value));
    }
    MaxIterations(settings) = static_cast<int>(value);
    return absl::OkStatus();
  }
  if (settings.contact == ContactModel::kHertz && name == kImplicitFriction) {
    if (value != 0.0 && value != 1.0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "contact parameter 'implicit_friction' must be 0 (explicit) or 1 (implicit), got ",
          value));
    }
    settings.force_law.hertz.implicit_friction = value == 1.0;
    return absl::OkStatus();
  }
  for (auto& [key, field] : DoubleParameters(settings)) {
    if (name == key) {
      *field = value;
      return absl::OkStatus();
    }
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown contact parameter '", name, "' for contact model ",
                   ContactModelName(settings.contact), " (expected one of ",
                   absl::StrJoin(ContactParameterNames(settings.contact), ", "), ")"));
}

}  // namespace moreau::sim
