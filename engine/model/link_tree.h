// The URDF link/joint tree as Moreau reads it: validated numbers in Eigen
// types, independent of urdfdom. BuildModel (build_model.h) turns it into a
// Model.
#ifndef MOREAU_ENGINE_MODEL_LINK_TREE_H_
#define MOREAU_ENGINE_MODEL_LINK_TREE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/model/model.h"

namespace urdf {
class ModelInterface;
}  // namespace urdf

namespace moreau::model_internal {

// The pose of frame B in frame A: x_A = R x_B + p.
struct Pose {
  Mat3 R = Mat3::Identity();
  Vec3 p = Vec3::Zero();
};
// a_pose_c = a_pose_b ∘ b_pose_c.
inline Pose Compose(const Pose& a_b, const Pose& b_c) {
  return {a_b.R * b_c.R, a_b.p + a_b.R * b_c.p};
}

enum class TreeJointType { kFixed, kRevolute, kContinuous, kPrismatic };

struct TreeLink {
  std::string name;
  Inertia inertia;                   // about the link frame's origin, in link axes
  std::vector<Geom> geoms;           // collision geometry in the link frame
  std::vector<VisualShape> visuals;  // visual shapes in the link frame
  int parent_joint = -1;             // index into LinkTree::joints; -1 for the root
  std::vector<int> child_joints;     // in document order
};

struct TreeJoint {
  std::string name;
  TreeJointType type = TreeJointType::kFixed;
  int parent_link = 0;
  int child_link = 0;
  Pose origin;                // child link frame in the parent link frame
  Vec3 axis = Vec3::UnitX();  // unit, in the child link frame (not fixed)
  JointLimits limits;         // position limits only where they apply
  double damping = 0.0;
  double friction = 0.0;
};

struct LinkTree {
  std::string name;
  std::vector<TreeLink> links;    // in document order
  std::vector<TreeJoint> joints;  // in document order
  int root = 0;                   // index into links
  std::vector<std::string> warnings;
};

// Converts urdfdom's model, validating every number: non-finite values,
// negative masses, negative principal moments of inertia, zero joint axes,
// inverted limits and unsupported joint types (floating, planar) are
// InvalidArgument errors naming the link or joint; singular or
// triangle-inequality-violating inertias are warnings. Also checks that every
// link hangs from the root. `link_order` and `joint_order` (document order,
// from PrepareUrdf) fix the order of links, joints and children.
absl::StatusOr<LinkTree> LinkTreeFromUrdfdom(const urdf::ModelInterface& urdf,
                                             const std::vector<std::string>& link_order,
                                             const std::vector<std::string>& joint_order);

}  // namespace moreau::model_internal

#endif  // MOREAU_ENGINE_MODEL_LINK_TREE_H_
