// Collision detection (gap, contact point, frame, active flag; 001 eq. 31) and
// contact-point velocities (γ_N, γ_T) on floating bodies over planes,
// inclines and heightfields.
#include "engine/contact/contact_set.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "engine/contact/terrain.h"
#include "engine/dynamics/data.h"
#include "engine/dynamics/jacobians.h"
#include "engine/dynamics/kinematics.h"
#include "engine/model/loader.h"
#include "tests/unit/contact/test_bodies.h"

namespace moreau::contact {
namespace {

using testing::FloatingBody;
using testing::FreeQ;
using testing::SphereModel;

constexpr double kTol = 1e-12;

void ExpectVecNear(const Vec3& a, const Vec3& b, double tol) {
  EXPECT_NEAR((a - b).norm(), 0.0, tol)
      << "got " << a.transpose() << ", expected " << b.transpose();
}

// A random state of a floating-base model: q and v ~ N(0, 1), the base
// quaternion normalized.
void RandomState(const Model& model, std::mt19937_64& rng, std::normal_distribution<double>& g,
                 Eigen::VectorXd& q, Eigen::VectorXd& v) {
  q.resize(model.nq);
  v.resize(model.nv);
  for (int i = 0; i < model.nq; ++i) q[i] = g(rng);
  q.segment<4>(3).normalize();  // the base quaternion
  for (int i = 0; i < model.nv; ++i) v[i] = g(rng);
}

// b's contact-point velocity, γ_N and γ_T equal a's (1e-12 relative).
void ExpectSameVelocity(const Contact& b, const Contact& a) {
  const double tol = 1e-12 * (1.0 + a.velocity.norm());
  ExpectVecNear(b.velocity, a.velocity, tol);
  EXPECT_NEAR(b.gamma_N, a.gamma_N, tol);
  EXPECT_NEAR((b.gamma_T - a.gamma_T).norm(), 0.0, tol);
}

// `active_only` (an active_only variant's result): `reference`'s velocity at
// the active slots, zero at the others.
void ExpectActiveOnlyVelocities(const ContactSet& active_only, const ContactSet& reference) {
  for (int k = 0; k < reference.capacity(); ++k) {
    const Contact& a = reference.contacts[k];
    const Contact& b = active_only.contacts[k];
    if (b.active) {
      ExpectVecNear(b.velocity, a.velocity, 1e-12 * (1.0 + a.velocity.norm()));
    } else {
      EXPECT_EQ(b.velocity, Vec3::Zero());
      EXPECT_EQ(b.gamma_N, 0.0);
      EXPECT_EQ(b.gamma_T, Eigen::Vector2d::Zero());
    }
  }
}

void ExpectRightHandedFrame(const Contact& c) {
  EXPECT_NEAR(c.normal.norm(), 1.0, kTol);
  EXPECT_NEAR(c.t1.norm(), 1.0, kTol);
  EXPECT_NEAR(c.t2.norm(), 1.0, kTol);
  EXPECT_NEAR(c.t1.dot(c.t2), 0.0, kTol);
  EXPECT_NEAR(c.t1.dot(c.normal), 0.0, kTol);
  EXPECT_NEAR(c.t2.dot(c.normal), 0.0, kTol);
  ExpectVecNear(c.t1.cross(c.t2), c.normal, kTol);
}

// Positions the model at q and runs detection.
void Detect(const Model& model, Data& data, const Eigen::VectorXd& q, const Terrain& terrain,
            ContactSet& set) {
  ContactJacobians(model, data, q);
  DetectContacts(model, data, terrain, set);
}

TEST(ContactSet, OneSlotPerContactPoint) {
  const Model model = SphereModel();
  const ContactSet set = MakeContactSet(model, 0.002);
  EXPECT_EQ(set.capacity(), 1);
  EXPECT_EQ(set.activation_margin, 0.002);
  EXPECT_EQ(set.num_active, 0);
  ContactPoint a, b;
  a.body = b.body = 1;
  a.position = Vec3(0.2, 0, 0);
  b.position = Vec3(-0.2, 0, 0);
  a.radius = b.radius = 0.05;
  EXPECT_EQ(MakeContactSet(FloatingBody(1.0, Mat3::Identity(), {a, b})).capacity(), 2);
}

TEST(ContactSet, SphereAtKnownHeightsOverFlatGround) {
  const double r = 0.1;
  const Model model = SphereModel(r);
  Data data = MakeData(model);
  ContactSet set = MakeContactSet(model);
  const Terrain ground;

  // Well above: gap = z − r, inactive.
  Detect(model, data, FreeQ(Vec3(0.3, -0.4, 0.5)), ground, set);
  const Contact& c = set.contacts[0];
  EXPECT_NEAR(c.gap, 0.4, kTol);
  EXPECT_FALSE(c.active);
  EXPECT_EQ(set.num_active, 0);
  EXPECT_EQ(set.max_penetration, 0.0);
  ExpectVecNear(c.normal, Vec3::UnitZ(), kTol);
  ExpectVecNear(c.t1, Vec3::UnitX(), kTol);
  ExpectVecNear(c.t2, Vec3::UnitY(), kTol);
  ExpectVecNear(c.position, Vec3(0.3, -0.4, 0.4), kTol);

  // Touching exactly: active (g_N ≤ 0).
  Detect(model, data, FreeQ(Vec3(0, 0, r)), ground, set);
  EXPECT_NEAR(set.contacts[0].gap, 0.0, kTol);
  EXPECT_TRUE(set.contacts[0].active);

  // Penetrating 1 cm, any orientation (the contact sphere is at the centre).
  const Eigen::Quaterniond rot(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
  Detect(model, data, FreeQ(Vec3(1, 2, r - 0.01), rot), ground, set);
  EXPECT_NEAR(set.contacts[0].gap, -0.01, kTol);
  EXPECT_TRUE(set.contacts[0].active);
  EXPECT_EQ(set.num_active, 1);
  EXPECT_EQ(set.peak_active, 1);
  EXPECT_NEAR(set.max_penetration, 0.01, kTol);
  ExpectVecNear(set.contacts[0].position, Vec3(1, 2, -0.01), kTol);

  // Back in the air: inactive again, the peak stays.
  Detect(model, data, FreeQ(Vec3(0, 0, 1)), ground, set);
  EXPECT_EQ(set.num_active, 0);
  EXPECT_EQ(set.peak_active, 1);
}

TEST(ContactSet, ActivationMargin) {
  const double r = 0.1;
  const Model model = SphereModel(r);
  Data data = MakeData(model);
  ContactSet set = MakeContactSet(model, 0.01);
  Detect(model, data, FreeQ(Vec3(0, 0, r + 0.005)), Terrain(), set);
  EXPECT_NEAR(set.contacts[0].gap, 0.005, kTol);
  EXPECT_TRUE(set.contacts[0].active);
  EXPECT_EQ(set.max_penetration, 0.0);
  Detect(model, data, FreeQ(Vec3(0, 0, r + 0.02)), Terrain(), set);
  EXPECT_FALSE(set.contacts[0].active);
}

TEST(ContactSet, SphereOverIncline) {
  const double r = 0.1, theta = std::numbers::pi / 6;
  const Model model = SphereModel(r);
  Data data = MakeData(model);
  ContactSet set = MakeContactSet(model);
  const Vec3 point(0.2, 0.5, 0.3);
  auto incline = Terrain::Incline(theta, Vec3::UnitX(), point);
  ASSERT_TRUE(incline.ok());
  const Vec3 n(0.0, -std::sin(theta), std::cos(theta));
  // Centre h along the normal from a point of the surface (+ a tangential
  // shift): gap = h − r.
  for (double h : {0.5, r, r - 0.003}) {
    SCOPED_TRACE(h);
    const Vec3 centre =
        point + Vec3(0.4, 0, 0) + 0.3 * Vec3(0, std::cos(theta), std::sin(theta)) + h * n;
    Detect(model, data, FreeQ(centre), *incline, set);
    const Contact& c = set.contacts[0];
    EXPECT_NEAR(c.gap, h - r, 1e-12);
    EXPECT_EQ(c.active, h - r <= 0.0);
    ExpectVecNear(c.normal, n, kTol);
    ExpectRightHandedFrame(c);
    // The contact point is the sphere point closest to the plane.
    ExpectVecNear(c.position, centre - r * n, kTol);
    EXPECT_NEAR(incline->SignedDistance(c.position), h - r, 1e-12);
  }
  // t1 is the world x axis (it lies in this incline), t2 runs up the slope.
  ExpectVecNear(set.contacts[0].t1, Vec3::UnitX(), kTol);
  ExpectVecNear(set.contacts[0].t2, Vec3(0, std::cos(theta), std::sin(theta)), kTol);
}

TEST(ContactSet, BuiltinSphereModel) {
  auto loaded = LoadBuiltin("sphere");
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  const Model& model = **loaded;
  ASSERT_EQ(model.contact_points.size(), 1u);
  ASSERT_TRUE(model.floating_base);
  const double r = model.contact_points[0].radius;
  Data data = MakeData(model);
  ContactSet set = MakeContactSet(model);
  auto incline = Terrain::Incline(0.2, Vec3::UnitY());
  ASSERT_TRUE(incline.ok());
  const Vec3 n = incline->plane_normal();
  Eigen::VectorXd q = model.q_default;
  // The contact sphere is at the body origin: its centre is q[0:3].
  const Vec3 centre = Vec3(0, 0.2, 0) + 0.1 * n.cross(Vec3::UnitY()) + (r - 0.004) * n;
  q.head<3>() = centre;
  Detect(model, data, q, *incline, set);
  EXPECT_NEAR(set.contacts[0].gap, -0.004, 1e-12);
  EXPECT_TRUE(set.contacts[0].active);
  ExpectVecNear(set.contacts[0].normal, n, kTol);
  ExpectRightHandedFrame(set.contacts[0]);
}

TEST(ContactSet, HeightfieldDetection) {
  const double r = 0.05;
  const Model model = SphereModel(r);
  Data data = MakeData(model);
  ContactSet set = MakeContactSet(model);
  // h = 0.2 x over the grid: a uniform slope.
  auto hf = Terrain::Heightfield(Vec3(-1, -1, 0), 0.5, 5, 5, {-0.2, -0.1, 0.0, 0.1, 0.2,  //
                                                              -0.2, -0.1, 0.0, 0.1, 0.2,  //
                                                              -0.2, -0.1, 0.0, 0.1, 0.2,  //
                                                              -0.2, -0.1, 0.0, 0.1, 0.2,  //
                                                              -0.2, -0.1, 0.0, 0.1, 0.2});
  ASSERT_TRUE(hf.ok()) << hf.status();
  const Vec3 n = Vec3(-0.2, 0, 1).normalized();
  const Vec3 centre = Vec3(0.3, 0.1, 0.06) + 0.04 * n;
  Detect(model, data, FreeQ(centre), *hf, set);
  EXPECT_NEAR(set.contacts[0].gap, -0.01, 1e-12);
  ExpectVecNear(set.contacts[0].normal, n, 1e-12);
  ExpectRightHandedFrame(set.contacts[0]);
}

TEST(TangentBasis, OrthonormalRightHandedAndContinuous) {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> g(0.0, 1.0);
  for (int k = 0; k < 500; ++k) {
    const Vec3 n = Vec3(g(rng), g(rng), g(rng)).normalized();
    Contact c;
    c.normal = n;
    TangentBasis(n, c.t1, c.t2);
    ExpectRightHandedFrame(c);
    // Away from the switch at |n_x| = 0.9 a small change of n changes the
    // frame by a proportionally small amount.
    if (std::abs(n.x()) < 0.85) {
      const Vec3 n2 = (n + 1e-6 * Vec3(g(rng), g(rng), g(rng))).normalized();
      Vec3 t1b, t2b;
      TangentBasis(n2, t1b, t2b);
      EXPECT_LT((t1b - c.t1).norm(), 1e-4);
      EXPECT_LT((t2b - c.t2).norm(), 1e-4);
    }
  }
  // Walls facing ±x still get a valid frame.
  for (const Vec3& n : {Vec3::UnitX().eval(), (-Vec3::UnitX()).eval()}) {
    Contact c;
    c.normal = n;
    TangentBasis(n, c.t1, c.t2);
    ExpectRightHandedFrame(c);
  }
}

TEST(ContactVelocities, DecomposedInTheContactFrame) {
  const double r = 0.1;
  const Model model = SphereModel(r);
  Data data = MakeData(model);
  ContactSet set = MakeContactSet(model);
  auto incline = Terrain::Incline(0.4, Vec3(1, 1, 0));
  ASSERT_TRUE(incline.ok());
  const Eigen::Quaterniond rot(Eigen::AngleAxisd(1.1, Vec3(0, 1, 1).normalized()));
  const Eigen::VectorXd q = FreeQ(Vec3(0.1, 0.2, 0.05), rot);
  Eigen::VectorXd v(6);
  v << 0.5, -1.5, 2.0, 3.0, -4.0, 5.0;  // world linear, body angular
  ContactJacobians(model, data, q);
  DetectContacts(model, data, *incline, set);
  ComputeContactVelocities(model, data, v, set);
  const Contact& c = set.contacts[0];
  // The centre's velocity is the base linear velocity, whatever ω is.
  ExpectVecNear(c.velocity, v.head<3>(), 1e-12);
  EXPECT_NEAR(c.gamma_N, c.normal.dot(v.head<3>()), 1e-12);
  EXPECT_NEAR(c.gamma_T.x(), c.t1.dot(v.head<3>()), 1e-12);
  EXPECT_NEAR(c.gamma_T.y(), c.t2.dot(v.head<3>()), 1e-12);
  // γ_N n + γ_T1 t1 + γ_T2 t2 reassembles the velocity.
  ExpectVecNear(c.gamma_N * c.normal + c.gamma_T.x() * c.t1 + c.gamma_T.y() * c.t2, c.velocity,
                1e-12);

  // Flat ground: γ_N = ż, γ_T = (ẋ, ẏ).
  DetectContacts(model, data, Terrain(), set);
  ComputeContactVelocities(model, data, v, set);
  EXPECT_NEAR(set.contacts[0].gamma_N, 2.0, 1e-12);
  EXPECT_NEAR(set.contacts[0].gamma_T.x(), 0.5, 1e-12);
  EXPECT_NEAR(set.contacts[0].gamma_T.y(), -1.5, 1e-12);
}

TEST(ContactVelocities, OffsetSpheresOfARotatingBody) {
  // Two feet off the body origin: velocity = ṗ + R (ω × r_body).
  ContactPoint a, b;
  a.body = b.body = 1;
  a.position = Vec3(0.2, 0.1, -0.3);
  b.position = Vec3(-0.2, 0.0, -0.3);
  a.radius = 0.02;
  b.radius = 0.03;
  const Model model = FloatingBody(2.0, Vec3(0.1, 0.2, 0.3).asDiagonal(), {a, b});
  Data data = MakeData(model);
  ContactSet set = MakeContactSet(model);
  const Eigen::Quaterniond rot(Eigen::AngleAxisd(0.3, Vec3(1, -1, 2).normalized()));
  const Eigen::VectorXd q = FreeQ(Vec3(0.0, 0.0, 0.31), rot);
  Eigen::VectorXd v(6);
  v << 0.2, 0.1, -0.4, 0.7, -0.2, 1.3;
  ContactJacobians(model, data, q);
  DetectContacts(model, data, Terrain(), set);
  ComputeContactVelocities(model, data, v, set);
  const Mat3 R = rot.toRotationMatrix();
  const Vec3 omega = v.segment<3>(3);
  for (int k = 0; k < 2; ++k) {
    SCOPED_TRACE(k);
    const ContactPoint& cp = model.contact_points[k];
    const Contact& c = set.contacts[k];
    const Vec3 centre = q.head<3>() + R * cp.position;
    EXPECT_NEAR(c.gap, centre.z() - cp.radius, 1e-12);
    ExpectVecNear(c.velocity, v.head<3>() + R * omega.cross(cp.position), 1e-12);
    EXPECT_NEAR(c.gamma_N, c.velocity.z(), 1e-12);
    EXPECT_NEAR(c.gamma_T.x(), c.velocity.x(), 1e-12);
    EXPECT_NEAR(c.gamma_T.y(), c.velocity.y(), 1e-12);
  }
}

// From the body twists (ForwardKinematics with v) the same velocities as
// from the Jacobians, on the Mini Cheetah's feet at random states.
TEST(ContactVelocities, FromTwistsEqualJacobianTimesV) {
  auto loaded = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  const Model& model = **loaded;
  Data data = MakeData(model);
  ContactSet by_jacobian = MakeContactSet(model);
  ContactSet by_twist = MakeContactSet(model);
  std::mt19937_64 rng(3);
  std::normal_distribution<double> g(0.0, 1.0);
  for (int trial = 0; trial < 50; ++trial) {
    SCOPED_TRACE(trial);
    Eigen::VectorXd q, v;
    RandomState(model, rng, g, q, v);
    ForwardKinematics(model, data, q, v);
    ContactJacobians(model, data);
    DetectContacts(model, data, Terrain(), by_jacobian);
    DetectContacts(model, data, Terrain(), by_twist);
    ComputeContactVelocities(model, data, v, by_jacobian);
    ComputeContactVelocities(model, data, by_twist);
    for (int k = 0; k < by_jacobian.capacity(); ++k) {
      ExpectSameVelocity(by_twist.contacts[k], by_jacobian.contacts[k]);
    }
    // active_only: the same for the active slots, zero for the others.
    ComputeContactVelocities(model, data, by_twist, /*active_only=*/true);
    ExpectActiveOnlyVelocities(by_twist, by_jacobian);
  }
}

// From the world joint axes (S_world and the sphere centres, no contact
// Jacobian) the same velocities as from the Jacobians, on the Mini Cheetah's
// feet at random states; the axes path also reuses one tangent basis for
// equal normals, which must equal TangentBasis's.
TEST(ContactVelocities, FromAxesEqualJacobianTimesV) {
  auto loaded = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  const Model& model = **loaded;
  Data data = MakeData(model);
  ContactSet by_jacobian = MakeContactSet(model);
  ContactSet by_axes = MakeContactSet(model);
  std::mt19937_64 rng(5);
  std::normal_distribution<double> g(0.0, 1.0);
  for (int trial = 0; trial < 50; ++trial) {
    SCOPED_TRACE(trial);
    Eigen::VectorXd q, v;
    RandomState(model, rng, g, q, v);
    ForwardKinematics(model, data, q);
    ContactJacobians(model, data);
    DetectContacts(model, data, Terrain(), by_jacobian);
    ComputeContactVelocities(model, data, v, by_jacobian);
    // The axes path as the explicit step runs it.
    ForwardKinematics(model, data, q);
    ComputeJointAxesWorld(model, data);
    ContactPositions(model, data);
    DetectContacts(model, data, Terrain(), by_axes);
    ComputeContactVelocitiesOnPaths(model, data, v, by_axes);
    for (int k = 0; k < by_jacobian.capacity(); ++k) {
      const Contact& b = by_axes.contacts[k];
      ExpectSameVelocity(b, by_jacobian.contacts[k]);
      Vec3 t1, t2;
      TangentBasis(b.normal, t1, t2);
      EXPECT_EQ(b.t1, t1);
      EXPECT_EQ(b.t2, t2);
    }
    // active_only: the same for the active slots, zero for the others.
    ComputeContactVelocitiesOnPaths(model, data, v, by_axes, /*active_only=*/true);
    ExpectActiveOnlyVelocities(by_axes, by_jacobian);
  }
}

}  // namespace
}  // namespace moreau::contact
