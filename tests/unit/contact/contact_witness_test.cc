// Witness points of sphere and rim slots (contact_witness.h): where they lie,
// that the gap and Jacobians use them, and that a rolling rim's witness
// point does not move.
#include "engine/contact/contact_witness.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "engine/contact/contact_set.h"
#include "engine/contact/terrain.h"
#include "engine/dynamics/data.h"
#include "engine/dynamics/jacobians.h"
#include "engine/dynamics/kinematics.h"
#include "engine/model/loader.h"
#include "tests/unit/contact/collision_body.h"

namespace moreau::contact {
namespace {

Model LoadWheel() { return test_models::LoadCollisionBody(/*with_box=*/false); }

Eigen::VectorXd Pose(const Vec3& p, const Eigen::Quaterniond& r) {
  Eigen::VectorXd q(7);
  q << p, r.w(), r.x(), r.y(), r.z();
  return q;
}

void Detect(const Model& model, const Terrain& terrain, const Eigen::VectorXd& q, Data& data,
            ContactSet& set) {
  ForwardKinematics(model, data, q);
  ContactPositions(model, data);
  UpdateWitnessPoints(model, terrain, data);
  DetectContacts(model, data, terrain, set);
}

TEST(ContactWitness, SphereBottomAndRimLowestPoint) {
  const Model model = LoadWheel();
  ASSERT_EQ(model.contact_points.size(), 9u);  // the sphere, then 2 rims × 4
  Data data = MakeData(model);
  ContactSet set = MakeContactSet(model);
  const auto terrain = Terrain::Incline(0.3, Vec3::UnitY(), Vec3::Zero());
  ASSERT_TRUE(terrain.ok());
  std::mt19937 rng(11);
  std::normal_distribution<double> g(0.0, 1.0);
  for (int trial = 0; trial < 20; ++trial) {
    const Eigen::Quaterniond r = Eigen::Quaterniond(g(rng), g(rng), g(rng), g(rng)).normalized();
    const Vec3 p(g(rng), g(rng), 0.5 + 0.1 * g(rng));
    Detect(model, *terrain, Pose(p, r), data, set);
    const Mat3 R = r.toRotationMatrix();
    for (int k = 0; k < 9; ++k) {
      const ContactPoint& cp = model.contact_points[k];
      const Vec3 centre = R * cp.position + p;
      const Vec3 n = terrain->Normal(centre);
      const Vec3 witness = data.contact_position[k];
      // The body-frame point maps to the same world point.
      EXPECT_LT((R * data.contact_point_body[k] + p - witness).norm(), 1e-12);
      if (cp.witness == ContactWitness::kSphereBottom) {
        EXPECT_LT((witness - (centre - 0.05 * n)).norm(), 1e-12);
        EXPECT_NEAR(set.contacts[k].gap, terrain->Query(centre).distance - 0.05, 1e-12);
        continue;
      }
      // On the circle.
      const Vec3 a = R * cp.axis;
      EXPECT_NEAR((witness - centre).norm(), 0.1, 1e-12);
      EXPECT_NEAR((witness - centre).dot(a), 0.0, 1e-12);
      EXPECT_NEAR(set.contacts[k].gap, terrain->Query(witness).distance, 1e-12);
      if (cp.angle != 0.0) continue;
      // The lowest point along −n: no sample of the circle lies deeper.
      const Vec3 u = Perpendicular(a), w = a.cross(u);
      double deepest = 1e9;
      for (int s = 0; s < 3600; ++s) {
        const double t = 2 * std::numbers::pi * s / 3600;
        deepest = std::min(deepest, n.dot(centre + 0.1 * (std::cos(t) * u + std::sin(t) * w)));
      }
      EXPECT_LE(n.dot(witness), deepest + 1e-12);
    }
    // The rim's quarter points: 90° apart on the circle.
    for (int rim = 0; rim < 2; ++rim) {
      const int first = 1 + 4 * rim;
      const Vec3 centre = R * model.contact_points[first].position + p;
      for (int j = 1; j < 4; ++j) {
        const double cosine =
            (data.contact_position[first] - centre).dot(data.contact_position[first + j] - centre) /
            0.01;
        EXPECT_NEAR(cosine, std::cos(model.contact_points[first + j].angle), 1e-12);
      }
    }
  }
}

TEST(ContactWitness, LyingFlatGivesFiniteRimPoints) {
  const Model model = LoadWheel();
  Data data = MakeData(model);
  ContactSet set = MakeContactSet(model);
  const Terrain flat;
  // Cylinder axis (body y) along world z.
  const Eigen::Quaterniond r(Eigen::AngleAxisd(std::numbers::pi / 2, Vec3::UnitX()));
  Detect(model, flat, Pose(Vec3(0, 0, 0.1), r), data, set);
  int touching = 0;
  for (int k = 1; k < 9; ++k) {
    EXPECT_TRUE(data.contact_position[k].allFinite());
    // One face on the ground, the other 0.2 m up.
    const double gap = set.contacts[k].gap;
    EXPECT_NEAR(std::min(std::abs(gap), std::abs(gap - 0.2)), 0.0, 1e-9) << k;
    touching += std::abs(gap) < 1e-9 ? 1 : 0;
  }
  EXPECT_EQ(touching, 4);
}

TEST(ContactWitness, JacobianAtTheWitnessAndRollingWithoutSlip) {
  const Model model = LoadWheel();
  Data data = MakeData(model);
  ContactSet set = MakeContactSet(model);
  const Terrain flat;
  // Upright wheel touching the ground, rolling along +x: ω about +y,
  // v = ω × (centre − witness) = (ω r, 0, 0).
  const Eigen::VectorXd q = Pose(Vec3(0, 0, 0.1), Eigen::Quaterniond::Identity());
  Detect(model, flat, q, data, set);
  EXPECT_NEAR(set.contacts[1].gap, 0.0, 1e-12);
  ContactJacobians(model, data);
  Eigen::VectorXd v = Eigen::VectorXd::Zero(6);
  const double omega = 3.0;
  v << omega * 0.1, 0, 0, 0, omega, 0;
  for (int k : {1, 5}) {  // the lowest point of each rim
    EXPECT_LT((data.contact_J[k] * v).norm(), 1e-12);
    ComputeContactVelocities(model, data, v, set);
    EXPECT_LT(set.contacts[k].velocity.norm(), 1e-12);
  }
  // The top of the rim (180°) moves at 2 ω r.
  EXPECT_NEAR((data.contact_J[3] * v).x(), 2 * omega * 0.1, 1e-12);
}

TEST(ContactWitness, WitnessJacobiansFromTheConfigurationAlone) {
  // The Jacobians a client inspects (contact::WitnessJacobians, from q and
  // the terrain alone) are the step's: the witness points of a tilted wheel
  // on an incline, each slot's J at its witness point.
  const Model model = LoadWheel();
  const auto incline = Terrain::Incline(0.2, Vec3(1.0, 0.3, 0.0), Vec3::Zero());
  ASSERT_TRUE(incline.ok());
  const Eigen::Quaterniond r(Eigen::AngleAxisd(0.4, Vec3(0.3, 1.0, 0.2).normalized()));
  const Eigen::VectorXd q = Pose(Vec3(0.1, -0.2, 0.3), r);
  Data step_data = MakeData(model);
  ContactSet set = MakeContactSet(model);
  Detect(model, *incline, q, step_data, set);
  ContactJacobians(model, step_data);

  Data data = MakeData(model);
  WitnessJacobians(model, *incline, q, data);
  int moved = 0;  // slots whose witness point is not the slot's own point
  for (size_t k = 0; k < model.contact_points.size(); ++k) {
    EXPECT_EQ(data.contact_position[k], step_data.contact_position[k]) << k;
    EXPECT_EQ(data.contact_J[k], step_data.contact_J[k]) << k;
    moved += (data.contact_point_body[k] - model.contact_points[k].position).norm() > 1e-6;
  }
  EXPECT_GE(moved, 9);  // the sphere and the eight rim points
}

}  // namespace
}  // namespace moreau::contact
