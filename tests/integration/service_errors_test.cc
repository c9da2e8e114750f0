// Bad input of every kind gets the right gRPC code and a message naming the
// problem, while the other instances step on untouched (ARCHITECTURE.md
// § Errors). A bystander instance is stepped throughout and compared, bit for
// bit, with an in-process simulation given the same actions.
#include <gtest/gtest.h>

#include <limits>

#include "engine/model/loader.h"
#include "engine/sim/simulation.h"
#include "tests/integration/service_test_util.h"

namespace moreau::testing {
namespace {

using ::absl::StatusCode;

class ServiceErrorsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = StartServer(
        {"--max_instances", "6", "--max_substeps", "1000", "--max_message_bytes", "65536"});
    ASSERT_NE(server_.client, nullptr);
    auto created = client().CreateBuiltin("mini_cheetah", 1);
    ASSERT_TRUE(created.ok()) << created.status();
    bystander_ = created->instance_ids(0);
    auto model = LoadBuiltin("mini_cheetah");
    ASSERT_TRUE(model.ok());
    auto local = sim::Simulation::Create(*model, sim::Settings{});
    ASSERT_TRUE(local.ok());
    local_ = std::move(*local);
  }

  // Steps the bystander remotely and locally with the same action.
  void StepBystander() {
    const Eigen::VectorXd action = TestAction(12, t_++);
    ASSERT_TRUE(client().Step(bystander_, action, 10).ok());
    ASSERT_TRUE(local_->StepAction(action, 10).ok());
  }

  void TearDown() override {
    if (server_.client == nullptr) return;
    StepBystander();
    auto state = client().GetState(bystander_);
    ASSERT_TRUE(state.ok()) << state.status();
    EXPECT_EQ(state->state().data(), local_->Snapshot()) << "the bystander was disturbed";
  }

  // Expects `status` to have `code` and a message containing `needle`.
  static void ExpectError(const absl::Status& status, StatusCode code, const std::string& needle) {
    EXPECT_EQ(status.code(), code) << status;
    EXPECT_NE(status.message().find(needle), std::string::npos)
        << "message '" << status.message() << "' does not name '" << needle << "'";
  }

  client::Client& client() { return *server_.client; }
  LiveServer server_;
  std::string bystander_;
  std::unique_ptr<sim::Simulation> local_;
  int t_ = 0;
};

TEST_F(ServiceErrorsTest, UnknownInstanceId) {
  StepBystander();
  ExpectError(
      client().Step("0123456789abcdef0123456789abcdef", Eigen::VectorXd::Zero(12), 1).status(),
      StatusCode::kNotFound, "0123456789abcdef0123456789abcdef");
  ExpectError(client().GetState("x").status(), StatusCode::kNotFound, "'x'");
  v1::QueryRequest q;
  q.set_instance_id("y");
  ExpectError(client().Query(q).status(), StatusCode::kNotFound, "'y'");
  v1::ResetRequest r;
  r.set_instance_id("z");
  ExpectError(client().Reset(r).status(), StatusCode::kNotFound, "'z'");
  ExpectError(client().SetState("w", "").status(), StatusCode::kNotFound, "'w'");
}

TEST_F(ServiceErrorsTest, UnknownModel) {
  StepBystander();
  ExpectError(client().CreateBuiltin("robocop", 1).status(), StatusCode::kInvalidArgument,
              "robocop");
  v1::CreateInstancesRequest none;
  none.set_count(1);
  ExpectError(client().CreateInstances(none).status(), StatusCode::kInvalidArgument, "model");
}

TEST_F(ServiceErrorsTest, MalformedUrdf) {
  v1::CreateInstancesRequest request;
  request.set_count(1);
  request.mutable_model()->set_urdf("<robot name='r'><link name='a'><inertial><mass value='-1'/>");
  ExpectError(client().CreateInstances(request).status(), StatusCode::kInvalidArgument,
              "malformed URDF");
  request.mutable_model()->set_urdf(R"(<robot name="r"><link name="a"><inertial>
      <mass value="-1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/>
      </inertial></link></robot>)");
  ExpectError(client().CreateInstances(request).status(), StatusCode::kInvalidArgument, "a");
  StepBystander();
}

TEST_F(ServiceErrorsTest, BadSettings) {
  v1::Settings settings;
  settings.set_contact_model("jelly");
  ExpectError(client().CreateBuiltin("box", 1, settings).status(), StatusCode::kInvalidArgument,
              "jelly");
  settings.Clear();
  settings.set_dt(-1.0);
  ExpectError(client().CreateBuiltin("box", 1, settings).status(), StatusCode::kInvalidArgument,
              "dt");
  settings.Clear();
  (*settings.mutable_contact_parameters())["stiffness"] = 1.0;  // not a moreau-sor parameter
  ExpectError(client().CreateBuiltin("box", 1, settings).status(), StatusCode::kInvalidArgument,
              "stiffness");
  settings.Clear();
  (*settings.mutable_contact_parameters())["mu"] = -0.5;
  ExpectError(client().CreateBuiltin("box", 1, settings).status(), StatusCode::kInvalidArgument,
              "mu");
  settings.Clear();
  settings.set_control_mode("telepathy");
  ExpectError(client().CreateBuiltin("box", 1, settings).status(), StatusCode::kInvalidArgument,
              "telepathy");
  settings.Clear();
  settings.set_gear(-3.0);
  ExpectError(client().CreateBuiltin("box", 1, settings).status(), StatusCode::kInvalidArgument,
              "transmission gear");
  settings.Clear();
  settings.set_rotor_inertia(std::numeric_limits<double>::infinity());
  ExpectError(client().CreateBuiltin("box", 1, settings).status(), StatusCode::kInvalidArgument,
              "rotor_inertia");
  StepBystander();
}

