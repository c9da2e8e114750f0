// 000 Alg. 1: normal spring-damper, stick anchor, stick → slip → stick.
#include "engine/contact/spring_damper.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "engine/contact/stick_slip.h"
#include "engine/contact/terrain.h"
#include "tests/unit/contact/expect_invalid.h"
#include "tests/unit/contact/test_bodies.h"

namespace moreau::contact {
namespace {

using testing::ExpectInvalid;
using testing::Ground;
using testing::PointContact;

constexpr double kTol = 1e-9;

TEST(SpringDamper, DefaultsAreThePapers) {
  const SpringDamperParams p;
  EXPECT_EQ(p.normal_stiffness, 30000.0);
  EXPECT_EQ(p.tangential_stiffness, 30000.0);
  EXPECT_EQ(p.normal_damping, 50.0);
  EXPECT_EQ(p.tangential_damping, 50.0);
  EXPECT_EQ(p.mu, 0.8);
  EXPECT_TRUE(Validate(p).ok());
}

TEST(SpringDamper, StaticNormalForceIsCg) {
  const SpringDamperParams p;
  ContactState state;
  const Vec3 f = SpringDamperForce(p, Ground(Vec3(0.1, 0.2, -0.001)), state);
  // λ_N = −c_N g_N = 30 N along +z, no friction at rest.
  EXPECT_NEAR(f.z(), 30.0, kTol);
  EXPECT_NEAR(f.head<2>().norm(), 0.0, kTol);
  EXPECT_TRUE(state.closed);
  EXPECT_FALSE(state.slip);
  EXPECT_NEAR((state.Anchor() - Vec3(0.1, 0.2, -0.001)).norm(), 0.0, kTol);

  // On an incline the force is along the plane normal.
  auto incline = Terrain::Incline(0.5, Vec3::UnitX());
  ASSERT_TRUE(incline.ok());
  const Vec3 n = incline->plane_normal();
  ContactState s2;
  const Vec3 f2 = SpringDamperForce(p, PointContact(*incline, -0.002 * n, 0.0, Vec3::Zero()), s2);
  EXPECT_NEAR((f2 - 60.0 * n).norm(), 0.0, kTol);
}

TEST(SpringDamper, NormalDamping) {
  const SpringDamperParams p;
  ContactState state;
  // Approaching at 0.1 m/s: λ_N = c_N·0.001 + d_N·0.1 = 35 N.
  const Vec3 f = SpringDamperForce(p, Ground(Vec3(0, 0, -0.001), Vec3(0, 0, -0.1)), state);
  EXPECT_NEAR(f.z(), 35.0, kTol);
}

TEST(SpringDamper, NoPullingWhenSeparatingFast) {
  const SpringDamperParams p;
  ContactState state;
  // −c_N g_N − d_N γ_N = 30 − 500 < 0 → λ_N = 0, and then no friction.
  const Vec3 f = SpringDamperForce(p, Ground(Vec3(0, 0, -0.001), Vec3(3, 0, 10)), state);
  EXPECT_EQ(f, Vec3::Zero());
}

TEST(SpringDamper, OpenContactClearsTheAnchor) {
  const SpringDamperParams p;
  ContactState state;
  SpringDamperForce(p, Ground(Vec3(0, 0, -0.001)), state);
  EXPECT_TRUE(state.closed);
  const Vec3 f = SpringDamperForce(p, Ground(Vec3(0, 0, 0.001), Vec3(0, 0, -1)), state);
  EXPECT_EQ(f, Vec3::Zero());
  EXPECT_FALSE(state.closed);
  EXPECT_FALSE(state.slip);
  // Closing again records the new point.
  SpringDamperForce(p, Ground(Vec3(0.5, 0, -0.001)), state);
  EXPECT_NEAR(state.Anchor().x(), 0.5, kTol);
}

TEST(SpringDamper, StickSpringToTheAnchor) {
  const SpringDamperParams p;
  ContactState state;
  SpringDamperForce(p, Ground(Vec3(0, 0, -0.001)), state);
  // Moved 0.1 mm along x and 0.2 mm along y, at rest: λ_T = −c_T (P − P0)_T.
  const Vec3 f = SpringDamperForce(p, Ground(Vec3(1e-4, 2e-4, -0.001)), state);
  EXPECT_NEAR(f.x(), -3.0, kTol);
  EXPECT_NEAR(f.y(), -6.0, kTol);
  EXPECT_NEAR(f.z(), 30.0, kTol);
  EXPECT_FALSE(state.slip);
  // Plus damping: −d_T γ_T.
  const Vec3 f2 = SpringDamperForce(p, Ground(Vec3(1e-4, 0, -0.001), Vec3(0.02, 0, 0)), state);
  EXPECT_NEAR(f2.x(), -3.0 - 1.0, kTol);
}

TEST(SpringDamper, StickToSlipToStick) {
  const SpringDamperParams p;  // μ λ_N = 0.8 · 30 = 24 N
  ContactState state;
  SpringDamperForce(p, Ground(Vec3(0, 0, -0.001)), state);
  // 0.7 mm stretch: 21 N < 24 N, sticking.
  Vec3 f = SpringDamperForce(p, Ground(Vec3(7e-4, 0, -0.001)), state);
  EXPECT_NEAR(f.x(), -21.0, kTol);
  EXPECT_FALSE(state.slip);
  // 1 mm stretch while moving at (0.3, 0.4) m/s: trial ‖(−45, −20)‖ > 24 N →
  // slip with λ_T = −μ λ_N γ_T/‖γ_T‖ (the normal part has no velocity).
  const Vec3 p1(1e-3, 0, -0.001);
  f = SpringDamperForce(p, Ground(p1, Vec3(0.3, 0.4, 0)), state);
  EXPECT_TRUE(state.slip);
  EXPECT_NEAR(f.x(), -24.0 * 0.6, kTol);
  EXPECT_NEAR(f.y(), -24.0 * 0.8, kTol);
  // The anchor is dragged along behind P, where the spring alone carries the
  // friction force: P0 = P + λ_T / c_T.
  EXPECT_NEAR((state.Anchor() - (p1 + Vec3(-14.4, -19.2, 0) / 30000.0)).norm(), 0.0, kTol);
  // Still sliding fast: dynamic friction on the disc boundary, the anchor
  // travels with P, 24 N / c_T = 0.8 mm behind it.
  const Vec3 p2(5e-3, 1e-3, -0.001);
  f = SpringDamperForce(p, Ground(p2, Vec3(1.0, 0, 0)), state);
  EXPECT_TRUE(state.slip);
  EXPECT_NEAR(f.x(), -24.0, kTol);
  EXPECT_NEAR(f.y(), 0.0, kTol);
  const Vec3 anchor = p2 - Vec3(8e-4, 0, 0);
  EXPECT_NEAR((state.Anchor() - anchor).norm(), 0.0, kTol);
  // Slowing down while still moving forward keeps it slipping: the trial
  // stick force is the spring's 24 N plus c_T Δx + d_T ‖γ_T‖ on top.
  const Vec3 p3 = p2 + Vec3(1e-4, 0, 0);
  f = SpringDamperForce(p, Ground(p3, Vec3(0.1, 0, 0)), state);
  EXPECT_TRUE(state.slip);
  EXPECT_NEAR(f.x(), -24.0, kTol);
  // The velocity reverses: the trial force, −c_T g_T − d_T γ_T =
  // −30000 · 0.79 mm + 50 · 0.1 = −18.7 N, fits in the disc → stick again
  // (000 Alg. 1 line 4) with that force at once, continuing from the spring's
  // stretch instead of from zero.
  const Vec3 anchor3 = p3 - Vec3(8e-4, 0, 0);
  const Vec3 p4 = p3 - Vec3(1e-5, 0, 0);
  f = SpringDamperForce(p, Ground(p4, Vec3(-0.1, 0, 0)), state);
  EXPECT_FALSE(state.slip);
  EXPECT_NEAR(f.x(), -30000.0 * 7.9e-4 + 5.0, 1e-9);
  EXPECT_NEAR((state.Anchor() - anchor3).norm(), 0.0, kTol);
  // From there the spring acts on the displacement from that anchor.
  f = SpringDamperForce(p, Ground(p4 - Vec3(2e-4, 0, 0)), state);
  EXPECT_FALSE(state.slip);
  EXPECT_NEAR(f.x(), -30000.0 * 5.9e-4, 1e-9);
}

TEST(SpringDamper, SlipWithoutVelocityFollowsTheTrialForce) {
  const SpringDamperParams p;
  ContactState state;
  SpringDamperForce(p, Ground(Vec3(0, 0, -0.001)), state);
  // A 2 mm static stretch along −y: trial 60 N > 24 N, no velocity to give a
  // direction → the trial force clamped to the disc.
  const Vec3 f = SpringDamperForce(p, Ground(Vec3(0, -2e-3, -0.001)), state);
  EXPECT_TRUE(state.slip);
  EXPECT_NEAR(f.y(), 24.0, kTol);
  EXPECT_NEAR(f.x(), 0.0, kTol);
}

TEST(SpringDamper, FrictionNeverExceedsMuLambdaN) {
  SpringDamperParams p;
  p.mu = 0.5;
  std::mt19937_64 rng(2);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  ContactState state;
  for (int k = 0; k < 2000; ++k) {
    const Vec3 pos(0.01 * u(rng), 0.01 * u(rng), -0.002 * (u(rng) + 1.0));
    const Vec3 vel(u(rng), u(rng), u(rng));
    const Contact c = Ground(pos, vel);
    const Vec3 f = SpringDamperForce(p, c, state);
    const double lambda_N = f.dot(c.normal);
    EXPECT_GE(lambda_N, 0.0);
    EXPECT_LE(f.head<2>().norm(), p.mu * lambda_N + 1e-9);
  }
}

TEST(SpringDamper, InvalidParametersAreRejected) {
  SpringDamperParams p;
  p.normal_stiffness = 0.0;
  ExpectInvalid(p, "spring_damper.normal_stiffness");
  p = {};
  p.tangential_damping = -1.0;
  ExpectInvalid(p, "spring_damper.tangential_damping");
  p = {};
  p.mu = std::nan("");
  ExpectInvalid(p, "spring_damper.mu");
}

}  // namespace
}  // namespace moreau::contact
