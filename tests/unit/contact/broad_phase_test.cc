// The broad phase (broad_phase.h) gives the contact set the narrow phase
// alone gives: on a plane, an incline and a heightfield, for poses and
// velocities around the skip threshold, every slot's activation
// (g_N ≤ margin or g_N + t γ_N ≤ 0) is the same, and the slots it keeps get
// the narrow phase's values bit for bit.
#include "engine/contact/broad_phase.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "engine/contact/contact_set.h"
#include "engine/contact/contact_witness.h"
#include "engine/contact/terrain.h"
#include "engine/dynamics/data.h"
#include "engine/dynamics/jacobians.h"
#include "engine/dynamics/kinematics.h"
#include "engine/model/loader.h"
#include "tests/unit/contact/collision_body.h"

namespace moreau::contact {
namespace {

Model LoadBody() { return test_models::LoadCollisionBody(/*with_box=*/true); }

// The same body with its sphere a fixed slot (the loader's foot sphere: the
// gap is the centre's distance less the radius, 001 eq. 31).
Model LoadBodyWithFixedSphere() {
  LoadOptions options;
  options.collision = CollisionMode::kAll;
  auto m = LoadUrdfString(test_models::CollisionBodyUrdf(/*with_box=*/true), options);
  EXPECT_TRUE(m.ok()) << m.status();
  return **m;
}

struct Slots {
  std::vector<bool> active;  // by the activation rule with horizon t
  ContactSet set;
};

// Detection and velocities at (q, v); with_broad: the broad phase first.
Slots Detect(const Model& model, const Terrain& terrain, const Eigen::VectorXd& q,
             const Eigen::VectorXd& v, double margin, double horizon, bool with_broad) {
  Slots out{{}, MakeContactSet(model, margin)};
  Data data = MakeData(model);
  ForwardKinematics(model, data, q, v);
  if (with_broad) {
    RunBroadPhase(data, terrain, margin, horizon, out.set.broad);
  } else {
    out.set.broad = BroadPhase();  // every slot near
  }
  ContactPositions(model, data, out.set.broad.near);
  UpdateWitnessPoints(model, terrain, out.set.broad, data);
  DetectContacts(model, data, terrain, out.set);
  ComputeContactVelocities(model, data, out.set);
  for (const Contact& c : out.set.contacts) {
    out.active.push_back(c.active || c.gap + horizon * c.gamma_N <= 0.0);
  }
  return out;
}

void ExpectSameContacts(const Terrain& terrain, double z_ground, bool fixed_sphere = false) {
  const Model model = fixed_sphere ? LoadBodyWithFixedSphere() : LoadBody();
  const BroadPhase broad = MakeBroadPhase(model);
  ASSERT_EQ(broad.bounds.size(), 1u);
  const double R = broad.bounds[0].radius;
  std::mt19937 rng(5);
  std::normal_distribution<double> g(0.0, 1.0);
  std::uniform_real_distribution<double> u(-0.05, R + 0.3);
  const double margin = 0.01;
  int far = 0, far_close = 0, active = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    Eigen::VectorXd q(7), v(6);
    const Eigen::Quaterniond r = Eigen::Quaterniond(g(rng), g(rng), g(rng), g(rng)).normalized();
    q << 0.3 * g(rng), 0.3 * g(rng), z_ground + u(rng), r.w(), r.x(), r.y(), r.z();
    for (int i = 0; i < 6; ++i) v[i] = g(rng);
    const double horizon = trial % 2 == 0 ? 0.0 : 0.02;
    const Slots narrow = Detect(model, terrain, q, v, margin, horizon, false);
    const Slots bp = Detect(model, terrain, q, v, margin, horizon, true);
    const bool is_far = !bp.set.broad.Near(broad.bounds[0].body);
    EXPECT_EQ(bp.set.broad.any_far, is_far);  // the one bounded body decides
    ASSERT_EQ(narrow.active, bp.active) << "trial " << trial;
    EXPECT_EQ(narrow.set.num_active, bp.set.num_active);
    EXPECT_EQ(narrow.set.max_penetration, bp.set.max_penetration);
    for (int k = 0; k < narrow.set.capacity(); ++k) {
      const Contact& a = narrow.set.contacts[k];
      const Contact& b = bp.set.contacts[k];
      if (is_far) {
        // A lower bound of the gap above the margin.
        EXPECT_LE(b.gap, a.gap);
        EXPECT_GT(b.gap, margin);
        continue;
      }
      EXPECT_EQ(a.gap, b.gap);
      EXPECT_EQ(a.position, b.position);
      EXPECT_EQ(a.t1, b.t1);
      EXPECT_EQ(a.gamma_N, b.gamma_N);
      EXPECT_EQ(a.gamma_T, b.gamma_T);
    }
    if (is_far) {
      ++far;
      double min_gap = 1e9;
      for (const Contact& c : narrow.set.contacts) min_gap = std::min(min_gap, c.gap);
      // Skipped with a slot closer than half the sphere's radius.
      if (min_gap < margin + 0.5 * R) ++far_close;
    }
    for (bool a : narrow.active) active += a;
  }
  // Both outcomes, and skips of slots near the margin, were exercised.
  EXPECT_GT(far, 100);
  EXPECT_GT(far_close, 10);
  EXPECT_GT(active, 100);
}

TEST(BroadPhase, SameContactsOnPlane) { ExpectSameContacts(Terrain(), 0.0); }

TEST(BroadPhase, SameContactsOnIncline) {
  const auto terrain = Terrain::Incline(0.3, Vec3(1.0, 0.5, 0.0), Vec3::Zero());
  ASSERT_TRUE(terrain.ok());
  ExpectSameContacts(*terrain, 0.0);
}

TEST(BroadPhase, SameContactsOnHeightfield) {
  const int n = 30;
  std::vector<double> heights(n * n);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) heights[i + n * j] = 0.04 * std::sin(0.7 * i) * std::cos(0.5 * j);
  }
  const auto terrain = Terrain::Heightfield(Vec3(-1.5, -1.5, 0.1), 0.1, n, n, heights);
  ASSERT_TRUE(terrain.ok());
  ExpectSameContacts(*terrain, 0.14);
}

