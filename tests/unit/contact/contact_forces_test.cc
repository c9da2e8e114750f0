// The force-law dispatch: law names, validation, per-slot forces and the
// generalized force h += Σ J_kᵀ λ_k, and a full detect → velocities → forces
// pipeline that drops the floating sphere onto the ground.
#include "engine/contact/contact_forces.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "engine/contact/contact_set.h"
#include "engine/contact/terrain.h"
#include "engine/dynamics/aba.h"
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

TEST(ContactForceLaw, NamesRoundTrip) {
  for (ContactForceLaw law :
       {ContactForceLaw::kSpringDamper, ContactForceLaw::kHertz, ContactForceLaw::kMicro}) {
    auto parsed = ParseContactForceLaw(ContactForceLawName(law));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, law);
  }
  EXPECT_STREQ(ContactForceLawName(ContactForceLaw::kSpringDamper), "spring_damper");
  auto bad = ParseContactForceLaw("penalty");
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(bad.status().message()), ::testing::HasSubstr("penalty"));
}

TEST(ContactForceLaw, ValidatesTheChosenLaw) {
  ContactForceParams p;
  EXPECT_TRUE(Validate(p).ok());
  p.hertz.stiffness = -1.0;  // not the chosen law: ignored
  EXPECT_TRUE(Validate(p).ok());
  p.law = ContactForceLaw::kHertz;
  EXPECT_EQ(Validate(p).code(), absl::StatusCode::kInvalidArgument);
  p.law = ContactForceLaw::kMicro;
  p.micro.damping = NAN;
  EXPECT_THAT(std::string(Validate(p).message()), ::testing::HasSubstr("micro.damping"));
}

// A body with two feet, one in the ground and one in the air, rotated and
// moving.
struct TwoFeet {
  Model model;
  Data data;
  ContactSet set;
  std::vector<ContactState> states;
  Eigen::VectorXd q, v;

  TwoFeet() {
    ContactPoint a, b;
    a.body = b.body = 1;
    a.position = Vec3(0.2, 0.05, -0.3);
    b.position = Vec3(-0.2, 0.0, -0.1);
    a.radius = 0.02;
    b.radius = 0.02;
    model = FloatingBody(3.0, Vec3(0.1, 0.2, 0.3).asDiagonal(), {a, b});
    data = MakeData(model);
    set = MakeContactSet(model);
    states = MakeContactStates(model);
    const Eigen::Quaterniond rot(Eigen::AngleAxisd(0.2, Vec3(1, 0.5, 0).normalized()));
    // Put foot a 3 mm into the ground.
    const Vec3 a_offset = rot * a.position;
    q = FreeQ(Vec3(0.1, 0.2, 0.02 - 0.003 - a_offset.z()), rot);
    v.resize(6);
    v << 0.1, -0.05, -0.2, 0.3, -0.1, 0.2;
  }

  void Run(const ContactForceParams& params, double dt, Eigen::VectorXd& h) {
    ContactJacobians(model, data, q);
    DetectContacts(model, data, Terrain(), set);
    ComputeContactVelocities(model, data, v, set);
    ContactForces(model, data, params, dt, set, states, h);
  }
};

TEST(ContactForces, GeneralizedForceIsSumOfJTransposeLambda) {
  for (ContactForceLaw law :
       {ContactForceLaw::kSpringDamper, ContactForceLaw::kHertz, ContactForceLaw::kMicro}) {
    SCOPED_TRACE(ContactForceLawName(law));
    TwoFeet t;
    ContactForceParams params;
    params.law = law;
    const Eigen::VectorXd h0 = Eigen::VectorXd::LinSpaced(6, 1.0, 6.0);
    Eigen::VectorXd h = h0;
    t.Run(params, 1e-3, h);
    ASSERT_EQ(t.set.num_active, 1);
    const Contact& a = t.set.contacts[0];
    const Contact& b = t.set.contacts[1];
    EXPECT_TRUE(a.active);
    EXPECT_FALSE(b.active);
    EXPECT_NEAR(a.gap, -0.003, 1e-12);
    EXPECT_GT(a.force.dot(a.normal), 0.0);
    EXPECT_EQ(b.force, Vec3::Zero());
    EXPECT_FALSE(t.states[1].closed);
    EXPECT_EQ(t.states[0].closed, law != ContactForceLaw::kHertz);
    // h − h0 = J_aᵀ λ_a; its power with v equals λ_a · (J_a v).
    const Eigen::VectorXd expected = h0 + t.data.contact_J[0].transpose() * a.force;
    EXPECT_NEAR((h - expected).norm(), 0.0, 1e-12);
    EXPECT_NEAR((h - h0).dot(t.v), a.force.dot(a.velocity), 1e-12);
    // The per-law function gives the same force.
    ContactState s;
    Vec3 direct = Vec3::Constant(NAN);
    switch (law) {
      case ContactForceLaw::kSpringDamper:
        direct = SpringDamperForce(params.spring_damper, a, s);
        break;
      case ContactForceLaw::kHertz:
        direct = HertzForce(params.hertz, a);
        break;
      case ContactForceLaw::kMicro:
        direct = MicroForce(params.micro, a, 1e-3, s);
        break;
    }
    EXPECT_NEAR((direct - a.force).norm(), 0.0, 1e-12);
  }
}

