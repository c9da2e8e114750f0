// 001 eq. 34–38: Hertz spring, damping ramp, smooth stick–slip friction.
#include "engine/contact/hertz.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <random>

#include "engine/contact/terrain.h"
#include "tests/unit/contact/expect_invalid.h"
#include "tests/unit/contact/test_bodies.h"

namespace moreau::contact {
namespace {

using testing::ExpectInvalid;
using testing::Ground;

constexpr double kTol = 1e-12;

TEST(Hertz, DefaultsAreTableI) {
  const HertzParams p;
  EXPECT_EQ(p.stiffness, 1e4);
  EXPECT_EQ(p.exponent, 2.2);
  EXPECT_EQ(p.reference_depth, 1e-3);
  EXPECT_EQ(p.damping, 10.0);
  EXPECT_EQ(p.ramp_depth, 1e-4);
  EXPECT_EQ(p.mu_static, 2.0);
  EXPECT_EQ(p.mu_dynamic, 2.0);
  EXPECT_EQ(p.stiction_velocity, 1e-4);
  EXPECT_EQ(p.sliding_velocity, 2e-4);
  EXPECT_FALSE(p.implicit_friction);  // stepped explicitly, as in 001
  EXPECT_TRUE(Validate(p).ok());
}

// f_s = K δ^e with δ in millimetres, K in N/m: K δ₀ (δ/δ₀)^e, δ₀ = 1 mm.
double SpringForce(double depth) { return 1e4 * 1e-3 * std::pow(depth / 1e-3, 2.2); }

TEST(Hertz, StaticForceIsKDeltaToTheE) {
  const HertzParams p;
  const Vec3 f = HertzForce(p, Ground(Vec3(0, 0, -0.01)));
  EXPECT_NEAR(f.z(), 1e4 * 1e-3 * std::pow(10.0, 2.2), 1e-9);  // 10 mm: 1585 N
  EXPECT_NEAR(f.z(), SpringForce(0.01), 1e-9);
  EXPECT_NEAR(f.head<2>().norm(), 0.0, kTol);
  // Open or just touching: nothing.
  EXPECT_EQ(HertzForce(p, Ground(Vec3(0, 0, 0.001))), Vec3::Zero());
  EXPECT_EQ(HertzForce(p, Ground(Vec3(0, 0, 0.0), Vec3(0, 0, -1))), Vec3::Zero());
}

// K keeps Table I's unit N/m: it is the secant stiffness f_s/δ at δ = δ₀, and
// a quarter of the 9 kg Mini Cheetah's weight (22 N) needs (2.2)^(1/2.2) mm.
TEST(Hertz, KIsTheSecantStiffnessAtOneMillimetre) {
  const HertzParams p;
  EXPECT_NEAR(HertzForce(p, Ground(Vec3(0, 0, -1e-3))).z() / 1e-3, 1e4, 1e-6);
  const double depth = 1e-3 * std::pow(2.2, 1.0 / 2.2);
  EXPECT_NEAR(HertzForce(p, Ground(Vec3(0, 0, -depth))).z(), 22.0, 1e-9);
  EXPECT_NEAR(depth, 1.43e-3, 0.01e-3);
  // δ₀ = 1 m is the literal SI reading K δ^e.
  HertzParams si = p;
  si.reference_depth = 1.0;
  EXPECT_NEAR(HertzForce(si, Ground(Vec3(0, 0, -0.062))).z(), 1e4 * std::pow(0.062, 2.2), 1e-9);
}

TEST(Hertz, DampingRampsInOverW) {
  const HertzParams p;
  const double w = p.ramp_depth;
  EXPECT_EQ(Smoothstep(-1.0), 0.0);
  EXPECT_EQ(Smoothstep(0.0), 0.0);
  EXPECT_NEAR(Smoothstep(0.5), 0.5, kTol);
  EXPECT_NEAR(Smoothstep(0.25), 3 * 0.0625 - 2 * 0.015625, kTol);
  EXPECT_EQ(Smoothstep(1.0), 1.0);
  EXPECT_EQ(Smoothstep(3.0), 1.0);
  EXPECT_EQ(HertzDamping(p, 0.0), 0.0);
  EXPECT_NEAR(HertzDamping(p, 0.5 * w), 5.0, kTol);
  EXPECT_NEAR(HertzDamping(p, w), 10.0, kTol);
  EXPECT_NEAR(HertzDamping(p, 10 * w), 10.0, kTol);
  // The force at δ = w/2 approaching at 1 m/s: K δ^e + (c_max/2)·1.
  const Vec3 f = HertzForce(p, Ground(Vec3(0, 0, -0.5 * w), Vec3(0, 0, -1)));
  EXPECT_NEAR(f.z(), SpringForce(0.5 * w) + 5.0, 1e-12);
  // At δ = w: full damping.
  const Vec3 f2 = HertzForce(p, Ground(Vec3(0, 0, -w), Vec3(0, 0, -0.1)));
  EXPECT_NEAR(f2.z(), SpringForce(w) + 1.0, 1e-12);
}

TEST(Hertz, NoPullingWhenSeparatingFast) {
  const HertzParams p;
  const Vec3 f = HertzForce(p, Ground(Vec3(0, 0, -0.001), Vec3(1, 0, 5)));
  EXPECT_EQ(f, Vec3::Zero());
}

TEST(Hertz, FrictionCoefficientShape) {
  HertzParams p;
  p.mu_static = 1.0;
  p.mu_dynamic = 0.6;
  const double vs = p.stiction_velocity, vd = p.sliding_velocity;
  EXPECT_NEAR(HertzFrictionCoefficient(p, 0.0), 0.0, kTol);
  EXPECT_NEAR(HertzFrictionCoefficient(p, vs), 1.0, kTol);
  EXPECT_NEAR(HertzFrictionCoefficient(p, -vs), -1.0, kTol);
  EXPECT_NEAR(HertzFrictionCoefficient(p, 0.5 * vs), 2 * Smoothstep(0.75) - 1, kTol);
  EXPECT_NEAR(HertzFrictionCoefficient(p, 0.5 * (vs + vd)), 0.8, kTol);
  EXPECT_NEAR(HertzFrictionCoefficient(p, vd), 0.6, kTol);
  EXPECT_NEAR(HertzFrictionCoefficient(p, 10.0), 0.6, kTol);
  EXPECT_NEAR(HertzFrictionCoefficient(p, -10.0), -0.6, kTol);
  // Continuous and odd.
  for (double v = -5 * vd; v <= 5 * vd; v += vd / 97) {
    const double e = 1e-9;
    EXPECT_NEAR(HertzFrictionCoefficient(p, v + e), HertzFrictionCoefficient(p, v - e), 1e-4);
    EXPECT_NEAR(HertzFrictionCoefficient(p, -v), -HertzFrictionCoefficient(p, v), kTol);
  }
}

TEST(Hertz, FrictionOpposesSlipAndIsIsotropic) {
  const HertzParams p;  // μ_s = μ_d = 2
  const double depth = 0.01;
  const double f_n = SpringForce(depth);
  // Sliding fast along t1, then along the diagonal: the same magnitude μ_d f_n,
  // opposite to the slip.
  for (const Vec3& vel : {Vec3(0.5, 0, 0), Vec3(0.3, 0.4, 0)}) {
    const Vec3 f = HertzForce(p, Ground(Vec3(0, 0, -depth), vel));
    EXPECT_NEAR(f.z(), f_n, 1e-9);
    EXPECT_NEAR(f.head<2>().norm(), 2.0 * f_n, 1e-9);
    EXPECT_NEAR(f.head<2>().normalized().dot(vel.head<2>().normalized()), -1.0, 1e-12);
  }
  // Slow slip (v < v_s): a fraction of μ_s f_n.
  const Vec3 slow(0.5 * p.stiction_velocity, 0, 0);
  const Vec3 f = HertzForce(p, Ground(Vec3(0, 0, -depth), slow));
  EXPECT_NEAR(f.x(), -HertzFrictionCoefficient(p, slow.x()) * f_n, 1e-12);
  // No slip: no friction.
  EXPECT_NEAR(HertzForce(p, Ground(Vec3(0, 0, -depth))).head<2>().norm(), 0.0, kTol);
}

TEST(Hertz, FrictionBoundedByMuFn) {
  HertzParams p;
  p.mu_static = 1.2;
  p.mu_dynamic = 0.7;
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int k = 0; k < 2000; ++k) {
    const double scale = std::pow(10.0, 4 * u(rng) - 2);  // 1e-6 … 1e2 m/s
    const Vec3 vel = scale * Vec3(u(rng), u(rng), 0.01 * u(rng));
    const Contact c = Ground(Vec3(0, 0, -0.01 * (u(rng) + 1.0)), vel);
    const Vec3 f = HertzForce(p, c);
    EXPECT_GE(f.z(), 0.0);
    EXPECT_LE(f.head<2>().norm(), p.mu_static * f.z() + 1e-12);
  }
}

// dμ/dv of the smoothstep pieces against central differences of μ.
TEST(Hertz, FrictionSlopeIsTheCoefficientsDerivative) {
  HertzParams p;
  p.mu_static = 1.0;
  p.mu_dynamic = 0.6;
  const double vs = p.stiction_velocity, vd = p.sliding_velocity;
  EXPECT_NEAR(HertzFrictionSlope(p, 0.0), 1.5 * p.mu_static / vs, 1e-9);
  EXPECT_EQ(HertzFrictionSlope(p, 2 * vd), 0.0);
  for (double v = vs / 53; v < 1.5 * vd; v += vd / 97) {
    const double e = 1e-10;
    const double fd =
        (HertzFrictionCoefficient(p, v + e) - HertzFrictionCoefficient(p, v - e)) / (2 * e);
    EXPECT_NEAR(HertzFrictionSlope(p, v), fd, 1e-4 * std::abs(fd) + 1e-2) << v;
  }
}

// φ(v) = μ(‖v‖) f_n v̂ and H = ∂φ/∂v against central differences, in the
// stick regime, across v_s and in sliding.
TEST(Hertz, FrictionJacobianMatchesFiniteDifferences) {
  const HertzParams p;
  const double f_n = 20.0;
  for (const Eigen::Vector2d& v :
       {Eigen::Vector2d(3e-5, -2e-5), Eigen::Vector2d(1.2e-4, 0.5e-4), Eigen::Vector2d(0.3, 0.1)}) {
    Eigen::Vector2d phi;
    Eigen::Matrix2d H;
    HertzFrictionAndJacobian(p, f_n, v, phi, H);
    EXPECT_NEAR(phi.norm(), HertzFrictionCoefficient(p, v.norm()) * f_n, 1e-9);
    EXPECT_NEAR(phi.normalized().dot(v.normalized()), 1.0, 1e-12);
    const double e = 1e-6 * v.norm();
    for (int j = 0; j < 2; ++j) {
      Eigen::Vector2d plus, minus;
      Eigen::Matrix2d unused;
      HertzFrictionAndJacobian(p, f_n, v + e * Eigen::Vector2d::Unit(j), plus, unused);
      HertzFrictionAndJacobian(p, f_n, v - e * Eigen::Vector2d::Unit(j), minus, unused);
      const Eigen::Vector2d fd = (plus - minus) / (2 * e);
      EXPECT_LT((H.col(j) - fd).norm(), 1e-5 * H.norm()) << v.transpose() << " column " << j;
    }
    // Symmetric positive semi-definite for μ_d ≥ μ_s (a convex potential).
    EXPECT_NEAR(H(0, 1), H(1, 0), 1e-9 * H.norm());
    EXPECT_GE(H.selfadjointView<Eigen::Lower>().eigenvalues().minCoeff(), -1e-9 * H.norm());
  }
  // At rest: no force, H = f_n μ′(0) I.
  Eigen::Vector2d phi;
  Eigen::Matrix2d H;
  HertzFrictionAndJacobian(p, f_n, Eigen::Vector2d::Zero(), phi, H);
  EXPECT_EQ(phi, Eigen::Vector2d::Zero());
  EXPECT_TRUE(H.isApprox(f_n * HertzFrictionSlope(p, 0.0) * Eigen::Matrix2d::Identity()));
}

// With implicit_friction the law gives the normal force only (the step adds
// the friction), HertzNormalForce's.
TEST(Hertz, ImplicitFrictionLeavesTheLawNormal) {
  HertzParams p;
  p.implicit_friction = true;
  const Contact c = Ground(Vec3(0, 0, -0.002), Vec3(0.3, -0.2, -0.01));
  const Vec3 f = HertzForce(p, c);
  EXPECT_EQ(f.head<2>(), Eigen::Vector2d::Zero());
  EXPECT_NEAR(f.z(), HertzNormalForce(p, c), kTol);
  p.implicit_friction = false;
  EXPECT_NEAR(HertzForce(p, c).z(), HertzNormalForce(p, c), kTol);
  EXPECT_GT(HertzForce(p, c).head<2>().norm(), 0.0);
  EXPECT_EQ(HertzNormalForce(p, Ground(Vec3(0, 0, 0.001))), 0.0);
}

TEST(Hertz, InvalidParametersAreRejected) {
  HertzParams p;
  p.exponent = 0.5;
  ExpectInvalid(p, "hertz.exponent");
  p = {};
  p.ramp_depth = 0.0;
  ExpectInvalid(p, "hertz.ramp_depth");
  p = {};
  p.sliding_velocity = p.stiction_velocity;
  ExpectInvalid(p, "hertz.sliding_velocity");
  p = {};
  p.reference_depth = 0.0;
  ExpectInvalid(p, "hertz.reference_depth");
  p = {};
  p.stiffness = std::nan("");
  ExpectInvalid(p, "hertz.stiffness");
}

}  // namespace
}  // namespace moreau::contact
