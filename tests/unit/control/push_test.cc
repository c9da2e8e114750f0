// ApplyPush: a world-frame force (at the base origin, or at a point of any
// body) and torque land in the body's external wrench in body coordinates,
// only inside the push's time window.
#include "engine/control/push.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "engine/dynamics/jacobians.h"
#include "engine/dynamics/kinematics.h"
#include "engine/dynamics/rnea.h"
#include "tests/unit/control/control_test_util.h"

namespace moreau::control {
namespace {

TEST(Push, ActiveWindow) {
  const Push push{1.0, 0.5, Vec3(10, 0, 0)};
  EXPECT_FALSE(push.Active(0.99));
  EXPECT_TRUE(push.Active(1.0));
  EXPECT_TRUE(push.Active(1.49));
  EXPECT_FALSE(push.Active(1.5));
}

TEST(ApplyPush, WorldForceInBaseCoordinates) {
  auto model = testing::MiniCheetah();
  ASSERT_NE(model, nullptr);
  Data data = MakeData(*model);
  // Base yawed by 90° about z and pitched: world x is base −y after the yaw.
  Eigen::VectorXd q = model->q_default;
  const double yaw = std::numbers::pi / 2;
  const Eigen::Quaterniond rot(Eigen::AngleAxisd(yaw, Vec3::UnitZ()) *
                               Eigen::AngleAxisd(0.3, Vec3::UnitY()));
  q.segment<4>(3) << rot.w(), rot.x(), rot.y(), rot.z();
  ForwardKinematics(*model, data, q);
  const Push push{0.0, 1.0, Vec3(10.0, 0.0, -5.0)};
  std::vector<Force> f_ext(model->nbodies, Force(Vec3(1, 2, 3), Vec3(4, 5, 6)));
  ApplyPush(push, 0.5, *model, f_ext, data);
  const Vec3 expected = rot.toRotationMatrix().transpose() * push.force_world;
  EXPECT_LT((f_ext[1].linear - (Vec3(4, 5, 6) + expected)).norm(), 1e-12);  // added
  EXPECT_LT((f_ext[1].angular - Vec3(1, 2, 3)).norm(), 1e-15);  // at the origin: no moment
  for (int b = 2; b < model->nbodies; ++b) {
    EXPECT_EQ(f_ext[b].linear, Vec3(4, 5, 6));
  }
  // Back in the world frame it is the pushed force.
  EXPECT_LT((BodyRotation(data, 1) * expected - push.force_world).norm(), 1e-12);

  // Outside the window nothing changes.
  std::vector<Force> untouched(model->nbodies);
  ApplyPush(push, 1.0, *model, untouched, data);
  ApplyPush(push, -0.1, *model, untouched, data);
  for (const Force& f : untouched) EXPECT_TRUE(f.linear.isZero() && f.angular.isZero());
}

TEST(ApplyPush, GeneralizedForceIsTheWorldForceOnTheBase) {
  // Through RNEA's external-wrench term: the base's linear rows of −Σ Jᵀ f are
  // −f_world (v's base linear velocity is in the world frame).
  auto model = testing::UnitreeA1();
  ASSERT_NE(model, nullptr);
  Data data = MakeData(*model);
  Eigen::VectorXd q = model->q_default;
  const Eigen::Quaterniond rot(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
  q.segment<4>(3) << rot.w(), rot.x(), rot.y(), rot.z();
  ForwardKinematics(*model, data, q);
  const Push push{0.0, 1.0, Vec3(3.0, -20.0, 7.0)};
  std::vector<Force> f_ext(model->nbodies);
  ApplyPush(push, 0.0, *model, f_ext, data);
  Eigen::VectorXd generalized(model->nv);
  ExternalWrenchForce(*model, data, f_ext, generalized);
  EXPECT_LT((generalized.head<3>() + push.force_world).norm(), 1e-9) << generalized.transpose();
  EXPECT_LT(generalized.segment<3>(3).norm(), 1e-9);  // no moment about the base origin
  EXPECT_LT(generalized.tail(12).norm(), 1e-9);       // the joints feel nothing
}

TEST(ApplyPush, ForceAtAPointOfALegAndATorque) {
  // A force at a point of a shank: its generalized force is the point
  // Jacobian's Jᵀ f (as a contact force); a world torque on the base turns
  // only the base's angular rows.
  auto model = testing::UnitreeA1();
  ASSERT_NE(model, nullptr);
  Data data = MakeData(*model);
  Eigen::VectorXd q = model->q_default;
  for (int i = 7; i < model->nq; ++i) q[i] = 0.1 * (i - 10);
  const Eigen::Quaterniond rot(Eigen::AngleAxisd(0.4, Vec3(0, 1, 1).normalized()));
  q.segment<4>(3) << rot.w(), rot.x(), rot.y(), rot.z();
  ForwardKinematics(*model, data, q);
  Push push;
  push.duration_s = 1.0;
  push.body = model->nbodies - 1;
  push.point = Vec3(0.01, -0.02, -0.1);
  push.force_world = Vec3(4.0, -2.0, 9.0);
  std::vector<Force> f_ext(model->nbodies);
  ApplyPush(push, 0.0, *model, f_ext, data);
  Eigen::VectorXd generalized(model->nv);
  ExternalWrenchForce(*model, data, f_ext, generalized);
  Matrix3Xd J(3, model->nv);
  ComputeJointAxesWorld(*model, data);
  PointJacobian(*model, data, push.body, push.point, J);
  // ExternalWrenchForce is −Σ Jᵀ f (001 Alg. 4's sign).
  EXPECT_LT((generalized + J.transpose() * push.force_world).norm(), 1e-9);

  Push twist;
  twist.duration_s = 1.0;
  twist.torque_world = Vec3(0.0, 0.0, 3.0);
  std::vector<Force> on_base(model->nbodies);
  ApplyPush(twist, 0.0, *model, on_base, data);
  EXPECT_TRUE(on_base[1].linear.isZero());
  EXPECT_LT((BodyRotation(data, 1) * on_base[1].angular - twist.torque_world).norm(), 1e-12);
  // Out of range: nothing.
  Push nowhere = push;
  nowhere.body = model->nbodies;
  std::vector<Force> untouched(model->nbodies);
  ApplyPush(nowhere, 0.0, *model, untouched, data);
  nowhere.body = 0;
  ApplyPush(nowhere, 0.0, *model, untouched, data);
  for (const Force& f : untouched) EXPECT_TRUE(f.linear.isZero() && f.angular.isZero());
}

}  // namespace
}  // namespace moreau::control
