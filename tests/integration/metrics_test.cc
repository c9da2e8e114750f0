// moreaud's /metrics over real HTTP: every series whose labels are known in
// advance exists at 0 from start-up, the operator's series (calls in flight,
// open streams, the worker queue, the instance limit, the build) move with
// calls and come back, and Prometheus's own linter (promtool check metrics)
// accepts the page.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "tests/integration/service_test_util.h"

namespace moreau::testing {
namespace {

constexpr const char* kMethods[] = {
    "ListModels", "GetModel", "CreateInstances", "DestroyInstances", "ListInstances",
    "Reset",      "Step",     "StepBatch",       "Session",          "GetState",
    "SetState",   "Query",    "Watch",           "GetMesh"};

std::string Scrape(const ServerProcess& process) {
  auto page = HttpGet(process.metrics_port(), "/metrics");
  EXPECT_TRUE(page.ok()) << page.status();
  return page.ok() ? *page : std::string();
}

// Scrapes until `holds` is true of the page (the server updates some series
// just after a reply reaches the client), for at most 10 s; the last page.
std::string ScrapeUntil(const ServerProcess& process,
                        const std::function<bool(const std::string&)>& holds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  std::string page = Scrape(process);
  while (!holds(page) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    page = Scrape(process);
  }
  return page;
}

std::string InFlight(const std::string& method) {
  return absl::StrCat("moreau_rpcs_in_flight{method=\"", method, "\"}");
}

double TotalInFlight(const std::string& page) {
  double total = 0.0;
  for (const char* method : kMethods) total += MetricValue(page, InFlight(method));
  return total;
}

// promtool check metrics on `page`: its exit code, its findings in `output`.
int PromtoolCheck(const std::string& page, std::string* output) {
  char path[] = "/tmp/moreau_metrics_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return -1;
  close(fd);
  std::ofstream(path) << page;
  const std::string command =
      absl::StrCat(MOREAU_PROMTOOL_PATH, " check metrics < ", path, " 2>&1");
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return -1;
  char buffer[4096];
  size_t n = 0;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) output->append(buffer, n);
  const int status = pclose(pipe);
  unlink(path);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(Metrics, SeriesWithKnownLabelsExistAtZeroFromStartUp) {
  LiveServer server = StartServer({"--workers", "2", "--max_instances", "77"});
  ASSERT_NE(server.process, nullptr);
  const std::string page = Scrape(*server.process);
  for (const char* method : kMethods) {
    SCOPED_TRACE(method);
    EXPECT_EQ(MetricValue(page, InFlight(method)), 0.0);
    EXPECT_EQ(
        MetricValue(page, absl::StrCat("moreau_rpc_latency_seconds_count{code=\"OK\",method=\"",
                                       method, "\"}")),
        0.0);
  }
  EXPECT_EQ(MetricValue(page, R"(moreau_open_streams{method="Session"})"), 0.0);
  EXPECT_EQ(MetricValue(page, R"(moreau_open_streams{method="Watch"})"), 0.0);
  EXPECT_EQ(MetricValue(page, "moreau_worker_threads"), 2.0);
  EXPECT_EQ(MetricValue(page, "moreau_worker_queue_depth"), 0.0);
  EXPECT_EQ(MetricValue(page, "moreau_worker_queue_wait_seconds_count"), 0.0);
  EXPECT_EQ(MetricValue(page, R"(moreau_worker_queue_wait_seconds_bucket{le="+Inf"})"), 0.0);
  EXPECT_EQ(MetricValue(page, "moreau_max_instances"), 77.0);
  EXPECT_EQ(MetricValue(page, "moreau_live_instances"), 0.0);
  EXPECT_EQ(MetricValue(page, R"(moreau_checkpoints_total{outcome="ok"})"), 0.0);
  EXPECT_EQ(MetricValue(page, R"(moreau_checkpoints_total{outcome="error"})"), 0.0);
  // One build_info series, value 1, with this build's version and a commit.
  std::vector<std::string> build_info;
  std::istringstream lines(page);
  for (std::string line; std::getline(lines, line);) {
    if (absl::StartsWith(line, "moreau_build_info{")) build_info.push_back(line);
  }
  ASSERT_EQ(build_info.size(), 1u) << page;
  EXPECT_TRUE(absl::StartsWith(build_info[0], "moreau_build_info{commit=\"")) << build_info[0];
  EXPECT_FALSE(absl::StartsWith(build_info[0], "moreau_build_info{commit=\"\"")) << build_info[0];
  EXPECT_TRUE(absl::EndsWith(build_info[0], absl::StrCat(",version=\"", MOREAU_VERSION, "\"} 1")))
      << build_info[0];
}

TEST(Metrics, PromtoolAcceptsTheScrape) {
  LiveServer server = StartServer();
  ASSERT_NE(server.client, nullptr);
  // Every kind of series present: labelled steps, a failed call, an instance.
  auto created = server.client->CreateBuiltin("box", 1);
  ASSERT_TRUE(created.ok()) << created.status();
  ASSERT_TRUE(server.client->Step(created->instance_ids(0), Eigen::VectorXd::Zero(0), 10).ok());
  EXPECT_FALSE(server.client->GetState("bogus").ok());
  const std::string page = Scrape(*server.process);
  ASSERT_FALSE(page.empty());
  std::string findings;
  EXPECT_EQ(PromtoolCheck(page, &findings), 0) << MOREAU_PROMTOOL_PATH << " check metrics:\n"
                                               << findings;
}

TEST(Metrics, CallsInFlightQueueAndStreamsMoveAndComeBack) {
  // Steps of more than one sub-step go to the two workers' queue.
  LiveServer server = StartServer({"--workers", "2", "--inline_substeps", "1"});
  ASSERT_NE(server.client, nullptr);
  auto created = server.client->CreateBuiltin("box", 4);
  ASSERT_TRUE(created.ok()) << created.status();
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(server.client->Step(created->instance_ids(0), Eigen::VectorXd::Zero(0), 10).ok());
  }
  v1::StepBatchRequest batch;
  for (const std::string& id : created->instance_ids()) {
    *batch.add_steps() = MakeStep(id, Eigen::VectorXd::Zero(0), 10);
  }
  ASSERT_TRUE(server.client->StepBatch(batch).ok());

