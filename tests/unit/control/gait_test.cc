// The trot foot trajectories (001 §6.2): Bézier evaluation, continuity of
// position and velocity at the stance/swing switches, the swing apex, the
// stance speed and the diagonal pairing.
#include "engine/control/gait.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/unit/control/control_test_util.h"

namespace moreau::control {
namespace {

TEST(Bezier, EndpointsLinearAndBernstein) {
  const double line[2] = {1.0, 3.0};
  EXPECT_DOUBLE_EQ(Bezier(line, 2, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(Bezier(line, 2, 0.25), 1.5);
  EXPECT_DOUBLE_EQ(Bezier(line, 2, 1.0), 3.0);
  // The degree-6 bump [0, 0, 0, 1, 0, 0, 0] = 20 s³ (1 − s)³.
  const double bump[7] = {0, 0, 0, 1, 0, 0, 0};
  for (double s : {0.0, 0.1, 0.3, 0.5, 0.8, 1.0}) {
    EXPECT_NEAR(Bezier(bump, 7, s), 20 * std::pow(s, 3) * std::pow(1 - s, 3), 1e-14);
  }
  const double cubic[4] = {0.0, 1.0, 2.0, 3.0};  // evenly spaced: x = 3 s
  EXPECT_NEAR(Bezier(cubic, 4, 0.4), 1.2, 1e-14);
}

TEST(WrapPhase, IntoZeroOne) {
  EXPECT_DOUBLE_EQ(WrapPhase(0.25), 0.25);
  EXPECT_DOUBLE_EQ(WrapPhase(1.25), 0.25);
  EXPECT_DOUBLE_EQ(WrapPhase(-0.25), 0.75);
  EXPECT_DOUBLE_EQ(WrapPhase(1.0), 0.0);
  EXPECT_LT(WrapPhase(-1e-18), 1.0);
}

class FootTrajectoryTest : public ::testing::TestWithParam<double> {};  // duty factor

TEST_P(FootTrajectoryTest, ContinuousWithApexAndStanceSpeed) {
  GaitParams gait;
  gait.duty_factor = GetParam();
  gait.step_length = 0.12;
  gait.step_height = 0.05;
  const double beta = gait.duty_factor;
  const double f = gait.frequency_hz;
  // Positions and velocities match across both switches (ψ = β and ψ = 0 ≡ 1).
  const double eps = 1e-7;
  for (double psi : {beta, 1.0}) {
    const Eigen::Vector2d before = FootTrajectory(gait, psi - eps);
    const Eigen::Vector2d after = FootTrajectory(gait, psi + eps);
    EXPECT_LT((after - before).norm(), 1e-5) << psi;
    const Eigen::Vector2d v_before = (before - FootTrajectory(gait, psi - 2 * eps)) / eps;
    const Eigen::Vector2d v_after = (FootTrajectory(gait, psi + 2 * eps) - after) / eps;
    EXPECT_LT((v_after - v_before).norm(), 1e-3 * v_before.norm() + 1e-6) << psi;
  }
  // No jumps anywhere: fine sampling moves the foot by at most |v_max| Δψ.
  const int n = 20000;
  double apex = 0.0;
  Eigen::Vector2d prev = FootTrajectory(gait, 0.0);
  for (int k = 1; k <= n; ++k) {
    const Eigen::Vector2d p = FootTrajectory(gait, static_cast<double>(k) / n);
    EXPECT_LT((p - prev).norm(), 10.0 * gait.step_length / n / std::min(beta, 1 - beta));
    apex = std::max(apex, p.y());
    prev = p;
  }
  // Swing apex = step height, in the middle of the swing, above the nominal x.
  EXPECT_NEAR(apex, gait.step_height, 1e-9);
  const Eigen::Vector2d mid = FootTrajectory(gait, beta + 0.5 * (1 - beta));
  EXPECT_NEAR(mid.y(), gait.step_height, 1e-12);
  EXPECT_NEAR(mid.x(), 0.0, 1e-12);
  // Stance: on the ground, from +L/2 to −L/2 at the constant speed L f / β.
  for (int k = 0; k < 100; ++k) {
    const double psi = beta * k / 100.0;
    ASSERT_TRUE(InStance(gait, psi));
    const Eigen::Vector2d p = FootTrajectory(gait, psi);
    EXPECT_EQ(p.y(), 0.0);
    const double speed = (FootTrajectory(gait, psi + 1e-6).x() - p.x()) / (1e-6 / f);
    EXPECT_NEAR(speed, -gait.step_length * f / beta, 1e-6);
  }
  EXPECT_NEAR(FootTrajectory(gait, 0.0).x(), 0.5 * gait.step_length, 1e-15);
  // Swing: above the ground (strictly, inside), ends at the stance start.
  for (int k = 1; k < 100; ++k) {
    const double psi = beta + (1 - beta) * k / 100.0;
    ASSERT_FALSE(InStance(gait, psi));
    EXPECT_GT(FootTrajectory(gait, psi).y(), 0.0);
  }
}

INSTANTIATE_TEST_SUITE_P(DutyFactors, FootTrajectoryTest, ::testing::Values(0.5, 0.4, 0.65));

// FootTrajectory's x is the Bézier curve of its control points (stance: the
// line L/2 → −L/2; swing: the cubic of gait.h) — the written-out de Casteljau
// gives Bezier's value bit for bit.
TEST(FootTrajectory, XIsBezierOfTheControlPointsExactly) {
  for (const double beta : {0.5, 0.4, 0.65}) {
    GaitParams gait;
    gait.duty_factor = beta;
    gait.step_length = 0.13;
    const double l = gait.step_length;
    const double r = (1.0 - beta) / beta;
    const double stance[2] = {0.5 * l, -0.5 * l};
    const double swing[4] = {-0.5 * l, -0.5 * l - l * r / 3.0, 0.5 * l + l * r / 3.0, 0.5 * l};
    for (int k = 0; k < 1000; ++k) {
      const double psi = k / 1000.0 + 1e-4;
      const double x = FootTrajectory(gait, psi).x();
      if (psi < beta) {
        EXPECT_EQ(x, Bezier(stance, 2, psi / beta)) << "beta " << beta << " psi " << psi;
      } else {
        EXPECT_EQ(x, Bezier(swing, 4, (psi - beta) / (1.0 - beta)))
            << "beta " << beta << " psi " << psi;
      }
    }
  }
}

TEST(FootTrajectory, TrotSpeedFromStepLength) {
  // L = v β / f: the stance foot moves back at the commanded v.
  GaitParams gait;  // 1.25 Hz, β = ½
  const double v = 0.25;
  gait.step_length = v * gait.duty_factor / gait.frequency_hz;
  const double dpsi = 1e-6;
  const double dx = FootTrajectory(gait, 0.2 + dpsi).x() - FootTrajectory(gait, 0.2).x();
  EXPECT_NEAR(dx / (dpsi / gait.frequency_hz), -v, 1e-9);
}

TEST(TrotPhaseOffset, DiagonalPairsHalfAPeriodApart) {
  for (const auto& [label, model] : testing::Quadrupeds()) {
    SCOPED_TRACE(label);
    ASSERT_NE(model, nullptr);
    auto layout = FindLegs(*model);
    ASSERT_TRUE(layout.ok());
    for (const Leg& leg : layout->legs) {
      // FR and HL together at 0, FL and HR at ½.
      EXPECT_EQ(TrotPhaseOffset(leg),
                (leg.front && !leg.left) || (!leg.front && leg.left) ? 0.0 : 0.5)
          << leg.foot_name;
    }
  }
}

TEST(DefaultStandHeight, FractionOfTheLegLength) {
  auto mc = FindLegs(*testing::MiniCheetah());
  auto a1 = FindLegs(*testing::UnitreeA1());
  ASSERT_TRUE(mc.ok() && a1.ok());
  EXPECT_NEAR(DefaultStandHeight(*mc), 0.7 * (0.209 + 0.18) + 0.015, 1e-12);  // 0.2873 m
  EXPECT_NEAR(DefaultStandHeight(*a1), 0.7 * (0.2 + 0.2) + 0.02, 1e-12);      // 0.30 m
  EXPECT_GE(DefaultStandHeight(*mc), 0.28);
  EXPECT_LE(DefaultStandHeight(*mc), 0.30);
  const Leg& leg = mc->legs[0];
  const Vec3 foot = NominalFoot(leg, 0.3);
  EXPECT_NEAR(foot.x(), 0.0, 1e-15);
  EXPECT_NEAR(foot.y(), -0.062, 1e-15);
  EXPECT_NEAR(foot.z(), 0.015 - 0.3, 1e-15);
}

}  // namespace
}  // namespace moreau::control
