// Whole-body collision with the terrain: the contact slots of every collision
// geometry (docs/collision.md). A slot is a point (or a sphere, or a rim
// circle) on a body that the contact stage tests against the terrain:
//   sphere    1 slot: the sphere's lowest point along the terrain normal
//             (ContactWitness::kSphereBottom)
//   box       8 slots: its corners (kFixed, radius 0)
//   cylinder  8 slots: on each of the two rims the lowest point and the
//             points turned 90°, 180° and 270° from it about the axis
//             (kRim), so the cylinder rolls on its rim and rests on a face
//   mesh      ≤ kMaxHullVertices slots: vertices of the convex hull of the
//             mesh's vertices (convex_hull.h), scaled by the URDF scale; when
//             the file is missing or unreadable or gives no hull, the link's
//             inertia box instead (InertiaBox), with a warning.
#ifndef MOREAU_ENGINE_MODEL_COLLISION_GEOMETRY_H_
#define MOREAU_ENGINE_MODEL_COLLISION_GEOMETRY_H_

#include <optional>

#include "absl/status/status.h"
#include "engine/model/link_tree.h"
#include "engine/model/loader.h"
#include "engine/model/model.h"

namespace moreau::model_internal {

// Appends the slots of the collision geometry that options.collision,
// collide_links and exclude_links select to model.contact_points, after the
// foot slots already there (a geometry that already is a foot slot is not
// added again; geometry on the world body never moves and is skipped). Mesh
// files are resolved against options.mesh_directory (mesh_file.h).
// InvalidArgument naming the link: an unknown link in collide_links or
// exclude_links, or a link in both.
absl::Status AddCollisionSlots(const LinkTree& tree, const LoadOptions& options, Model& model);

// The uniform box with a link's mass and rotational inertia about its centre
// of mass: along principal axis i (moment I_i) the side
// s_i = √(6 (I_j + I_k − I_i) / m), centred at the centre of mass with the
// principal axes. Empty when the mass is not > 0 or every side is 0.
struct InertiaBoxShape {
  Vec3 size = Vec3::Zero();          // full side lengths
  Mat3 rotation = Mat3::Identity();  // box axes in the inertia's frame (det +1)
  Vec3 position = Vec3::Zero();      // centre in the inertia's frame
};
std::optional<InertiaBoxShape> InertiaBox(const Inertia& inertia);

// World height of the lowest point of slot `c` on a body at pose (R, p)
// (body → world) above a horizontal ground: centre − radius for spheres,
// the circle's lowest point for rims, the point itself otherwise.
double LowestPointHeight(const ContactPoint& c, const Mat3& R, const Vec3& p);

}  // namespace moreau::model_internal

#endif  // MOREAU_ENGINE_MODEL_COLLISION_GEOMETRY_H_
