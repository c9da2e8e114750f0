// StepRequest.pushes on a real moreaud: a push on a free 1 kg sphere changes
// its momentum by exactly F T (and its spin by τ T / I) over calls, ends with
// its duration or a Reset, and a malformed push is refused naming its field.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/integration/service_test_util.h"

namespace moreau::testing {
namespace {

constexpr double kG = 9.81;
constexpr double kSphereInertia = 0.004;  // 2/5 m r², m = 1 kg, r = 0.1 m

class ServicePushTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = StartServer();
    ASSERT_NE(server_.client, nullptr);
    v1::Settings settings;
    settings.set_dt(0.001);
    // The ground 10 m below: nothing touches the sphere during the test.
    settings.mutable_terrain()->mutable_flat()->set_height(-10.0);
    auto made = server_.client->CreateBuiltin("sphere", 1, settings);
    ASSERT_TRUE(made.ok()) << made.status();
    id_ = made->instance_ids(0);
  }
  // Steps `substeps` with `pushes`; the observation.
  absl::StatusOr<v1::Observation> Step(int substeps, const std::vector<v1::Push>& pushes = {}) {
    v1::StepRequest request = MakeStep(id_, Eigen::VectorXd::Zero(0), substeps);
    for (const v1::Push& p : pushes) *request.add_pushes() = p;
    return server_.client->Step(request);
  }
  LiveServer server_;
  std::string id_;
};

// Against gravity (so the sphere floats) and 10 N along x at its centre,
// with a torque of 0.004 N m about z, for 0.1 s.
v1::Push FloatAndPush() {
  v1::Push push;
  push.set_body("sphere");
  push.add_force(10.0);
  push.add_force(0.0);
  push.add_force(kG);
  push.add_torque(0.0);
  push.add_torque(0.0);
  push.add_torque(kSphereInertia);
  push.set_duration(0.1);
  return push;
}

TEST_F(ServicePushTest, PushChangesMomentumByForceTimesDurationAcrossCalls) {
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::Observation half, Step(50, {FloatAndPush()}));
  // v = (F/m) t after 0.05 s; z velocity: gravity cancelled.
  EXPECT_NEAR(half.v(0), 0.5, 1e-9);
  EXPECT_NEAR(half.v(2), 0.0, 1e-9);
  EXPECT_NEAR(half.v(5), 0.05, 1e-9);  // ω_z = τ t / I
  // The push goes on in the next call, then ends after 0.1 s in all.
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::Observation full, Step(50));
  EXPECT_NEAR(full.v(0), 1.0, 1e-9);
  EXPECT_NEAR(full.v(5), 0.1, 1e-9);
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::Observation after, Step(20));
  EXPECT_NEAR(after.v(0), 1.0, 1e-9);         // no more push along x
  EXPECT_NEAR(after.v(2), -kG * 0.02, 1e-9);  // gravity alone again
}

TEST_F(ServicePushTest, APushActsForItsDurationInWholeStepsWhenEverItStarts) {
  // Started after 137 steps (t = 0.137 s, not a multiple of the duration),
  // 0.1 s of 10 N is 100 steps: exactly 1 N s.
  ASSERT_TRUE(Step(137).ok());
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::Observation after, Step(300, {FloatAndPush()}));
  EXPECT_NEAR(after.v(0), 1.0, 1e-9);
}

TEST_F(ServicePushTest, ACallThatStepsNothingLeavesNoPush) {
  v1::StepRequest bad_action = MakeStep(id_, Eigen::VectorXd::Zero(3), 10);  // the sphere has none
  *bad_action.add_pushes() = FloatAndPush();
  EXPECT_EQ(server_.client->Step(bad_action).status().code(), absl::StatusCode::kInvalidArgument);
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::Observation after, Step(10));
  EXPECT_EQ(after.v(0), 0.0);
  EXPECT_EQ(after.steps(), 10);
}

TEST_F(ServicePushTest, ResetEndsThePushes) {
  v1::Push long_push = FloatAndPush();
  long_push.set_duration(10.0);
  ASSERT_TRUE(Step(10, {long_push}).ok());
  v1::ResetRequest reset;
  reset.set_instance_id(id_);
  ASSERT_TRUE(server_.client->Reset(reset).ok());
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::Observation after, Step(10));
  EXPECT_EQ(after.v(0), 0.0);
  EXPECT_NEAR(after.v(2), -kG * 0.01, 1e-9);
}

TEST_F(ServicePushTest, MalformedPushesAreRefusedNamingTheField) {
  struct Bad {
    std::function<void(v1::Push&)> spoil;
    std::string message;
  };
  const std::vector<Bad> cases = {
      {[](v1::Push& p) { p.set_body("no_such_body"); },
       "pushes[0].body 'no_such_body' is not a body of model 'sphere'"},
      {[](v1::Push& p) { p.set_body("world"); }, "pushes[0].body 'world' is not a body"},
      {[](v1::Push& p) { p.mutable_force()->RemoveLast(); }, "pushes[0].force has 2 values"},
      {[](v1::Push& p) { p.set_force(1, std::nan("")); }, "pushes[0].force[1] is nan"},
      {[](v1::Push& p) { p.set_force(0, 1e9); }, "pushes[0].force[0] is 1e+09"},
      {[](v1::Push& p) { p.add_point(1.0); }, "pushes[0].point has 1 values"},
      {[](v1::Push& p) { p.set_duration(0.0); }, "pushes[0].duration is 0 s"},
      {[](v1::Push& p) { p.set_duration(61.0); }, "pushes[0].duration is 61 s"},
  };
  for (const Bad& bad : cases) {
    SCOPED_TRACE(bad.message);
    v1::Push push = FloatAndPush();
    bad.spoil(push);
    const absl::Status status = Step(1, {push}).status();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(status.message().find(bad.message), std::string::npos) << status;
  }
  const absl::Status too_many = Step(1, std::vector<v1::Push>(9, FloatAndPush())).status();
  EXPECT_EQ(too_many.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(too_many.message().find("9 pushes in one request, at most 8"), std::string::npos);
  // Nothing was stepped or left acting.
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::Observation after, Step(10));
  EXPECT_EQ(after.steps(), 10);
  EXPECT_EQ(after.v(0), 0.0);
}

}  // namespace
}  // namespace moreau::testing
