// One simulation instance hosted by the server: the Simulation, stepped by one
// thread at a time under `mu`, plus what the registry, metrics and watchers
// need to know about it.
#ifndef MOREAU_SERVER_INSTANCE_H_
#define MOREAU_SERVER_INSTANCE_H_

#include <Eigen/Core>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "engine/sim/simulation.h"
#include "moreau/v1/simulator.pb.h"
#include "server/instance_pushes.h"
#include "server/observed_links.h"

namespace prometheus {
class Counter;
}  // namespace prometheus

namespace moreau::server {

// What a watcher samples: the latest published state and contacts, copied
// by the stepping thread only while someone watches.
struct WatchSample {
  uint64_t version = 0;  // bumped on every publish
  sim::State state;
  std::vector<double> normal_forces;
  std::vector<char> contact_flags;
};

struct Instance {
  Instance(std::string instance_id, std::unique_ptr<sim::Simulation> simulation)
      : id(std::move(instance_id)), sim(std::move(simulation)) {}

  const std::string id;
  // The tenant that created the instance ("" when the server runs without
  // tokens); no other tenant can see it.
  std::string tenant;
  // What the instance was created from, kept so that a checkpoint can build
  // it again: the model source (shared by the instances of one create call)
  // and the settings as the client sent them.
  std::shared_ptr<const v1::ModelSource> source;
  v1::Settings settings;
  // What ListInstances shows of it, resolved at creation (the model's name,
  // the contact model and controller actually used, defaults included).
  std::string model_name;
  std::string contact_model_name;
  std::string controller_name;

  absl::Mutex mu;  // held while the instance is stepped, reset, read or written
  // Also knows whether a step diverged (sim::Simulation::diverged()).
  const std::unique_ptr<sim::Simulation> sim ABSL_PT_GUARDED_BY(mu);
  Eigen::VectorXd action ABSL_GUARDED_BY(mu);  // scratch: the current action
  // Pushes still acting (StepRequest.pushes, instance_pushes.h); Reset and
  // SetState end them.
  std::vector<ActivePush> pushes ABSL_GUARDED_BY(mu);
  PushScratch push_scratch ABSL_GUARDED_BY(mu);
  // The links whose positions its observations carry (after `sim`, whose
  // model it refers to: destroyed first).
  ObservedLinks observed ABSL_GUARDED_BY(mu);

  // Monotonic time (ns) of the last call that used the instance (idle reaping).
  std::atomic<int64_t> last_used_ns{0};
  // Wall-clock times (Unix ns) of its creation and of its last step (0:
  // none yet), for ListInstances.
  const int64_t created_unix_ns = absl::ToUnixNanos(absl::Now());
  std::atomic<int64_t> last_stepped_unix_ns{0};
  // What ListInstances shows while a call holds `mu`: the state as the last
  // stepping call left it (PublishProgress).
  std::atomic<double> published_time{0.0};
  std::atomic<int64_t> published_steps{0};
  std::atomic<bool> published_diverged{false};
  std::atomic<bool> destroyed{false};

  // Metrics, resolved once at creation (labels: model, contact model).
  prometheus::Counter* steps_counter = nullptr;
  prometheus::Counter* diverged_counter = nullptr;
  prometheus::Counter* sim_seconds_counter = nullptr;

  // Watch support: stepping publishes a sample only while watchers > 0.
  std::atomic<int> watchers{0};
  absl::Mutex sample_mu;
  WatchSample sample ABSL_GUARDED_BY(sample_mu);

  // Copies the simulation's current state and contacts into `sample`.
  void PublishSample() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) ABSL_LOCKS_EXCLUDED(sample_mu);
  // Records now as the instance's last use (idle reaping).
  void Touch();
  // Publishes the simulation's time, steps and divergence for ListInstances
  // (and, when `stepped`, now as the time of its last step).
  void PublishProgress(bool stepped) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu);
};

// Monotonic clock in ns.
int64_t MonotonicNowNs();

}  // namespace moreau::server

#endif  // MOREAU_SERVER_INSTANCE_H_
