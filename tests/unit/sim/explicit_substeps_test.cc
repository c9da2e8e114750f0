// The spring-damper's explicit sub-steps: the stable step of a mass on the
// law (000 Alg. 1) against the semi-implicit Euler bound, the lightest
// contact mass against a solid sphere's analytic values, and a light sphere
// resting on the ground at 2.5 ms, which bounces away with one update per
// step and rests with the sub-steps.
#include "engine/sim/explicit_substeps.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "engine/model/loader.h"
#include "engine/sim/contact_parameters.h"
#include "engine/sim/simulation.h"

namespace moreau::sim {
namespace {

// A free solid sphere of `mass` and radius 0.05 m (I = 2/5 m r²), its
// collision sphere its contact point.
std::shared_ptr<const Model> SolidSphere(double mass) {
  const double r = 0.05;
  const double inertia = 0.4 * mass * r * r;
  auto model = LoadUrdfString(absl::StrCat(R"(<robot name="ball"><link name="ball">
    <inertial><mass value=")",
                                           mass, R"("/><inertia ixx=")", inertia, R"(" iyy=")",
                                           inertia, R"(" izz=")", inertia,
                                           R"(" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><sphere radius="0.05"/></geometry></collision>
  </link></robot>)"));
  EXPECT_TRUE(model.ok()) << model.status();
  return model.ok() ? *model : nullptr;
}

TEST(ExplicitSubsteps, StableStepMeetsTheMarginExactly) {
  contact::SpringDamperParams law;  // c = 30 000 N/m, d = 50 N s/m
  for (double m : {0.01, 0.065, 0.2, 3.0}) {
    const double h = StableSpringDamperStep(law, m);
    EXPECT_NEAR((law.normal_stiffness * h * h + 2.0 * law.normal_damping * h) / m,
                kExplicitStabilityMargin, 1e-12)
        << m;
  }
  // The larger of the normal and tangential values sets it.
  contact::SpringDamperParams stiff_tangent = law;
  stiff_tangent.tangential_stiffness = 4.0 * law.normal_stiffness;
  EXPECT_LT(StableSpringDamperStep(stiff_tangent, 0.1), StableSpringDamperStep(law, 0.1));
  EXPECT_TRUE(std::isinf(StableSpringDamperStep(law, std::numeric_limits<double>::infinity())));
}

TEST(ExplicitSubsteps, CountIsTheCeilingOfTheStepOverTheStableStep) {
  contact::SpringDamperParams law;
  const double h = StableSpringDamperStep(law, 0.065);  // ≈ 1.38 ms
  EXPECT_EQ(SpringDamperSubsteps(law, 0.065, 0.5 * h), 1);
  EXPECT_EQ(SpringDamperSubsteps(law, 0.065, h), 1);
  EXPECT_EQ(SpringDamperSubsteps(law, 0.065, 1.01 * h), 2);
  EXPECT_EQ(SpringDamperSubsteps(law, 0.065, 2.5e-3), 2);
  EXPECT_EQ(SpringDamperSubsteps(law, 0.065, 7.5 * h), 8);
  EXPECT_EQ(SpringDamperSubsteps(law, std::numeric_limits<double>::infinity(), 1.0), 1);
  EXPECT_EQ(SpringDamperSubsteps(law, 1e-12, 1.0), kMaxExplicitSubsteps);
}

TEST(ExplicitSubsteps, LightestContactMassOfASolidSphere) {
  const double mass = 0.3;
  std::shared_ptr<const Model> ball = SolidSphere(mass);
  ASSERT_NE(ball, nullptr);
  ASSERT_EQ(ball->contact_points.size(), 1u);
  // At the centre: the ball's mass in every direction.
  Model centre = *ball;
  centre.contact_points[0].witness = ContactWitness::kFixed;
  EXPECT_NEAR(LightestContactMass(centre, contact::Terrain()), mass, 1e-12);
  // At the lowest point (r below the centre): tangentially
  // 1/(1/m + r²/I) = 2m/7, the rolling ball's.
  Model bottom = *ball;
  bottom.contact_points[0].witness = ContactWitness::kSphereBottom;
  EXPECT_NEAR(LightestContactMass(bottom, contact::Terrain()), 2.0 * mass / 7.0, 1e-12);
  // No contact point: no bound.
  Model none = *ball;
  none.contact_points.clear();
  EXPECT_TRUE(std::isinf(LightestContactMass(none, contact::Terrain())));
}

// Dropped from 1 cm above its resting height: the largest distance from
// that height over the last second of 3 s (m); infinity when the run
// diverged.
double RestingExcursion(const std::shared_ptr<const Model>& ball, int substeps, int* count) {
  Settings settings;
  settings.contact = DefaultContactSettings(ContactModel::kSpringDamper);
  settings.dt = 2.5e-3;
  EXPECT_TRUE(SetContactParameter(settings, "substeps", substeps).ok());
  auto sim = Simulation::Create(ball, settings);
  EXPECT_TRUE(sim.ok()) << sim.status();
  *count = (*sim)->force_law_substeps();
  const double radius = ball->contact_points[0].radius;
  const double rest = radius - ball->TotalMass() * 9.81 / 30000.0;  // m g / c_N below r
  State s = (*sim)->state();
  s.q[2] = rest + 0.01;
  EXPECT_TRUE((*sim)->SetState(s).ok());
  const Eigen::VectorXd tau = Eigen::VectorXd::Zero(ball->nv);
  double excursion = 0.0;
  for (int k = 0; k < 1200; ++k) {
    if (!(*sim)->Step(tau, 1).ok()) return std::numeric_limits<double>::infinity();
    if (k >= 800) excursion = std::max(excursion, std::abs((*sim)->state().q[2] - rest));
  }
  return excursion;
}

TEST(ExplicitSubsteps, LightSphereRestsAt2_5msOnlyWithTheSubsteps) {
  // 0.1 kg on c = 30 000 N/m, d = 50 N s/m at 2.5 ms: (c Δt² + 2 d Δt)/m
  // = 4.4, past the limit of 4 for one update per step. One update per step
  // never settles: it chatters on and off the ground at the scale of the
  // static deflection m g / c (the clamp λ_N ≥ 0 bounds the growth); the
  // sub-steps bring it to rest.
  std::shared_ptr<const Model> ball = SolidSphere(0.1);
  ASSERT_NE(ball, nullptr);
  const double deflection = 0.1 * 9.81 / 30000.0;
  int single = 0, automatic = 0;
  const double one_update = RestingExcursion(ball, 1, &single);
  const double sub_stepped = RestingExcursion(ball, 0, &automatic);
  EXPECT_EQ(single, 1);
  EXPECT_EQ(automatic, 2);
  EXPECT_GT(one_update, 0.25 * deflection);
  EXPECT_LT(sub_stepped, 1e-3 * deflection);
}

TEST(ExplicitSubsteps, OnlyTheSpringDamperSubsteps) {
  std::shared_ptr<const Model> ball = SolidSphere(0.01);
  ASSERT_NE(ball, nullptr);
  for (ContactModel cm : {ContactModel::kHertz, ContactModel::kMicro, ContactModel::kMoreauJor}) {
    Settings settings;
    settings.contact = DefaultContactSettings(cm);
    settings.dt = 2.5e-3;
    auto sim = Simulation::Create(ball, settings);
    ASSERT_TRUE(sim.ok()) << sim.status();
    EXPECT_EQ((*sim)->force_law_substeps(), 1) << ContactModelName(cm);
  }
  Settings settings;
  settings.contact = DefaultContactSettings(ContactModel::kSpringDamper);
  settings.dt = 2.5e-3;
  EXPECT_FALSE(SetContactParameter(settings, "substeps", -1).ok());
  EXPECT_FALSE(SetContactParameter(settings, "substeps", 1001).ok());
  EXPECT_FALSE(SetContactParameter(settings, "substeps", 1.5).ok());
  ASSERT_TRUE(SetContactParameter(settings, "substeps", 7).ok());
  auto sim = Simulation::Create(ball, settings);
  ASSERT_TRUE(sim.ok()) << sim.status();
  EXPECT_EQ((*sim)->force_law_substeps(), 7);
}

TEST(ExplicitSubsteps, ALawPastTheCapIsRefusedNamingTheWayOut) {
  std::shared_ptr<const Model> ball = SolidSphere(0.1);
  ASSERT_NE(ball, nullptr);
  Settings settings;
  settings.contact = DefaultContactSettings(ContactModel::kSpringDamper);
  settings.dt = 2.5e-3;
  ASSERT_TRUE(SetContactParameter(settings, "normal_stiffness", 1e13).ok());
  const absl::Status refused = Simulation::Create(ball, settings).status();
  EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(refused.message().find("more than 1000 explicit updates per step"), std::string::npos)
      << refused;
  EXPECT_NE(refused.message().find("substeps"), std::string::npos) << refused;
  // A count given by hand is the user's choice.
  ASSERT_TRUE(SetContactParameter(settings, "substeps", 10).ok());
  EXPECT_TRUE(Simulation::Create(ball, settings).ok());
}

}  // namespace
}  // namespace moreau::sim
