// No heap allocation in any per-step contact function (STYLE.md house rule 5):
// detection, velocities and every force law run under counters of operator
// new and malloc, once the ContactSet and states are made.
#include <gtest/gtest.h>

#include <cstdlib>
#include <new>
#include <vector>

#include "engine/contact/contact_forces.h"
#include "engine/contact/contact_set.h"
#include "engine/contact/terrain.h"
#include "engine/dynamics/data.h"
#include "engine/dynamics/jacobians.h"
#include "tests/unit/contact/test_bodies.h"
#include "tests/unit/testing/allocation_counter.h"

namespace moreau::contact {
namespace {

TEST(NoAllocation, DetectVelocitiesAndEveryForceLaw) {
  ContactPoint a, b, c;
  a.body = b.body = c.body = 1;
  a.position = Vec3(0.2, 0.1, -0.3);
  b.position = Vec3(-0.2, 0.1, -0.3);
  c.position = Vec3(0.0, -0.2, -0.3);
  a.radius = b.radius = c.radius = 0.02;
  const Model model = testing::FloatingBody(5.0, Vec3(0.1, 0.2, 0.3).asDiagonal(), {a, b, c});
  Data data = MakeData(model);
  ContactSet set = MakeContactSet(model);
  std::vector<ContactState> states = MakeContactStates(model);
  auto hf = Terrain::Heightfield(Vec3(-1, -1, 0), 0.25, 9, 9, std::vector<double>(81, 0.01));
  ASSERT_TRUE(hf.ok());
  auto incline = Terrain::Incline(0.1, Vec3::UnitX());
  ASSERT_TRUE(incline.ok());
  const Eigen::VectorXd q = testing::FreeQ(Vec3(0.01, 0.0, 0.3));
  Eigen::VectorXd v(6);
  v << 0.1, 0.2, -0.3, 0.4, -0.5, 0.6;
  Eigen::VectorXd h = Eigen::VectorXd::Zero(6);
  ContactJacobians(model, data, q);

  const long before = ::moreau::testing::HeapAllocationCount();
  for (const Terrain* terrain : {&*hf, &*incline}) {
    for (ContactForceLaw law :
         {ContactForceLaw::kSpringDamper, ContactForceLaw::kHertz, ContactForceLaw::kMicro}) {
      ContactForceParams params;
      params.law = law;
      for (int step = 0; step < 3; ++step) {
        DetectContacts(model, data, *terrain, set);
        ComputeContactVelocities(model, data, v, set);
        ContactForces(model, data, params, 1e-3, set, states, h);
        ComputeContactVelocitiesOnPaths(model, data, v, set);
        ContactForcesOnPaths(model, data, params, 1e-3, set, states, h);
        ComputeContactVelocities(model, data, set, /*active_only=*/true);
        ContactForcesOnBodies(model, data, params, 1e-3, set, states, data.pA);
      }
    }
  }
  EXPECT_EQ(::moreau::testing::HeapAllocationCount() - before, 0);
  EXPECT_GT(set.peak_active, 0);
  EXPECT_GT(h.norm(), 0.0);
}

}  // namespace
}  // namespace moreau::contact
