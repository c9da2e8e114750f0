#include "engine/model/collision_geometry.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "engine/model/convex_hull.h"
#include "engine/model/mesh_file.h"
#include "engine/util/enum_table.h"

namespace moreau {

namespace {
constexpr EnumEntry<CollisionMode> kCollisionModes[] = {
    {CollisionMode::kFeet, "feet"},
    {CollisionMode::kAll, "all"},
};
}  // namespace

const char* CollisionModeName(CollisionMode mode) { return EnumName(kCollisionModes, mode); }
std::string CollisionModeNames() { return EnumNameList(kCollisionModes); }
absl::StatusOr<CollisionMode> ParseCollisionMode(std::string_view name) {
  return ParseEnum<CollisionMode>("collision mode", kCollisionModes, name);
}

namespace model_internal {
namespace {

// Eight corners of a box (full sides `size`, axes R, centre p) as kFixed
// slots named <prefix>_corner0 … 7.
void AddBoxCorners(const std::string& prefix, int body, int geom, const Mat3& R, const Vec3& p,
                   const Vec3& size, Model& m) {
  for (int corner = 0; corner < 8; ++corner) {
    const Vec3 sign((corner & 1) ? 1.0 : -1.0, (corner & 2) ? 1.0 : -1.0,
                    (corner & 4) ? 1.0 : -1.0);
    ContactPoint c;
    c.name = absl::StrCat(prefix, "_corner", corner);
    c.body = body;
    c.geom = geom;
    c.position = p + R * (0.5 * size.cwiseProduct(sign));
    m.contact_points.push_back(std::move(c));
  }
}

// The inertia box of the geom's link (in the link frame, then the body
// frame) as eight corners; false when the link has none.
bool AddInertiaBox(const LinkTree& tree, const Geom& g, int geom, const std::string& prefix,
                   Model& m) {
  const auto link = std::find_if(tree.links.begin(), tree.links.end(),
                                 [&](const TreeLink& l) { return l.name == g.link; });
  if (link == tree.links.end()) return false;
  const std::optional<InertiaBoxShape> box = InertiaBox(link->inertia);
  if (!box) return false;
  AddBoxCorners(prefix, g.body, geom, g.link_rotation * box->rotation,
                g.link_rotation * box->position + g.link_position, box->size, m);
  return true;
}

void AddMesh(const LinkTree& tree, const LoadOptions& options, const Geom& g, int geom,
             const std::string& prefix, std::set<std::string>& boxed_links, Model& m) {
  absl::StatusOr<std::vector<Vec3>> vertices =
      options.read_mesh_files ? ReadMeshVertices(ResolveMeshPath(g.mesh, options.mesh_directory))
                              : absl::StatusOr<std::vector<Vec3>>(absl::FailedPreconditionError(
                                    "mesh files are not read for this model"));
  absl::StatusOr<std::vector<Vec3>> hull = absl::UnknownError("unread");
  if (vertices.ok()) {
    // URDF scale per axis of the mesh frame, before the hull (a non-uniform
    // scale keeps hull vertices hull vertices).
    for (Vec3& v : *vertices) v = v.cwiseProduct(g.size);
    hull = HullVertices(*vertices);
  } else {
    hull = vertices.status();
  }
  if (hull.ok()) {
    for (size_t i = 0; i < hull->size(); ++i) {
      ContactPoint c;
      c.name = absl::StrCat(prefix, "_v", i);
      c.body = g.body;
      c.geom = geom;
      c.position = g.position + g.rotation * (*hull)[i];
      m.contact_points.push_back(std::move(c));
    }
    return;
  }
  const std::string why = std::string(hull.status().message());
  // One inertia box per link, however many of its meshes fail.
  if (!boxed_links.insert(g.link).second) {
    m.warnings.push_back(absl::StrCat("link '", g.link, "': collision mesh '", g.mesh, "' (", why,
                                      "): covered by the link's inertia box"));
    return;
  }
  if (AddInertiaBox(tree, g, geom, absl::StrCat(g.link, "_inertia_box"), m)) {
    m.warnings.push_back(absl::StrCat("link '", g.link, "': collision mesh '", g.mesh, "' (", why,
                                      "): its inertia box collides instead"));
  } else {
    m.warnings.push_back(absl::StrCat("link '", g.link, "': collision mesh '", g.mesh, "' (", why,
                                      ") and no inertia box: the link does not collide"));
  }
}

absl::Status CheckLinks(const LinkTree& tree, const std::vector<std::string>& names,
                        const char* what) {
  for (const std::string& name : names) {
    const bool known = std::any_of(tree.links.begin(), tree.links.end(),
                                   [&](const TreeLink& l) { return l.name == name; });
    if (!known) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, " link '", name, "' is not a link of the model"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

std::optional<InertiaBoxShape> InertiaBox(const Inertia& inertia) {
  if (!(inertia.mass > 0.0)) return std::nullopt;
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(inertia.InertiaAboutCom());
  const Vec3 I = eig.eigenvalues();
  InertiaBoxShape box;
  for (int i = 0; i < 3; ++i) {
    // Uniform box: I_i = m (s_j² + s_k²) / 12, so s_i² = 6 (I_j + I_k − I_i) / m.
    const double s2 = 6.0 * (I[(i + 1) % 3] + I[(i + 2) % 3] - I[i]) / inertia.mass;
    box.size[i] = s2 > 0.0 ? std::sqrt(s2) : 0.0;
  }
  if (!(box.size.maxCoeff() > 0.0) || !box.size.allFinite()) return std::nullopt;
  box.rotation = eig.eigenvectors();
  if (box.rotation.determinant() < 0.0) box.rotation.col(2) *= -1.0;
  box.position = inertia.CenterOfMass();
  return box;
}

double LowestPointHeight(const ContactPoint& c, const Mat3& R, const Vec3& p) {
  const double centre = (R * c.position + p).z();
  switch (c.witness) {
    case ContactWitness::kFixed:
    case ContactWitness::kSphereBottom:
      return centre - c.radius;
    case ContactWitness::kRim: {
      // The circle's lowest point sits r √(1 − a_z²) below its centre.
      const double az = (R * c.axis).z();
      return centre - c.radius * std::sqrt(std::max(0.0, 1.0 - az * az));
    }
  }
  return centre;
}

absl::Status AddCollisionSlots(const LinkTree& tree, const LoadOptions& options, Model& m) {
  if (absl::Status s = CheckLinks(tree, options.collide_links, "collide"); !s.ok()) return s;
  if (absl::Status s = CheckLinks(tree, options.exclude_links, "exclude"); !s.ok()) return s;
  const std::set<std::string_view> collide(options.collide_links.begin(),
                                           options.collide_links.end());
  const std::set<std::string_view> exclude(options.exclude_links.begin(),
                                           options.exclude_links.end());
  for (std::string_view name : collide) {
    if (exclude.count(name) > 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "link '", std::string(name), "' is both in collide_links and in exclude_links"));
    }
  }
  std::vector<bool> is_foot(m.geoms.size(), false);
  for (const ContactPoint& c : m.contact_points) {
    if (c.geom >= 0) is_foot[c.geom] = true;
  }
  const size_t first_slot = m.contact_points.size();
  std::set<std::string> boxed_links;
  std::vector<int> shape_count(m.geoms.size(), 0);
  std::map<std::pair<std::string, GeomType>, int> per_link;
  for (int gi = 0; gi < static_cast<int>(m.geoms.size()); ++gi) {
    const Geom& g = m.geoms[gi];
    const bool selected = (options.collision == CollisionMode::kAll || collide.count(g.link) > 0) &&
                          exclude.count(g.link) == 0;
    if (!selected || is_foot[gi] || g.body == 0) continue;
    const int k = per_link[{g.link, g.type}]++;
    const std::string prefix = absl::StrCat(g.link, "_", GeomTypeName(g.type), k);
    switch (g.type) {
      case GeomType::kSphere: {
        ContactPoint c;
        c.name = prefix;
        c.body = g.body;
        c.geom = gi;
        c.position = g.position;
        c.radius = g.size.x();
        c.witness = ContactWitness::kSphereBottom;
        m.contact_points.push_back(std::move(c));
        break;
      }
      case GeomType::kBox:
        AddBoxCorners(prefix, g.body, gi, g.rotation, g.position, g.size, m);
        break;
      case GeomType::kCylinder: {
        // URDF cylinders lie along the geom's z axis, centred on its origin.
        const Vec3 axis = g.rotation.col(2);
        for (int rim = 0; rim < 2; ++rim) {
          for (int quarter = 0; quarter < 4; ++quarter) {
            ContactPoint c;
            c.name = absl::StrCat(prefix, "_rim", rim, "_", 90 * quarter);
            c.body = g.body;
            c.geom = gi;
            c.position = g.position + (rim == 0 ? -0.5 : 0.5) * g.size.y() * axis;
            c.radius = g.size.x();
            c.witness = ContactWitness::kRim;
            c.axis = axis;
            c.angle = 0.5 * std::numbers::pi * quarter;
            m.contact_points.push_back(std::move(c));
          }
        }
        break;
      }
      case GeomType::kMesh:
        AddMesh(tree, options, g, gi, prefix, boxed_links, m);
        break;
    }
  }
  for (size_t k = first_slot; k < m.contact_points.size(); ++k) m.contact_points[k].foot = false;
  return absl::OkStatus();
}

}  // namespace model_internal
}  // namespace moreau
