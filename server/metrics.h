// Prometheus metrics of the server (prometheus-cpp), served over plain HTTP on
// --metrics-port: steps by model and contact model, live instances and their
// limit, RPC latency by method and code, calls in flight by method, open
// streams, the worker queue's depth and wait time, step time, solver
// iterations, diverged instances, simulated seconds, the realtime factor,
// checkpoint writes and the build's version and commit.
//
// Every series whose label values are known in advance (methods, stream
// kinds, checkpoint outcomes, code OK of each method's latency) exists from
// start-up at 0, so that rate() and alerts see it before its first event.
//
// Per-call and per-instance series also carry a `tenant` label. Tenants come
// only from the server's tokens file, so the label's values are bounded by
// the operator, never by clients. The tenant "" (a server without tokens,
// or a call refused before it had a tenant) gets no label at all: Prometheus
// treats an empty label value as an absent label, so this is the same series.
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
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"

namespace moreau::server {

enum class Rpc {
  kListModels,
  kGetModel,
  kCreateInstances,
  kDestroyInstances,
  kListInstances,
  kReset,
  kStep,
  kStepBatch,
  kSession,
  kGetState,
  kSetState,
  kQuery,
  kWatch,
  kGetMesh,
  kCount,
};
const char* RpcName(Rpc rpc);
// The Rpc named `name` (as in simulator.proto's service), or nullopt.
std::optional<Rpc> RpcByName(std::string_view name);

class Metrics {
 public:
  Metrics();

  // Starts the HTTP endpoint (GET /metrics) on host:port (port 0: any free
  // port). UNAVAILABLE when the address cannot be bound.
  absl::Status Serve(const std::string& address);
  // The bound port, or 0 when not serving.
  int port() const;

  // Counters of one (model, contact model, tenant), created on first use.
  prometheus::Counter* StepsCounter(const std::string& model, const std::string& contact,
                                    const std::string& tenant = "");
  prometheus::Counter* DivergedCounter(const std::string& model, const std::string& contact,
                                       const std::string& tenant = "");
  prometheus::Counter* SimSecondsCounter(const std::string& model, const std::string& contact,
                                         const std::string& tenant = "");

  // One finished RPC (a stream when it ends) of `tenant`.
  void ObserveRpc(Rpc rpc, grpc::StatusCode code, double seconds, const std::string& tenant = "")
      ABSL_LOCKS_EXCLUDED(mu_, tenants_mu_);
  // One stepping call of one instance: wall time per simulation step and the
  // solver iterations of the last step.
  void ObserveStep(double seconds_per_step, int solver_iterations);
  void SetLiveInstances(int count) { live_instances_->Set(count); }
  // Live instances of each named tenant (tenants not in `live` show 0).
  void SetTenantInstances(const absl::flat_hash_map<std::string, int>& live)
      ABSL_LOCKS_EXCLUDED(tenants_mu_);
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

  // A call of `rpc` arrived / ended (a stream ends when its last reaction is
  // done): moreau_rpcs_in_flight{method}.
  void RpcStarted(Rpc rpc) { in_flight_[static_cast<int>(rpc)]->Increment(); }
  void RpcEnded(Rpc rpc) { in_flight_[static_cast<int>(rpc)]->Decrement(); }
  // Open Session (`rpc` kSession) or Watch (kWatch) streams now.
  void SetOpenStreams(Rpc rpc, int count);
  // The worker pool: its threads, the tasks waiting for one, and how long
  // one task waited from Submit until a worker started it.
  void SetWorkerThreads(int count) { worker_threads_->Set(count); }
  void SetQueueDepth(int depth) { queue_depth_->Set(depth); }
  void ObserveQueueWait(double seconds) { queue_wait_->Observe(seconds); }
  // The server's --max-instances.
  void SetMaxInstances(int count) { max_instances_->Set(count); }

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
  std::array<prometheus::Gauge*, static_cast<int>(Rpc::kCount)> in_flight_{};
  prometheus::Gauge* open_sessions_;
  prometheus::Gauge* open_watches_;
  prometheus::Gauge* worker_threads_;
  prometheus::Gauge* queue_depth_;
  prometheus::Histogram* queue_wait_;
  prometheus::Gauge* max_instances_;

  // Latency histograms of one tenant by [rpc][code], created on first use.
  using LatencyTable = std::array<std::array<std::atomic<prometheus::Histogram*>, 17>,
                                  static_cast<int>(Rpc::kCount)>;
  LatencyTable& LatencyOf(const std::string& tenant) ABSL_LOCKS_EXCLUDED(tenants_mu_);

  prometheus::Family<prometheus::Gauge>* tenant_instances_family_;

  absl::Mutex mu_;
  LatencyTable latency_{};  // tenant ""
  absl::Mutex tenants_mu_;
  // Named tenants' tables (never removed: the tenants are bounded by the
  // tokens file).
  absl::flat_hash_map<std::string, std::unique_ptr<LatencyTable>> tenant_latency_
      ABSL_GUARDED_BY(tenants_mu_);
  absl::flat_hash_map<std::string, prometheus::Gauge*> tenant_instances_
      ABSL_GUARDED_BY(tenants_mu_);
  double last_sim_seconds_ ABSL_GUARDED_BY(mu_) = 0.0;
  double last_clock_s_ ABSL_GUARDED_BY(mu_) = 0.0;
};

}  // namespace moreau::server

#endif  // MOREAU_SERVER_METRICS_H_
