// 003 eq. 14–15: the time-step-dependent damper, no pulling, friction bound.
#include "engine/contact/micro.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "engine/contact/terrain.h"
#include "tests/unit/contact/expect_invalid.h"
#include "tests/unit/contact/test_bodies.h"

namespace moreau::contact {
namespace {

using testing::ExpectInvalid;
using testing::Ground;

constexpr double kTol = 1e-9;

TEST(Micro, DefaultsAreThePapers) {
  const MicroParams p;
  EXPECT_EQ(p.stiffness, 4410.0);
  EXPECT_EQ(p.damping, 282.0);
  EXPECT_EQ(p.mu, 0.4);
  EXPECT_TRUE(Validate(p).ok());
}

TEST(Micro, ParamsForAMassScaleStiffnessAndDampingWithIt) {
  const MicroParams paper;
  auto same = MicroParamsForMass(kMicroDefaultsRobotMassKg);
  ASSERT_TRUE(same.ok()) << same.status();
  EXPECT_EQ(same->stiffness, paper.stiffness);
  EXPECT_EQ(same->damping, paper.damping);
  auto twice = MicroParamsForMass(2.0 * kMicroDefaultsRobotMassKg);
  ASSERT_TRUE(twice.ok()) << twice.status();
  EXPECT_DOUBLE_EQ(twice->stiffness, 2.0 * paper.stiffness);
  EXPECT_DOUBLE_EQ(twice->damping, 2.0 * paper.damping);
  EXPECT_DOUBLE_EQ(twice->tangential_stiffness, 2.0 * paper.tangential_stiffness);
  EXPECT_DOUBLE_EQ(twice->tangential_damping, 2.0 * paper.tangential_damping);
  EXPECT_EQ(twice->mu, paper.mu);
  EXPECT_EQ(twice->stick_velocity, paper.stick_velocity);
  EXPECT_TRUE(Validate(*twice).ok());
  // The same weight per unit stiffness: twice the load sinks as deep.
  ContactState state;
  const double sink = 0.004;
  const Vec3 f = MicroForce(*twice, Ground(Vec3(0, 0, -sink)), 0.001, state);
  EXPECT_NEAR(f.z(), 2.0 * paper.stiffness * sink, kTol);
}

TEST(Micro, ParamsForABadMassAreRefused) {
  for (double mass : {0.0, -1.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
    auto p = MicroParamsForMass(mass);
    ASSERT_FALSE(p.ok()) << mass;
    EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(p.status().message()), ::testing::HasSubstr("mass"));
  }
}

TEST(Micro, StaticForceIsKd) {
  const MicroParams p;
  ContactState state;
  const Vec3 f = MicroForce(p, Ground(Vec3(0, 0, -0.01)), 0.002, state);
  EXPECT_NEAR(f.z(), 44.1, kTol);
  EXPECT_NEAR(f.head<2>().norm(), 0.0, kTol);
  EXPECT_TRUE(state.closed);
}

TEST(Micro, TimeStepTermInBothPhases) {
  const MicroParams p;
  const double dt = 0.002;
  ContactState state;
  // Compressing (ḋ = −0.1 m/s): −k (d + ḋ Δt), no c term (003 eq. 15).
  Vec3 f = MicroForce(p, Ground(Vec3(0, 0, -0.01), Vec3(0, 0, -0.1)), dt, state);
  EXPECT_NEAR(f.z(), 4410.0 * (0.01 + 0.1 * dt), kTol);
  // Restituting (ḋ = +0.1 m/s): −k (d + ḋ Δt) − c ḋ.
  f = MicroForce(p, Ground(Vec3(0, 0, -0.01), Vec3(0, 0, 0.1)), dt, state);
  EXPECT_NEAR(f.z(), 4410.0 * (0.01 - 0.1 * dt) - 282.0 * 0.1, kTol);
  // Δt → 0 recovers 003 eq. 13.
  f = MicroForce(p, Ground(Vec3(0, 0, -0.01), Vec3(0, 0, -0.1)), 0.0, state);
  EXPECT_NEAR(f.z(), 44.1, kTol);
}

TEST(Micro, NoPullingWhenSeparatingFast) {
  const MicroParams p;
  ContactState state;
  const Vec3 f = MicroForce(p, Ground(Vec3(0, 0, -0.01), Vec3(0.2, 0, 1.0)), 0.002, state);
  EXPECT_EQ(f, Vec3::Zero());
  // Open: zero and the anchor cleared.
  EXPECT_EQ(MicroForce(p, Ground(Vec3(0, 0, 0.01)), 0.002, state), Vec3::Zero());
  EXPECT_FALSE(state.closed);
}

TEST(Micro, StickAnchorWithPredictedDisplacement) {
  const MicroParams p;
  const double dt = 0.001;
  ContactState state;
  MicroForce(p, Ground(Vec3(0, 0, -0.01)), dt, state);  // anchor at origin
  // 1 mm along x moving at 1 cm/s: −k_T (g_T + γ_T Δt) − c_T γ_T =
  // −4410 (1e-3 + 1e-5) − 2.82 = −7.2741 N, inside μ f_N = 17.64 N.
  const Vec3 f = MicroForce(p, Ground(Vec3(1e-3, 0, -0.01), Vec3(0.01, 0, 0)), dt, state);
  EXPECT_NEAR(f.x(), -4410.0 * 1.01e-3 - 2.82, kTol);
  EXPECT_FALSE(state.slip);
}

TEST(Micro, KineticFrictionBoundWhenSliding) {
  const MicroParams p;
  ContactState state;
  MicroForce(p, Ground(Vec3(0, 0, -0.01)), 0.001, state);
  const Vec3 f = MicroForce(p, Ground(Vec3(0.02, 0, -0.01), Vec3(0, -1.0, 0)), 0.001, state);
  EXPECT_TRUE(state.slip);
  // 003 eq. 11: −μ_k f_N σ, σ = (0, −1).
  EXPECT_NEAR(f.y(), 0.4 * 44.1, kTol);
  EXPECT_NEAR(f.x(), 0.0, kTol);
}

TEST(Micro, FrictionNeverExceedsMuFn) {
  const MicroParams p;
  std::mt19937_64 rng(4);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  ContactState state;
  for (int k = 0; k < 2000; ++k) {
    const Contact c = Ground(Vec3(0.01 * u(rng), 0.01 * u(rng), -0.005 * (u(rng) + 1.0)),
                             Vec3(u(rng), u(rng), u(rng)));
    const Vec3 f = MicroForce(p, c, 0.0025, state);
    EXPECT_GE(f.z(), 0.0);
    EXPECT_LE(f.head<2>().norm(), p.mu * f.z() + 1e-9);
  }
}

TEST(Micro, InvalidParametersAreRejected) {
  MicroParams p;
  p.stiffness = -1.0;
  ExpectInvalid(p, "micro.stiffness");
  p = {};
  p.mu = INFINITY;
  ExpectInvalid(p, "micro.mu");
}

}  // namespace
}  // namespace moreau::contact
