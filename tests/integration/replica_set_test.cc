// client::ReplicaSet against three real moreaud replicas on 127.0.0.1-3,
// sharing one port as the pods behind a Kubernetes headless Service do: even
// spreading, routing by instance, and the error naming a replica that was
// killed. The ReplicaSetDnsTest cases run with Debian's nss_wrapper preloaded
// (see CMakeLists.txt), which makes getaddrinfo give moreaud-replicas.test
// the three addresses.
#include "clients/cpp/replica_set.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/integration/server_process.h"
#include "tests/integration/service_test_util.h"

namespace moreau::testing {
namespace {

using client::ReplicaSet;

constexpr char kReplicasName[] = "moreaud-replicas.test";

// `count` servers on 127.0.0.1, 127.0.0.2, … on the port the first one got
// (started again on a new port when it is taken on another address).
std::vector<std::unique_ptr<ServerProcess>> StartReplicas(int count) {
  for (int attempt = 0; attempt < 5; ++attempt) {
    std::vector<std::unique_ptr<ServerProcess>> servers;
    auto first = ServerProcess::Start({"--workers", "1"});
    if (!first.ok()) continue;
    const int port = (*first)->port();
    servers.push_back(*std::move(first));
    for (int k = 2; k <= count; ++k) {
      auto next = ServerProcess::Start(
          {"--host", absl::StrCat("127.0.0.", k), "--port", absl::StrCat(port), "--workers", "1"});
      if (!next.ok()) break;
      servers.push_back(*std::move(next));
    }
    if (static_cast<int>(servers.size()) == count) return servers;
  }
  return {};
}

// The server's own count of the instances it hosts (its metrics page).
double LiveInstances(const ServerProcess& server) {
  auto page = HttpGet(server.host(), server.metrics_port(), "/metrics");
  return page.ok() ? MetricValue(*page, "moreau_live_instances") : -1.0;
}

class ReplicaSetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    servers_ = StartReplicas(3);
    ASSERT_EQ(servers_.size(), 3u) << "could not start three moreaud on one port";
    for (const auto& server : servers_) addresses_.push_back(server->address());
    // Every replica answers before a test's first call.
    auto fleet = ReplicaSet::Connect(addresses_);
    ASSERT_TRUE(fleet.ok()) << fleet.status();
    ASSERT_TRUE((*fleet)->WaitForServers(absl::Seconds(10)).ok());
  }
  std::vector<double> Live() const {
    std::vector<double> live;
    for (const auto& server : servers_) live.push_back(LiveInstances(*server));
    return live;
  }
  std::vector<std::unique_ptr<ServerProcess>> servers_;
  std::vector<std::string> addresses_;
};

TEST_F(ReplicaSetTest, SpreadsEvenlyAndRoutesEachCallToTheOwner) {
  EXPECT_EQ(addresses_[1], absl::StrCat("127.0.0.2:", servers_[0]->port()));
  MOREAU_ASSERT_OK_AND_ASSIGN(std::unique_ptr<ReplicaSet> fleet, ReplicaSet::Connect(addresses_));
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::CreateInstancesResponse made,
                              fleet->CreateBuiltin("mini_cheetah", 7));
  ASSERT_EQ(made.instance_ids_size(), 7);
  ASSERT_EQ(made.observations_size(), 7);
  EXPECT_EQ(Live(), (std::vector<double>{2, 2, 3}));
  const std::vector<int> expected_owner = {0, 0, 1, 1, 2, 2, 2};
  for (int i = 0; i < 7; ++i) {
    EXPECT_EQ(fleet->Owner(made.instance_ids(i)).value(), expected_owner[i]);
    // The instance is on its owner and on no other server.
    for (int k = 0; k < 3; ++k) {
      const absl::StatusCode code = fleet->client(k).GetState(made.instance_ids(i)).status().code();
      EXPECT_EQ(code, k == expected_owner[i] ? absl::StatusCode::kOk : absl::StatusCode::kNotFound);
    }
  }

  // A rollout: StepBatch over every replica, rows in request order.
  v1::StepBatchRequest batch;
  for (int i = 6; i >= 0; --i)
    *batch.add_steps() = MakeStep(made.instance_ids(i), TestAction(12, 0), 2);
  for (int t = 0; t < 5; ++t) {
    MOREAU_ASSERT_OK_AND_ASSIGN(v1::StepBatchResponse stepped, fleet->StepBatch(batch));
    ASSERT_EQ(stepped.observations_size(), 7);
    for (int r = 0; r < 7; ++r) {
      EXPECT_EQ(stepped.observations(r).instance_id(), batch.steps(r).instance_id());
      EXPECT_EQ(stepped.observations(r).status().code(), 0);
      EXPECT_EQ(stepped.observations(r).steps(), 2 * (t + 1));
    }
  }
  // A state moves between replicas; per-instance calls go to the owner.
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::GetStateResponse state, fleet->GetState(made.instance_ids(0)));
  ASSERT_TRUE(fleet->SetState(made.instance_ids(6), state.state().data()).ok());
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::Observation a,
                              fleet->Step(made.instance_ids(0), TestAction(12, 1), 3));
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::Observation b,
                              fleet->Step(made.instance_ids(6), TestAction(12, 1), 3));
  EXPECT_EQ(std::vector<double>(a.q().begin(), a.q().end()),
            std::vector<double>(b.q().begin(), b.q().end()));
  v1::ResetRequest reset;
  reset.set_instance_id(made.instance_ids(3));
  ASSERT_TRUE(fleet->Reset(reset).ok());
  v1::QueryRequest query;
  query.set_instance_id(made.instance_ids(3));
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::QueryResponse queried, fleet->Query(query));
  EXPECT_EQ(queried.time(), 0.0);
  EXPECT_EQ(fleet->Step("no-such-instance", TestAction(12, 0), 1).status().code(),
            absl::StatusCode::kNotFound);

  MOREAU_ASSERT_OK_AND_ASSIGN(
      v1::DestroyInstancesResponse destroyed,
      fleet->DestroyInstances({made.instance_ids().begin(), made.instance_ids().end()}));
  EXPECT_EQ(destroyed.destroyed(), 7);
  EXPECT_EQ(Live(), (std::vector<double>{0, 0, 0}));
}

