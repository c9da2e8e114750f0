#include "engine/model/link_tree.h"

#include <urdf_model/model.h>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "engine/util/status_macros.h"

namespace moreau::model_internal {
namespace {

// Principal moments below −kNegativeTolerance·max(1, trace) are errors, those
// within ±kSingularTolerance·max(1, trace) of zero make a singular tensor.
constexpr double kNegativeTolerance = 1e-12;
constexpr double kSingularTolerance = 1e-12;
// Slack for I1 + I2 ≥ I3, relative to the trace: tensors printed with 4-digit
// values (thin discs and rods sit on the boundary) should not warn.
constexpr double kTriangleTolerance = 1e-4;

absl::Status Invalid(absl::string_view what, absl::string_view name, absl::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat(what, " '", name, "': ", message));
}

// Fails unless every value is finite; `field` names them in the error.
absl::Status CheckFinite(absl::string_view what, absl::string_view name, absl::string_view field,
                         std::initializer_list<double> values) {
  for (double v : values) {
    if (!std::isfinite(v)) {
      return Invalid(what, name,
                     absl::StrCat(field, " is not finite (", absl::StrJoin(values, " "), ")"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Pose> ConvertPose(absl::string_view what, absl::string_view name,
                                 absl::string_view field, const urdf::Pose& pose) {
  const urdf::Vector3& p = pose.position;
  const urdf::Rotation& q = pose.rotation;
  MOREAU_RETURN_IF_ERROR(CheckFinite(what, name, absl::StrCat(field, " xyz"), {p.x, p.y, p.z}));
  MOREAU_RETURN_IF_ERROR(
      CheckFinite(what, name, absl::StrCat(field, " rotation"), {q.x, q.y, q.z, q.w}));
  Pose out;
  out.R = Eigen::Quaterniond(q.w, q.x, q.y, q.z).normalized().toRotationMatrix();
  out.p = Vec3(p.x, p.y, p.z);
  return out;
}

// <inertial>: mass m at origin (R, c) with tensor I about the centre of mass in
// the inertial frame's axes; in link axes I_link = R I Rᵀ (URDF spec).
absl::StatusOr<Inertia> ConvertInertial(const urdf::Link& link,
                                        std::vector<std::string>& warnings) {
  if (link.inertial == nullptr) return Inertia::Zero();
  const urdf::Inertial& in = *link.inertial;
  MOREAU_ASSIGN_OR_RETURN(const Pose origin,
                          ConvertPose("link", link.name, "inertial origin", in.origin));
  MOREAU_RETURN_IF_ERROR(CheckFinite("link", link.name, "mass", {in.mass}));
  MOREAU_RETURN_IF_ERROR(
      CheckFinite("link", link.name, "inertia", {in.ixx, in.ixy, in.ixz, in.iyy, in.iyz, in.izz}));
  if (in.mass < 0.0) {
    return Invalid("link", link.name, absl::StrCat("negative mass ", in.mass));
  }

  Mat3 I;
  I << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
  const Eigen::SelfAdjointEigenSolver<Mat3> eigen(I, Eigen::EigenvaluesOnly);
  const Vec3 moments = eigen.eigenvalues();  // ascending
  const double scale = std::max(1.0, I.trace());
  if (moments(0) < -kNegativeTolerance * scale) {
    return Invalid(
        "link", link.name,
        absl::StrFormat("inertia is not positive semi-definite (principal moment %g)", moments(0)));
  }
  const std::string listed = absl::StrFormat("%g, %g, %g", moments(0), moments(1), moments(2));
  if (in.mass == 0.0 && I.isZero(0.0)) {
    // A massless frame link: nothing to check.
  } else if (in.mass == 0.0) {
    warnings.push_back(absl::StrCat("link '", link.name, "': zero mass but rotational ",
                                    "inertia (principal moments ", listed, ")"));
  } else if (moments(0) <= kSingularTolerance * scale) {
    warnings.push_back(absl::StrCat("link '", link.name,
                                    "': inertia is not positive definite (principal moments ",
                                    listed, ")"));
  } else if (moments(0) + moments(1) < moments(2) - kTriangleTolerance * I.trace()) {
    warnings.push_back(absl::StrCat("link '", link.name, "': principal moments ", listed,
                                    " violate the triangle inequality I1 + I2 >= I3"));
  }
  const Mat3 I_link = origin.R * I * origin.R.transpose();
  return Inertia::FromMassComInertia(in.mass, origin.p, I_link);
}

absl::StatusOr<Geom> ConvertCollision(const urdf::Link& link, const urdf::Collision& collision) {
  if (collision.geometry == nullptr) {
    return Invalid("link", link.name, "collision without geometry");
  }
  MOREAU_ASSIGN_OR_RETURN(const Pose origin,
                          ConvertPose("link", link.name, "collision origin", collision.origin));
  Geom geom;
  geom.link = link.name;
  geom.rotation = origin.R;
  geom.position = origin.p;
  const urdf::Geometry& g = *collision.geometry;
  switch (g.type) {
    case urdf::Geometry::SPHERE:
      geom.type = GeomType::kSphere;
      geom.size = Vec3(static_cast<const urdf::Sphere&>(g).radius, 0.0, 0.0);
      break;
    case urdf::Geometry::BOX: {
      const urdf::Vector3& d = static_cast<const urdf::Box&>(g).dim;
      geom.type = GeomType::kBox;
      geom.size = Vec3(d.x, d.y, d.z);
      break;
    }
    case urdf::Geometry::CYLINDER: {
      const auto& c = static_cast<const urdf::Cylinder&>(g);
      geom.type = GeomType::kCylinder;
      geom.size = Vec3(c.radius, c.length, 0.0);
      break;
    }
    case urdf::Geometry::MESH: {
      const auto& m = static_cast<const urdf::Mesh&>(g);
      geom.type = GeomType::kMesh;
      geom.size = Vec3(m.scale.x, m.scale.y, m.scale.z);
      geom.mesh = m.filename;
      break;
    }
    default:
      return Invalid("link", link.name, "collision geometry of unknown type");
  }
  const std::string field = absl::StrCat("collision ", GeomTypeName(geom.type), " size");
  MOREAU_RETURN_IF_ERROR(
      CheckFinite("link", link.name, field, {geom.size.x(), geom.size.y(), geom.size.z()}));
  if (geom.type != GeomType::kMesh && (geom.size.array() < 0.0).any()) {
    return Invalid("link", link.name,
                   absl::StrFormat("%s is negative (%g %g %g)", field, geom.size.x(), geom.size.y(),
                                   geom.size.z()));
  }
  return geom;
}

absl::StatusOr<TreeLink> ConvertLink(const urdf::Link& link, std::vector<std::string>& warnings) {
  TreeLink out;
  out.name = link.name;
  MOREAU_ASSIGN_OR_RETURN(out.inertia, ConvertInertial(link, warnings));
  for (const urdf::CollisionSharedPtr& collision : link.collision_array) {
    if (collision == nullptr) continue;
    MOREAU_ASSIGN_OR_RETURN(Geom geom, ConvertCollision(link, *collision));
    out.geoms.push_back(std::move(geom));
  }
  return out;
}

absl::StatusOr<TreeJointType> ConvertJointType(const urdf::Joint& joint) {
  switch (joint.type) {
    case urdf::Joint::FIXED:
      return TreeJointType::kFixed;
    case urdf::Joint::REVOLUTE:
      return TreeJointType::kRevolute;
    case urdf::Joint::CONTINUOUS:
      return TreeJointType::kContinuous;
    case urdf::Joint::PRISMATIC:
      return TreeJointType::kPrismatic;
    case urdf::Joint::FLOATING:
      return Invalid("joint", joint.name, "unsupported joint type 'floating'");
    case urdf::Joint::PLANAR:
      return Invalid("joint", joint.name, "unsupported joint type 'planar'");
    default:
      return Invalid("joint", joint.name, "unknown joint type");
  }
}

// URDF <limit>: lower/upper apply to revolute and prismatic joints when
// lower < upper; effort and velocity ≤ 0 (or absent) mean unlimited.
absl::StatusOr<JointLimits> ConvertLimits(const urdf::Joint& joint, TreeJointType type) {
  JointLimits limits;
  if (joint.limits == nullptr) return limits;
  const urdf::JointLimits& l = *joint.limits;
  MOREAU_RETURN_IF_ERROR(
      CheckFinite("joint", joint.name, "limit", {l.lower, l.upper, l.effort, l.velocity}));
  if (l.effort > 0.0) limits.effort = l.effort;
  if (l.velocity > 0.0) limits.velocity = l.velocity;
  if (type == TreeJointType::kRevolute || type == TreeJointType::kPrismatic) {
    if (l.lower > l.upper) {
      return Invalid("joint", joint.name,
                     absl::StrFormat("lower limit %g is above upper limit %g", l.lower, l.upper));
    }
    if (l.lower < l.upper) {
      limits.has_position_limits = true;
      limits.lower = l.lower;
      limits.upper = l.upper;
    }
  }
  return limits;
}

absl::StatusOr<TreeJoint> ConvertJoint(const urdf::Joint& joint,
                                       const std::map<std::string, int>& link_index,
                                       std::vector<std::string>& warnings) {
  TreeJoint out;
  out.name = joint.name;
  MOREAU_ASSIGN_OR_RETURN(out.type, ConvertJointType(joint));
  const auto parent = link_index.find(joint.parent_link_name);
  const auto child = link_index.find(joint.child_link_name);
  if (parent == link_index.end() || child == link_index.end()) {
    return Invalid("joint", joint.name, "parent or child link not found");
  }
  out.parent_link = parent->second;
  out.child_link = child->second;
  MOREAU_ASSIGN_OR_RETURN(out.origin, ConvertPose("joint", joint.name, "origin",
                                                  joint.parent_to_joint_origin_transform));
  if (out.type != TreeJointType::kFixed) {
    const urdf::Vector3& a = joint.axis;
    MOREAU_RETURN_IF_ERROR(CheckFinite("joint", joint.name, "axis", {a.x, a.y, a.z}));
    const Vec3 axis(a.x, a.y, a.z);
    if (axis.norm() < 1e-9) {
      return Invalid("joint", joint.name, absl::StrFormat("zero axis (%g %g %g)", a.x, a.y, a.z));
    }
    out.axis = axis.normalized();
  }
  MOREAU_ASSIGN_OR_RETURN(out.limits, ConvertLimits(joint, out.type));
  if (joint.dynamics != nullptr) {
    const urdf::JointDynamics& d = *joint.dynamics;
    MOREAU_RETURN_IF_ERROR(CheckFinite("joint", joint.name, "dynamics", {d.damping, d.friction}));
    if (d.damping < 0.0 || d.friction < 0.0) {
      return Invalid(
          "joint", joint.name,
          absl::StrFormat("negative damping or friction (%g, %g)", d.damping, d.friction));
    }
    out.damping = d.damping;
    out.friction = d.friction;
  }
  if (joint.mimic != nullptr) {
    warnings.push_back(absl::StrCat("joint '", joint.name, "': <mimic> is not supported, ignored"));
  }
  return out;
}

// Every link must hang from the root (urdfdom finds one root but does not
// look for detached kinematic loops below it).
absl::Status CheckConnected(const LinkTree& tree) {
  std::vector<bool> reached(tree.links.size(), false);
  std::vector<int> stack = {tree.root};
  while (!stack.empty()) {
    const int link = stack.back();
    stack.pop_back();
    if (reached[link]) continue;
    reached[link] = true;
    for (int j : tree.links[link].child_joints) {
      stack.push_back(tree.joints[j].child_link);
    }
  }
  std::vector<std::string> detached;
  for (size_t i = 0; i < tree.links.size(); ++i) {
    if (!reached[i]) detached.push_back(tree.links[i].name);
  }
  if (detached.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("links not connected to the root link '", tree.links[tree.root].name,
                   "' (a kinematic loop?): ", absl::StrJoin(detached, ", ")));
}

}  // namespace

absl::StatusOr<LinkTree> LinkTreeFromUrdfdom(const urdf::ModelInterface& urdf,
                                             const std::vector<std::string>& link_order,
                                             const std::vector<std::string>& joint_order) {
  LinkTree tree;
  tree.name = urdf.getName();
  std::map<std::string, int> link_index;
  for (const std::string& name : link_order) {
    const urdf::LinkConstSharedPtr link = urdf.getLink(name);
    if (link == nullptr || link_index.count(name) > 0) continue;
    MOREAU_ASSIGN_OR_RETURN(TreeLink converted, ConvertLink(*link, tree.warnings));
    link_index[name] = static_cast<int>(tree.links.size());
    tree.links.push_back(std::move(converted));
  }
  if (tree.links.size() != urdf.links_.size()) {
    return absl::InternalError("URDF links out of step with the document");
  }
  if (tree.links.empty()) {
    return absl::InvalidArgumentError("URDF has no links");
  }

  for (const std::string& name : joint_order) {
    const urdf::JointConstSharedPtr joint = urdf.getJoint(name);
    if (joint == nullptr) continue;
    MOREAU_ASSIGN_OR_RETURN(TreeJoint converted, ConvertJoint(*joint, link_index, tree.warnings));
    const int index = static_cast<int>(tree.joints.size());
    TreeLink& child = tree.links[converted.child_link];
    if (child.parent_joint >= 0) {
      return Invalid("link", child.name,
                     absl::StrCat("is the child of two joints, '",
                                  tree.joints[child.parent_joint].name, "' and '", name, "'"));
    }
    child.parent_joint = index;
    tree.links[converted.parent_link].child_joints.push_back(index);
    tree.joints.push_back(std::move(converted));
  }

  const urdf::LinkConstSharedPtr root = urdf.getRoot();
  if (root == nullptr || link_index.count(root->name) == 0) {
    return absl::InvalidArgumentError("URDF has no root link");
  }
  tree.root = link_index[root->name];
  MOREAU_RETURN_IF_ERROR(CheckConnected(tree));
  return tree;
}

}  // namespace moreau::model_internal
