#include "engine/dynamics/loop_closure.h"

#include <cmath>

#include "engine/dynamics/kinematics.h"

namespace moreau {
namespace {

struct Frame {
  Vec3 x;     // origin, world
  Vec3 axis;  // unit axis, world
};

Frame WorldFrame(const Data& data, int body, const Vec3& point, const Vec3& axis) {
  if (body <= 0) return Frame{point, axis};
  return Frame{data.X_0[body].InverseTransformPoint(point), BodyRotation(data, body) * axis};
}

// An orthonormal pair perpendicular to the unit vector a: t1 = a × e / ‖·‖
// with e the world axis least aligned with a, t2 = a × t1.
void Tangents(const Vec3& a, Vec3& t1, Vec3& t2) {
  int k = 0;
  for (int i = 1; i < 3; ++i) {
    if (std::abs(a[i]) < std::abs(a[k])) k = i;
  }
  t1 = a.cross(Vec3::Unit(k)).normalized();
  t2 = a.cross(t1);
}

void Error(const Frame& A, const Frame& B, const Vec3& t1, const Vec3& t2,
           Eigen::Ref<Eigen::VectorXd> phi) {
  const Vec3 tilt = A.axis.cross(B.axis);
  phi.head<3>() = A.x - B.x;
  phi[3] = t1.dot(tilt);
  phi[4] = t2.dot(tilt);
}

}  // namespace

void LoopClosureError(const Model& model, const Data& data, const LoopClosure& loop,
                      Eigen::Ref<Eigen::VectorXd> phi) {
  (void)model;
  const Frame A = WorldFrame(data, loop.body_a, loop.point_a, loop.axis_a);
  const Frame B = WorldFrame(data, loop.body_b, loop.point_b, loop.axis_b);
  Vec3 t1, t2;
  Tangents(A.axis, t1, t2);
  Error(A, B, t1, t2, phi);
}

void LoopClosureRows(const Model& model, const Data& data, const LoopClosure& loop,
                     Eigen::Ref<Eigen::MatrixXd> J, Eigen::Ref<Eigen::VectorXd> phi) {
  const Frame A = WorldFrame(data, loop.body_a, loop.point_a, loop.axis_a);
  const Frame B = WorldFrame(data, loop.body_b, loop.point_b, loop.axis_b);
  Vec3 t1, t2;
  Tangents(A.axis, t1, t2);
  Error(A, B, t1, t2, phi);
  J.setZero();
  // 001 Alg. 6 along each support path: a world axis (ω, v_O) moves the
  // point x at v_O + ω × x. Body A enters with +, body B with −.
  const auto add_path = [&](int body, const Vec3& x, double sign) {
    for (int i = body; i > 0; i = model.parent[i]) {
      const int nvi = model.joint_type[i] == JointType::kFree ? 6 : 1;
      for (int k = model.v_index[i]; k < model.v_index[i] + nvi; ++k) {
        const auto s = data.S_world.col(k);
        const Vec3 w = s.head<3>();
        J.block<3, 1>(0, k) += sign * (s.tail<3>() + w.cross(x));
        J(3, k) -= sign * t1.dot(w);
        J(4, k) -= sign * t2.dot(w);
      }
    }
  };
  add_path(loop.body_a, A.x, 1.0);
  add_path(loop.body_b, B.x, -1.0);
}

}  // namespace moreau
