// Prometheus metrics of the server (prometheus-cpp), served over HTTP on
// --metrics-port: steps by model and contact model, live instances, RPC
// latency by method and code, step time, solver iterations, diverged
// instances, simulated seconds, the realtime factor and checkpoint writes.
#ifndef MOREAU_SERVER_METRICS_H_
#define MOREAU_SERVER_METRICS_H_

#include <grpcpp/support/status.h>
#include <prometheus/counter.h>
#include <prometheus/exposer.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include <array>
#include <atomic>
#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"

namespace moreau::server {

enum class Rpc {
  kListModels,
  kGetModel,
  kCreateInstances,
  kDestroyInstances,
  kReset,
  kStep,
  kStepBatch,
  kSession,
  kGetState,
  kSetState,
  kQuery,
  kWatch,
  kCount,
};
const char* RpcName(Rpc rpc);

class Metrics {
 public:
  Metrics();

  // Starts the HTTP endpoint (GET /metrics) on host:port (port 0: any free
  // port). UNAVAILABLE when the address cannot be bound.
  absl::Status Serve(const std::string& address);
  // The bound port, or 0 when not serving.
  int port() const;

  // Counters of one (model, contact model) pair, created on first use.
  prometheus::Counter* StepsCounter(const std::string& model, const std::string& contact);
  prometheus::Counter* DivergedCounter(const std::string& model, const std::string& contact);
  prometheus::Counter* SimSecondsCounter(const std::string& model, const std::string& contact);

  // One finished RPC (a stream when it ends).
  void ObserveRpc(Rpc rpc, grpc::StatusCode code, double seconds) ABSL_LOCKS_EXCLUDED(mu_);
  // One stepping call of one instance: wall time per simulation step and the
  // solver iterations of the last step.
  void ObserveStep(double seconds_per_step, int solver_iterations);
  void SetLiveInstances(int count) { live_instances_->Set(count); }
  void InstancesReclaimed(int count) { reclaimed_->Increment(count); }
  // Wall seconds spent stepping (all instances); with the simulated seconds
  // this gives the realtime factor, updated by UpdateRealtimeFactor.
  void AddStepWallSeconds(double seconds) { step_wall_seconds_->Increment(seconds); }
  // Checkpoint files written (`ok`) and not written (`error`: an unwritable
  // or full state directory).
  void CheckpointsWritten(int ok, int error) {
    if (ok > 0) checkpoints_ok_->Increment(ok);
    if (error > 0) checkpoints_error_->Increment(error);
  }
  // Realtime factor since the previous call: Δ simulated s / Δ wall s (clock).
  void UpdateRealtimeFactor() ABSL_LOCKS_EXCLUDED(mu_);

 private:
  std::shared_ptr<prometheus::Registry> registry_;
  std::unique_ptr<prometheus::Exposer> exposer_;
  prometheus::Family<prometheus::Counter>* steps_family_;
  prometheus::Family<prometheus::Counter>* diverged_family_;
  prometheus::Family<prometheus::Counter>* sim_seconds_family_;
  prometheus::Family<prometheus::Histogram>* rpc_latency_family_;
  prometheus::Gauge* live_instances_;
  prometheus::Counter* reclaimed_;
  prometheus::Counter* step_wall_seconds_;
  prometheus::Histogram* step_seconds_;
  prometheus::Histogram* solver_iterations_;
  prometheus::Gauge* realtime_factor_;
  prometheus::Counter* checkpoints_ok_;
  prometheus::Counter* checkpoints_error_;

  absl::Mutex mu_;
  // Latency histograms by [rpc][code], created on first use.
  std::array<std::array<std::atomic<prometheus::Histogram*>, 17>, static_cast<int>(Rpc::kCount)>
      latency_{};
  double last_sim_seconds_ ABSL_GUARDED_BY(mu_) = 0.0;
  double last_clock_s_ ABSL_GUARDED_BY(mu_) = 0.0;
};

}  // namespace moreau::server

#endif  // MOREAU_SERVER_METRICS_H_
