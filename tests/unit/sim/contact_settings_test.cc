// The contact models' settings: each model's defaults name that model and
// validate, the default Settings are moreau-sor's, only the force laws carry
// an integrator, and Validate checks the chosen model's parameters.
#include "engine/sim/contact_settings.h"

#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "engine/sim/settings.h"

namespace moreau::sim {
namespace {

TEST(ContactSettings, EveryModelsDefaultsNameItAndValidate) {
  for (const EnumEntry<ContactModel>& entry : ContactModels().entries()) {
    SCOPED_TRACE(entry.name);
    const ContactSettings contact = DefaultContactSettings(entry.value);
    EXPECT_EQ(ModelOf(contact), entry.value);
    EXPECT_TRUE(Validate(contact).ok()) << Validate(contact);
    const bool force_law = entry.value == ContactModel::kSpringDamper ||
                           entry.value == ContactModel::kHertz ||
                           entry.value == ContactModel::kMicro;
    EXPECT_EQ(ForceLawIntegrator(contact) != nullptr, force_law);
    if (force_law) {
      EXPECT_EQ(*ForceLawIntegrator(contact), step::Integrator::kSemiImplicitEuler);
    }
    EXPECT_EQ(std::holds_alternative<MoreauSettings>(contact), IsHardContact(entry.value));
  }
}

TEST(ContactSettings, DefaultSettingsAreMoreauSor) {
  const Settings s;
  EXPECT_EQ(ModelOf(s.contact), ContactModel::kMoreauSor);
  const MoreauSettings& moreau = std::get<MoreauSettings>(s.contact);
  EXPECT_EQ(moreau.prox.method, contact::ProxMethod::kSor);
  EXPECT_EQ(moreau.loop_solver, step::LoopSolver::kProx);
  EXPECT_EQ(moreau.law.mu, contact::ContactLaw{}.mu);
}

TEST(ContactSettings, ProxMethodTellsJorFromSor) {
  MoreauSettings moreau;
  moreau.prox.method = contact::ProxMethod::kJor;
  EXPECT_EQ(ModelOf(moreau), ContactModel::kMoreauJor);
  moreau.prox.method = contact::ProxMethod::kSor;
  EXPECT_EQ(ModelOf(moreau), ContactModel::kMoreauSor);
}

TEST(ContactSettings, ValidateNamesTheChosenModelsBadField) {
  MoreauSettings moreau;
  moreau.loop_solver = static_cast<step::LoopSolver>(7);
  Settings s;
  s.contact = moreau;
  absl::Status status = Validate(s);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("loop_solver must be prox or direct, got 7"), std::string::npos)
      << status;

  moreau = MoreauSettings{};
  moreau.prox.alpha = 2.5;
  s.contact = moreau;
  status = Validate(s);
  EXPECT_NE(status.message().find("prox.alpha"), std::string::npos) << status;

  HertzSettings hertz;
  hertz.law.stiffness = -1.0;
  s.contact = hertz;
  EXPECT_EQ(Validate(s).code(), absl::StatusCode::kInvalidArgument);
  SpringDamperSettings spring_damper;
  spring_damper.law.mu = -1.0;
  s.contact = spring_damper;
  EXPECT_EQ(Validate(s).code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace moreau::sim
