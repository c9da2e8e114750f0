#include "engine/contact/terrain.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/util/enum_table.h"

namespace moreau::contact {
namespace {

constexpr double kMinNorm = 1e-12;

bool IsFinite(const Vec3& v) { return v.allFinite(); }

std::string VecString(const Vec3& v) {
  return absl::StrFormat("(%g, %g, %g)", v.x(), v.y(), v.z());
}

// One coordinate of a heightfield lookup: the grid coordinate u = (x − x0)/cell
// clamped to [0, n − 1] (edge heights continue outside), the cell index
// i ∈ [0, n − 2], the fraction s ∈ [0, 1] inside the cell, and whether the
// point was inside (outside, the surface is flat along this axis).
struct Axis {
  int i;
  double s;
  bool inside;
};

Axis Locate(double x, double x0, double cell, int n) {
  const double u = (x - x0) / cell;
  const double u_max = static_cast<double>(n - 1);
  Axis a;
  a.inside = u >= 0.0 && u <= u_max;
  // Written so that NaN and ±inf land on an edge (no UB in the cast below);
  // SampleHeightfield() turns a NaN coordinate back into a NaN height.
  const double uc = u >= 0.0 ? (u <= u_max ? u : u_max) : 0.0;
  int i = static_cast<int>(std::floor(uc));
  if (i > n - 2) i = n - 2;
  a.i = i;
  a.s = uc - i;
  return a;
}

constexpr EnumEntry<TerrainType> kTerrainTypes[] = {{TerrainType::kPlane, "plane"},
                                                    {TerrainType::kHeightfield, "heightfield"}};

}  // namespace

const char* TerrainTypeName(TerrainType type) { return EnumName(kTerrainTypes, type); }

absl::StatusOr<Terrain> Terrain::Plane(const Vec3& normal, double offset) {
  if (!IsFinite(normal)) {
    return absl::InvalidArgumentError(
        absl::StrCat("terrain plane normal must be finite, got ", VecString(normal)));
  }
  if (!std::isfinite(offset)) {
    return absl::InvalidArgumentError(
        absl::StrCat("terrain plane offset must be finite, got ", offset));
  }
  const double norm = normal.norm();
  if (norm < kMinNorm) {
    return absl::InvalidArgumentError(
        absl::StrCat("terrain plane normal must be non-zero, got ", VecString(normal)));
  }
  Terrain t;
  t.type_ = TerrainType::kPlane;
  // {x : n·x = offset} with n unit: scaling the normal keeps the offset's
  // meaning as the distance of the plane from the origin along n.
  t.normal_ = normal / norm;
  t.offset_ = offset;
  return t;
}

absl::StatusOr<Terrain> Terrain::Incline(double angle, const Vec3& axis, const Vec3& point) {
  if (!std::isfinite(angle)) {
    return absl::InvalidArgumentError(
        absl::StrCat("terrain incline angle must be finite, got ", angle));
  }
  if (std::abs(angle) >= 0.5 * std::numbers::pi) {
    return absl::InvalidArgumentError(
        absl::StrCat("terrain incline angle must be in (-pi/2, pi/2) rad, got ", angle));
  }
  if (!IsFinite(axis) || axis.norm() < kMinNorm) {
    return absl::InvalidArgumentError(
        absl::StrCat("terrain incline axis must be finite and non-zero, got ", VecString(axis)));
  }
  if (!IsFinite(point)) {
    return absl::InvalidArgumentError(
        absl::StrCat("terrain incline point must be finite, got ", VecString(point)));
  }
  const Vec3 n = Eigen::AngleAxisd(angle, axis.normalized()) * Vec3::UnitZ();
  if (n.z() <= kMinNorm) {
    // Only reached for a (near-)vertical axis combined with ±90°, which the
    // angle check excludes; kept so "up" is always outside.
    return absl::InvalidArgumentError(
        absl::StrCat("terrain incline normal must point up, got ", VecString(n)));
  }
  return Plane(n, n.dot(point));
}

absl::Status Terrain::CheckHeightfieldSize(int nx, int ny, int64_t heights,
                                           const HeightfieldLimits& limits) {
  if (nx < 2 || ny < 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "terrain heightfield needs nx >= 2 and ny >= 2, got nx = ", nx, ", ny = ", ny));
  }
  const int64_t nodes = int64_t{nx} * int64_t{ny};
  if (nodes > limits.max_nodes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "terrain heightfield has nx * ny = ", nx, " * ", ny, " = ", nodes, " nodes, at most ",
        limits.max_nodes, " (the server's --max-heightfield-nodes)"));
  }
  if (heights > limits.max_nodes) {
    return absl::InvalidArgumentError(absl::StrCat("terrain heightfield has ", heights,
                                                   " heights, at most ", limits.max_nodes,
                                                   " (the server's --max-heightfield-nodes)"));
  }
  return absl::OkStatus();
}

const std::vector<double>& Terrain::heights() const {
  static const auto* const kNone = new std::vector<double>();
  return heights_ != nullptr ? *heights_ : *kNone;
}

