// No heap allocation in any per-step contact function (STYLE.md house rule 5):
// detection, velocities and every force law run under a global operator new
// that counts calls, once the ContactSet and states are made.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include "engine/contact/contact_forces.h"
#include "engine/contact/contact_set.h"
#include "engine/contact/terrain.h"
#include "engine/dynamics/data.h"
#include "engine/dynamics/jacobians.h"
#include "tests/unit/contact/test_bodies.h"

namespace {
std::atomic<long> g_allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, std::align_val_t align) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  const std::size_t a = static_cast<std::size_t>(align);
  if (void* p = std::aligned_alloc(a, (size + a - 1) / a * a)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

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

  const long before = g_allocations.load();
  for (const Terrain* terrain : {&*hf, &*incline}) {
    for (ContactForceLaw law :
         {ContactForceLaw::kSpringDamper, ContactForceLaw::kHertz, ContactForceLaw::kMicro}) {
      ContactForceParams params;
      params.law = law;
      for (int step = 0; step < 3; ++step) {
        DetectContacts(model, data, *terrain, set);
        ComputeContactVelocities(model, data, v, set);
        ContactForces(model, data, params, 1e-3, set, states, h);
      }
    }
  }
  EXPECT_EQ(g_allocations.load() - before, 0);
  EXPECT_GT(set.peak_active, 0);
  EXPECT_GT(h.norm(), 0.0);
}

}  // namespace
}  // namespace moreau::contact
