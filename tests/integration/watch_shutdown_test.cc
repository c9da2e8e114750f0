// Watch streams and SIGTERM: every Watch stream must be finished by the
// server once it stops (gRPC's Shutdown waits for every open call until
// --shutdown-grace-s), whatever the stream was doing when the signal came.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "tests/integration/service_test_util.h"

namespace moreau::testing {
namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A Watch cancelled by its client at once (before its first frame, after it,
// or a few frames in) on an instance that is being stepped and is then
// destroyed; then SIGTERM. Timing dependent, so repeated over fresh servers.
TEST(WatchShutdown, CancelledWatchesOfADestroyedSteppedInstanceDoNotDelaySigterm) {
  constexpr int kServers = 20;
  constexpr int kWatchesPerServer = 6;
  std::vector<double> exit_seconds;
  for (int round = 0; round < kServers; ++round) {
    const std::string stderr_path =
        absl::StrCat(::testing::TempDir(), "/watch_shutdown_", getpid(), "_", round, ".log");
    LiveServer server = StartServer({"--shutdown_grace_s", "10"}, stderr_path);
    ASSERT_NE(server.client, nullptr);
    client::Client& client = *server.client;
    for (int w = 0; w < kWatchesPerServer; ++w) {
      auto created = client.CreateBuiltin("mini_cheetah", 1);
      ASSERT_TRUE(created.ok()) << created.status();
      const std::string id = created->instance_ids(0);
      std::atomic<bool> stop{false};
      std::thread stepper([&] {
        // Until the instance is gone (NOT_FOUND) or the test stops it.
        while (!stop.load() && client.Step(id, Eigen::VectorXd::Zero(12), 5).ok()) {
        }
      });
      std::unique_ptr<client::Client::WatchStream> watch = client.Watch(id, 1000.0);
      v1::WatchFrame frame;
      for (int f = 0; f < w % 3 && watch->Read(&frame); ++f) {
      }
      watch->Cancel();
      auto destroyed = client.DestroyInstances({id});
      stop = true;
      stepper.join();
      EXPECT_TRUE(destroyed.ok()) << destroyed.status();
      watch->Finish().IgnoreError();  // CANCELLED, at once on the client's side
    }
    // The client's channel is closed first: an idle synchronous channel
    // answers the server's GOAWAY only when gRPC's backup poller next runs
    // (every 5 s), which would hold the server's shutdown that long.
    server.client.reset();
    const auto start = std::chrono::steady_clock::now();
    const int exit_code = server.process->Terminate();
    const double seconds = SecondsSince(start);
    exit_seconds.push_back(seconds);
    EXPECT_EQ(exit_code, 0);
    EXPECT_LT(seconds, 3.0) << "server " << round << " took " << seconds
                            << " s to exit after SIGTERM; its stderr:\n"
                            << ReadTextFile(stderr_path);
    std::remove(stderr_path.c_str());
  }
  std::sort(exit_seconds.begin(), exit_seconds.end());
  std::printf("exit after SIGTERM over %d servers: min %.3f s, median %.3f s, max %.3f s\n",
              kServers, exit_seconds.front(), exit_seconds[exit_seconds.size() / 2],
              exit_seconds.back());
}

// A Watch whose handler is still building its stream when SIGTERM comes (it
// waits for the instance, which a long step holds): the stream must still
// end with UNAVAILABLE as soon as the step is done, not at the grace's end.
TEST(WatchShutdown, WatchStartingWhenSigtermComesEndsWithoutTheGrace) {
  const std::string stderr_path =
      absl::StrCat(::testing::TempDir(), "/watch_starting_", getpid(), ".log");
  LiveServer server =
      StartServer({"--shutdown_grace_s", "10", "--max_substeps", "1000000"}, stderr_path);
  ASSERT_NE(server.client, nullptr);
  auto created = server.client->CreateBuiltin("mini_cheetah", 1);
  ASSERT_TRUE(created.ok()) << created.status();
  const std::string id = created->instance_ids(0);
  // 60000 sub-steps: about a second here, much longer than the 300 ms below.
  absl::StatusOr<v1::Observation> stepped;
  std::chrono::steady_clock::time_point step_done;
  std::thread stepper([&] {
    stepped = server.client->Step(id, Eigen::VectorXd::Zero(12), 60000);
    step_done = std::chrono::steady_clock::now();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(150));  // the step holds the instance
  std::unique_ptr<client::Client::WatchStream> watch = server.client->Watch(id, 30.0);
  std::this_thread::sleep_for(std::chrono::milliseconds(150));  // the Watch waits for it
  const auto signalled = std::chrono::steady_clock::now();
  server.process->Signal(SIGTERM);
  v1::WatchFrame frame;
  while (watch->Read(&frame)) {
  }
  const absl::Status watched = watch->Finish();
  stepper.join();
  const int exit_code = server.process->Wait();
  const double exit_after_signal = SecondsSince(signalled);
  const double exit_after_step = SecondsSince(step_done);
  std::printf("step done %.3f s after SIGTERM, exit %.3f s after SIGTERM; the watch: %s\n",
              exit_after_signal - exit_after_step, exit_after_signal, watched.ToString().c_str());
  EXPECT_EQ(exit_code, 0);
  ASSERT_TRUE(stepped.ok()) << stepped.status();
  EXPECT_EQ(stepped->substeps_done(), 60000);
  EXPECT_EQ(watched.code(), absl::StatusCode::kUnavailable) << watched;
  EXPECT_TRUE(absl::StrContains(watched.message(), "shutting down")) << watched;
  EXPECT_LT(exit_after_step, 3.0) << "its stderr:\n" << ReadTextFile(stderr_path);
  EXPECT_LT(exit_after_signal, 9.0);
  std::remove(stderr_path.c_str());
}

}  // namespace
}  // namespace moreau::testing