TEST_F(ReplicaSetTest, NoiseSeedsFollowTheGlobalIndex) {
  MOREAU_ASSERT_OK_AND_ASSIGN(std::unique_ptr<ReplicaSet> fleet, ReplicaSet::Connect(addresses_));
  MOREAU_ASSERT_OK_AND_ASSIGN(std::unique_ptr<ReplicaSet> one,
                              ReplicaSet::Connect({addresses_[0]}));
  v1::CreateInstancesRequest request;
  request.mutable_model()->set_builtin("pendulum");
  request.set_count(5);
  request.set_seed(3);
  request.set_noise(0.1);
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::CreateInstancesResponse spread, fleet->CreateInstances(request));
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::CreateInstancesResponse alone, one->CreateInstances(request));
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(spread.observations(i).q(0), alone.observations(i).q(0)) << i;
  }
}

TEST_F(ReplicaSetTest, KilledReplicaFailsTheNextCallNamingIt) {
  client::ClientOptions options;
  options.timeout = absl::Seconds(5);
  MOREAU_ASSERT_OK_AND_ASSIGN(std::unique_ptr<ReplicaSet> fleet,
                              ReplicaSet::Connect(addresses_, options));
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::CreateInstancesResponse made,
                              fleet->CreateBuiltin("mini_cheetah", 6));
  v1::StepBatchRequest batch;
  for (const std::string& id : made.instance_ids())
    *batch.add_steps() = MakeStep(id, TestAction(12, 0), 1);
  ASSERT_TRUE(fleet->StepBatch(batch).ok());
  servers_[1]->Kill();
  const absl::Time start = absl::Now();
  const absl::Status status = fleet->StepBatch(batch).status();
  EXPECT_LT(absl::Now() - start, absl::Seconds(20));
  EXPECT_TRUE(status.code() == absl::StatusCode::kUnavailable ||
              status.code() == absl::StatusCode::kDeadlineExceeded)
      << status;
  EXPECT_NE(status.message().find(absl::StrCat("StepBatch on ", addresses_[1])), std::string::npos)
      << status;
  // The other replicas' instances still answer; the dead one's name it too.
  EXPECT_TRUE(fleet->Step(made.instance_ids(0), TestAction(12, 0), 1).ok());
  const absl::Status step = fleet->Step(made.instance_ids(2), TestAction(12, 0), 1).status();
  EXPECT_NE(step.message().find(absl::StrCat("Step on ", addresses_[1])), std::string::npos)
      << step;
}

// Run with nss_wrapper preloaded (a ctest of its own), which reads its hosts
// file from NSS_WRAPPER_HOSTS at the first lookup.
class ReplicaSetDnsTest : public ReplicaSetTest {
 protected:
  void SetUp() override {
    setenv("NSS_WRAPPER_HOSTS", MOREAU_REPLICAS_HOSTS, /*overwrite=*/1);
    ReplicaSetTest::SetUp();
  }
};

TEST_F(ReplicaSetDnsTest, DnsTargetReachesEveryReplica) {
  const std::string target = absl::StrCat("dns:///", kReplicasName, ":", servers_[0]->port());
  auto resolved = client::ResolveTargets({target});
  ASSERT_TRUE(resolved.ok()) << resolved.status()
                             << " (run with LD_PRELOAD=libnss_wrapper.so: see CMakeLists.txt)";
  EXPECT_EQ(*resolved, addresses_);
  MOREAU_ASSERT_OK_AND_ASSIGN(std::unique_ptr<ReplicaSet> fleet, ReplicaSet::Connect({target}));
  ASSERT_EQ(fleet->size(), 3);
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::CreateInstancesResponse made,
                              fleet->CreateBuiltin("pendulum", 4));
  EXPECT_EQ(Live(), (std::vector<double>{1, 1, 2}));
  servers_[2]->Kill();
  v1::StepBatchRequest batch;
  for (const std::string& id : made.instance_ids())
    *batch.add_steps() = MakeStep(id, TestAction(1, 0), 1);
  const absl::Status status = fleet->StepBatch(batch).status();
  EXPECT_NE(status.message().find(absl::StrCat("StepBatch on ", addresses_[2])), std::string::npos)
      << status;
}

}  // namespace
}  // namespace moreau::testing
