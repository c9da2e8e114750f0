// The service under sustained load: eight clients each stepping 32 Mini
// Cheetah instances in batches for 10 s, without errors and without RSS growth
// after the warm-up.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "tests/integration/service_test_util.h"

namespace moreau::testing {
namespace {

TEST(ServiceLifecycle, EightClientsTimes32InstancesFor10sWithoutErrorsOrLeaks) {
  LiveServer server = StartServer({"--max_instances", "256"});
  ASSERT_NE(server.client, nullptr);
  constexpr int kClients = 8, kInstances = 32;
  std::atomic<long> errors{0}, batches{0};
  std::atomic<bool> stop{false};
  long rss_after_warmup = 0;
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&, c] {
      client::Client own(server.process->address());
      v1::Settings settings;
      settings.set_control_mode("pd");
      auto created = own.CreateBuiltin("mini_cheetah", kInstances, settings);
      if (!created.ok()) {
        ++errors;
        return;
      }
      const v1::ModelSpec& spec = created->spec().model();
      Eigen::VectorXd target(12);
      for (int a = 0; a < 12; ++a) {
        target[a] = spec.q_default(spec.joints(1 + a).q_index());
      }
      for (int t = 0; !stop; ++t) {
        v1::StepBatchRequest batch;
        for (const std::string& id : created->instance_ids()) {
          *batch.add_steps() = MakeStep(id, target + 0.1 * TestAction(12, t + c, 1.0), 5);
        }
        auto response = own.StepBatch(batch);
        if (!response.ok()) {
          ++errors;
          continue;
        }
        for (const v1::Observation& obs : response->observations()) {
          if (obs.status().code() != 0) ++errors;
        }
        ++batches;
        if (t % 50 == 0) {  // some churn: state reads and queries too
          if (!own.GetState(created->instance_ids(t % kInstances)).ok()) ++errors;
        }
      }
      std::vector<std::string> ids(created->instance_ids().begin(), created->instance_ids().end());
      if (!own.DestroyInstances(ids).ok()) ++errors;
    });
  }
  std::this_thread::sleep_for(std::chrono::seconds(3));
  rss_after_warmup = server.process->RssKb();
  std::this_thread::sleep_for(std::chrono::seconds(7));
  const long rss_end = server.process->RssKb();
  stop = true;
  for (std::thread& t : clients) t.join();
  EXPECT_EQ(errors.load(), 0);
  EXPECT_GT(batches.load(), kClients * 10);
  // Stable: steady-state growth under 10 % (allocator noise), not a leak per step.
  EXPECT_LT(rss_end, rss_after_warmup * 11 / 10 + 2048)
      << "RSS grew from " << rss_after_warmup << " kB to " << rss_end << " kB";
  auto list = server.client->ListModels();
  EXPECT_TRUE(list.ok());
  std::printf("load: %ld batches of 32 × 5 sub-steps from 8 clients in 10 s; RSS %ld → %ld kB\n",
              batches.load(), rss_after_warmup, rss_end);
}

}  // namespace
}  // namespace moreau::testing
