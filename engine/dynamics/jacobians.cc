#include "engine/dynamics/jacobians.h"

#include <algorithm>

#include "engine/dynamics/joint.h"
#include "engine/dynamics/kinematics.h"

namespace moreau {

void ComputeJointAxesWorld(const Model& model, Data& data) {
  for (int i = 1; i < model.nbodies; ++i) {
    const int vi = model.v_index[i];
    const Transform& X = data.X_0[i];
    if (model.joint_type[i] == JointType::kFree) {
      // X⁻¹ of the base's S columns (joint::FreeMotionSubspace): [0; Rᵀ e_k]
      // → (0, Eᵀ Rᵀ e_k) and [e_k; 0] → (Eᵀ e_k, r × Eᵀ e_k).
      const Mat3 lin = X.E.transpose() * data.R_base.transpose();
      for (int k = 0; k < 3; ++k) {
        auto col = data.S_world.col(vi + k);
        col.head<3>().setZero();
        col.tail<3>() = lin.col(k);
        const Vec3 w = X.E.row(k).transpose();
        auto col_w = data.S_world.col(vi + 3 + k);
        col_w.head<3>() = w;
        col_w.tail<3>() = X.r.cross(w);
      }
      continue;
    }
    // The body axis a in world coordinates, R a = Eᵀ a, through the body
    // origin p: revolute (R a, p × R a), prismatic (0, R a).
    const int axis = data.joint_axis_index[i];
    // About ±e_a: R a = ±(row a of E).
    const Vec3 axis_world = axis >= 0 ? Vec3(model.joint_axis[i][axis] * X.E.row(axis).transpose())
                                      : Vec3(X.E.transpose() * model.joint_axis[i]);
    auto col = data.S_world.col(vi);
    if (model.joint_type[i] == JointType::kRevolute) {
      col.head<3>() = axis_world;
      col.tail<3>() = X.r.cross(axis_world);
    } else {
      col.head<3>().setZero();
      col.tail<3>() = axis_world;
    }
  }
}

void PointJacobian(const Model& model, const Data& data, int body, const Vec3& point_body,
                   Eigen::Ref<Matrix3Xd> J) {
  if (J.outerStride() == 3) {
    std::fill_n(J.data(), 3 * J.cols(), 0.0);  // contiguous: one vectorized fill
  } else {
    J.setZero();
  }
  const Vec3 p = data.X_0[body].InverseTransformPoint(point_body);
  // 001 Alg. 6: only the joints on the support path from `body` to the root
  // move the point; column = v_O + ω × p for each world-frame axis (ω, v_O).
  for (int j = body; j > 0; j = model.parent[j]) {
    const int vj = model.v_index[j];
    const int nvj = model.joint_type[j] == JointType::kFree ? 6 : 1;
    for (int k = vj; k < vj + nvj; ++k) {
      const auto s = data.S_world.col(k);
      J.col(k) = s.tail<3>() + s.head<3>().cross(p);
    }
  }
}

void ContactJacobians(const Model& model, Data& data, const Eigen::VectorXd& q) {
  ForwardKinematics(model, data, q);
  ContactJacobians(model, data);
}

void ContactJacobians(const Model& model, Data& data) {
  ComputeJointAxesWorld(model, data);
  for (size_t k = 0; k < model.contact_points.size(); ++k) {
    const ContactPoint& cp = model.contact_points[k];
    const Vec3& point = data.contact_point_body[k];
    data.contact_position[k] = data.X_0[cp.body].InverseTransformPoint(point);
    PointJacobian(model, data, cp.body, point, data.contact_J[k]);
  }
}

void ContactPositions(const Model& model, Data& data, std::span<const uint8_t> near) {
  for (size_t k = 0; k < model.contact_points.size(); ++k) {
    const ContactPoint& cp = model.contact_points[k];
    if (!near.empty() && near[cp.body] == 0) continue;
    data.contact_position[k] = data.X_0[cp.body].InverseTransformPoint(cp.position);
  }
}

void ContactJdotV(const Model& model, Data& data, const Eigen::VectorXd& q,
                  const Eigen::VectorXd& v) {
  ForwardKinematics(model, data, q, v);
  // Bias accelerations with q̈ = 0, no gravity: a_i = ^iX_λ a_λ + c_J + v_i × v_J.
  for (int i = 1; i < model.nbodies; ++i) {
    const int p = model.parent[i];
    Motion a = data.v[i].Cross(data.vJ[i]);
    if (model.joint_type[i] == JointType::kFree) a += data.cJ[i];
    if (p > 0) a += data.X_up[i].Apply(data.a[p]);
    data.a[i] = a;
  }
  ContactPointsJdotV(model, data);
}

void ContactPointsJdotV(const Model& model, Data& data) {
  for (size_t k = 0; k < model.contact_points.size(); ++k) {
    const ContactPoint& cp = model.contact_points[k];
    const int b = cp.body;
    const Motion& a = data.a[b];
    const Motion& vel = data.v[b];
    const Vec3& r = data.contact_point_body[k];
    // Classical acceleration of a body-fixed point from the spatial one:
    // p̈ = a_O + α × r + ω × (v_O + ω × r), in body coordinates, then to world.
    const Vec3 acc =
        a.linear + a.angular.cross(r) + vel.angular.cross(vel.linear + vel.angular.cross(r));
    data.contact_Jdot_v[k] = data.X_0[b].E.transpose() * acc;
    data.contact_position[k] = data.X_0[b].InverseTransformPoint(r);
  }
}

}  // namespace moreau
