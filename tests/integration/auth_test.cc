// Bearer tokens and tenants on a real moreaud (--auth-tokens-file), with the
// C++ client: calls without a valid token are UNAUTHENTICATED; another
// tenant's instance does not exist in any RPC; per-tenant quotas; SIGHUP
// reloads the tokens while connections stay up; metrics carry the tenant.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "tests/integration/security_test_util.h"
#include "tests/integration/service_test_util.h"

namespace moreau::testing {
namespace {

constexpr char kAliceToken[] = "alice-7f3a9c1e-token";
constexpr char kBobToken[] = "bob-52d1e8b0-token";
constexpr char kCarolToken[] = "carol-0c6e44af-token";
// An id of the registry's form that no instance has.
constexpr char kUnknownId[] = "00000000000000000000000000000000";

class AuthTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto dir = TempDir::Make();
    ASSERT_TRUE(dir.ok()) << dir.status();
    dir_ = *std::move(dir);
    ASSERT_TRUE(WriteTokens({TokenLine("alice", kAliceToken, "max_instances=3"),
                             TokenLine("bob", kBobToken)})
                    .ok());
    auto process = ServerProcess::Start({"--auth-tokens-file", dir_->Path("tokens")});
    ASSERT_TRUE(process.ok()) << process.status();
    server_ = *std::move(process);
    alice_ = Connect(kAliceToken);
    bob_ = Connect(kBobToken);
  }

  absl::Status WriteTokens(const std::vector<std::string>& lines) {
    std::string text = "# tenants of the test\n";
    for (const std::string& line : lines) absl::StrAppend(&text, line, "\n");
    return dir_->Write("tokens", text);
  }

  std::unique_ptr<client::Client> Connect(const std::string& token) const {
    client::ClientOptions options;
    options.timeout = absl::Seconds(20);
    options.token = token;
    return std::make_unique<client::Client>(server_->address(), options);
  }

  std::string Create(client::Client& client, const std::string& model) {
    auto created = client.CreateBuiltin(model, 1);
    EXPECT_TRUE(created.ok()) << created.status();
    return created.ok() ? created->instance_ids(0) : "";
  }

  std::unique_ptr<TempDir> dir_;
  std::unique_ptr<ServerProcess> server_;
  std::unique_ptr<client::Client> alice_;
  std::unique_ptr<client::Client> bob_;
};

// Every RPC once, as `client`, on instance `id` (a pendulum's action size);
// the status of each.
struct RpcOutcome {
  std::string rpc;
  absl::Status status;
};

std::vector<RpcOutcome> EveryRpcOn(client::Client& client, const std::string& id,
                                   const std::string& state_blob) {
  std::vector<RpcOutcome> out;
  const Eigen::VectorXd action = Eigen::VectorXd::Zero(1);
  out.push_back({"Step", client.Step(id, action, 1).status()});
  for (const bool packed : {false, true}) {
    v1::StepBatchRequest batch;
    *batch.add_steps() = MakeStep(id, action, 1);
    batch.set_packed(packed);
    auto response = client.StepBatch(batch);
    absl::Status row = response.status();
    if (response.ok() && packed) {
      row = absl::Status(static_cast<absl::StatusCode>(response->packed().status_codes(0)),
                         response->packed().status_messages(0));
    } else if (response.ok()) {
      row = client::StatusOf(response->observations(0));
    }
    out.push_back({packed ? "StepBatch (packed row)" : "StepBatch (row)", row});
  }
  {
    std::unique_ptr<client::Client::Session> session = client.OpenSession();
    v1::Observation obs;
    absl::Status row = absl::InternalError("the session sent nothing back");
    if (session->Send(MakeStep(id, action, 1)) && session->Receive(&obs))
      row = client::StatusOf(obs);
    const absl::Status closed = session->Close();
    out.push_back({"Session (row)", row.ok() || closed.ok() ? row : closed});
  }
  out.push_back({"GetState", client.GetState(id).status()});
  out.push_back({"SetState", client.SetState(id, state_blob).status()});
  v1::QueryRequest query;
  query.set_instance_id(id);
  query.set_body_poses(true);
  out.push_back({"Query", client.Query(query).status()});
  {
    std::unique_ptr<client::Client::WatchStream> watch = client.Watch(id, 50.0);
    v1::WatchFrame frame;
    const bool got_frame = watch->Read(&frame);
    if (got_frame) watch->Cancel();
    const absl::Status finished = watch->Finish();
    out.push_back({"Watch", got_frame ? absl::OkStatus() : finished});
  }
  v1::ResetRequest reset;
  reset.set_instance_id(id);
  out.push_back({"Reset", client.Reset(reset).status()});
  auto destroyed = client.DestroyInstances({id});
  absl::Status destroy = destroyed.status();
  if (destroyed.ok() && destroyed->not_found_size() == 1 && destroyed->destroyed() == 0) {
    // DestroyInstances lists unknown ids rather than failing.
    destroy = absl::NotFoundError(absl::StrCat("not_found: ", destroyed->not_found(0)));
  } else if (destroyed.ok() && destroyed->destroyed() != 1) {
    destroy = absl::InternalError("destroyed neither one nor reported not_found");
  }
  out.push_back({"DestroyInstances", destroy});
  return out;
}