absl::StatusOr<Terrain> Terrain::Heightfield(const Vec3& origin, double cell_size, int nx, int ny,
                                             std::vector<double> heights,
                                             const HeightfieldLimits& limits) {
  if (!IsFinite(origin)) {
    return absl::InvalidArgumentError(
        absl::StrCat("terrain heightfield origin must be finite, got ", VecString(origin)));
  }
  if (!std::isfinite(cell_size) || cell_size <= 0.0) {
    return absl::InvalidArgumentError(
        absl::StrCat("terrain heightfield cell_size must be positive and "
                     "finite, got ",
                     cell_size));
  }
  if (absl::Status s = CheckHeightfieldSize(nx, ny, static_cast<int64_t>(heights.size()), limits);
      !s.ok()) {
    return s;
  }
  const size_t expected = static_cast<size_t>(nx) * static_cast<size_t>(ny);
  if (heights.size() != expected) {
    return absl::InvalidArgumentError(
        absl::StrCat("terrain heightfield heights must have nx * ny = ", expected, " entries, got ",
                     heights.size()));
  }
  for (size_t k = 0; k < heights.size(); ++k) {
    if (!std::isfinite(heights[k])) {
      return absl::InvalidArgumentError(
          absl::StrCat("terrain heightfield heights[", k, "] must be finite, got ", heights[k]));
    }
  }
  Terrain t;
  t.type_ = TerrainType::kHeightfield;
  t.origin_ = origin;
  t.cell_size_ = cell_size;
  t.nx_ = nx;
  t.ny_ = ny;
  // The bounds DistanceLowerBound uses: the highest node and the steepest
  // node-to-node slope along x and y (the bilinear gradient's components are
  // convex combinations of those differences over the cell size).
  double h_max = heights[0];
  double dx_max = 0.0;
  double dy_max = 0.0;
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      const double h = heights[i + nx * j];
      h_max = std::max(h_max, h);
      if (i + 1 < nx) dx_max = std::max(dx_max, std::abs(heights[i + 1 + nx * j] - h));
      if (j + 1 < ny) dy_max = std::max(dy_max, std::abs(heights[i + nx * (j + 1)] - h));
    }
  }
  const double gx = dx_max / cell_size;
  const double gy = dy_max / cell_size;
  t.max_height_ = origin.z() + h_max;
  t.min_normal_z_ = 1.0 / std::sqrt(1.0 + gx * gx + gy * gy);
  t.heights_ = std::make_shared<const std::vector<double>>(std::move(heights));
  return t;
}

Terrain::Sample Terrain::SampleHeightfield(double x, double y) const {
  // Bilinear interpolation over the cell containing (x, y):
  //   h = (1−s)(1−t) h00 + s(1−t) h10 + (1−s)t h01 + s t h11,
  //   ∂h/∂x = [(1−t)(h10−h00) + t(h11−h01)] / cell (0 outside the grid in x),
  //   ∂h/∂y = [(1−s)(h01−h00) + s(h11−h10)] / cell (0 outside in y).
  const Axis ax = Locate(x, origin_.x(), cell_size_, nx_);
  const Axis ay = Locate(y, origin_.y(), cell_size_, ny_);
  const double* h = heights_->data();
  const int k = ax.i + nx_ * ay.i;
  const double h00 = h[k], h10 = h[k + 1], h01 = h[k + nx_], h11 = h[k + nx_ + 1];
  const double s = ax.s, t = ay.s;
  Sample out;
  out.height =
      origin_.z() + (1 - s) * (1 - t) * h00 + s * (1 - t) * h10 + (1 - s) * t * h01 + s * t * h11;
  out.dhdx = ax.inside ? ((1 - t) * (h10 - h00) + t * (h11 - h01)) / cell_size_ : 0.0;
  out.dhdy = ay.inside ? ((1 - s) * (h01 - h00) + s * (h11 - h10)) / cell_size_ : 0.0;
  if (std::isnan(x) || std::isnan(y)) {
    out.height = std::numeric_limits<double>::quiet_NaN();
  }
  return out;
}

double Terrain::Height(double x, double y) const {
  if (type_ == TerrainType::kPlane) {
    // n·(x, y, z) = offset solved for z.
    if (std::abs(normal_.z()) < kMinNorm) {
      return std::numeric_limits<double>::quiet_NaN();
    }
    return (offset_ - normal_.x() * x - normal_.y() * y) / normal_.z();
  }
  return SampleHeightfield(x, y).height;
}

TerrainQuery Terrain::Query(const Vec3& p) const {
  TerrainQuery out;
  if (type_ == TerrainType::kPlane) {
    // 001 eq. 31: d_f = ẑ_Cᵀ r_{P O_f}, the projection on the plane normal.
    out.normal = normal_;
    out.distance = normal_.dot(p) - offset_;
    return out;
  }
  const Sample h = SampleHeightfield(p.x(), p.y());
  // The surface z = h(x, y) has the upward normal (−h_x, −h_y, 1)/‖·‖.
  out.normal = Vec3(-h.dhdx, -h.dhdy, 1.0);
  out.normal /= out.normal.norm();
  // Vertical gap projected on the normal (see the header): exact for planar
  // cells, first-order otherwise.
  out.distance = (p.z() - h.height) * out.normal.z();
  return out;
}

double Terrain::DistanceLowerBound(const Vec3& centre, double radius) const {
  if (type_ == TerrainType::kPlane) return normal_.dot(centre) - offset_ - radius;
  const double above = centre.z() - radius - max_height_;
  return above > 0.0 ? above * min_normal_z_ : above;
}

}  // namespace moreau::contact
