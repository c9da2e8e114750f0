// Whole-body collision on the quadrupeds (label scenario): a limp Mini
// Cheetah and a limp Unitree A1 (zero torque), dropped from their standing
// pose with every collision geometry colliding, come to rest on their trunks
// and legs with every collision slot at or above the ground (within each
// contact model's tolerance) under every contact model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "engine/model/loader.h"
#include "engine/sim/simulation.h"

namespace moreau::sim {
namespace {

struct Robot {
  const char* name;
  std::string path;  // empty: built in
};

std::shared_ptr<const Model> LoadAll(const Robot& robot) {
  LoadOptions options;
  options.collision = CollisionMode::kAll;
  auto model =
      robot.path.empty() ? LoadBuiltin(robot.name, options) : LoadUrdfFile(robot.path, options);
  EXPECT_TRUE(model.ok()) << model.status();
  return *model;
}

// Hard contact and the QP models at 1 ms; the force laws at 0.1 ms, Hertz at
// 0.05 ms (its stiffness rises with the depth, 001 uses 0.1 ms on the feet
// alone). 3 s to fall and settle; Hertz's light damping (001 Table I) lets
// the robot bounce longer.
double StepFor(ContactModel cm) {
  if (IsHardContact(cm) || IsQpContact(cm)) return 1e-3;
  return cm == ContactModel::kHertz ? 5e-5 : 1e-4;
}
double DurationFor(ContactModel cm) { return cm == ContactModel::kHertz ? 4.0 : 3.0; }

// Penetration allowed at rest: 1 mm for hard contact and least-constraint;
// for the force laws and micro-macro's membrane (003 §IV-C) the static
// deflection of a slot carrying a third of the robot's weight (a limp
// quadruped rests on at least three points of its trunk and legs), plus 1 mm.
double Tolerance(const Settings& s, double weight) {
  const double f = weight / 3;
  double deflection = 0.0;
  if (const auto* sd = std::get_if<SpringDamperSettings>(&s.contact)) {
    deflection = f / sd->law.normal_stiffness;
  }
  if (const auto* micro = std::get_if<MicroSettings>(&s.contact)) {
    deflection = f / micro->law.stiffness;
  }
  if (const auto* hertz = std::get_if<HertzSettings>(&s.contact)) {
    // f = K δ₀ (δ/δ₀)^e (hertz.h: K is the secant stiffness at δ₀).
    deflection = hertz->law.reference_depth *
                 std::pow(f / (hertz->law.stiffness * hertz->law.reference_depth),
                          1.0 / hertz->law.exponent);
  }
  if (const auto* mm = std::get_if<MicroMacroSettings>(&s.contact)) {
    deflection = f / mm->params.membrane.stiffness;
  }
  return 1e-3 + deflection;
}

void ExpectLimpDropRests(const Robot& robot) {
  const std::shared_ptr<const Model> model = LoadAll(robot);
  const double weight = model->TotalMass() * 9.81;
  for (ContactModel cm : {ContactModel::kMoreauJor, ContactModel::kMoreauSor,
                          ContactModel::kSpringDamper, ContactModel::kHertz, ContactModel::kMicro,
                          ContactModel::kLeastConstraint, ContactModel::kMicroMacro}) {
    SCOPED_TRACE(std::string(robot.name) + " " + ContactModelName(cm));
    Settings settings;
    settings.contact = DefaultContactSettings(cm);
    settings.dt = StepFor(cm);
    auto sim = Simulation::Create(model, settings);
    ASSERT_TRUE(sim.ok()) << sim.status();
    const Eigen::VectorXd tau = Eigen::VectorXd::Zero(model->nv);
    const int steps = static_cast<int>(DurationFor(cm) / settings.dt);
    const int last = static_cast<int>(0.25 / settings.dt);
    ASSERT_TRUE((*sim)->Step(tau, steps - last).ok());
    // The deepest slot over the last 0.25 s.
    double deepest = 0.0;
    for (int k = 0; k < last; ++k) {
      ASSERT_TRUE((*sim)->Step(tau, 1).ok());
      deepest = std::max(deepest, (*sim)->contacts().max_penetration);
    }
    const State& s = (*sim)->state();
    const double tolerance = Tolerance(settings, weight);
    EXPECT_LE(deepest, tolerance);
    // At rest: the base barely moves.
    EXPECT_LT(s.v.head<3>().norm(), 0.05);
    // Lying on the trunk or the legs: the base fell below standing height.
    EXPECT_LT(s.q[2], model->default_base_height);
    std::printf(
        "[ measured ] %s %s: deepest slot %.3f mm (tolerance %.3f mm), base %.3f m, "
        "|v_base| %.2e m/s, %d slots, peak active %d\n",
        robot.name, ContactModelName(cm), 1e3 * deepest, 1e3 * tolerance, s.q[2],
        s.v.head<3>().norm(), (*sim)->contacts().capacity(), (*sim)->contacts().peak_active);
  }
}

TEST(CollisionScenario, LimpMiniCheetahRestsAboveTheGround) {
  ExpectLimpDropRests({"mini_cheetah", ""});
}

TEST(CollisionScenario, LimpUnitreeA1RestsAboveTheGround) {
  ExpectLimpDropRests({"a1", std::string(MOREAU_MODELS_DIR) + "/unitree_a1/a1.urdf"});
}

}  // namespace
}  // namespace moreau::sim