TEST_F(AuthTest, AnotherTenantsInstance_IsNotFoundInEveryRpcExactlyLikeAnUnknownId) {
  const std::string id = Create(*alice_, "pendulum");
  ASSERT_FALSE(id.empty());
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::Observation stepped,
                              alice_->Step(id, Eigen::VectorXd::Constant(1, 0.5), 10));
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::GetStateResponse state, alice_->GetState(id));
  const std::string blob = state.state().data();

  const std::vector<RpcOutcome> theirs = EveryRpcOn(*bob_, id, blob);
  const std::vector<RpcOutcome> unknown = EveryRpcOn(*bob_, kUnknownId, blob);
  ASSERT_EQ(theirs.size(), unknown.size());
  for (size_t k = 0; k < theirs.size(); ++k) {
    SCOPED_TRACE(theirs[k].rpc);
    EXPECT_EQ(theirs[k].status.code(), absl::StatusCode::kNotFound) << theirs[k].status;
    EXPECT_EQ(unknown[k].status.code(), absl::StatusCode::kNotFound) << unknown[k].status;
    // Word for word the same once each names its own id.
    EXPECT_EQ(absl::StrReplaceAll(theirs[k].status.message(), {{id, "ID"}}),
              absl::StrReplaceAll(unknown[k].status.message(), {{kUnknownId, "ID"}}));
  }

  // Nothing bob tried touched alice's instance.
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::GetStateResponse after, alice_->GetState(id));
  EXPECT_EQ(after.time(), state.time());
  EXPECT_EQ(after.state().data(), blob);
  // And alice herself gets every RPC served.
  for (const RpcOutcome& outcome : EveryRpcOn(*alice_, id, blob)) {
    EXPECT_TRUE(outcome.status.ok()) << outcome.rpc << ": " << outcome.status;
  }
}

TEST_F(AuthTest, ListInstances_ShowsEachTenantItsOwnOnly) {
  const std::string a1 = Create(*alice_, "pendulum");
  const std::string a2 = Create(*alice_, "sphere");
  const std::string b1 = Create(*bob_, "pendulum");
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::ListInstancesResponse alices, alice_->ListInstances());
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::ListInstancesResponse bobs, bob_->ListInstances());
  EXPECT_EQ(alices.total(), 2);
  std::vector<std::string> ids;
  for (const v1::InstanceInfo& info : alices.instances()) {
    ids.push_back(info.instance_id());
    EXPECT_EQ(info.tenant(), "alice");
  }
  std::vector<std::string> expected = {a1, a2};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(ids, expected);
  ASSERT_EQ(bobs.instances_size(), 1);
  EXPECT_EQ(bobs.instances(0).instance_id(), b1);
  EXPECT_EQ(bobs.instances(0).tenant(), "bob");
  EXPECT_EQ(Connect("not-a-known-token")->ListInstances().status().code(),
            absl::StatusCode::kUnauthenticated);
}

