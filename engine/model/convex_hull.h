// Vertices of the convex hull of a point cloud, reduced to a few: the contact
// slots of a mesh (collision_geometry.h) are the points its hull would touch
// the terrain with.
#ifndef MOREAU_ENGINE_MODEL_CONVEX_HULL_H_
#define MOREAU_ENGINE_MODEL_CONVEX_HULL_H_

#include <vector>

#include "absl/status/statusor.h"
#include "engine/model/model.h"

namespace moreau::model_internal {

// The default bound on a mesh's contact slots.
inline constexpr int kMaxHullVertices = 20;

// Hull vertices of `points`, at most `max_vertices` (≥ 4):
//  1. support points: for each of kHullDirections unit directions d (a
//     Fibonacci sphere plus the 26 axis, edge and corner directions of a
//     cube), the point maximizing d·p (first in input order on ties). Each
//     is a vertex of the convex hull; a vertex extreme only within a cone
//     narrower than the direction spacing (≈ 9°) may be missed, and then lies
//     within that angle of the hull found.
//  2. clustering: vertices closer than 1e-3 of the cloud's diameter merge
//     (the first one stays); then, while more than max_vertices remain,
//     farthest-point sampling keeps the spread: start from the lowest-index
//     vertex and repeatedly add the one farthest from those kept.
// InvalidArgument when no hull can be built: fewer than 4 points, a
// non-finite point, or a flat cloud (its thinnest extent below 1e-6 of its
// diameter: a plane, a line or a point).
inline constexpr int kHullDirections = 256 + 26;
absl::StatusOr<std::vector<Vec3>> HullVertices(const std::vector<Vec3>& points,
                                               int max_vertices = kMaxHullVertices);

}  // namespace moreau::model_internal

#endif  // MOREAU_ENGINE_MODEL_CONVEX_HULL_H_