TEST(ContactForces, InactiveContactsAreClearedAndForceless) {
  TwoFeet t;
  ContactForceParams params;
  Eigen::VectorXd h = Eigen::VectorXd::Zero(6);
  t.Run(params, 1e-3, h);
  ASSERT_TRUE(t.states[0].closed);
  // Lift the body: both feet open, forces zero, anchors forgotten.
  t.q[2] += 0.5;
  h.setZero();
  t.Run(params, 1e-3, h);
  EXPECT_EQ(t.set.num_active, 0);
  EXPECT_EQ(h, Eigen::VectorXd::Zero(6));
  EXPECT_FALSE(t.states[0].closed);
  EXPECT_EQ(t.set.contacts[0].force, Vec3::Zero());
}

// The full compliant-contact pipeline on the floating sphere: it falls on the
// ground and rests at m g / c_N (the sphere's translation decouples, so
// M = diag(m, m, m, I, I, I) and u̇ = (h + m g)/m for the linear part).
TEST(ContactForces, SphereDropPipelineRests) {
  const double r = 0.1, m = 2.0;
  const Model model = SphereModel(r, m);
  Data data = MakeData(model);
  ContactSet set = MakeContactSet(model);
  std::vector<ContactState> states = MakeContactStates(model);
  ContactForceParams params;  // spring-damper, 000 defaults
  const double dt = 1.25e-3;
  Eigen::VectorXd q = FreeQ(Vec3(0, 0, 0.3));
  Eigen::VectorXd v = Eigen::VectorXd::Zero(6);
  v[0] = 0.2;  // sliding sideways when it lands: friction stops it
  Eigen::VectorXd h(6);
  for (int k = 0; k < static_cast<int>(2.0 / dt); ++k) {
    ContactJacobians(model, data, q);
    DetectContacts(model, data, Terrain(), set);
    ComputeContactVelocities(model, data, v, set);
    h.setZero();
    ContactForces(model, data, params, dt, set, states, h);
    v.head<3>() += dt * (h.head<3>() / m + model.gravity);
    q.head<3>() += dt * v.head<3>();
  }
  const double expected = -m * 9.81 / params.spring_damper.normal_stiffness;
  EXPECT_NEAR(set.contacts[0].gap, expected, 0.05 * std::abs(expected));
  EXPECT_LT(v.head<3>().norm(), 1e-3);
  EXPECT_GT(set.max_penetration, 0.0);
  EXPECT_EQ(set.peak_active, 1);
  EXPECT_TRUE(states[0].closed);
}

// A random pose (joints ± 0.3 rad, the base around the feet's height, so
// that some feet touch) and velocity of a floating-base model.
void RandomPressedState(const Model& model, std::mt19937_64& rng,
                        std::normal_distribution<double>& g, Eigen::VectorXd& q,
                        Eigen::VectorXd& v) {
  q = model.q_default;
  for (int i = 7; i < model.nq; ++i) q[i] = 0.3 * g(rng);
  q[2] = 0.25 + 0.05 * g(rng);
  v.resize(model.nv);
  for (int i = 0; i < model.nv; ++i) v[i] = 0.5 * g(rng);
}

// The reference the fast paths are checked against: the contact Jacobians at
// q, the contacts detected and their velocities J v, then ContactForces
// adding Σ J_kᵀ λ_k to `h`. Returns each slot's force; adds the active
// contacts to `active`.
std::vector<Vec3> ForcesByJacobians(const Model& model, Data& data,
                                    const ContactForceParams& params, const Eigen::VectorXd& q,
                                    const Eigen::VectorXd& v, ContactSet& set,
                                    std::vector<ContactState>& states, Eigen::VectorXd& h,
                                    int& active) {
  ContactJacobians(model, data, q);
  DetectContacts(model, data, Terrain(), set);
  ComputeContactVelocities(model, data, v, set);
  active += set.num_active;
  ContactForces(model, data, params, 1e-3, set, states, h);
  std::vector<Vec3> forces;
  for (const Contact& c : set.contacts) forces.push_back(c.force);
  return forces;
}

