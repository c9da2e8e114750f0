// A test fixture around a real moreaud and one bystander instance: the
// bystander is stepped throughout, remotely and in an in-process simulation
// with the same actions, and at the end of each test its state must equal the
// local one bit for bit, so a bad request that disturbed anyone else fails.
#ifndef MOREAU_TESTS_INTEGRATION_BYSTANDER_TEST_H_
#define MOREAU_TESTS_INTEGRATION_BYSTANDER_TEST_H_

#include <gtest/gtest.h>

#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/model/loader.h"
#include "engine/sim/simulation.h"
#include "tests/integration/service_test_util.h"

namespace moreau::testing {

class BystanderTest : public ::testing::Test {
 protected:
  // The moreaud flags of the server under test.
  virtual std::vector<std::string> ServerFlags() const = 0;

  void SetUp() override {
    server_ = StartServer(ServerFlags());
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

  // Expects `status` to have `code` and a message containing every needle.
  static void ExpectError(const absl::Status& status, absl::StatusCode code,
                          const std::vector<std::string>& needles) {
    EXPECT_EQ(status.code(), code) << status;
    for (const std::string& needle : needles) {
      EXPECT_NE(status.message().find(needle), std::string::npos)
          << "message '" << status.message() << "' does not name '" << needle << "'";
    }
  }
  static void ExpectError(const absl::Status& status, absl::StatusCode code,
                          std::initializer_list<std::string> needles) {
    ExpectError(status, code, std::vector<std::string>(needles));
  }
  static void ExpectError(const absl::Status& status, absl::StatusCode code,
                          const std::string& needle) {
    ExpectError(status, code, std::vector<std::string>{needle});
  }

  client::Client& client() { return *server_.client; }

  LiveServer server_;
  std::string bystander_;
  std::unique_ptr<sim::Simulation> local_;
  int t_ = 0;
};

}  // namespace moreau::testing

#endif  // MOREAU_TESTS_INTEGRATION_BYSTANDER_TEST_H_
