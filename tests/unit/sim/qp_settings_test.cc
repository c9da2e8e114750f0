// Settings of the QP contact models: names round-trip, defaults validate and
// carry the papers' values, and every bad field is named.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <variant>

#include "engine/sim/settings.h"

namespace moreau::sim {
namespace {

TEST(QpSettings, ContactModelNamesRoundTrip) {
  for (ContactModel cm : {ContactModel::kLeastConstraint, ContactModel::kMicroMacro}) {
    const auto parsed = ParseContactModel(ContactModelName(cm));
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(*parsed, cm);
    EXPECT_TRUE(IsQpContact(cm));
    EXPECT_FALSE(IsHardContact(cm));
  }
  EXPECT_STREQ(ContactModelName(ContactModel::kLeastConstraint), "least-constraint");
  EXPECT_STREQ(ContactModelName(ContactModel::kMicroMacro), "micro-macro");
  const auto bad = ParseContactModel("gauss");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("least-constraint"), std::string::npos);
  EXPECT_FALSE(IsQpContact(ContactModel::kMoreauSor));
}

TEST(QpSettings, DefaultsValidateWithThePapersValues) {
  const Settings s;
  EXPECT_TRUE(Validate(s).ok());
  const ContactSettings micro_macro_settings = DefaultContactSettings(ContactModel::kMicroMacro);
  const ContactSettings least_settings = DefaultContactSettings(ContactModel::kLeastConstraint);
  EXPECT_TRUE(Validate(micro_macro_settings).ok());
  EXPECT_TRUE(Validate(least_settings).ok());
  const auto& micro_macro = std::get<MicroMacroSettings>(micro_macro_settings).params;
  const auto& least_constraint = std::get<LeastConstraintSettings>(least_settings).params;
  // 003 §IV-C–E.
  EXPECT_EQ(micro_macro.membrane.stiffness, 5512.0);
  EXPECT_EQ(micro_macro.membrane.damping, 158.0);
  EXPECT_EQ(micro_macro.mu_static, 1.0);
  EXPECT_EQ(micro_macro.mu_kinetic, 0.4);
  EXPECT_EQ(micro_macro.restitution, 0.0);
  EXPECT_EQ(micro_macro.lambda, 1.0);
  EXPECT_EQ(least_constraint.friction, step::FrictionCoupling::kStaggered);
}

void ExpectNamed(const Settings& s, const std::string& field) {
  const absl::Status status = Validate(s);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << field;
  EXPECT_NE(status.message().find(field), std::string::npos) << status.message();
}

// Settings of the least-constraint (micro-macro) model with `set` applied to
// its parameters.
template <typename Set>
Settings LeastConstraint(Set set) {
  LeastConstraintSettings least;
  set(least.params);
  Settings s;
  s.contact = least;
  return s;
}
template <typename Set>
Settings MicroMacro(Set set) {
  MicroMacroSettings micro_macro;
  set(micro_macro.params);
  Settings s;
  s.contact = micro_macro;
  return s;
}

TEST(QpSettings, ValidateNamesTheBadField) {
  Settings s;
  s = LeastConstraint([](auto& p) { p.mu = -0.1; });
  ExpectNamed(s, "least_constraint.mu");
  s = LeastConstraint([](auto& p) { p.regularization = NAN; });
  ExpectNamed(s, "least_constraint.regularization");
  s = LeastConstraint([](auto& p) { p.impact_velocity = -1.0; });
  ExpectNamed(s, "least_constraint.impact_velocity");
  s = LeastConstraint([](auto& p) { p.jdot_passes = 0; });
  ExpectNamed(s, "least_constraint.jdot_passes");
  s = LeastConstraint([](auto& p) { p.max_staggered_iterations = 0; });
  ExpectNamed(s, "least_constraint.max_staggered_iterations");
  s = LeastConstraint([](auto& p) { p.max_step_qp_iterations = 0; });
  ExpectNamed(s, "least_constraint.max_step_qp_iterations");
  s = LeastConstraint([](auto& p) { p.qp.max_iterations = 0; });
  ExpectNamed(s, "least_constraint.qp.max_iterations");
  s = MicroMacro([](auto& p) { p.lambda = 0.0; });
  ExpectNamed(s, "micro_macro.lambda");
  s = MicroMacro([](auto& p) { p.mu_static = 0.3; });  // below μ_K = 0.4
  ExpectNamed(s, "micro_macro.mu_static");
  s = MicroMacro([](auto& p) { p.mu_kinetic = -1.0; });
  ExpectNamed(s, "micro_macro.mu_kinetic");
  s = MicroMacro([](auto& p) { p.restitution = 1.5; });
  ExpectNamed(s, "micro_macro.restitution");
  s = MicroMacro([](auto& p) { p.slip_velocity = 0.0; });
  ExpectNamed(s, "micro_macro.slip_velocity");
  s = MicroMacro([](auto& p) { p.membrane.stiffness = -1.0; });
  ExpectNamed(s, "micro_macro.membrane");
  s = MicroMacro([](auto& p) { p.qp.abs_tolerance = -1.0; });
  ExpectNamed(s, "micro_macro.qp.abs_tolerance");
}

}  // namespace
}  // namespace moreau::sim
