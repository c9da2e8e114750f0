// The controller tuning (tuning.h): names, auto's choice per model, paper-001
// as 001's constants, and derived values that are sane for the Mini Cheetah,
// the A1 and synthetic quadrupeds of 12, 30 and 55 kg: the stand pose within
// the joint limits with every foot under its hip, gains positive, the
// stiffness at most τ_max / 0.2 rad, the weight share fed forward, the step
// scaled by the leg length.
#include "engine/control/tuning.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "engine/control/legs.h"
#include "tests/unit/control/control_test_util.h"
#include "tests/unit/control/synthetic_quadruped.h"

namespace moreau::control {
namespace {

using ::testing::HasSubstr;

struct Robot {
  std::string label;
  std::shared_ptr<const Model> model;
};

std::vector<Robot> Robots() {
  std::vector<Robot> robots = {{"mini_cheetah", testing::MiniCheetah()},
                               {"a1", testing::UnitreeA1()}};
  for (double mass : {12.0, 30.0, 55.0}) {
    auto model = testing::LoadSyntheticQuadruped(testing::SyntheticQuadrupedOfMass(mass));
    EXPECT_TRUE(model.ok()) << model.status();
    if (model.ok()) robots.push_back({(*model)->name, *model});
  }
  return robots;
}

ControllerTuning Tune(const Model& model, Tuning tuning, bool trot = true) {
  absl::StatusOr<LegLayout> layout = FindLegs(model);
  EXPECT_TRUE(layout.ok()) << layout.status();
  ControllerOptions options;
  options.tuning = tuning;
  absl::StatusOr<ControllerTuning> tuned = TuneController(model, *layout, options, trot);
  EXPECT_TRUE(tuned.ok()) << tuned.status();
  return tuned.ok() ? *tuned : ControllerTuning{};
}

TEST(TuningTest, NamesParseBackAndAnUnknownOneListsTheValidOnes) {
  for (Tuning t : {Tuning::kAuto, Tuning::kPaper001, Tuning::kDerived}) {
    absl::StatusOr<Tuning> parsed = ParseTuning(TuningName(t));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, t);
  }
  const absl::StatusOr<Tuning> bad = ParseTuning("stiff");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("'stiff'"));
  EXPECT_THAT(bad.status().message(), HasSubstr("auto, paper-001, derived"));
}

TEST(TuningTest, AutoIsPaper001ForTheMiniCheetahAndDerivedForEveryOtherModel) {
  for (const Robot& robot : Robots()) {
    SCOPED_TRACE(robot.label);
    EXPECT_EQ(ResolveTuning(Tuning::kAuto, *robot.model),
              robot.label == "mini_cheetah" ? Tuning::kPaper001 : Tuning::kDerived);
    EXPECT_EQ(ResolveTuning(Tuning::kPaper001, *robot.model), Tuning::kPaper001);
    EXPECT_EQ(ResolveTuning(Tuning::kDerived, *robot.model), Tuning::kDerived);
  }
}

TEST(TuningTest, Paper001IsTheOptionsAsTheyAre) {
  const std::shared_ptr<const Model> model = testing::MiniCheetah();
  const ControllerTuning t = Tune(*model, Tuning::kAuto);
  EXPECT_EQ(t.tuning, Tuning::kPaper001);
  ASSERT_EQ(t.kp.size(), model->nu());
  for (int a = 0; a < model->nu(); ++a) {
    EXPECT_EQ(t.kp[a], 40.0);
    EXPECT_EQ(t.kd[a], 1.0);
  }
  EXPECT_EQ(t.stand_height, DefaultStandHeight(*FindLegs(*model)));
  EXPECT_EQ(t.gait.step_height, 0.06);
  EXPECT_DOUBLE_EQ(t.gait.step_length, 0.2);
  EXPECT_FALSE(t.weight_feedforward);
}

