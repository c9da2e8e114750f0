#include "engine/model/build_model.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/model/collision_geometry.h"
#include "engine/util/status_macros.h"

namespace moreau::model_internal {
namespace {

constexpr char kWorld[] = "world";

struct BaseChoice {
  bool floating = false;
  // kFloating with a root link "world": the joint below it, replaced by the
  // free joint (-1 otherwise).
  int world_child_joint = -1;
};

absl::StatusOr<BaseChoice> ChooseBase(const LinkTree& tree, BaseMode mode) {
  const TreeLink& root = tree.links[tree.root];
  const bool root_is_world = root.name == kWorld;
  BaseChoice choice;
  switch (mode) {
    case BaseMode::kAuto:
      choice.floating = !root_is_world;
      break;
    case BaseMode::kFixed:
      choice.floating = false;
      break;
    case BaseMode::kFloating:
      choice.floating = true;
      break;
  }
  if (choice.floating && root_is_world) {
    if (root.child_joints.size() != 1) {
      return absl::InvalidArgumentError(
          absl::StrFormat("cannot float the base: the root link 'world' has "
                          "%d child joints (exactly one names the floating "
                          "base)",
                          root.child_joints.size()));
    }
    choice.world_child_joint = root.child_joints[0];
  }
  return choice;
}

void AddWorld(Model& m) {
  m.nbodies = 1;
  m.body_names = {kWorld};
  m.parent = {-1};
  m.body_joint = {-1};
  m.joint_type = {JointType::kFree};
  m.joint_axis = {Vec3::Zero()};
  m.q_index = {-1};
  m.v_index = {-1};
  m.X_tree = {Transform::Identity()};
  m.X_tree_pure_translation = {1};
  m.inertia = {Inertia::Zero()};
  m.merged_links = {{}};
  m.merged_link_origins = {{}};
}

// Appends body `name` moved by `joint` relative to body `parent`, placed at
// `placement` (its frame in the parent body's frame) at q = 0.
int AddBody(Model& m, const std::string& name, int parent, const Pose& placement, Joint joint) {
  const int body = m.nbodies++;
  joint.body = body;
  joint.q_index = m.nq;
  joint.v_index = m.nv;
  m.nq += joint.nq;
  m.nv += joint.nv;
  m.body_names.push_back(name);
  m.parent.push_back(parent);
  m.body_joint.push_back(static_cast<int>(m.joints.size()));
  m.joint_type.push_back(joint.type);
  m.joint_axis.push_back(joint.axis);
  m.q_index.push_back(joint.q_index);
  m.v_index.push_back(joint.v_index);
  m.X_tree.push_back(Transform::FromPose(placement.R, placement.p));
  m.X_tree_pure_translation.push_back(m.X_tree.back().E.isIdentity(0.0) ? 1 : 0);
  m.inertia.push_back(Inertia::Zero());
  m.merged_links.emplace_back();
  m.merged_link_origins.emplace_back();
  m.joints.push_back(std::move(joint));
  return body;
}

Joint FreeJoint() {
  Joint joint;
  joint.name = kFreeJointName;
  joint.type = JointType::kFree;
  joint.nq = 7;
  joint.nv = 6;
  joint.axis = Vec3::Zero();
  return joint;
}

Joint MovableJoint(const TreeJoint& j) {
  Joint joint;
  joint.name = j.name;
  joint.type = j.type == TreeJointType::kPrismatic ? JointType::kPrismatic : JointType::kRevolute;
  joint.continuous = j.type == TreeJointType::kContinuous;
  joint.axis = j.axis;
  joint.limits = j.limits;
  joint.damping = j.damping;
  joint.friction = j.friction;
  return joint;
}

// Merges `link`, whose frame has pose `pose` in the body frame, into `body`:
// its inertia moves to the body frame (I_body = Xᵀ I_link X with
// X = link_X_body, RBDA Table 2.8) and adds up; its geoms and visual shapes
// are re-expressed.
void AddLinkToBody(const TreeLink& link, int body, const Pose& pose, Model& m) {
  m.inertia[body] += link.inertia.ExpressedInParent(Transform::FromPose(pose.R, pose.p));
  const auto place = [&](Shape& shape) {
    shape.body = body;
    shape.position = pose.R * shape.position + pose.p;
    shape.rotation = pose.R * shape.rotation;
  };
  for (Geom geom : link.geoms) {
    place(geom);
    geom.link_rotation = pose.R;
    geom.link_position = pose.p;
    m.geoms.push_back(std::move(geom));
  }
  for (VisualShape shape : link.visuals) {
    place(shape);
    m.visual_shapes.push_back(std::move(shape));
  }
}

// A link waiting to be placed by the depth-first traversal.
struct Pending {
  int link = 0;
  int parent_body = 0;
  Pose parent_pose;   // the parent link's pose in parent_body
  int joint = -1;     // the joint from the parent link; -1 for the root
  bool free = false;  // becomes the floating base
};

// Places every link, depth first with children in document order, so bodies
// come out in topological order (parent[i] < i). Fills `visit_order` with the
// links in that order.
absl::Status PlaceLinks(const LinkTree& tree, const BaseChoice& base, Model& m,
                        std::vector<int>& visit_order) {
  std::vector<Pending> stack = {{.link = tree.root,
                                 .parent_body = 0,
                                 .parent_pose = Pose(),
                                 .joint = -1,
                                 .free = base.floating && base.world_child_joint < 0}};
  while (!stack.empty()) {
    const Pending p = stack.back();
    stack.pop_back();
    const TreeLink& link = tree.links[p.link];
    const TreeJoint* joint = p.joint >= 0 ? &tree.joints[p.joint] : nullptr;
    int body = p.parent_body;
    Pose pose = joint != nullptr ? Compose(p.parent_pose, joint->origin) : p.parent_pose;
    if (p.free) {
      if (joint != nullptr && joint->type != TreeJointType::kFixed) {
        m.warnings.push_back(absl::StrCat("joint '", joint->name, "' from 'world' to '", link.name,
                                          "' is replaced by the floating base's free joint"));
      }
      body = AddBody(m, link.name, 0, Pose(), FreeJoint());
      pose = Pose();
    } else if (joint != nullptr && joint->type != TreeJointType::kFixed) {
      if (m.floating_base && joint->name == kFreeJointName) {
        return absl::InvalidArgumentError(
            absl::StrCat("joint '", joint->name, "': the name is reserved for the free joint"));
      }
      body = AddBody(m, link.name, p.parent_body, pose, MovableJoint(*joint));
      pose = Pose();
    } else if (!(joint == nullptr && link.name == kWorld)) {
      m.merged_links[body].push_back(link.name);  // fixed joint: merge
      m.merged_link_origins[body].push_back(pose.p);
    }
    AddLinkToBody(link, body, pose, m);
    visit_order.push_back(p.link);
    for (auto j = link.child_joints.rbegin(); j != link.child_joints.rend(); ++j) {
      stack.push_back({.link = tree.joints[*j].child_link,
                       .parent_body = body,
                       .parent_pose = pose,
                       .joint = *j,
                       .free = *j == base.world_child_joint});
    }
  }
  return absl::OkStatus();
}

// A movable body whose subtree has neither mass nor rotational inertia gives M
// a zero row (every body's joint moves only that subtree).
absl::Status CheckMasses(const Model& m) {
  if (m.floating_base) {
    double mass = 0.0;
    for (int i = 1; i < m.nbodies; ++i) mass += m.inertia[i].mass;
    if (!(mass > 0.0)) {
      return absl::InvalidArgumentError(absl::StrCat("floating base '", m.body_names[1],
                                                     "': the robot has no mass (total 0 kg)"));
    }
  }
  std::vector<bool> has_inertia(m.nbodies);
  for (int i = 0; i < m.nbodies; ++i) {
    has_inertia[i] = m.inertia[i].mass > 0.0 || !m.inertia[i].Ibar.isZero(0.0);
  }
  for (int i = m.nbodies - 1; i >= 1; --i) {
    if (!has_inertia[i]) {
      return absl::InvalidArgumentError(
          absl::StrCat("link '", m.body_names[i],
                       "' and everything below it has no mass: the mass matrix would be "
                       "singular"));
    }
    has_inertia[m.parent[i]] = true;
  }
  return absl::OkStatus();
}

// Contact points: the sphere collision geoms of the leaf links (default) or
// of options.contact_links, named after their link (suffixed _0, _1, … when a
// link has several). Boxes count as their eight corners (radius 0, named
// <link>_corner0 … _corner7): always for options.contact_links, and by
// default for a single-body model without a contact sphere (a free box or
// cube; an arm's end-effector box is no foot).
absl::Status AddContactPoints(const LinkTree& tree, const std::vector<int>& visit_order,
                              const LoadOptions& options, Model& m) {
  // Each link's geoms, gathered once: the lookups below stay linear in the
  // number of links and geoms whatever the request names.
  std::map<std::string_view, std::vector<const Geom*>> geoms_by_link;
  for (const Geom& g : m.geoms) geoms_by_link[g.link].push_back(&g);
  auto geoms_of = [&geoms_by_link](const std::string& link, GeomType type) {
    std::vector<const Geom*> out;
    const auto it = geoms_by_link.find(link);
    if (it == geoms_by_link.end()) return out;
    for (const Geom* g : it->second) {
      if (g->type == type) out.push_back(g);
    }
    return out;
  };
  std::vector<std::string> links;
  bool use_boxes = !options.contact_links.empty();
  if (options.contact_links.empty()) {
    for (int l : visit_order) {
      if (tree.links[l].child_joints.empty()) {
        links.push_back(tree.links[l].name);
      }
    }
    // With whole-body collision (collision_geometry.h) the box collides
    // anyway, as body geometry rather than as feet.
    use_boxes = options.collision == CollisionMode::kFeet && m.nbodies == 2 &&
                std::none_of(links.begin(), links.end(), [&](const std::string& link) {
                  for (const Geom* g : geoms_of(link, GeomType::kSphere)) {
                    if (g->body != 0) return true;
                  }
                  return false;
                });
  } else {
    std::set<std::string_view> known;
    for (const TreeLink& l : tree.links) known.insert(l.name);
    std::set<std::string_view> chosen;
    for (const std::string& name : options.contact_links) {
      if (known.count(name) == 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("contact link '", name, "' is not a link of the model"));
      }
      if (geoms_of(name, GeomType::kSphere).empty() && geoms_of(name, GeomType::kBox).empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat("contact link '", name, "' has no sphere or box collision geometry"));
      }
      if (chosen.insert(name).second) links.push_back(name);
    }
  }
  for (const std::string& link : links) {
    const std::vector<const Geom*> spheres = geoms_of(link, GeomType::kSphere);
    for (size_t k = 0; k < spheres.size(); ++k) {
      // Default contacts on the world body could never move.
      if (options.contact_links.empty() && spheres[k]->body == 0) continue;
      ContactPoint c;
      c.name = spheres.size() > 1 ? absl::StrCat(link, "_", k) : link;
      c.body = spheres[k]->body;
      c.position = spheres[k]->position;
      c.radius = spheres[k]->size.x();
      c.geom = static_cast<int>(spheres[k] - m.geoms.data());
      m.contact_points.push_back(std::move(c));
    }
    if (!use_boxes) continue;
    const std::vector<const Geom*> boxes = geoms_of(link, GeomType::kBox);
    for (size_t k = 0; k < boxes.size(); ++k) {
      const Geom& box = *boxes[k];
      if (options.contact_links.empty() && box.body == 0) continue;
      for (int corner = 0; corner < 8; ++corner) {
        const Vec3 sign((corner & 1) ? 1.0 : -1.0, (corner & 2) ? 1.0 : -1.0,
                        (corner & 4) ? 1.0 : -1.0);
        ContactPoint c;
        c.name = boxes.size() > 1 ? absl::StrCat(link, "_", k, "_corner", corner)
                                  : absl::StrCat(link, "_corner", corner);
        c.body = box.body;
        c.position = box.position + box.rotation * (0.5 * box.size.cwiseProduct(sign));
        c.radius = 0.0;
        c.geom = static_cast<int>(&box - m.geoms.data());
        m.contact_points.push_back(std::move(c));
      }
    }
  }
  return absl::OkStatus();
}