  // Streams: a session and a watch open at once are in flight and open.
  std::unique_ptr<client::Client::Session> session = server.client->OpenSession();
  ASSERT_TRUE(session->Send(MakeStep(created->instance_ids(1), Eigen::VectorXd::Zero(0), 5)));
  v1::Observation obs;
  ASSERT_TRUE(session->Receive(&obs));
  std::unique_ptr<client::Client::WatchStream> watch =
      server.client->Watch(created->instance_ids(2), 50.0);
  v1::WatchFrame frame;
  ASSERT_TRUE(watch->Read(&frame));
  std::string page = ScrapeUntil(*server.process, [](const std::string& p) {
    return MetricValue(p, R"(moreau_open_streams{method="Watch"})") == 1.0 &&
           MetricValue(p, R"(moreau_open_streams{method="Session"})") == 1.0;
  });
  EXPECT_EQ(MetricValue(page, R"(moreau_open_streams{method="Session"})"), 1.0);
  EXPECT_EQ(MetricValue(page, R"(moreau_open_streams{method="Watch"})"), 1.0);
  EXPECT_EQ(MetricValue(page, InFlight("Session")), 1.0);
  EXPECT_EQ(MetricValue(page, InFlight("Watch")), 1.0);
  EXPECT_TRUE(session->Close().ok());
  watch->Cancel();
  while (watch->Read(&frame)) {
  }
  watch->Finish().IgnoreError();

  // Every call ended: nothing in flight, no stream open, no task queued.
  page = ScrapeUntil(*server.process, [](const std::string& p) {
    return TotalInFlight(p) == 0.0 &&
           MetricValue(p, R"(moreau_open_streams{method="Session"})") == 0.0 &&
           MetricValue(p, R"(moreau_open_streams{method="Watch"})") == 0.0;
  });
  for (const char* method : kMethods) {
    EXPECT_EQ(MetricValue(page, InFlight(method)), 0.0) << method;
  }
  EXPECT_EQ(MetricValue(page, R"(moreau_open_streams{method="Session"})"), 0.0);
  EXPECT_EQ(MetricValue(page, R"(moreau_open_streams{method="Watch"})"), 0.0);
  EXPECT_EQ(MetricValue(page, "moreau_worker_queue_depth"), 0.0);
  // 3 Steps, 2 runners of the batch, 1 session step: 6 waits observed.
  EXPECT_EQ(MetricValue(page, "moreau_worker_queue_wait_seconds_count"), 6.0);
  EXPECT_GE(MetricValue(page, "moreau_worker_queue_wait_seconds_sum"), 0.0);
  EXPECT_EQ(MetricValue(page, R"(moreau_rpc_latency_seconds_count{code="OK",method="Step"})"), 3.0);
  EXPECT_EQ(MetricValue(page, R"(moreau_rpc_latency_seconds_count{code="OK",method="Session"})"),
            1.0);
}

TEST(Metrics, CallsRefusedOrFailedLeaveNothingInFlight) {
  LiveServer server = StartServer({"--max_instances", "2"});
  ASSERT_NE(server.client, nullptr);
  EXPECT_FALSE(server.client->CreateBuiltin("box", 3).ok());  // past --max-instances
  EXPECT_FALSE(server.client->CreateBuiltin("no_such_model", 1).ok());
  EXPECT_FALSE(server.client->Step("bogus", Eigen::VectorXd::Zero(0), 10).ok());
  auto watch = server.client->Watch("bogus", 10.0);
  v1::WatchFrame frame;
  EXPECT_FALSE(watch->Read(&frame));
  EXPECT_FALSE(watch->Finish().ok());
  const std::string page =
      ScrapeUntil(*server.process, [](const std::string& p) { return TotalInFlight(p) == 0.0; });
  EXPECT_EQ(TotalInFlight(page), 0.0);
  EXPECT_EQ(MetricValue(page, "moreau_max_instances"), 2.0);
  EXPECT_GE(
      MetricValue(page, R"(moreau_rpc_latency_seconds_count{code="NOT_FOUND",method="Watch"})"),
      1.0);
}

}  // namespace
}  // namespace moreau::testing
