// Terrain: signed distances and normals of planes, inclines and heightfields
// (bilinear heights, gradient normals, edge clamping); invalid parameters.
#include "engine/contact/terrain.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

namespace moreau::contact {
namespace {

using ::testing::HasSubstr;

constexpr double kTol = 1e-12;
constexpr double kPi = std::numbers::pi;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

void ExpectVecNear(const Vec3& a, const Vec3& b, double tol) {
  EXPECT_NEAR((a - b).norm(), 0.0, tol)
      << "got " << a.transpose() << ", expected " << b.transpose();
}

TEST(Terrain, DefaultIsGroundPlaneZ0) {
  const Terrain t;
  EXPECT_EQ(t.type(), TerrainType::kPlane);
  EXPECT_STREQ(TerrainTypeName(t.type()), "plane");
  EXPECT_NEAR(t.SignedDistance(Vec3(1, 2, 0.3)), 0.3, kTol);
  EXPECT_NEAR(t.SignedDistance(Vec3(-5, 7, -0.02)), -0.02, kTol);
  ExpectVecNear(t.Normal(Vec3(3, 4, 5)), Vec3::UnitZ(), kTol);
  EXPECT_NEAR(t.Height(3.0, -4.0), 0.0, kTol);
}

TEST(Terrain, PlaneNormalizesNormalAndKeepsOffset) {
  // {x : n·x = 1} with n = (0, 0, 1) given as (0, 0, 2): the plane z = 1.
  auto t = Terrain::Plane(Vec3(0, 0, 2), 1.0);
  ASSERT_TRUE(t.ok()) << t.status();
  ExpectVecNear(t->plane_normal(), Vec3::UnitZ(), kTol);
  EXPECT_NEAR(t->SignedDistance(Vec3(4, 5, 3)), 2.0, kTol);
  EXPECT_NEAR(t->Height(9.0, 9.0), 1.0, kTol);

  // A tilted plane: distance = n·p − offset for unit n.
  const Vec3 n = Vec3(1, -2, 3).normalized();
  auto tilted = Terrain::Plane(Vec3(1, -2, 3), 0.5);
  ASSERT_TRUE(tilted.ok());
  const Vec3 p(0.3, 0.7, -1.1);
  EXPECT_NEAR(tilted->SignedDistance(p), n.dot(p) - 0.5, kTol);
  // The point reached by going s along n from a point on the plane.
  const Vec3 on_plane = 0.5 * n + Vec3(2, 1, 0).cross(n);
  EXPECT_NEAR(tilted->SignedDistance(on_plane), 0.0, 1e-12);
  EXPECT_NEAR(tilted->SignedDistance(on_plane + 0.25 * n), 0.25, 1e-12);
}

TEST(Terrain, Incline30DegreesAboutX) {
  const double theta = kPi / 6;
  auto t = Terrain::Incline(theta, Vec3::UnitX());
  ASSERT_TRUE(t.ok()) << t.status();
  // R_x(30°) e_z = (0, −sin 30°, cos 30°): a slope rising towards +y.
  const Vec3 n(0.0, -0.5, std::sqrt(3.0) / 2);
  ExpectVecNear(t->Normal(Vec3(1, 2, 3)), n, kTol);
  // Points of the surface z = y tan θ are at distance 0.
  for (double y : {-2.0, 0.0, 1.5}) {
    EXPECT_NEAR(t->SignedDistance(Vec3(0.7, y, y * std::tan(theta))), 0.0, 1e-12);
    EXPECT_NEAR(t->Height(0.7, y), y * std::tan(theta), 1e-12);
  }
  // A point 1 m above the origin: cos 30° away from the plane.
  EXPECT_NEAR(t->SignedDistance(Vec3(0, 0, 1)), std::cos(theta), kTol);
  // Below the surface: negative.
  EXPECT_NEAR(t->SignedDistance(Vec3(0, 1, 0)), -std::sin(theta), kTol);
}

TEST(Terrain, InclineThroughPointAndAboutAnyHorizontalAxis) {
  const double theta = 0.3;
  const Vec3 axis = Vec3(1, 1, 0);
  const Vec3 point(0.5, -0.2, 0.8);
  auto t = Terrain::Incline(theta, axis, point);
  ASSERT_TRUE(t.ok()) << t.status();
  const Vec3 n = t->plane_normal();
  EXPECT_NEAR(n.norm(), 1.0, kTol);
  EXPECT_NEAR(n.dot(axis.normalized()), 0.0, kTol);  // the axis lies in it
  EXPECT_NEAR(n.z(), std::cos(theta), kTol);
  EXPECT_NEAR(t->SignedDistance(point), 0.0, kTol);
  EXPECT_NEAR(t->SignedDistance(point + 0.4 * n), 0.4, kTol);
  // Zero angle: the horizontal plane through the point.
  auto flat = Terrain::Incline(0.0, axis, point);
  ASSERT_TRUE(flat.ok());
  EXPECT_NEAR(flat->SignedDistance(Vec3(3, 3, 1.0)), 0.2, kTol);
}

// Heights h(i, j) = f(x_i, y_j) sampled on a grid.
template <typename F>
std::vector<double> Sample(const Vec3& origin, double cell, int nx, int ny, F f) {
  std::vector<double> h(nx * ny);
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      h[i + nx * j] = f(origin.x() + i * cell, origin.y() + j * cell);
    }
  }
  return h;
}