void AddActuators(Model& m) {
  for (int j = 0; j < static_cast<int>(m.joints.size()); ++j) {
    const Joint& joint = m.joints[j];
    if (joint.type == JointType::kFree) continue;
    Actuator a;
    a.name = joint.name;
    a.joint = j;
    a.effort_limit = joint.limits.effort;
    m.actuators.push_back(std::move(a));
  }
}

// q_default: zero joints, identity quaternion, and a floating base raised so
// that the lowest contact slot touches the ground z = 0 at q = 0.
void SetDefaultConfiguration(Model& m) {
  m.q_default = Eigen::VectorXd::Zero(m.nq);
  if (!m.floating_base) return;
  m.q_default(3) = 1.0;
  if (m.contact_points.empty()) return;
  std::vector<Pose> world_pose(m.nbodies);  // at q = 0, base at the origin
  for (int i = 1; i < m.nbodies; ++i) {
    world_pose[i] =
        Compose(world_pose[m.parent[i]], {m.X_tree[i].Rotation(), m.X_tree[i].Translation()});
  }
  double height = -JointLimits::kInf;
  for (const ContactPoint& c : m.contact_points) {
    const Pose& b = world_pose[c.body];
    const double bottom = LowestPointHeight(c, b.R, b.p);
    height = std::max(height, -bottom);
  }
  m.default_base_height = height;
  m.q_default(2) = height;
}

}  // namespace

