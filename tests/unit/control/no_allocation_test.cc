// No heap allocation in the per-step control functions (STYLE.md house rule
// 5): Compute of every controller, JointPd, LegIk and ApplyPush run under
// counters of operator new and malloc (tests/unit/testing).
#include <gtest/gtest.h>

#include <memory>
#include <string_view>

#include "engine/control/controller.h"
#include "engine/control/legs.h"
#include "engine/control/pd.h"
#include "engine/control/push.h"
#include "engine/control/velocity_trot.h"
#include "engine/dynamics/kinematics.h"
#include "tests/unit/control/control_test_util.h"
#include "tests/unit/testing/allocation_counter.h"

namespace moreau::control {
namespace {

TEST(NoAllocation, ControllerCompute) {
  for (const auto& [label, model] : testing::Quadrupeds()) {
    ASSERT_NE(model, nullptr);
    for (std::string_view name : {"zero", "stand", "trot", "hold"}) {
      SCOPED_TRACE(label + " " + std::string(name));
      auto controller = MakeController(name, *model, {});
      ASSERT_TRUE(controller.ok()) << controller.status();
      Eigen::VectorXd q = model->q_default;
      const Eigen::VectorXd v = Eigen::VectorXd::Constant(model->nv, 0.2);
      Eigen::VectorXd tau(model->nv);
      ControllerState state;
      const long before = ::moreau::testing::HeapAllocationCount();
      for (int k = 0; k < 3000; ++k) {  // delay, ramp, then 2 full gait cycles
        (*controller)->Compute(*model, k * 1e-3, 1e-3, q, v, state, tau);
      }
      volatile double sink = (*controller)->LastTargets().sum() + tau.sum();
      (void)sink;
      EXPECT_EQ(::moreau::testing::HeapAllocationCount() - before, 0);
    }
  }
}

TEST(NoAllocation, VelocityTrotCompute) {
  for (const auto& [label, model] : testing::Quadrupeds()) {
    ASSERT_NE(model, nullptr);
    SCOPED_TRACE(label);
    auto trot = VelocityTrot::Create(*model);
    ASSERT_TRUE(trot.ok()) << trot.status();
    Eigen::VectorXd q = model->q_default;
    q[2] = (*trot)->stand_height();
    const Eigen::VectorXd v = Eigen::VectorXd::Constant(model->nv, 0.2);
    Eigen::VectorXd targets(model->nu());
    // The last step's contact impulses, 3 per point: a closed contact's
    // normal one > 0.
    std::vector<double> impulses(3 * model->contact_points.size(), 0.0);
    ControllerState state;
    const long before = ::moreau::testing::HeapAllocationCount();
    for (int k = 0; k < 300; ++k) {  // settle, stand, then the gait with every mode
      for (size_t c = 0; c < model->contact_points.size(); ++c) {
        impulses[3 * c] = (k + static_cast<int>(c)) % 7 < 4 ? 1.0 : 0.0;
      }
      (*trot)->ComputeTargets(*model, k * 1e-2, 1e-2, q, v, impulses, state, targets);
    }
    volatile double sink = targets.sum();
    (void)sink;
    EXPECT_EQ(::moreau::testing::HeapAllocationCount() - before, 0);
  }
}

TEST(NoAllocation, PdIkAndPush) {
  auto model = testing::UnitreeA1();
  ASSERT_NE(model, nullptr);
  auto layout = FindLegs(*model);
  ASSERT_TRUE(layout.ok());
  Data data = MakeData(*model);
  const Eigen::VectorXd q = model->q_default;
  const Eigen::VectorXd v = Eigen::VectorXd::Zero(model->nv);
  const Eigen::VectorXd q_des = Eigen::VectorXd::Constant(12, 0.3);
  const Eigen::VectorXd qd_des = Eigen::VectorXd::Zero(12);
  Eigen::VectorXd tau(model->nv);
  Eigen::VectorXd gathered(12);
  std::vector<Force> f_ext(model->nbodies);
  const Push push{0.0, 1.0, Vec3(50, 0, 0)};
  ForwardKinematics(*model, data, q);

  const long before = ::moreau::testing::HeapAllocationCount();
  JointPd(*model, q, v, q_des, qd_des, PdGains{}, tau);
  ActuatorPositions(*model, q, gathered);
  ActuatorVelocities(*model, v, gathered);
  Vec3 angles;
  int failures = 0;
  for (const Leg& leg : layout->legs) {
    failures += LegIk(leg, Vec3(0.02, leg.hip_offset, -0.28), angles) != IkResult::kOk;
    failures += LegIk(leg, Vec3(0.0, 0.0, -2.0), angles) == IkResult::kOk;  // clamped
    volatile double sink = LegForwardKinematics(leg, angles).norm();
    (void)sink;
  }
  ApplyPush(push, 0.5, *model, f_ext, data);
  EXPECT_EQ(::moreau::testing::HeapAllocationCount() - before, 0);
  EXPECT_EQ(failures, 0);
}

TEST(NoAllocation, CounterWorks) {
  const long before = ::moreau::testing::HeapAllocationCount();
  auto* p = new std::vector<double>(100);
  delete p;
  EXPECT_GE(::moreau::testing::HeapAllocationCount() - before, 2);
}

}  // namespace
}  // namespace moreau::control
