// Model: the immutable description of one robot (MuJoCo's mjModel, Pinocchio's
// Model). Built once by LoadUrdf / LoadBuiltin, validated, then shared read-only
// (std::shared_ptr<const Model>) by every instance of that robot.
//
// Bodies are stored in depth-first topological order with parent array
// λ(i) < i (parent[i]); body 0 is the world. Fixed joints are merged into their
// parent body, so every body i ≥ 1 has exactly one joint to its parent:
//   kFree      (the floating base, body 1 only): nq = 7, nv = 6,
//   kRevolute / kPrismatic (any axis; continuous joints are revolute without
//              position limits): nq = nv = 1.
// Body frames are the URDF link frames of the body's first (non-merged) link.
//
// Coordinates (docs/architecture.md, MuJoCo's free-joint conventions):
//   q = [base position in world (3), base quaternion (w, x, y, z) base→world,
//        joint coordinates in body order]                        (floating base)
//   v = [base origin linear velocity in world (3), base angular velocity in
//        base frame (3), joint rates]
// For a fixed base q and v hold the joint coordinates only.
#ifndef MOREAU_ENGINE_MODEL_MODEL_H_
#define MOREAU_ENGINE_MODEL_MODEL_H_

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "engine/spatial/inertia.h"
#include "engine/spatial/motion.h"
#include "engine/spatial/transform.h"

namespace moreau {

using spatial::Inertia;
using spatial::Mat3;
using spatial::Transform;
using spatial::Vec3;

enum class JointType { kFree, kRevolute, kPrismatic };

// "free", "revolute", "prismatic" (and "continuous" for a revolute joint
// without position limits, see JointTypeName(const Joint&)).
const char* JointTypeName(JointType type);

struct JointLimits {
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  bool has_position_limits = false;
  double lower = -kInf;    // rad or m
  double upper = kInf;     // rad or m
  double velocity = kInf;  // rad/s or m/s
  double effort = kInf;    // N m or N
};

// The joint that moves body `body` relative to its parent.
struct Joint {
  std::string name;
  JointType type = JointType::kRevolute;
  bool continuous = false;  // URDF "continuous": revolute, no position limits
  int body = 0;
  int q_index = 0;  // first coordinate in q
  int v_index = 0;  // first coordinate in v
  int nq = 1;
  int nv = 1;
  Vec3 axis = Vec3::UnitZ();  // unit axis in the body frame (revolute, prismatic)
  JointLimits limits;
  double damping = 0.0;   // viscous, N m s/rad or N s/m
  double friction = 0.0;  // Coulomb, N m or N
};

// JointTypeName(joint.type), except "continuous" for a continuous revolute joint.
const char* JointTypeName(const Joint& joint);

enum class GeomType { kSphere, kBox, kCylinder, kMesh };
const char* GeomTypeName(GeomType type);

// What a collision shape and a visual one share: a primitive or a mesh of a
// URDF link, in the frame of the body the link was merged into.
struct Shape {
  std::string link;  // the URDF link it came from
  int body = 0;
  GeomType type = GeomType::kSphere;
  Mat3 rotation = Mat3::Identity();  // shape axes in the body frame
  Vec3 position = Vec3::Zero();      // shape origin in the body frame
  // sphere: (radius, 0, 0); box: full side lengths (x, y, z); cylinder:
  // (radius, length, 0) along the shape's z axis; mesh: the mesh scale.
  Vec3 size = Vec3::Zero();
  std::string mesh;  // mesh file name as the URDF writes it
};

// Collision geometry of a link (URDF <collision>).
struct Geom : Shape {
  // The URDF link's frame in the body frame (for a mesh's inertia-box
  // fallback, collision_geometry.h).
  Mat3 link_rotation = Mat3::Identity();
  Vec3 link_position = Vec3::Zero();
};

// A shape to draw a link by (URDF <visual>), placed as the link's collision
// geometry is. Visuals never collide and never change the dynamics.
struct VisualShape : Shape {
  std::string material;  // the <material> name, "" when none
  // Red, green, blue, alpha in [0, 1]: the material's colour, inline or by
  // name; unset when it has none (or names an undefined material).
  std::optional<std::array<double, 4>> rgba;
};

// How a contact slot's touching point (its witness point) is found each step
// (docs/collision.md).
enum class ContactWitness {
  kFixed,         // a point fixed on the body at `position`; a sphere of
                  // `radius` about it touches at position − radius·n (the
                  // gap subtracts the radius, the Jacobian is the centre's)
  kSphereBottom,  // the point of the sphere (centre `position`, `radius`)
                  // lowest along the terrain normal
  kRim,           // a point of the circle (centre `position`, unit `axis`,
                  // `radius`): the lowest one turned by `angle` about the axis
};
// "fixed", "sphere_bottom", "rim".
const char* ContactWitnessName(ContactWitness witness);

// A contact slot on a body: by default every sphere collision geom of a leaf
// link (the feet); LoadOptions::contact_links overrides the choice, and
// LoadOptions::collision = kAll adds every other collision geometry
// (collision_geometry.h). Foot slots come first.
struct ContactPoint {
  std::string name;  // the link the slot belongs to (suffixed for several)
  int body = 0;
  Vec3 position = Vec3::Zero();  // sphere / rim centre or fixed point, body frame
  double radius = 0.0;
  bool foot = true;  // a foot of the feet selection (legs, gaits); false for
                     // the slots collision_geometry.h adds
  ContactWitness witness = ContactWitness::kFixed;
  Vec3 axis = Vec3::UnitZ();  // kRim: the circle's unit axis, body frame
  double angle = 0.0;         // kRim: turn from the lowest point (rad)
  int geom = -1;              // index into Model::geoms, −1 when none
};

// One actuator per revolute or prismatic joint, in joint order.
// Transmission (002 §IV-C): a motor of rotor inertia I_rotor drives the joint
// through a reduction N (motor angle = N · joint angle). Actions and
// effort_limit stay joint side (τ_joint = N τ_motor); the transmission shows in
// the dynamics only as the reflected inertia N²·I_rotor on the joint's
// coordinate (Model::armature). URDF: <transmission> (urdf_prepare.h).
struct Actuator {
  std::string name;
  int joint = 0;               // index into Model::joints
  double gear = 1.0;           // transmission ratio N (> 0)
  double rotor_inertia = 0.0;  // I_rotor, motor side, kg m² (≥ 0)
  double effort_limit = JointLimits::kInf;
};

// --- Closed kinematic chains (000 eq. 19–20, 004 §3.1) ---
// A loop closure (cut joint): the tree is the spanning tree of the mechanism
// and each cut joint is a bilateral constraint between a frame on body_a and
// one on body_b (either may be 0, the world). kRevolute: the two points
// coincide and the two axes stay aligned (5 rows: 3 translations, 2 tilts).
enum class LoopClosureType { kRevolute };
struct LoopClosure {
  std::string name;
  LoopClosureType type = LoopClosureType::kRevolute;
  int body_a = 0;
  int body_b = 0;
  Vec3 point_a = Vec3::Zero();  // frame origin in body_a coordinates
  Vec3 point_b = Vec3::Zero();  // frame origin in body_b coordinates
  Vec3 axis_a = Vec3::UnitZ();  // unit joint axis in body_a coordinates
  Vec3 axis_b = Vec3::UnitZ();  // unit joint axis in body_b coordinates
};

struct Model {
  std::string name;
  bool floating_base = false;
  int nq = 0;
  int nv = 0;
  int nbodies = 0;  // including the world, body 0

