// Terrain: the environment the contact spheres touch: a plane with any unit
// normal, or a heightfield grid. Built once and validated by the factories (an
// invalid Terrain cannot exist), then queried allocation-free for the signed
// distance of a point (001 eq. 31: d_f, the distance of the foot centre,
// before the radius is subtracted) and the outward surface normal.
#ifndef MOREAU_ENGINE_CONTACT_TERRAIN_H_
#define MOREAU_ENGINE_CONTACT_TERRAIN_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/spatial/motion.h"

namespace moreau::contact {

using spatial::Vec3;

enum class TerrainType { kPlane, kHeightfield };

// Upper bound on a heightfield's size, checked before its heights are copied
// (moreaud's --max-heightfield-nodes, which the error names).
struct HeightfieldLimits {
  int64_t max_nodes = int64_t{1} << 20;  // nx·ny (8 MB of heights)
};

// "plane", "heightfield".
const char* TerrainTypeName(TerrainType type);

// The result of one query at a world point.
struct TerrainQuery {
  double distance = 0.0;        // signed distance (m), > 0 outside (above)
  Vec3 normal = Vec3::UnitZ();  // unit world normal, pointing out of the terrain
};

class Terrain {
 public:
  // Flat ground: the plane z = 0 with normal +z.
  Terrain() = default;

  // The plane {x : n·x = offset} with n = normal / ‖normal‖ (the side n points
  // to is outside). Errors: a non-finite value, or ‖normal‖ ≈ 0.
  static absl::StatusOr<Terrain> Plane(const Vec3& normal, double offset);

  // An incline: the ground plane z = 0 rotated by `angle` (rad) about `axis`
  // (world, any non-zero vector; normalized) through `point`, so that its
  // normal is R(axis, angle) e_z. Example: angle = 30° about +x gives
  // n = (0, −sin 30°, cos 30°), a slope rising towards +y. Errors: non-finite
  // values, a zero axis, |angle| ≥ π/2 (the normal must keep n_z > 0 so that
  // "up" stays outside).
  static absl::StatusOr<Terrain> Incline(double angle, const Vec3& axis,
                                         const Vec3& point = Vec3::Zero());

  // A heightfield: grid node (i, j), 0 ≤ i < nx, 0 ≤ j < ny, lies at
  //   (origin.x + i·cell_size, origin.y + j·cell_size,
  //    origin.z + heights[i + nx·j])        (x index fastest),
  // and the surface between nodes is the bilinear interpolant. Outside the
  // grid the edge heights continue (the query point is clamped to the grid
  // in x and y). Errors: non-finite origin/heights, cell_size ≤ 0 or not
  // finite, nx < 2 or ny < 2, nx·ny over limits.max_nodes, heights.size() ≠
  // nx·ny. The heights are shared (immutable) by the copies of the Terrain,
  // e.g. the settings of many instances.
  static absl::StatusOr<Terrain> Heightfield(const Vec3& origin, double cell_size, int nx, int ny,
                                             std::vector<double> heights,
                                             const HeightfieldLimits& limits = {});

  // The size checks of Heightfield(), for a caller to run before it gathers
  // the heights: nx ≥ 2, ny ≥ 2, nx·ny ≤ limits.max_nodes and `heights` (the
  // number of heights given) ≤ limits.max_nodes. InvalidArgument naming the
  // value, the limit and the flag.
  static absl::Status CheckHeightfieldSize(int nx, int ny, int64_t heights,
                                           const HeightfieldLimits& limits);

  TerrainType type() const { return type_; }

  // Plane parameters (meaningful for kPlane).
  const Vec3& plane_normal() const { return normal_; }
  double plane_offset() const { return offset_; }

  // Heightfield parameters (meaningful for kHeightfield).
  const Vec3& origin() const { return origin_; }
  double cell_size() const { return cell_size_; }
  int nx() const { return nx_; }
  int ny() const { return ny_; }
  const std::vector<double>& heights() const;

  // Height of the heightfield surface at (x, y), bilinear, edge-clamped
  // (origin.z included). For a plane with n_z ≠ 0: the z where the vertical
  // line through (x, y) meets it; with n_z = 0: NaN.
  double Height(double x, double y) const;

  // Signed distance and outward normal at world point p. Allocation-free.
  //   plane: exact, d = n·p − offset, n constant.
  //   heightfield: h = h(x, y) and n = (−∂h/∂x, −∂h/∂y, 1)/‖·‖ from the
  //     gradient of the bilinear interpolant at (x, y); d = (z − h)·n_z. This
  //     is the vertical gap projected on the normal: exact over a cell that is
  //     planar (and for any plane), first-order accurate elsewhere — it uses
  //     the normal under p rather than at the true closest surface point, and
  //     is not the true Euclidean distance near ridges, valleys and cell
  //     edges (where the gradient jumps).
  TerrainQuery Query(const Vec3& p) const;

  // A lower bound on Query(p).distance over every p with ‖p − centre‖ ≤
  // radius (a body's bounding sphere, broad_phase.h). Plane: n·c − offset − r
  // (the distance is 1-Lipschitz). Heightfield: with δ = c_z − r − h_max (h_max
  // the highest node; the bilinear surface never exceeds it), δ·n_z,min when
  // δ > 0 (the distance is (z − h)·n_z, n_z ≥ n_z,min = 1/√(1 + g_x² + g_y²)
  // for g the largest node-to-node slope along x and y, which bounds the
  // interpolant's gradient), δ otherwise (n_z ≤ 1). NaN for a NaN centre.
  double DistanceLowerBound(const Vec3& centre, double radius) const;
  double SignedDistance(const Vec3& p) const { return Query(p).distance; }
  Vec3 Normal(const Vec3& p) const { return Query(p).normal; }

 private:
  struct Sample {
    double height;  // h(x, y), origin.z included
    double dhdx;    // ∂h/∂x (0 outside the grid in x)
    double dhdy;    // ∂h/∂y (0 outside the grid in y)
  };
  Sample SampleHeightfield(double x, double y) const;

  TerrainType type_ = TerrainType::kPlane;
  // Plane.
  Vec3 normal_ = Vec3::UnitZ();
  double offset_ = 0.0;
  // Heightfield.
  Vec3 origin_ = Vec3::Zero();
  double cell_size_ = 1.0;
  int nx_ = 0;
  int ny_ = 0;
  std::shared_ptr<const std::vector<double>> heights_;  // nx·ny, null for a plane
  double max_height_ = 0.0;                             // highest node, origin.z included
  double min_normal_z_ = 1.0;  // lower bound on the normal's z (DistanceLowerBound)
};

}  // namespace moreau::contact

#endif  // MOREAU_ENGINE_CONTACT_TERRAIN_H_
