#include "engine/model/convex_hull.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace moreau::model_internal {
namespace {

// kHullDirections unit vectors: 256 on a Fibonacci sphere (golden-angle
// spiral, near-uniform spacing) and the 26 directions of a cube's faces,
// edges and corners (so the corners of an axis-aligned box are found
// exactly).
std::vector<Vec3> Directions() {
  std::vector<Vec3> dirs;
  dirs.reserve(kHullDirections);
  constexpr int kSpiral = 256;
  const double golden = std::numbers::pi * (3.0 - std::sqrt(5.0));
  for (int i = 0; i < kSpiral; ++i) {
    const double z = 1.0 - (2.0 * i + 1.0) / kSpiral;
    const double r = std::sqrt(1.0 - z * z);
    const double phi = golden * i;
    dirs.emplace_back(r * std::cos(phi), r * std::sin(phi), z);
  }
  for (int x = -1; x <= 1; ++x) {
    for (int y = -1; y <= 1; ++y) {
      for (int z = -1; z <= 1; ++z) {
        if (x == 0 && y == 0 && z == 0) continue;
        dirs.push_back(Vec3(x, y, z).normalized());
      }
    }
  }
  return dirs;
}

}  // namespace

absl::StatusOr<std::vector<Vec3>> HullVertices(const std::vector<Vec3>& points, int max_vertices) {
  if (points.size() < 4) {
    return absl::InvalidArgumentError(
        absl::StrCat("no convex hull: ", points.size(), " points (at least 4)"));
  }
  Vec3 mean = Vec3::Zero();
  for (const Vec3& p : points) {
    if (!p.allFinite()) return absl::InvalidArgumentError("no convex hull: a non-finite point");
    mean += p;
  }
  mean /= static_cast<double>(points.size());
  // Thinnest and widest extent along the principal axes of the cloud.
  Mat3 cov = Mat3::Zero();
  for (const Vec3& p : points) cov += (p - mean) * (p - mean).transpose();
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(cov);
  double lo[3], hi[3];
  for (int a = 0; a < 3; ++a) {
    lo[a] = std::numeric_limits<double>::infinity();
    hi[a] = -lo[a];
  }
  for (const Vec3& p : points) {
    const Vec3 c = eig.eigenvectors().transpose() * (p - mean);
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::min(lo[a], c[a]);
      hi[a] = std::max(hi[a], c[a]);
    }
  }
  double thinnest = std::numeric_limits<double>::infinity(), diameter = 0.0;
  for (int a = 0; a < 3; ++a) {
    thinnest = std::min(thinnest, hi[a] - lo[a]);
    diameter = std::max(diameter, hi[a] - lo[a]);
  }
  if (!(diameter > 0.0) || thinnest < 1e-6 * diameter) {
    return absl::InvalidArgumentError(
        "no convex hull: the points are flat (coplanar, collinear or coincident)");
  }
  // 1. Support points.
  std::vector<int> chosen;
  for (const Vec3& d : Directions()) {
    int best = 0;
    double best_dot = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < static_cast<int>(points.size()); ++i) {
      const double s = d.dot(points[i]);
      if (s > best_dot) {
        best_dot = s;
        best = i;
      }
    }
    chosen.push_back(best);
  }
  std::sort(chosen.begin(), chosen.end());
  chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
  // 2. Merge near-coincident vertices (the first one stays).
  const double merge = 1e-3 * diameter;
  std::vector<Vec3> merged;
  for (int i : chosen) {
    const bool near = std::any_of(merged.begin(), merged.end(),
                                  [&](const Vec3& m) { return (m - points[i]).norm() < merge; });
    if (!near) merged.push_back(points[i]);
  }
  max_vertices = std::max(max_vertices, 4);
  if (static_cast<int>(merged.size()) <= max_vertices) return merged;
  // Farthest-point sampling: each step keeps the vertex farthest from those
  // already kept.
  std::vector<Vec3> kept = {merged[0]};
  std::vector<double> distance(merged.size(), std::numeric_limits<double>::infinity());
  while (static_cast<int>(kept.size()) < max_vertices) {
    int far = 0;
    for (size_t i = 0; i < merged.size(); ++i) {
      distance[i] = std::min(distance[i], (merged[i] - kept.back()).norm());
      if (distance[i] > distance[far]) far = static_cast<int>(i);
    }
    kept.push_back(merged[far]);
  }
  return kept;
}

}  // namespace moreau::model_internal
