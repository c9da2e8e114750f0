// Data: the per-instance workspace of the dynamics algorithms (MuJoCo's mjData,
// Pinocchio's Data). Sized once from a Model by MakeData; no algorithm in this
// folder allocates afterwards. Each field notes its shape, frame and the
// function that writes it.
#ifndef MOREAU_ENGINE_DYNAMICS_DATA_H_
#define MOREAU_ENGINE_DYNAMICS_DATA_H_

#include <Eigen/Core>
#include <vector>

#include "engine/model/model.h"
#include "engine/spatial/articulated_inertia.h"
#include "engine/spatial/inertia.h"
#include "engine/spatial/motion.h"
#include "engine/spatial/transform.h"

namespace moreau {

using spatial::Force;
using spatial::Mat6;
using spatial::Motion;
using spatial::Vec6;

using Matrix3Xd = Eigen::Matrix<double, 3, Eigen::Dynamic>;
using Matrix6Xd = Eigen::Matrix<double, 6, Eigen::Dynamic>;

struct Data {
  // --- position (ForwardKinematics) — per body, index 0 = world ---
  std::vector<Transform> X_up;     // i_X_λ(i) = X_J(q_i) X_tree_i
  std::vector<Transform> X_0;      // i_X_0: world to body i coordinates
  Mat3 R_base = Mat3::Identity();  // base→world rotation of the floating base

  // --- velocity (ForwardKinematics with v) ---
  std::vector<Motion> v;   // body twists in body coordinates
  std::vector<Motion> vJ;  // joint velocity S q̇ in body coordinates
  std::vector<Motion> cJ;  // Ṡ q̇ (floating base only; zero for 1-DOF joints)

  // --- RNEA (001 Alg. 2–4) ---
  std::vector<Motion> a;  // body accelerations (gravity offset: a_0 = −g)
  std::vector<Force> f;   // body forces
  Eigen::VectorXd tau;    // nv, RNEA output
  Eigen::VectorXd c;      // nv, quadratic-velocity terms c(q, v)
  Eigen::VectorXd g;      // nv, gravity terms g(q)

  // --- CRBA (001 Alg. 5) ---
  std::vector<spatial::PackedInertia> Ic;        // composite inertias in body coordinates
  std::vector<spatial::PackedInertia> I_packed;  // the body inertias I_i packed (MakeData)
  Eigen::MatrixXd M;                             // nv × nv joint-space inertia, full (symmetric)

  // --- FactorMassMatrix (RBDA §6.5: M = LᵀDL along the DOF tree, no fill-in;
  // rows stored sparsely as in MuJoCo's qLD so every update is contiguous) ---
  std::vector<int> dof_parent;   // nv: parent DOF of each DOF (−1 at a root)
  std::vector<int> L_row_adr;    // nv: start of row k in L_cols / L_values
  std::vector<int> L_row_len;    // nv: number of ancestors of DOF k
  std::vector<int> L_cols;       // ancestors of each DOF, nearest first
  std::vector<double> L_values;  // L_kj for j in L_cols (unit lower triangle)
  Eigen::VectorXd L_diag;        // nv: D

  // --- ABA (RBDA Table 7.1 in body coordinates; also writes X_up, v, vJ, a) ---
  std::vector<int> joint_axis_index;  // per body: k for a revolute joint about ±e_k, else −1
                                      // (MakeData)
  std::vector<int> rotation_axis;     // per body: joint::RotationAxis (K when X_up is a
                                      // rotation about e_K after a translation, else −1;
                                      // MakeData): the switch of every axis fast path
  std::vector<int> is_leaf;           // per body: 1 when no body has it as parent (MakeData)
  // Bodies 1..nb−1 by depth in the tree (the root's children first), ties by
  // index (MakeData): a parent comes before its children, as in index order,
  // but a body's parent is reached a whole level earlier, so the recursions
  // that run over it (forward) or backwards over it (backward, children in
  // descending index order as before: the same sums in the same order) do not
  // read a body's data just after writing it.
  std::vector<int> level_order;
  std::vector<Motion> c_bias;  // c_i = c_J + v_i × v_J, velocity-product acceleration
  std::vector<Force> pA;       // articulated bias forces p^A_i (body i coordinates)
  std::vector<Vec6> U;         // I^A S (1-DOF joints)
  std::vector<double> Dinv;    // D⁻¹, D = Sᵀ U + armature
  std::vector<double> u;       // τ − Sᵀ p^A
  Eigen::VectorXd qacc;        // nv, ABA output
  // Articulated inertias I^A_i (body i coordinates) in symmetric block form,
  // and the body inertias I_i in that form (MakeData; pass 1 starts from them).
  // A leaf whose joint has a rotation axis (rotation_axis, is_leaf) keeps
  // I^A_i = I_i, read from I_packed: its IA entry is not written.
  std::vector<spatial::ArticulatedInertia> IA;
  std::vector<spatial::ArticulatedInertia> I_rigid;

  // --- Jacobians (001 Alg. 6) ---
  Matrix6Xd S_world;                   // 6 × nv: joint motion axes in world coordinates
                                       // (about the world origin), ComputeJointAxesWorld
  std::vector<Matrix3Xd> contact_J;    // per contact point, 3 × nv: world-frame
                                       // linear velocity of the point = J v
  std::vector<Vec3> contact_position;  // world positions of contact points
  std::vector<Vec3> contact_Jdot_v;    // J̇ v of each contact point (world)
  // Per contact slot, the point the Jacobians, J̇ v and the contact forces
  // act at, in its body's frame: ContactPoint::position for a kFixed slot
  // (MakeData); for a sphere-bottom or rim slot the witness point of the last
  // contact detection (contact_witness.h).
  std::vector<Vec3> contact_point_body;
  bool has_witness_slots = false;  // some slot is not kFixed (MakeData)
};

// Allocates a Data for `model`. Every algorithm below then runs allocation-free.
Data MakeData(const Model& model);

}  // namespace moreau

#endif  // MOREAU_ENGINE_DYNAMICS_DATA_H_
