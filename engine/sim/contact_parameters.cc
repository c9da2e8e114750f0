#include "engine/sim/contact_parameters.h"

#include <variant>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/sim/explicit_substeps.h"
#include "engine/sim/named_parameters.h"

namespace moreau::sim {
namespace {

// The iteration cap of a model's solver.
NamedParameter MaxIterations(int* field) { return Integer("max_iterations", field, 1, 100000); }

// The named parameters of the chosen contact model, pointing into contact:
// its numbers, then the iteration cap of the models that solve (the force
// laws solve nothing), spring-damper's sub-step count and hertz's
// implicit_friction flag.
std::vector<NamedParameter> Parameters(ContactSettings& contact) {
  if (auto* s = std::get_if<SpringDamperSettings>(&contact)) {
    auto& p = s->law;
    return {{"normal_stiffness", &p.normal_stiffness},
            {"normal_damping", &p.normal_damping},
            {"tangential_stiffness", &p.tangential_stiffness},
            {"tangential_damping", &p.tangential_damping},
            {"mu", &p.mu},
            {"stick_velocity", &p.stick_velocity},
            Integer("substeps", &s->substeps, 0, kMaxExplicitSubsteps)};
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
            {"sliding_velocity", &p.sliding_velocity},
            Flag("implicit_friction", &p.implicit_friction, "explicit", "implicit")};
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
            {"tol_rel", &p.qp.rel_tolerance},
            MaxIterations(&p.qp.max_iterations)};
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
            {"tol_rel", &p.qp.rel_tolerance},
            MaxIterations(&p.qp.max_iterations)};
  }
  if (auto* s = std::get_if<MoreauSettings>(&contact)) {
    return {{"mu", &s->law.mu},
            {"restitution_normal", &s->law.eps_N},
            {"restitution_tangential", &s->law.eps_T},
            {"alpha", &s->prox.alpha},
            {"tol_rel", &s->prox.T_rel},
            {"tol_abs", &s->prox.T_abs},
            MaxIterations(&s->prox.max_iterations)};
  }
  return {};
}

}  // namespace

std::vector<std::string> ContactParameterNames(ContactModel model) {
  ContactSettings contact = DefaultContactSettings(model);
  return ParameterNames(Parameters(contact));
}

absl::Status SetContactParameter(Settings& settings, absl::string_view name, double value) {
  const ContactModel model = ModelOf(settings.contact);
  return SetNamedParameter(
      Parameters(settings.contact), name, value, {.noun = "contact parameter"}, [&] {
        return absl::InvalidArgumentError(absl::StrCat(
            "unknown contact parameter '", name, "' for contact model ", ContactModelName(model),
            " (expected one of ", absl::StrJoin(ContactParameterNames(model), ", "), ")"));
      });
}

}  // namespace moreau::sim