// Steep cells (slope 2, n_z ≈ 0.45) and a fixed sphere slot: its gap, the
// centre's distance less r, falls by r (1 − n_z) more than a point's.
TEST(BroadPhase, SameContactsOnSteepHeightfieldWithFixedSphere) {
  const int n = 40;
  std::vector<double> heights(n * n);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) heights[i + n * j] = ((i + j) % 2 == 0) ? 0.1 : 0.0;
  }
  const auto terrain = Terrain::Heightfield(Vec3(-1.0, -1.0, 0.0), 0.05, n, n, heights);
  ASSERT_TRUE(terrain.ok());
  ExpectSameContacts(*terrain, 0.1, /*fixed_sphere=*/true);
}

// The heightfield bound is below the distance at every point of the ball.
TEST(BroadPhase, HeightfieldDistanceLowerBound) {
  const auto terrain =
      Terrain::Heightfield(Vec3(0.0, 0.0, -0.2), 0.05, 3, 3, {0, 0.1, 0, 0.2, -0.1, 0, 0, 0.3, 0});
  ASSERT_TRUE(terrain.ok());
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-0.05, 0.3);
  std::normal_distribution<double> g(0.0, 1.0);
  for (int trial = 0; trial < 2000; ++trial) {
    const Vec3 c(u(rng), u(rng), u(rng));
    const double r = 0.1 * std::abs(g(rng));
    const double bound = terrain->DistanceLowerBound(c, r);
    for (int s = 0; s < 20; ++s) {
      const Vec3 d =
          Vec3(g(rng), g(rng), g(rng)).normalized() * r * std::cbrt(0.5 + 0.5 * s / 20.0);
      EXPECT_LE(bound, terrain->Query(c + d).distance + 1e-12);
    }
  }
  // Plane: exact.
  const auto plane = Terrain::Plane(Vec3(0.0, 1.0, 1.0), 0.5);
  ASSERT_TRUE(plane.ok());
  EXPECT_NEAR(plane->DistanceLowerBound(Vec3(0, 1, 1), 0.2), std::sqrt(2.0) - 0.5 - 0.2, 1e-15);
}

}  // namespace
}  // namespace moreau::contact