TEST_F(ServiceErrorsTest, WrongActionSize) {
  StepBystander();
  ExpectError(client().Step(bystander_, Eigen::VectorXd::Zero(11), 1).status(),
              StatusCode::kInvalidArgument, "size 11, expected 12");
}

TEST_F(ServiceErrorsTest, NanAndInfActions) {
  Eigen::VectorXd action = Eigen::VectorXd::Zero(12);
  action[3] = std::numeric_limits<double>::quiet_NaN();
  ExpectError(client().Step(bystander_, action, 1).status(), StatusCode::kInvalidArgument,
              "action[3]");
  StepBystander();
  action[3] = -std::numeric_limits<double>::infinity();
  ExpectError(client().Step(bystander_, action, 1).status(), StatusCode::kInvalidArgument,
              "action[3]");
  // In a batch the bad entry fails alone.
  auto other = client().CreateBuiltin("mini_cheetah", 1);
  ASSERT_TRUE(other.ok());
  v1::StepBatchRequest batch;
  *batch.add_steps() = MakeStep(other->instance_ids(0), action, 1);
  *batch.add_steps() = MakeStep("missing", Eigen::VectorXd::Zero(12), 1);
  auto response = client().StepBatch(batch);
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_EQ(response->observations(0).status().code(),
            static_cast<int>(StatusCode::kInvalidArgument));
  EXPECT_EQ(response->observations(1).status().code(), static_cast<int>(StatusCode::kNotFound));
  StepBystander();
}

TEST_F(ServiceErrorsTest, SubstepsOverTheLimit) {
  ExpectError(client().Step(bystander_, Eigen::VectorXd::Zero(12), 1001).status(),
              StatusCode::kInvalidArgument, "--max_substeps");
  v1::StepBatchRequest batch;
  *batch.add_steps() = MakeStep(bystander_, Eigen::VectorXd::Zero(12), 5000);
  ExpectError(client().StepBatch(batch).status(), StatusCode::kInvalidArgument, "substeps");
  StepBystander();
}

TEST_F(ServiceErrorsTest, DuplicateInstanceInBatch) {
  v1::StepBatchRequest batch;
  *batch.add_steps() = MakeStep(bystander_, Eigen::VectorXd::Zero(12), 1);
  *batch.add_steps() = MakeStep(bystander_, Eigen::VectorXd::Zero(12), 1);
  ExpectError(client().StepBatch(batch).status(), StatusCode::kInvalidArgument, "twice");
  StepBystander();
}

TEST_F(ServiceErrorsTest, OversizedMessage) {
  v1::CreateInstancesRequest request;
  request.set_count(1);
  request.mutable_model()->set_urdf(std::string(100000, ' '));  // > 64 KiB
  const absl::Status status = client().CreateInstances(request).status();
  EXPECT_EQ(status.code(), StatusCode::kResourceExhausted) << status;
  StepBystander();
}

TEST_F(ServiceErrorsTest, OneInstanceTooMany) {
  ASSERT_TRUE(client().CreateBuiltin("sphere", 5).ok());  // 6 with the bystander
  ExpectError(client().CreateBuiltin("sphere", 1).status(), StatusCode::kResourceExhausted,
              "at most 6");
  StepBystander();
}

TEST_F(ServiceErrorsTest, CorruptStateBlobKeepsTheState) {
  StepBystander();
  auto state = client().GetState(bystander_);
  ASSERT_TRUE(state.ok());
  std::string blob = state->state().data();
  ExpectError(client().SetState(bystander_, blob.substr(0, blob.size() / 2)).status(),
              StatusCode::kInvalidArgument, "");
  ExpectError(client().SetState(bystander_, "garbage").status(), StatusCode::kInvalidArgument, "");
}

TEST_F(ServiceErrorsTest, DivergedInstanceReportsItAndResets) {
  v1::Settings settings;
  auto created = client().CreateBuiltin("pendulum", 1, settings);
  ASSERT_TRUE(created.ok()) << created.status();
  const std::string id = created->instance_ids(0);
  // An absurd torque spins the pendulum past the divergence speed.
  const absl::Status diverged = client().Step(id, Eigen::VectorXd::Constant(1, 1e12), 10).status();
  ExpectError(diverged, StatusCode::kFailedPrecondition, "diverged");
  ExpectError(client().Step(id, Eigen::VectorXd::Zero(1), 1).status(),
              StatusCode::kFailedPrecondition, "Reset");
  StepBystander();
  v1::ResetRequest reset;
  reset.set_instance_id(id);
  ASSERT_TRUE(client().Reset(reset).ok());
  auto after = client().Step(id, Eigen::VectorXd::Zero(1), 10);
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(after->steps(), 10);
}

}  // namespace
}  // namespace moreau::testing
