#include "engine/sim/contact_settings.h"

#include "absl/strings/str_cat.h"
#include "engine/util/status_macros.h"

namespace moreau::sim {
namespace {

// One overload per alternative of ContactSettings, for std::visit.
ContactModel Model(const SpringDamperSettings&) { return ContactModel::kSpringDamper; }
ContactModel Model(const HertzSettings&) { return ContactModel::kHertz; }
ContactModel Model(const MicroSettings&) { return ContactModel::kMicro; }
ContactModel Model(const MoreauSettings& s) {
  return s.prox.method == contact::ProxMethod::kJor ? ContactModel::kMoreauJor
                                                    : ContactModel::kMoreauSor;
}
ContactModel Model(const LeastConstraintSettings&) { return ContactModel::kLeastConstraint; }
ContactModel Model(const MicroMacroSettings&) { return ContactModel::kMicroMacro; }

absl::Status Check(const SpringDamperSettings& s) { return contact::Validate(s.law); }
absl::Status Check(const HertzSettings& s) { return contact::Validate(s.law); }
absl::Status Check(const MicroSettings& s) { return contact::Validate(s.law); }
absl::Status Check(const MoreauSettings& s) {
  MOREAU_RETURN_IF_ERROR(contact::Validate(s.prox));
  MOREAU_RETURN_IF_ERROR(contact::Validate(s.law));
  if (s.loop_solver != step::LoopSolver::kProx && s.loop_solver != step::LoopSolver::kDirect) {
    return absl::InvalidArgumentError(
        absl::StrCat("loop_solver must be prox or direct, got ", static_cast<int>(s.loop_solver)));
  }
  return absl::OkStatus();
}
absl::Status Check(const LeastConstraintSettings& s) { return step::Validate(s.params); }
absl::Status Check(const MicroMacroSettings& s) { return step::Validate(s.params); }

}  // namespace

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

ContactModel ModelOf(const ContactSettings& contact) {
  return std::visit([](const auto& s) { return Model(s); }, contact);
}

ContactSettings DefaultContactSettings(ContactModel model) {
  switch (model) {
    case ContactModel::kSpringDamper:
      return SpringDamperSettings{};
    case ContactModel::kHertz:
      return HertzSettings{};
    case ContactModel::kMicro:
      return MicroSettings{};
    case ContactModel::kMoreauJor: {
      MoreauSettings jor;
      jor.prox.method = contact::ProxMethod::kJor;
      return jor;
    }
    case ContactModel::kMoreauSor: {
      MoreauSettings sor;
      sor.prox.method = contact::ProxMethod::kSor;
      return sor;
    }
    case ContactModel::kLeastConstraint:
      return LeastConstraintSettings{};
    case ContactModel::kMicroMacro:
      return MicroMacroSettings{};
  }
  return MoreauSettings{};
}

step::Integrator* ForceLawIntegrator(ContactSettings& contact) {
  if (auto* s = std::get_if<SpringDamperSettings>(&contact)) return &s->integrator;
  if (auto* s = std::get_if<HertzSettings>(&contact)) return &s->integrator;
  if (auto* s = std::get_if<MicroSettings>(&contact)) return &s->integrator;
  return nullptr;
}

const step::Integrator* ForceLawIntegrator(const ContactSettings& contact) {
  return ForceLawIntegrator(const_cast<ContactSettings&>(contact));
}

absl::Status Validate(const ContactSettings& contact) {
  return std::visit([](const auto& s) { return Check(s); }, contact);
}

}  // namespace moreau::sim