TEST_F(AuthTest, APackedBatch_SkipsAnotherTenantsInstanceWithoutComparingShapes) {
  const std::string theirs = Create(*alice_, "box");
  const std::string mine = Create(*bob_, "pendulum");
  v1::StepBatchRequest batch;
  *batch.add_steps() = MakeStep(mine, Eigen::VectorXd::Zero(1), 1);
  *batch.add_steps() = MakeStep(theirs, Eigen::VectorXd::Zero(6), 1);
  batch.set_packed(true);
  // A box and a pendulum differ in shape: were alice's box visible to bob,
  // the call would fail as mixing shapes, telling him it exists.
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::StepBatchResponse response, bob_->StepBatch(batch));
  EXPECT_EQ(response.packed().status_codes(0), 0);
  EXPECT_EQ(response.packed().status_codes(1), static_cast<int>(absl::StatusCode::kNotFound));
}

TEST_F(AuthTest, CallsWithoutAValidToken_AreUnauthenticated) {
  const std::string id = Create(*alice_, "pendulum");
  for (const std::string token : {"", "not-a-known-token", "alice-7f3a9c1e-token "}) {
    SCOPED_TRACE(absl::StrCat("token '", token, "'"));
    std::unique_ptr<client::Client> stranger = Connect(token);
    EXPECT_EQ(stranger->ListModels().status().code(), absl::StatusCode::kUnauthenticated);
    v1::ModelSource source;
    source.set_builtin("pendulum");
    EXPECT_EQ(stranger->GetModel(source).status().code(), absl::StatusCode::kUnauthenticated);
    EXPECT_EQ(stranger->CreateBuiltin("pendulum", 1).status().code(),
              absl::StatusCode::kUnauthenticated);
    std::vector<RpcOutcome> outcomes = EveryRpcOn(*stranger, id, "");
    for (const RpcOutcome& outcome : outcomes) {
      if (outcome.rpc.find("(row)") != std::string::npos ||
          outcome.rpc.find("(packed row)") != std::string::npos) {
        continue;  // rows of a refused call: checked through the call below
      }
      EXPECT_EQ(outcome.status.code(), absl::StatusCode::kUnauthenticated)
          << outcome.rpc << ": " << outcome.status;
    }
    v1::StepBatchRequest batch;
    *batch.add_steps() = MakeStep(id, Eigen::VectorXd::Zero(1), 1);
    EXPECT_EQ(stranger->StepBatch(batch).status().code(), absl::StatusCode::kUnauthenticated);
    std::unique_ptr<client::Client::Session> session = stranger->OpenSession();
    session->Send(MakeStep(id, Eigen::VectorXd::Zero(1), 1));
    v1::Observation obs;
    EXPECT_FALSE(session->Receive(&obs));
    EXPECT_EQ(session->Close().code(), absl::StatusCode::kUnauthenticated);
  }
  // The refused calls changed nothing.
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::GetStateResponse state, alice_->GetState(id));
  EXPECT_EQ(state.time(), 0.0);
}

TEST_F(AuthTest, ATenantsQuota_IsResourceExhaustedNamingIt) {
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::CreateInstancesResponse two,
                              alice_->CreateBuiltin("pendulum", 2));
  const absl::Status over = alice_->CreateBuiltin("pendulum", 2).status();
  EXPECT_EQ(over.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(over.message().find("tenant 'alice' has 2 live of its quota of 3"), std::string::npos)
      << over;
  ASSERT_TRUE(alice_->CreateBuiltin("pendulum", 1).ok());
  EXPECT_EQ(alice_->CreateBuiltin("pendulum", 1).status().code(),
            absl::StatusCode::kResourceExhausted);
  // Bob's quota is the server's: alice's full quota does not limit him.
  EXPECT_TRUE(bob_->CreateBuiltin("pendulum", 5).ok());
  // Destroying frees quota.
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::DestroyInstancesResponse destroyed,
                              alice_->DestroyInstances({two.instance_ids(0)}));
  EXPECT_EQ(destroyed.destroyed(), 1);
  EXPECT_TRUE(alice_->CreateBuiltin("pendulum", 1).ok());
}