absl::StatusOr<Model> BuildModel(const LinkTree& tree, const LoadOptions& options) {
  if (tree.links.empty()) {
    return absl::InvalidArgumentError("the model has no links");
  }
  MOREAU_ASSIGN_OR_RETURN(const BaseChoice base, ChooseBase(tree, options.base));
  Model m;
  m.name = tree.name;
  m.floating_base = base.floating;
  m.warnings = tree.warnings;
  AddWorld(m);
  std::vector<int> visit_order;
  MOREAU_RETURN_IF_ERROR(PlaceLinks(tree, base, m, visit_order));
  MOREAU_RETURN_IF_ERROR(CheckMasses(m));
  MOREAU_RETURN_IF_ERROR(AddContactPoints(tree, visit_order, options, m));
  MOREAU_RETURN_IF_ERROR(AddCollisionSlots(tree, options, m));
  AddActuators(m);
  UpdateArmature(m);
  SetDefaultConfiguration(m);
  return m;
}

absl::Status ApplyTransmissions(const std::vector<TransmissionSpec>& transmissions, Model& model) {
  for (const TransmissionSpec& t : transmissions) {
    Actuator* actuator = nullptr;
    for (Actuator& a : model.actuators) {
      if (model.joints[a.joint].name == t.joint) actuator = &a;
    }
    if (actuator == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "URDF parse error: transmission '", t.name, "' (joint '", t.joint,
          "'): the joint is not actuated (fixed joints and the floating base have no actuator)"));
    }
    actuator->gear = t.reduction;
    actuator->rotor_inertia = t.rotor_inertia;
  }
  UpdateArmature(model);
  return absl::OkStatus();
}

}  // namespace moreau::model_internal
