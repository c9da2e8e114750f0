#include "engine/sim/contact_parameters.h"

#include <cmath>
#include <utility>
#include <variant>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace moreau::sim {
namespace {

constexpr char kMaxIterations[] = "max_iterations";
constexpr char kImplicitFriction[] = "implicit_friction";

// The named double parameters of the chosen contact model.
std::vector<std::pair<const char*, double*>> DoubleParameters(ContactSettings& contact) {
  if (auto* s = std::get_if<SpringDamperSettings>(&contact)) {
    auto& p = s->law;
    return {{"normal_stiffness", &p.normal_stiffness},
            {"normal_damping", &p.normal_damping},
            {"tangential_stiffness", &p.tangential_stiffness},
            {"tangential_damping", &p.tangential_damping},
            {"mu", &p.mu},
            {"stick_velocity", &p.stick_velocity}};
  }
  if (auto* s = std::get_if<HertzSettings>(&contact)) {
    auto& p = s->law;
    return {{"stiffness", &p.stiffness},
            {"exponent", &p.exponent},
            {"damping", &p.damping},
            {"ramp_depth", &p.ramp_depth},
            {"mu_static", &p.mu_static},
            {"mu_dynamic", &p.mu_dynamic},
            {"stiction_velocity", &p.stiction_velocity},
            {"sliding_velocity", &p.sliding_velocity}};
  }
  if (auto* s = std::get_if<MicroSettings>(&contact)) {
    auto& p = s->law;
    return {{"stiffness", &p.stiffness},
            {"damping", &p.damping},
            {"mu", &p.mu},
            {"tangential_stiffness", &p.tangential_stiffness},
            {"tangential_damping", &p.tangential_damping},
            {"stick_velocity", &p.stick_velocity}};
  }
  if (auto* s = std::get_if<LeastConstraintSettings>(&contact)) {
    auto& p = s->params;
    return {{"mu", &p.mu},
            {"regularization", &p.regularization},
            {"impact_velocity", &p.impact_velocity},
            {"tol_abs", &p.qp.abs_tolerance},
            {"tol_rel", &p.qp.rel_tolerance}};
  }
  if (auto* s = std::get_if<MicroMacroSettings>(&contact)) {
    auto& p = s->params;
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
  if (auto* s = std::get_if<MoreauSettings>(&contact)) {
    return {{"mu", &s->law.mu},
            {"restitution_normal", &s->law.eps_N},
            {"restitution_tangential", &s->law.eps_T},
            {"alpha", &s->prox.alpha},
            {"tol_rel", &s->prox.T_rel},
            {"tol_abs", &s->prox.T_abs}};
  }
  return {};
}

// The iteration cap of the model's solver; nullptr for the force laws, which
// solve nothing.
int* MaxIterations(ContactSettings& contact) {
  if (auto* s = std::get_if<MoreauSettings>(&contact)) return &s->prox.max_iterations;
  if (auto* s = std::get_if<LeastConstraintSettings>(&contact)) return &s->params.qp.max_iterations;
  if (auto* s = std::get_if<MicroMacroSettings>(&contact)) return &s->params.qp.max_iterations;
  return nullptr;
}

}  // namespace

std::vector<std::string> ContactParameterNames(ContactModel model) {
  ContactSettings contact = DefaultContactSettings(model);
  std::vector<std::string> names;
  for (const auto& entry : DoubleParameters(contact)) names.emplace_back(entry.first);
  if (MaxIterations(contact) != nullptr) names.emplace_back(kMaxIterations);
  if (model == ContactModel::kHertz) names.emplace_back(kImplicitFriction);
  return names;
}

absl::Status SetContactParameter(Settings& settings, absl::string_view name, double value) {
  if (!std::isfinite(value)) {
    return absl::InvalidArgumentError(
        absl::StrCat("contact parameter '", name, "' is ", value, ", expected a finite number"));
  }
  ContactSettings& contact = settings.contact;
  if (int* max_iterations = MaxIterations(contact); max_iterations && name == kMaxIterations) {
    if (value < 1 || value > 100000 || value != std::floor(value)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "contact parameter 'max_iterations' must be an integer in [1, 100000], got ", value));
    }
    *max_iterations = static_cast<int>(value);
    return absl::OkStatus();
  }
  if (auto* hertz = std::get_if<HertzSettings>(&contact); hertz && name == kImplicitFriction) {
    if (value != 0.0 && value != 1.0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "contact parameter 'implicit_friction' must be 0 (explicit) or 1 (implicit), got ",
          value));
    }
    hertz->law.implicit_friction = value == 1.0;
    return absl::OkStatus();
  }
  for (auto& [key, field] : DoubleParameters(contact)) {
    if (name == key) {
      *field = value;
      return absl::OkStatus();
    }
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown contact parameter '", name, "' for contact model ",
                   ContactModelName(ModelOf(contact)), " (expected one of ",
                   absl::StrJoin(ContactParameterNames(ModelOf(contact)), ", "), ")"));
}

}  // namespace moreau::sim