TEST_F(AuthTest, Sighup_AddsAndRemovesTokensWhileOpenConnectionsKeepWorking) {
  const std::string id = Create(*alice_, "pendulum");
  ASSERT_TRUE(bob_->ListModels().ok());
  std::unique_ptr<client::Client> carol = Connect(kCarolToken);
  EXPECT_EQ(carol->ListModels().status().code(), absl::StatusCode::kUnauthenticated);
  // A stream opened before the reload.
  std::unique_ptr<client::Client::Session> session = alice_->OpenSession();
  v1::Observation obs;
  ASSERT_TRUE(session->Send(MakeStep(id, Eigen::VectorXd::Zero(1), 1)));
  ASSERT_TRUE(session->Receive(&obs));

  ASSERT_TRUE(WriteTokens({TokenLine("alice", kAliceToken, "max_instances=3"),
                           TokenLine("carol", kCarolToken)})
                  .ok());
  ASSERT_EQ(kill(server_->pid(), SIGHUP), 0);
  // The reload happens on the server's signal thread: wait for it (bounded).
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!carol->ListModels().ok() && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(carol->ListModels().ok());
  EXPECT_EQ(bob_->ListModels().status().code(), absl::StatusCode::kUnauthenticated);
  // Alice's connection and her open stream carry on.
  EXPECT_TRUE(alice_->Step(id, Eigen::VectorXd::Zero(1), 1).ok());
  ASSERT_TRUE(session->Send(MakeStep(id, Eigen::VectorXd::Zero(1), 1)));
  ASSERT_TRUE(session->Receive(&obs));
  EXPECT_TRUE(client::StatusOf(obs).ok()) << client::StatusOf(obs);
  EXPECT_EQ(obs.steps(), 3);
  EXPECT_TRUE(session->Close().ok());
  // Her instance is still hers alone.
  EXPECT_EQ(carol->GetState(id).status().code(), absl::StatusCode::kNotFound);
}

TEST_F(AuthTest, Metrics_CarryTheTenantNeverClientInput) {
  const std::string id = Create(*alice_, "pendulum");
  ASSERT_TRUE(alice_->Step(id, Eigen::VectorXd::Zero(1), 7).ok());
  std::unique_ptr<client::Client> stranger = Connect("mallory-guess");
  EXPECT_EQ(stranger->ListModels().status().code(), absl::StatusCode::kUnauthenticated);
  // The tenant gauge is sampled by the server's housekeeping (every 0.5 s).
  const std::string tenant_gauge = R"(moreau_tenant_instances{tenant="alice"})";
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  std::string page;
  while (std::chrono::steady_clock::now() < give_up) {
    MOREAU_ASSERT_OK_AND_ASSIGN(page, HttpGet(server_->metrics_port(), "/metrics"));
    if (MetricValue(page, tenant_gauge) == 1.0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(MetricValue(page, tenant_gauge), 1.0);
  EXPECT_EQ(
      MetricValue(page,
                  R"(moreau_steps_total{contact="moreau-sor",model="pendulum",tenant="alice"})"),
      7.0);
  EXPECT_EQ(
      MetricValue(page,
                  R"(moreau_rpc_latency_seconds_count{code="OK",method="Step",tenant="alice"})"),
      1.0);
  // A refused call has no tenant: no label.
  EXPECT_GE(
      MetricValue(
          page, R"(moreau_rpc_latency_seconds_count{code="UNAUTHENTICATED",method="ListModels"})"),
      1.0);
  EXPECT_EQ(page.find("mallory"), std::string::npos);
  EXPECT_EQ(page.find(kAliceToken), std::string::npos);
}

}  // namespace
}  // namespace moreau::testing