  // Per body, index 0 = world. Sizes nbodies.
  std::vector<std::string> body_names;
  std::vector<int> parent;                       // λ(i) < i; parent[0] = -1
  std::vector<int> body_joint;                   // index into joints; -1 for the world
  std::vector<JointType> joint_type;             // type of the body's joint (world: kFree, unused)
  std::vector<Vec3> joint_axis;                  // unit axis in the body frame
  std::vector<int> q_index;                      // first q coordinate of the body's joint
  std::vector<int> v_index;                      // first v coordinate of the body's joint
  std::vector<Transform> X_tree;                 // i_X_λ(i) at q = 0: the joint placement
                                                 // (Featherstone's tree transform)
  std::vector<uint8_t> X_tree_pure_translation;  // 1 where X_tree.E is the
                                                 // identity (skips a 3×3 product)
  std::vector<Inertia> inertia;                  // body inertia in the body frame, fixed
                                                 // children merged; inertia[0] collects the
                                                 // links welded to the world
  std::vector<std::vector<std::string>> merged_links;  // links merged into each body
  std::vector<std::vector<Vec3>> merged_link_origins;  // their frames' origins in the
                                                       // body frame (as merged_links)

  std::vector<Joint> joints;  // in body order; joints[0] is the free joint when
                              // floating_base
  std::vector<Actuator> actuators;
  std::vector<Geom> geoms;
  // Every link's <visual> shapes (urdf_visuals.h), in the order of `geoms`:
  // links as the loader places them, each link's visuals in document order.
  // Empty for a URDF without visuals.
  std::vector<VisualShape> visual_shapes;
  std::vector<ContactPoint> contact_points;
  // Cut joints closing kinematic loops (ValidateLoopClosures, loop_closure.h).
  std::vector<LoopClosure> loop_closures;

  // --- Transmissions (002 §IV-C: Shepherd et al., "Fast multi-body
  // simulations of robots controlled with error feedback") ---
  // The reflected rotor inertia ("armature") of each v coordinate: N²·I_rotor
  // of its actuator, 0 for unactuated coordinates and the floating base. CRBA
  // adds it to M's diagonal, ABA to D_i = S_iᵀ U_i, RNEA adds armature · q̈ to
  // τ and KineticEnergy ½ armature · q̇². Size nv (UpdateArmature), or empty
  // for a hand-built Model: no armature.
  Eigen::VectorXd armature;

  Vec3 gravity = Vec3(0.0, 0.0, -9.81);
  Eigen::VectorXd q_default;  // size nq: zero joints, identity quaternion,
                              // base at `default_base_height`
  double default_base_height = 0.0;

  std::vector<std::string> warnings;  // non-fatal validation findings

  // Number of actuators (the size of an action vector).
  int nu() const { return static_cast<int>(actuators.size()); }
  // Sum of all link masses, including links welded to the world.
  double TotalMass() const;
  // Index of the body / joint / contact point with that name, or -1.
  int BodyIndex(const std::string& body_name) const;
  int JointIndex(const std::string& joint_name) const;
  // Names of v's coordinates' joints, in order (the free joint counted once).
  std::vector<std::string> JointNames() const;
};

// Sets model.armature (size nv) from the actuators' gear and rotor_inertia:
// armature[v] = N² · I_rotor (002 §IV-C), 0 elsewhere.
void UpdateArmature(Model& model);

// The armature of v coordinate `k` (0 when the model has none).
inline double ArmatureOf(const Model& model, int k) {
  return model.armature.size() == 0 ? 0.0 : model.armature[k];
}

}  // namespace moreau

#endif  // MOREAU_ENGINE_MODEL_MODEL_H_