TEST(TuningTest, DerivedIsSaneForEveryQuadruped) {
  for (const Robot& robot : Robots()) {
    SCOPED_TRACE(robot.label);
    const Model& model = *robot.model;
    const LegLayout layout = *FindLegs(model);
    const ControllerTuning t = Tune(model, Tuning::kDerived);
    EXPECT_EQ(t.tuning, Tuning::kDerived);
    EXPECT_TRUE(t.weight_feedforward);
    EXPECT_GE(t.stand_fraction, 0.45);
    EXPECT_LE(t.stand_fraction, 0.9);
    EXPECT_GT(t.stand_height, 0.0);
    EXPECT_NEAR(t.gait.step_height, 0.15 * t.leg_length, 1e-12);
    // 0.5 m/s · ℓ / 0.4 m at β = ½, f = 1.25 Hz.
    EXPECT_NEAR(t.gait.step_length, 0.5 * t.leg_length / 0.4 * 0.5 / 1.25, 1e-12);
    const double share = model.TotalMass() * 9.81 / 4.0;
    for (const Leg& leg : layout.legs) {
      Vec3 angles;
      for (int j = 0; j < 3; ++j) {
        const int a = leg.actuator[j];
        angles[j] = t.q_stand[a];
        // The pose within the joint limits.
        EXPECT_GE(angles[j], leg.lower[j]);
        EXPECT_LE(angles[j], leg.upper[j]);
        // Gains positive; k_p the weight share's at r_j or the effort cap.
        const double limit = model.actuators[a].effort_limit;
        EXPECT_GT(t.lever[a], 0.0);
        EXPECT_GT(t.kp[a], 0.0);
        EXPECT_GT(t.kd[a], 0.0);
        EXPECT_LE(t.kp[a], limit / 0.2 + 1e-9);
        EXPECT_NEAR(t.kp[a], std::min(share * t.lever[a] / 0.1, limit / 0.2), 1e-9);
        EXPECT_NEAR(t.kd[a], t.lever[a] * std::sqrt(t.kp[a] * model.TotalMass() / 4.0), 1e-9);
        // The lever arms are at most the leg's reach from the abduction axis.
        EXPECT_LE(t.lever[a], leg.thigh_length + leg.shank_length + std::abs(leg.hip_offset));
      }
      // The foot under its hip, the sphere on the ground.
      const Vec3 foot = LegForwardKinematics(leg, angles);
      const Vec3 nominal = NominalFoot(leg, t.stand_height);
      EXPECT_NEAR((foot - nominal).norm(), 0.0, 1e-9);
      EXPECT_NEAR(foot.x(), leg.hip_pitch.x(), 1e-9);
    }
    // The stiffness cap is positive for every leg joint.
    ASSERT_EQ(t.inertia.size(), model.nu());
    for (int a = 0; a < model.nu(); ++a) EXPECT_GT(StiffnessCap(t.inertia[a], 2.5e-3), 0.0);
  }
}

TEST(TuningTest, DerivedGainsGrowWithTheMass) {
  double last_kp = 0.0;
  for (double mass : {12.0, 30.0, 55.0}) {
    auto model = testing::LoadSyntheticQuadruped(testing::SyntheticQuadrupedOfMass(mass));
    ASSERT_TRUE(model.ok());
    const ControllerTuning t = Tune(**model, Tuning::kAuto);
    EXPECT_EQ(t.tuning, Tuning::kDerived);
    const double kp_max = t.kp.maxCoeff();
    EXPECT_GT(kp_max, last_kp);
    last_kp = kp_max;
  }
}

TEST(TuningTest, DerivedScalesByTheOptionsAndTakesAGivenStandHeight) {
  const std::shared_ptr<const Model> model = testing::UnitreeA1();
  const ControllerTuning base = Tune(*model, Tuning::kDerived);
  const LegLayout layout = *FindLegs(*model);
  ControllerOptions options;
  options.tuning = Tuning::kDerived;
  options.gains.kd = 2.0;
  options.step_height = 0.03;
  options.stand_height = 0.28;
  absl::StatusOr<ControllerTuning> tuned = TuneController(*model, layout, options, true);
  ASSERT_TRUE(tuned.ok()) << tuned.status();
  EXPECT_EQ(tuned->stand_height, 0.28);
  EXPECT_NEAR(tuned->gait.step_height, 0.5 * base.gait.step_height, 1e-12);
  for (int a = 0; a < model->nu(); ++a) EXPECT_GT(tuned->kd[a], base.kd[a]);
}

TEST(TuningTest, TheStiffnessCapIsHalfTheExplicitLimit) {
  EXPECT_DOUBLE_EQ(StiffnessCap(0.01, 1e-3), 0.5 * 0.01 / 1e-6);
  EXPECT_TRUE(std::isinf(StiffnessCap(0.01, 0.0)));
  EXPECT_TRUE(std::isinf(StiffnessCap(0.0, 1e-3)));
}

}  // namespace
}  // namespace moreau::control