TEST(Terrain, HeightfieldSizeLimit) {
  HeightfieldLimits limits;
  limits.max_nodes = 12;
  // At the limit: 3 × 4 nodes.
  EXPECT_TRUE(Terrain::CheckHeightfieldSize(3, 4, 12, limits).ok());
  auto at_limit = Terrain::Heightfield(Vec3::Zero(), 1.0, 3, 4, std::vector<double>(12), limits);
  ASSERT_TRUE(at_limit.ok()) << at_limit.status();
  // One row more, before any height is looked at.
  const absl::Status over = Terrain::CheckHeightfieldSize(3, 5, 12, limits);
  EXPECT_EQ(over.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(over.message(), HasSubstr("nx * ny = 3 * 5 = 15 nodes, at most 12 (the server's "
                                        "--max-heightfield-nodes)"));
  // More heights than the limit, whatever nx and ny say.
  EXPECT_THAT(Terrain::CheckHeightfieldSize(2, 2, 13, limits).message(),
              HasSubstr("13 heights, at most 12"));
  EXPECT_THAT(Terrain::Heightfield(Vec3::Zero(), 1.0, 4, 4, std::vector<double>(16), limits)
                  .status()
                  .message(),
              HasSubstr("--max-heightfield-nodes"));
  // nx·ny is formed in 64 bits: no overflow into an accepted size.
  EXPECT_FALSE(Terrain::CheckHeightfieldSize(1 << 20, 1 << 20, 4, limits).ok());
  // The copies of a heightfield share one array of heights.
  const Terrain copy = *at_limit;
  EXPECT_EQ(&copy.heights(), &at_limit->heights());
}

TEST(Terrain, HeightfieldNodesAndBilinearInterpolation) {
  // 3 × 2 grid, cell 0.5, origin (1, 2, 0.1); heights in x-fastest order.
  const std::vector<double> h = {0.0, 0.2, 0.4,   // j = 0
                                 0.1, 0.5, 0.3};  // j = 1
  auto t = Terrain::Heightfield(Vec3(1, 2, 0.1), 0.5, 3, 2, h);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->type(), TerrainType::kHeightfield);
  EXPECT_STREQ(TerrainTypeName(t->type()), "heightfield");
  // Nodes.
  for (int j = 0; j < 2; ++j) {
    for (int i = 0; i < 3; ++i) {
      EXPECT_NEAR(t->Height(1 + 0.5 * i, 2 + 0.5 * j), 0.1 + h[i + 3 * j], kTol);
    }
  }
  // Cell centre: the mean of the four corners.
  EXPECT_NEAR(t->Height(1.25, 2.25), 0.1 + (0.0 + 0.2 + 0.1 + 0.5) / 4, kTol);
  // A general point of cell (1, 0): s = 0.3, t = 0.6.
  const double s = 0.3, u = 0.6;
  const double expected =
      0.1 + (1 - s) * (1 - u) * 0.2 + s * (1 - u) * 0.4 + (1 - s) * u * 0.5 + s * u * 0.3;
  EXPECT_NEAR(t->Height(1.5 + 0.5 * s, 2 + 0.5 * u), expected, kTol);
  // Distance = (z − h) n_z.
  const Vec3 p(1.5 + 0.5 * s, 2 + 0.5 * u, 0.9);
  const TerrainQuery q = t->Query(p);
  EXPECT_NEAR(q.distance, (0.9 - expected) * q.normal.z(), kTol);
  EXPECT_NEAR(q.normal.norm(), 1.0, kTol);
  EXPECT_GT(q.normal.z(), 0.0);
}

