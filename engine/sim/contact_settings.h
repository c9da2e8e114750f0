// The contact model of one simulation and its parameters: one struct per
// model (its law, its solver, its integrator), held as one alternative of
// ContactSettings. The ContactModel names ("moreau-sor", "hertz", …) are the
// vocabulary of the service and the command line.
#ifndef MOREAU_ENGINE_SIM_CONTACT_SETTINGS_H_
#define MOREAU_ENGINE_SIM_CONTACT_SETTINGS_H_

#include <string_view>
#include <variant>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/contact/hertz.h"
#include "engine/contact/micro.h"
#include "engine/contact/prox_solver.h"
#include "engine/contact/spring_damper.h"
#include "engine/step/explicit_step.h"
#include "engine/step/least_constraint_step.h"
#include "engine/step/micro_macro_step.h"
#include "engine/step/moreau_step.h"
#include "engine/util/enum_table.h"

namespace moreau::sim {

// The contact models, each with the paper and equations it implements:
//   000  Gehring et al., "An evaluation of Moreau's time-stepping scheme for
//        the simulation of a legged robot" (DETC 2014);
//   001  de Paula et al., "Dynamic modeling and simulation of a
//        torque-controlled spatial quadruped robot" (Robotica 2024);
//   003  Sugihara and Nakamura, "Balanced micro/macro contact model for
//        forward dynamics of rigid multibody";
//   004  Guedelha et al., "A flexible MATLAB/Simulink simulator for robotic
//        floating-base systems in contact with the ground" (2024).
enum class ContactModel {
  kSpringDamper,  // 000 Alg. 1, explicit integration
  kHertz,         // 001 eq. 34–38, explicit integration
  kMicro,         // 003 eq. 14–15, explicit integration
  kMoreauJor,     // 000 eq. 6–19, hard contact, JOR prox iteration
  kMoreauSor,     // 000 eq. 6–19, hard contact, SOR prox iteration

  // 004 eq. 3–24: Gauss's principle of least constraint as a QP, inelastic
  // impact projection.
  kLeastConstraint,
  // 003 eq. 14–36: membrane (micro) + regularised least-squares QP (macro).
  kMicroMacro,
};

// The contact models' names ("spring-damper", "hertz", "micro", "moreau-jor",
// "moreau-sor", "least-constraint", "micro-macro") and help.
const EnumTable<ContactModel>& ContactModels();
const char* ContactModelName(ContactModel model);
absl::StatusOr<ContactModel> ParseContactModel(std::string_view name);
// The Moreau prox models (moreau-jor, moreau-sor).
bool IsHardContact(ContactModel model);
// The QP models (least-constraint, micro-macro): solved per step by
// contact::QpSolver, StepReport's solver fields are its iterations.
bool IsQpContact(ContactModel model);

// The force laws, stepped explicitly (step::ExplicitStep) by `integrator`.
struct SpringDamperSettings {  // "spring-damper", 000 Alg. 1
  contact::SpringDamperParams law;
  step::Integrator integrator = step::Integrator::kSemiImplicitEuler;
  // Explicit updates per step: 0, as many as the lightest contact point's
  // stability needs (explicit_substeps.h); n ≥ 1, exactly n.
  int substeps = 0;
};
struct HertzSettings {  // "hertz", 001 eq. 34–38
  contact::HertzParams law;
  step::Integrator integrator = step::Integrator::kSemiImplicitEuler;
};
struct MicroSettings {  // "micro", 003 eq. 14–15
  contact::MicroParams law;
  step::Integrator integrator = step::Integrator::kSemiImplicitEuler;
};

// Hard contact, Moreau time-stepping (000 eq. 6–19): "moreau-jor" when
// prox.method is JOR, "moreau-sor" when SOR.
struct MoreauSettings {
  contact::ProxParams prox;
  contact::ContactLaw law;  // μ, ε_N, ε_T of the impulse laws
  // Closed kinematic chains (Model::loop_closures, hard contact only): the
  // cut joints solved in the prox iteration or directly through G_LL⁻¹.
  step::LoopSolver loop_solver = step::LoopSolver::kProx;
};

// "least-constraint" (004; μ, friction coupling, QP), defaults in its header.
struct LeastConstraintSettings {
  step::LeastConstraintParams params;
};
// "micro-macro" (003; membrane, λ, μ_S, μ_K, QP), defaults in its header.
struct MicroMacroSettings {
  step::MicroMacroParams params;
};

using ContactSettings = std::variant<SpringDamperSettings, HertzSettings, MicroSettings,
                                     MoreauSettings, LeastConstraintSettings, MicroMacroSettings>;

// The model the settings are for.
ContactModel ModelOf(const ContactSettings& contact);
// The model's settings with every default (moreau-jor: prox.method JOR).
ContactSettings DefaultContactSettings(ContactModel model);
// The integrator of a force law (spring-damper, hertz, micro); nullptr for the
// other models, which step by their own scheme.
step::Integrator* ForceLawIntegrator(ContactSettings& contact);
const step::Integrator* ForceLawIntegrator(const ContactSettings& contact);

// Checks the model's parameters; the message names the first bad one and its
// value.
absl::Status Validate(const ContactSettings& contact);

}  // namespace moreau::sim

#endif  // MOREAU_ENGINE_SIM_CONTACT_SETTINGS_H_