// ContactForcesOnPaths (J_kᵀ λ_k from the world axes and the sphere
// centres) adds the same generalized force and sets the same forces and
// contact memory as ContactForces, for every law, on the Mini Cheetah pressed
// into the ground at random poses and velocities.
TEST(ContactForces, FromAxesEqualsJacobianTranspose) {
  auto loaded = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  const Model& model = **loaded;
  Data data = MakeData(model);
  std::mt19937_64 rng(11);
  std::normal_distribution<double> g(0.0, 1.0);
  for (ContactForceLaw law :
       {ContactForceLaw::kSpringDamper, ContactForceLaw::kHertz, ContactForceLaw::kMicro}) {
    ContactForceParams params;
    params.law = law;
    ContactSet set = MakeContactSet(model);
    std::vector<ContactState> by_jacobian = MakeContactStates(model);
    std::vector<ContactState> by_axes = MakeContactStates(model);
    int active = 0;
    for (int trial = 0; trial < 20; ++trial) {
      SCOPED_TRACE(::testing::Message() << ContactForceLawName(law) << " trial " << trial);
      Eigen::VectorXd q, v;
      RandomPressedState(model, rng, g, q, v);
      Eigen::VectorXd h_jacobian = Eigen::VectorXd::Zero(model.nv);
      Eigen::VectorXd h_axes = Eigen::VectorXd::Zero(model.nv);
      const std::vector<Vec3> forces =
          ForcesByJacobians(model, data, params, q, v, set, by_jacobian, h_jacobian, active);
      ContactForcesOnPaths(model, data, params, 1e-3, set, by_axes, h_axes);
      for (int k = 0; k < set.capacity(); ++k) {
        EXPECT_EQ(set.contacts[k].force, forces[k]);
        EXPECT_EQ(by_axes[k].closed, by_jacobian[k].closed);
        EXPECT_EQ(by_axes[k].slip, by_jacobian[k].slip);
        EXPECT_EQ(by_axes[k].anchor, by_jacobian[k].anchor);
      }
      EXPECT_LE((h_axes - h_jacobian).norm(), 1e-12 * (1.0 + h_jacobian.norm()));
    }
    EXPECT_GT(active, 0);
  }
}

// ContactForcesOnBodies (each λ_k as a wrench on its body, taken off ABA's
// p^A between AbaVelocities and AbaAccelerations) gives the accelerations of
// ABA with τ + Σ J_kᵀ λ_k (ContactForces), and the same forces and contact
// memory, for every law, on the Mini Cheetah pressed into the ground at
// random poses and velocities, with external wrenches on the bodies too.
TEST(ContactForces, OnBodiesEqualsJacobianTransposeInAba) {
  auto loaded = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  const Model& model = **loaded;
  Data data = MakeData(model);
  std::mt19937_64 rng(13);
  std::normal_distribution<double> g(0.0, 1.0);
  for (ContactForceLaw law :
       {ContactForceLaw::kSpringDamper, ContactForceLaw::kHertz, ContactForceLaw::kMicro}) {
    ContactForceParams params;
    params.law = law;
    ContactSet set = MakeContactSet(model);
    std::vector<ContactState> by_jacobian = MakeContactStates(model);
    std::vector<ContactState> on_bodies = MakeContactStates(model);
    int active = 0;
    for (int trial = 0; trial < 20; ++trial) {
      SCOPED_TRACE(::testing::Message() << ContactForceLawName(law) << " trial " << trial);
      Eigen::VectorXd q, v, tau(model.nv);
      RandomPressedState(model, rng, g, q, v);
      for (int i = 0; i < model.nv; ++i) tau[i] = 5.0 * g(rng);
      std::vector<Force> f_ext(static_cast<size_t>(model.nbodies), Force::Zero());
      for (Force& f : f_ext) f = Force(Vec3(g(rng), g(rng), g(rng)), Vec3(g(rng), g(rng), g(rng)));
      // Reference: h = τ + Σ J_kᵀ λ_k from the Jacobians, then ABA.
      Eigen::VectorXd h = tau;
      const std::vector<Vec3> forces =
          ForcesByJacobians(model, data, params, q, v, set, by_jacobian, h, active);
      AbaVelocities(model, data, v, &f_ext);
      const Eigen::VectorXd expected = AbaAccelerations(model, data, h);
      // The explicit step's order: kinematics, pass 1, velocities from the
      // twists, the wrenches on the bodies, passes 2 and 3.
      ForwardKinematics(model, data, q);
      ContactPositions(model, data);
      DetectContacts(model, data, Terrain(), set);
      AbaVelocities(model, data, v, &f_ext);
      ComputeContactVelocities(model, data, set, /*active_only=*/true);
      ContactForcesOnBodies(model, data, params, 1e-3, set, on_bodies, data.pA);
      const Eigen::VectorXd qacc = AbaAccelerations(model, data, tau);
      for (int k = 0; k < set.capacity(); ++k) {
        // The velocities from the twists differ from J v by rounding, and so
        // may the forces computed from them.
        EXPECT_LE((set.contacts[k].force - forces[k]).norm(), 1e-9 * (1.0 + forces[k].norm()));
        EXPECT_EQ(on_bodies[k].closed, by_jacobian[k].closed);
        EXPECT_EQ(on_bodies[k].slip, by_jacobian[k].slip);
      }
      EXPECT_LE((qacc - expected).norm(), 1e-9 * (1.0 + expected.norm()));
    }
    EXPECT_GT(active, 0);
  }
}

}  // namespace
}  // namespace moreau::contact