TEST(Terrain, HeightfieldNormalFromBilinearGradient) {
  const std::vector<double> h = {0.0, 0.2, 0.4, 0.1, 0.5, 0.3};
  auto t = Terrain::Heightfield(Vec3(1, 2, 0.1), 0.5, 3, 2, h);
  ASSERT_TRUE(t.ok());
  // Gradient of the bilinear patch against central finite differences of
  // Height() inside a cell.
  const double x = 1.6, y = 2.35, e = 1e-6;
  const double hx = (t->Height(x + e, y) - t->Height(x - e, y)) / (2 * e);
  const double hy = (t->Height(x, y + e) - t->Height(x, y - e)) / (2 * e);
  ExpectVecNear(t->Normal(Vec3(x, y, 5)), Vec3(-hx, -hy, 1).normalized(), 1e-8);
}

TEST(Terrain, HeightfieldOfAPlaneMatchesThePlaneExactly) {
  // h = a x + b y + c sampled on a grid: every cell is planar, so the
  // projected vertical distance is the exact Euclidean one.
  const double a = 0.3, b = -0.45, c = 0.2;
  const Vec3 origin(-1, -2, 0);
  auto hf = Terrain::Heightfield(
      origin, 0.25, 9, 13,
      Sample(origin, 0.25, 9, 13, [&](double x, double y) { return a * x + b * y + c; }));
  ASSERT_TRUE(hf.ok()) << hf.status();
  auto plane = Terrain::Plane(Vec3(-a, -b, 1), c / Vec3(-a, -b, 1).norm());
  ASSERT_TRUE(plane.ok());
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> ux(-0.9, 0.9), uy(-1.9, 0.9), uz(-1.0, 1.0);
  for (int k = 0; k < 200; ++k) {
    const Vec3 p(ux(rng), uy(rng), uz(rng));
    const TerrainQuery qh = hf->Query(p);
    const TerrainQuery qp = plane->Query(p);
    EXPECT_NEAR(qh.distance, qp.distance, 1e-12);
    ExpectVecNear(qh.normal, qp.normal, 1e-12);
  }
}

TEST(Terrain, HeightfieldSlopeOfOneCell) {
  // 2 × 2 grid rising 0.1 over the 0.1 m cell in x: a 45° slope.
  auto t = Terrain::Heightfield(Vec3::Zero(), 0.1, 2, 2, {0.0, 0.1, 0.0, 0.1});
  ASSERT_TRUE(t.ok());
  const Vec3 n = Vec3(-1, 0, 1).normalized();
  ExpectVecNear(t->Normal(Vec3(0.05, 0.05, 1)), n, kTol);
  // 1 m above the surface vertically → 1/√2 along the normal.
  EXPECT_NEAR(t->SignedDistance(Vec3(0.05, 0.05, 1.05)), std::sqrt(0.5), kTol);
}

