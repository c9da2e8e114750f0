// Whole-server behaviour: idle reclaiming, deadlines, state moved between
// servers, SIGTERM draining, metrics over real HTTP (sustained load is in
// service_load_scenario_test.cc).
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/model/loader.h"
#include "engine/sim/simulation.h"
#include "tests/integration/service_test_util.h"

namespace moreau::testing {
namespace {

using ::absl::StatusCode;

TEST(ServiceLifecycle, IdleInstanceIsReclaimed) {
  LiveServer server = StartServer({"--idle_timeout_s", "1"});
  ASSERT_NE(server.client, nullptr);
  auto idle = server.client->CreateBuiltin("sphere", 1);
  auto busy = server.client->CreateBuiltin("sphere", 1);
  ASSERT_TRUE(idle.ok() && busy.ok());
  for (int i = 0; i < 30; ++i) {  // 3 s: the busy one is used every 100 ms
    ASSERT_TRUE(server.client->GetState(busy->instance_ids(0)).ok());
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(server.client->GetState(idle->instance_ids(0)).status().code(), StatusCode::kNotFound);
  EXPECT_TRUE(server.client->GetState(busy->instance_ids(0)).ok());
  auto page = HttpGet(server.process->metrics_port(), "/metrics");
  ASSERT_TRUE(page.ok()) << page.status();
  EXPECT_EQ(MetricValue(*page, "moreau_instances_reclaimed_total"), 1.0);
}

TEST(ServiceLifecycle, StepBatchPastItsDeadlineSaysWhichInstancesAdvanced) {
  // 10⁶ sub-steps per instance, several seconds each on any machine.
  constexpr int kSubsteps = 1000000;
  // The server stops stepping half a second before the 2 s deadline, so a
  // reply still arrives in time on a machine whose other jobs stall it.
  LiveServer server =
      StartServer({"--workers", "1", "--max_substeps", "1000000", "--deadline_margin_ms", "500"});
  ASSERT_NE(server.client, nullptr);
  auto created = server.client->CreateBuiltin("mini_cheetah", 8);
  ASSERT_TRUE(created.ok());
  v1::StepBatchRequest batch;
  for (const std::string& id : created->instance_ids()) {
    *batch.add_steps() = MakeStep(id, Eigen::VectorXd::Zero(12), kSubsteps);
  }
  client::ClientOptions options;
  options.timeout = absl::Seconds(2);
  client::Client hurried(server.process->address(), options);
  const auto start = std::chrono::steady_clock::now();
  auto response = hurried.StepBatch(batch);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_LT(seconds, 2.0);
  int advanced = 0, stopped = 0;
  for (const v1::Observation& obs : response->observations()) {
    EXPECT_EQ(obs.status().code(), static_cast<int>(StatusCode::kDeadlineExceeded));
    EXPECT_NE(obs.status().message().find("deadline"), std::string::npos);
    EXPECT_LT(obs.substeps_done(), kSubsteps);
    EXPECT_EQ(obs.steps(), obs.substeps_done());
    if (obs.substeps_done() > 0) ++advanced;
    ++stopped;
  }
  EXPECT_GE(advanced, 1);
  EXPECT_EQ(stopped, 8);
}

TEST(ServiceLifecycle, StateMovesToASecondServerAndContinuesBitIdentically) {
  LiveServer first = StartServer();
  LiveServer second = StartServer();
  ASSERT_NE(first.client, nullptr);
  ASSERT_NE(second.client, nullptr);
  v1::Settings settings;
  settings.set_contact_model("moreau-jor");
  auto a = first.client->CreateBuiltin("mini_cheetah", 1, settings);
  auto b = second.client->CreateBuiltin("mini_cheetah", 1, settings);
  ASSERT_TRUE(a.ok() && b.ok());
  const std::string ida = a->instance_ids(0), idb = b->instance_ids(0);
  for (int t = 0; t < 30; ++t) ASSERT_TRUE(first.client->Step(ida, TestAction(12, t), 10).ok());
  auto saved = first.client->GetState(ida);
  ASSERT_TRUE(saved.ok());
  ASSERT_TRUE(second.client->SetState(idb, saved->state().data()).ok());
  for (int t = 30; t < 60; ++t) {
    ASSERT_TRUE(first.client->Step(ida, TestAction(12, t), 10).ok());
    ASSERT_TRUE(second.client->Step(idb, TestAction(12, t), 10).ok());
  }
  auto sa = first.client->GetState(ida);
  auto sb = second.client->GetState(idb);
  ASSERT_TRUE(sa.ok() && sb.ok());
  EXPECT_EQ(sa->state().data(), sb->state().data());
  EXPECT_NEAR(sb->time(), 0.6, 1e-12);
}

TEST(ServiceLifecycle, ServiceAndInProcessEngineGiveBitIdenticalStates) {
  LiveServer server = StartServer();
  ASSERT_NE(server.client, nullptr);
  for (const char* contact : {"moreau-sor", "spring-damper", "hertz"}) {
    SCOPED_TRACE(contact);
    v1::Settings settings;
    settings.set_contact_model(contact);
    settings.set_control_mode("pd");
    settings.set_dt(contact == std::string("hertz") ? 1e-4 : 1e-3);
    auto created = server.client->CreateBuiltin("mini_cheetah", 1, settings);
    ASSERT_TRUE(created.ok()) << created.status();
    auto model = LoadBuiltin("mini_cheetah");
    sim::Settings local_settings;
    local_settings.contact = sim::DefaultContactSettings(*sim::ParseContactModel(contact));
    local_settings.control.mode = sim::ControlMode::kPd;
    local_settings.dt = settings.dt();
    auto local = sim::Simulation::Create(*model, local_settings);
    ASSERT_TRUE(local.ok());
    Eigen::VectorXd q0(12);
    control::ActuatorPositions(**model, (*model)->q_default, q0);
    for (int t = 0; t < 25; ++t) {
      const Eigen::VectorXd action = q0 + 0.2 * TestAction(12, t, 1.0);
      ASSERT_TRUE(server.client->Step(created->instance_ids(0), action, 20).ok());
      ASSERT_TRUE((*local)->StepAction(action, 20).ok());
    }
    auto remote = server.client->GetState(created->instance_ids(0));
    ASSERT_TRUE(remote.ok());
    EXPECT_EQ(remote->state().data(), (*local)->Snapshot());
  }
}

TEST(ServiceLifecycle, ServiceAndMoreauSimReplayGiveBitIdenticalStates) {
  LiveServer server = StartServer();
  ASSERT_NE(server.client, nullptr);
  const std::string dir = ::testing::TempDir();
  const std::string actions_csv = dir + "/moreau_actions_" + std::to_string(getpid()) + ".csv";
  const std::string state_file = dir + "/moreau_state_" + std::to_string(getpid()) + ".bin";
  v1::Settings settings;
  settings.set_contact_model("moreau-jor");
  settings.set_control_mode("pd");
  auto created = server.client->CreateBuiltin("mini_cheetah", 1, settings);
  ASSERT_TRUE(created.ok()) << created.status();
  const v1::ModelSpec& spec = created->spec().model();
  std::ofstream csv(actions_csv);
  for (int t = 0; t < 40; ++t) {
    Eigen::VectorXd action(12);
    for (int a = 0; a < 12; ++a) {
      action[a] = spec.q_default(spec.joints(1 + a).q_index()) + 0.3 * std::sin(0.2 * t + a);
    }
    ASSERT_TRUE(server.client->Step(created->instance_ids(0), action, 20).ok());
    for (int a = 0; a < 12; ++a) csv << absl::StrFormat(a ? ",%.17g" : "%.17g", action[a]);
    csv << '\n';
  }
  csv.close();
  const std::string command = absl::StrCat(
      MOREAU_CLI_PATH, " sim mini_cheetah --contact moreau-jor --dt 0.001 --control pd --actions ",
      actions_csv, " --action-substeps 20 --state-out ", state_file, " > /dev/null 2>&1");
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  std::ifstream blob_file(state_file, std::ios::binary);
  const std::string blob((std::istreambuf_iterator<char>(blob_file)),
                         std::istreambuf_iterator<char>());
  auto remote = server.client->GetState(created->instance_ids(0));
  ASSERT_TRUE(remote.ok());
  EXPECT_FALSE(blob.empty());
  EXPECT_EQ(remote->state().data(), blob);
  EXPECT_NEAR(remote->time(), 0.8, 1e-12);
}

TEST(ServiceLifecycle, MetricsOverHttpShowTheCountersMoving) {
  LiveServer server = StartServer();
  ASSERT_NE(server.client, nullptr);
  auto created = server.client->CreateBuiltin("box", 2);
  ASSERT_TRUE(created.ok());
  const std::string steps = R"(moreau_steps_total{contact="moreau-sor",model="box"})";
  auto before = HttpGet(server.process->metrics_port(), "/metrics");
  ASSERT_TRUE(before.ok()) << before.status();
  EXPECT_EQ(MetricValue(*before, "moreau_live_instances"), 2.0);
  const double steps_before = std::max(0.0, MetricValue(*before, steps));
  ASSERT_TRUE(server.client->Step(created->instance_ids(0), Eigen::VectorXd::Zero(0), 40).ok());
  EXPECT_FALSE(server.client->Step("bogus", Eigen::VectorXd::Zero(0), 1).ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(700));  // the gauges' refresh
  auto after = HttpGet(server.process->metrics_port(), "/metrics");
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(MetricValue(*after, steps), steps_before + 40);
  EXPECT_GE(MetricValue(*after, R"(moreau_rpc_latency_seconds_count{code="OK",method="Step"})"),
            1.0);
  EXPECT_GE(
      MetricValue(*after, R"(moreau_rpc_latency_seconds_count{code="NOT_FOUND",method="Step"})"),
      1.0);
  EXPECT_GE(MetricValue(*after, "moreau_step_duration_seconds_count"), 1.0);
  EXPECT_GE(MetricValue(*after, "moreau_solver_iterations_count"), 1.0);
  EXPECT_GT(
      MetricValue(*after, R"(moreau_simulated_seconds_total{contact="moreau-sor",model="box"})"),
      0.039);
  EXPECT_NE(after->find("moreau_realtime_factor"), std::string::npos);
  EXPECT_NE(after->find("moreau_diverged_total"), std::string::npos);
}

TEST(ServiceLifecycle, SigtermDrainsInFlightCallsAndExitsZero) {
  LiveServer server = StartServer({"--max_substeps", "1000000"});
  ASSERT_NE(server.client, nullptr);
  auto created = server.client->CreateBuiltin("mini_cheetah", 1);
  ASSERT_TRUE(created.ok());
  absl::StatusOr<v1::Observation> result;
  std::thread caller([&] {
    result = server.client->Step(created->instance_ids(0), Eigen::VectorXd::Zero(12), 60000);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(150));  // the call is in flight
  const int exit_code = server.process->Terminate();
  caller.join();
  EXPECT_EQ(exit_code, 0);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->substeps_done(), 60000);
}

TEST(ServiceLifecycle, SecondServerOnAPortInUseFailsNamingIt) {
  LiveServer first = StartServer({});
  ASSERT_NE(first.client, nullptr);
  const std::string stderr_path =
      absl::StrCat(::testing::TempDir(), "/port_in_use_", getpid(), ".log");
  auto second = ServerProcess::Start({"--port", absl::StrCat(first.process->port())}, stderr_path);
  EXPECT_FALSE(second.ok()) << "a second moreaud shares port " << first.process->port();
  std::ifstream log(stderr_path);
  const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find(absl::StrCat("cannot listen on 127.0.0.1:", first.process->port())),
            std::string::npos)
      << text;
  // The first server still has every connection.
  EXPECT_TRUE(first.client->CreateBuiltin("sphere", 1).ok());
  std::remove(stderr_path.c_str());
}

}  // namespace
}  // namespace moreau::testing
