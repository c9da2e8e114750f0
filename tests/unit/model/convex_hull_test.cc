// Hull vertices of point clouds (convex_hull.h).
#include "engine/model/convex_hull.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace moreau::model_internal {
namespace {

bool Contains(const std::vector<Vec3>& points, const Vec3& p) {
  return std::any_of(points.begin(), points.end(), [&](const Vec3& q) { return q == p; });
}

TEST(ConvexHull, CubeGivesItsEightCornersAndNoInteriorPoint) {
  std::vector<Vec3> points;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-0.99, 0.99);
  for (int i = 0; i < 200; ++i) points.emplace_back(u(rng), u(rng), u(rng));  // interior
  for (int c = 0; c < 8; ++c) {
    points.emplace_back((c & 1) ? 1 : -1, (c & 2) ? 1 : -1, (c & 4) ? 1 : -1);
    points.push_back(0.5 * points.back());  // interior
  }
  const auto hull = HullVertices(points);
  ASSERT_TRUE(hull.ok()) << hull.status();
  ASSERT_EQ(hull->size(), 8u);
  for (const Vec3& v : *hull) EXPECT_DOUBLE_EQ(v.cwiseAbs().minCoeff(), 1.0) << v.transpose();
}

TEST(ConvexHull, SphereCloudReducedToTheBoundAndSpread) {
  std::vector<Vec3> points;
  std::mt19937 rng(3);
  std::normal_distribution<double> n(0.0, 1.0);
  for (int i = 0; i < 2000; ++i) points.push_back(Vec3(n(rng), n(rng), n(rng)).normalized());
  const auto hull = HullVertices(points);
  ASSERT_TRUE(hull.ok()) << hull.status();
  ASSERT_EQ(hull->size(), static_cast<size_t>(kMaxHullVertices));
  for (const Vec3& v : *hull) EXPECT_TRUE(Contains(points, v));
  // Farthest-point sampling: no two kept vertices are close (20 points on
  // the unit sphere can keep ≥ 0.5 apart).
  double closest = 10.0;
  for (size_t i = 0; i < hull->size(); ++i) {
    for (size_t j = i + 1; j < hull->size(); ++j) {
      closest = std::min(closest, ((*hull)[i] - (*hull)[j]).norm());
    }
  }
  EXPECT_GT(closest, 0.5);
  // Every direction has a kept vertex near the extreme: the support of the
  // reduced set is within 0.2 of the sphere's.
  const std::vector<Vec3> directions = {Vec3::UnitX(), Vec3(-1, 1, 0).normalized(),
                                        Vec3(0.2, -0.3, -1).normalized()};
  for (const Vec3& d : directions) {
    double best = -1.0;
    for (const Vec3& v : *hull) best = std::max(best, d.dot(v));
    EXPECT_GT(best, 0.8);
  }
}

TEST(ConvexHull, TetrahedronAndBound) {
  const std::vector<Vec3> tet = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1),
                                 Vec3(0.1, 0.1, 0.1)};
  const auto hull = HullVertices(tet);
  ASSERT_TRUE(hull.ok()) << hull.status();
  EXPECT_EQ(hull->size(), 4u);
  EXPECT_FALSE(Contains(*hull, Vec3(0.1, 0.1, 0.1)));
}

TEST(ConvexHull, NoHullForFlatOrTooFewPoints) {
  EXPECT_FALSE(HullVertices({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)}).ok());
  EXPECT_FALSE(
      HullVertices({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 1, 0), Vec3(2, 3, 0)})
          .ok());
  EXPECT_FALSE(HullVertices({Vec3(0, 0, 0), Vec3(1, 1, 1), Vec3(2, 2, 2), Vec3(3, 3, 3)}).ok());
  EXPECT_FALSE(
      HullVertices({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, std::nan(""))}).ok());
}

}  // namespace
}  // namespace moreau::model_internal