TEST(Terrain, HeightfieldEdgeClamping) {
  // 2 × 2 grid from (0, 0), cell 1: h(0,0) = 0, h(1,0) = 1, h(0,1) = 2,
  // h(1,1) = 3 → inside h = x + 2y.
  auto t = Terrain::Heightfield(Vec3::Zero(), 1.0, 2, 2, {0, 1, 2, 3});
  ASSERT_TRUE(t.ok());
  // Beyond x < 0: the x = 0 edge continues; the slope in x vanishes.
  EXPECT_NEAR(t->Height(-3.0, 0.5), 1.0, kTol);
  ExpectVecNear(t->Normal(Vec3(-3.0, 0.5, 0)), Vec3(0, -2, 1).normalized(), kTol);
  // Beyond x > 1 and y > 1: the corner height, flat.
  EXPECT_NEAR(t->Height(7.0, 9.0), 3.0, kTol);
  ExpectVecNear(t->Normal(Vec3(7, 9, 0)), Vec3::UnitZ(), kTol);
  EXPECT_NEAR(t->SignedDistance(Vec3(7, 9, 4.5)), 1.5, kTol);
  // Beyond y < 0 inside x: the y = 0 edge h = x, slope only in x.
  EXPECT_NEAR(t->Height(0.25, -10.0), 0.25, kTol);
  ExpectVecNear(t->Normal(Vec3(0.25, -10, 0)), Vec3(-1, 0, 1).normalized(), kTol);
  // Infinite coordinates clamp too; NaN propagates to the distance.
  EXPECT_NEAR(t->Height(-kInf, kInf), 2.0, kTol);
  EXPECT_TRUE(std::isnan(t->SignedDistance(Vec3(kNaN, 0.5, 0))));
}

TEST(Terrain, InvalidParametersAreRejected) {
  auto expect_invalid = [](const absl::Status& s, const char* field) {
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
    EXPECT_THAT(std::string(s.message()), HasSubstr(field));
  };
  expect_invalid(Terrain::Plane(Vec3::Zero(), 0.0).status(), "normal");
  expect_invalid(Terrain::Plane(Vec3(0, 0, 1e-14), 0.0).status(), "normal");
  expect_invalid(Terrain::Plane(Vec3(0, kNaN, 1), 0.0).status(), "normal");
  expect_invalid(Terrain::Plane(Vec3(0, 0, kInf), 0.0).status(), "normal");
  expect_invalid(Terrain::Plane(Vec3::UnitZ(), kNaN).status(), "offset");

  expect_invalid(Terrain::Incline(kNaN, Vec3::UnitX()).status(), "angle");
  expect_invalid(Terrain::Incline(kPi / 2, Vec3::UnitX()).status(), "angle");
  expect_invalid(Terrain::Incline(-2.0, Vec3::UnitX()).status(), "angle");
  expect_invalid(Terrain::Incline(0.1, Vec3::Zero()).status(), "axis");
  expect_invalid(Terrain::Incline(0.1, Vec3::UnitX(), Vec3(0, kInf, 0)).status(), "point");

  const std::vector<double> h4 = {0, 0, 0, 0};
  expect_invalid(Terrain::Heightfield(Vec3::Zero(), 0.0, 2, 2, h4).status(), "cell_size");
  expect_invalid(Terrain::Heightfield(Vec3::Zero(), -0.1, 2, 2, h4).status(), "cell_size");
  expect_invalid(Terrain::Heightfield(Vec3::Zero(), kNaN, 2, 2, h4).status(), "cell_size");
  expect_invalid(Terrain::Heightfield(Vec3::Zero(), 0.1, 1, 4, h4).status(), "nx");
  expect_invalid(Terrain::Heightfield(Vec3::Zero(), 0.1, 2, 3, h4).status(), "heights");
  expect_invalid(Terrain::Heightfield(Vec3::Zero(), 0.1, 2, 2, {0, 0, kNaN, 0}).status(),
                 "heights[2]");
  expect_invalid(Terrain::Heightfield(Vec3(kNaN, 0, 0), 0.1, 2, 2, h4).status(), "origin");
  EXPECT_TRUE(Terrain::Heightfield(Vec3::Zero(), 0.1, 2, 2, h4).ok());
}

}  // namespace
}  // namespace moreau::contact
