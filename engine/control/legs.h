// Legs of a legged robot found from the Model, and the leg inverse kinematics
// the gait generator uses (001 §6.2: "inverse kinematics was used to compute
// the hip and knee joint angles" of planar foot trajectories).
//
// A leg is the chain of three revolute joints from the base to a foot (a
// Model::contact_points entry), as on the Mini Cheetah (001 §2) and the
// Unitree A1:
//   abduction  (hip ab/adduction) about ±x of the base,
//   hip        (hip flexion)      about ±y of the base at zero abduction,
//   knee                          about ±y of the base at zero abduction.
// Axis signs differ between robots (Mini Cheetah: +x, −y, −y; A1: +x, +y, +y):
// the layout records them and the IK works with "effective" angles about +x /
// +y, φ = sign · θ, then converts back to joint coordinates θ.
//
// Frames. The geometry is taken at q = 0 with the base at the origin. The
// *hip frame* of a leg has the base's axes and its origin at the abduction
// joint origin A. At q = 0 let H be the hip joint origin, K the knee joint
// origin and F the foot (contact sphere centre). Rotations about y keep y, so
// with every joint moving the foot stays in the plane y' = d = (F − A)·y of the
// abducted frame; d is the signed lateral "hip offset" (< 0 on right legs).
// The foot in the hip frame is
//   p = R_x(φ_a) [ (X, d, Z) ],  (X, Z) = (H − A)_xz + R(φ_h) (l₁ + R(φ_k) l₂),
// with the thigh l₁ = (K − H)_xz, the shank l₂ = (F − K)_xz and R(φ) the
// rotation about +y acting on (x, z) vectors.
#ifndef MOREAU_ENGINE_CONTROL_LEGS_H_
#define MOREAU_ENGINE_CONTROL_LEGS_H_

#include <Eigen/Core>
#include <array>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/model/model.h"

namespace moreau::control {

struct Leg {
  int foot = -1;          // index into Model::contact_points
  std::string foot_name;  // the contact point's name (its link)
  // Joint order in every array: 0 abduction, 1 hip, 2 knee.
  std::array<int, 3> joint{};     // index into Model::joints
  std::array<int, 3> actuator{};  // index into Model::actuators
  std::array<int, 3> q_index{};   // coordinate in q
  std::array<int, 3> v_index{};   // coordinate in v
  // +1 when the joint axis is +x (abduction) / +y (hip, knee) of the base at
  // q = 0, −1 when it is the opposite direction: φ = axis_sign · θ.
  std::array<double, 3> axis_sign{};
  // Joint position limits (θ, joint coordinates; ±∞ without limits).
  std::array<double, 3> lower{};
  std::array<double, 3> upper{};

  // Geometry at q = 0, base frame (m).
  Vec3 hip_position = Vec3::Zero();                 // A: abduction joint origin = hip frame origin
  Vec3 hip_pitch = Vec3::Zero();                    // H − A: hip joint origin in the hip frame
  Eigen::Vector2d thigh = Eigen::Vector2d::Zero();  // l₁ = (K − H)_xz, (x, z)
  Eigen::Vector2d shank = Eigen::Vector2d::Zero();  // l₂ = (F − K)_xz, (x, z)
  double thigh_length = 0.0;                        // |l₁|
  double shank_length = 0.0;                        // |l₂|
  // ang(l₁), ang(l₂): the links' angles about +y, atan2(x, z) (LegIk's
  // constants, computed once).
  double thigh_angle = 0.0;
  double shank_angle = 0.0;
  double hip_offset = 0.0;        // d = (F − A)·y, signed lateral offset of the leg plane
  double foot_radius = 0.0;       // contact sphere radius
  Vec3 foot_zero = Vec3::Zero();  // F − A: the foot in the hip frame at q = 0
  // Knee branch: the sign of the shank's angle relative to the thigh about +y.
  // −1: the knee points backward (foot ahead of the knee, as on the Mini
  // Cheetah and A1 in their usual stance); chosen from the knee's position
  // limits when it has them, else −1.
  double knee_bend = -1.0;
  // Sign of Z (the foot's height below the abduction axis in the abducted
  // frame) at q = 0: −1 for legs that hang down. The IK keeps this branch.
  double foot_below = -1.0;

  bool front = false;  // hip ahead of the base origin (x > 0)
  bool left = false;   // hip on the left (y > 0)
};

struct LegLayout {
  int base_body = 0;      // the body the legs hang from (1 when floating, else 0)
  std::vector<Leg> legs;  // one per contact point, in Model::contact_points order
};

// Finds a 3-joint leg (abduction, hip, knee; see above) for every contact
// point. InvalidArgument naming the foot when the structure does not fit: no
// contact points, a chain that is not three revolute joints from the base,
// axes that are not ±x, ±y, ±y (within 1e-3 rad) in the base frame at q = 0,
// degenerate link lengths or an unactuated leg joint.
absl::StatusOr<LegLayout> FindLegs(const Model& model);

// OK when `layout` has four legs, one at each corner of the base (front/hind
// × left/right), as a trot needs; else InvalidArgument "model '…' needs four
// legs, …" with the count at each corner (callers prefix their name).
absl::Status CheckTrotLayout(const Model& model, const LegLayout& layout);

// What LegIk had to do.
enum class IkResult {
  kOk = 0,
  kTooFar,        // beyond the reach |l₁| + |l₂|: the leg is stretched toward the target
  kTooClose,      // inside the inner radius ||l₁| − |l₂||: the knee is folded
  kInsideOffset,  // closer to the abduction axis than the hip offset |d|
  kJointLimit,    // solved, but a joint was clamped to its position limits
};
const char* IkResultName(IkResult result);

// Leg inverse kinematics: the joint coordinates θ (abduction, hip, knee) that
// put the foot at `foot` (hip frame, m). Abduction first (the (y, z)
// components fix φ_a given the offset d), then the planar 2-link solution
// for the hip and the knee on the leg's knee_bend branch (law of cosines).
// An unreachable target is clamped to the workspace boundary; angles beyond
// the joint limits are clamped to them, knee first, the hip then aiming the
// leg at the target. The result says what happened (the first reason when
// several apply). Allocation-free.
IkResult LegIk(const Leg& leg, const Vec3& foot, Vec3& angles);

// LegIk at `foot` (the returned result and `angles`) and at a nearby target
// `foot_near` (`angles_near`, e.g. for a finite difference): the second
// solution's angles are the first's plus small differences (one division and
// a short series instead of two atan2 and an acos), equal to a second LegIk
// up to rounding. Allocation-free.
IkResult LegIkPair(const Leg& leg, const Vec3& foot, const Vec3& foot_near, Vec3& angles,
                   Vec3& angles_near);

// LegIk with a Status: OutOfRange naming the foot, the target and the reason
// when the target had to be clamped; `angles` holds the clamped solution in
// every case.
absl::Status LegInverseKinematics(const Leg& leg, const Vec3& foot, Vec3& angles);

// Leg forward kinematics: the foot (hip frame) for joint coordinates θ.
// Allocation-free. Agrees with the engine's ForwardKinematics.
Vec3 LegForwardKinematics(const Leg& leg, const Vec3& angles);

// The leg Jacobian ∂p/∂θ (hip frame, 3×3; column j for joint j of the leg) of
// LegForwardKinematics at θ, in closed form. Allocation-free.
Mat3 LegJacobian(const Leg& leg, const Vec3& angles);

}  // namespace moreau::control

#endif  // MOREAU_ENGINE_CONTROL_LEGS_H_
