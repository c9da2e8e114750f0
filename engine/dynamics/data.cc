#include "engine/dynamics/data.h"

#include <algorithm>
#include <cmath>

#include "engine/dynamics/joint.h"

namespace moreau {

Data MakeData(const Model& model) {
  Data d;
  const int nb = model.nbodies;
  const int nv = model.nv;
  d.X_up.assign(nb, Transform::Identity());
  d.X_0.assign(nb, Transform::Identity());
  d.v.assign(nb, Motion::Zero());
  d.vJ.assign(nb, Motion::Zero());
  d.cJ.assign(nb, Motion::Zero());
  d.a.assign(nb, Motion::Zero());
  d.f.assign(nb, Force::Zero());
  d.tau = Eigen::VectorXd::Zero(nv);
  d.c = Eigen::VectorXd::Zero(nv);
  d.g = Eigen::VectorXd::Zero(nv);
  d.Ic.assign(nb, spatial::PackedInertia());
  d.M = Eigen::MatrixXd::Zero(nv, nv);
  d.dof_parent.assign(nv, -1);
  for (int i = 1; i < nb; ++i) {
    const int vi = model.v_index[i];
    const int ni = model.joint_type[i] == JointType::kFree ? 6 : 1;
    const int p = model.parent[i];
    int parent_dof = -1;
    if (p > 0) {
      const int np = model.joint_type[p] == JointType::kFree ? 6 : 1;
      parent_dof = model.v_index[p] + np - 1;
    }
    // A multi-DOF joint is a chain of DOFs (its block of M is dense).
    for (int k = 0; k < ni; ++k) d.dof_parent[vi + k] = k == 0 ? parent_dof : vi + k - 1;
  }
  d.L_row_adr.assign(nv, 0);
  d.L_row_len.assign(nv, 0);
  for (int k = 0; k < nv; ++k) {
    d.L_row_adr[k] = static_cast<int>(d.L_cols.size());
    for (int j = d.dof_parent[k]; j >= 0; j = d.dof_parent[j]) d.L_cols.push_back(j);
    d.L_row_len[k] = static_cast<int>(d.L_cols.size()) - d.L_row_adr[k];
  }
  d.L_values.assign(d.L_cols.size(), 0.0);
  d.L_diag = Eigen::VectorXd::Zero(nv);
  d.c_bias.assign(nb, Motion::Zero());
  d.joint_axis_index.assign(nb, -1);
  for (int i = 1; i < nb; ++i) {
    if (model.joint_type[i] != JointType::kRevolute) continue;
    const Vec3& a = model.joint_axis[i];
    for (int k = 0; k < 3; ++k) {
      if (std::abs(a[k]) == 1.0 && a[(k + 1) % 3] == 0.0 && a[(k + 2) % 3] == 0.0) {
        d.joint_axis_index[i] = k;
      }
    }
  }
  d.rotation_axis.assign(nb, -1);
  for (int i = 1; i < nb; ++i)
    d.rotation_axis[i] = joint::RotationAxis(model, d.joint_axis_index, i);
  std::vector<int> depth(nb, 0);
  for (int i = 1; i < nb; ++i) depth[i] = model.parent[i] > 0 ? depth[model.parent[i]] + 1 : 0;
  d.level_order.clear();
  for (int i = 1; i < nb; ++i) d.level_order.push_back(i);
  std::stable_sort(d.level_order.begin(), d.level_order.end(),
                   [&depth](int a, int b) { return depth[a] < depth[b]; });
  d.is_leaf.assign(nb, 1);
  for (int i = 1; i < nb; ++i) d.is_leaf[model.parent[i]] = 0;
  d.I_packed.assign(nb, spatial::PackedInertia());
  for (int i = 0; i < nb; ++i) d.I_packed[i].Set(model.inertia[i]);
  d.IA.assign(nb, spatial::ArticulatedInertia());
  d.I_rigid.assign(nb, spatial::ArticulatedInertia());
  for (int i = 0; i < nb; ++i) d.I_rigid[i].SetRigid(model.inertia[i]);
  d.pA.assign(nb, Force::Zero());
  d.U.assign(nb, Vec6::Zero());
  d.Dinv.assign(nb, 0.0);
  d.u.assign(nb, 0.0);
  d.qacc = Eigen::VectorXd::Zero(nv);
  d.S_world = Matrix6Xd::Zero(6, nv);
  const size_t nc = model.contact_points.size();
  d.contact_J.assign(nc, Matrix3Xd::Zero(3, nv));
  d.contact_position.assign(nc, Vec3::Zero());
  d.contact_Jdot_v.assign(nc, Vec3::Zero());
  d.contact_point_body.assign(nc, Vec3::Zero());
  d.has_witness_slots = false;
  for (size_t k = 0; k < nc; ++k) {
    const ContactPoint& cp = model.contact_points[k];
    d.contact_point_body[k] = cp.position;
    d.has_witness_slots = d.has_witness_slots || cp.witness != ContactWitness::kFixed;
  }
  return d;
}

}  // namespace moreau
