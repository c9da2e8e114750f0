// moreau.v1.Simulator on gRPC's callback API: a thin layer over engine/sim
// (STYLE.md rule 8) — validate the whole request, look up the instance, call
// the simulation, fill the reply. Steps run on the worker pool (or inline when
// short), one thread per instance at a time.
#ifndef MOREAU_SERVER_SERVICE_H_
#define MOREAU_SERVER_SERVICE_H_

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/time/time.h"
#include "engine/contact/terrain.h"
#include "engine/model/urdf_limits.h"
#include "moreau/v1/simulator.grpc.pb.h"
#include "server/auth_interceptor.h"
#include "server/checkpoint.h"
#include "server/metrics.h"
#include "server/registry.h"
#include "server/session_reactor.h"
#include "server/tenant.h"
#include "server/watch_hub.h"
#include "server/worker_pool.h"

namespace moreau::server {

class CheckpointStore;

struct ServiceOptions {
  int max_instances = 1024;
  int max_substeps = 10000;  // per instance per call
  int max_batch = 4096;      // instances per StepBatch
  int max_create = 1024;     // instances per CreateInstances
  int worker_threads = 0;    // 0: one per core
  // Calls whose total sub-steps are at most this run on the gRPC thread that
  // received them (saves a thread hop); longer ones go to the worker pool.
  int inline_substeps = 4;
  // A StepBatch stops starting sub-steps this long before its deadline, so
  // the reply (which says which instances advanced) arrives in time.
  absl::Duration deadline_margin = absl::Milliseconds(20);
  // Each call's tenant, from the authentication interceptor; nullptr: no
  // authentication, every caller is the tenant "".
  const CallAuthenticator* auth = nullptr;
  // Streams open at once (RESOURCE_EXHAUSTED past them): each Session holds a
  // reactor, each Watch also a Data and a place in the pump's loop.
  int max_sessions = 1024;
  int max_watches = 256;
  // Sizes of client-sent models and terrains (INVALID_ARGUMENT past them).
  UrdfLimits urdf_limits;
  contact::HeightfieldLimits heightfield_limits;
};

class SimulatorService final : public v1::Simulator::CallbackService {
 public:
  // `checkpoints` (optional): the state directory, told when instances are
  // destroyed or reclaimed.
  SimulatorService(const ServiceOptions& options, Metrics* metrics,
                   CheckpointStore* checkpoints = nullptr);
  ~SimulatorService() override;

  grpc::ServerUnaryReactor* ListModels(grpc::CallbackServerContext* context,
                                       const v1::ListModelsRequest* request,
                                       v1::ListModelsResponse* response) override;
  grpc::ServerUnaryReactor* GetModel(grpc::CallbackServerContext* context,
                                     const v1::GetModelRequest* request,
                                     v1::GetModelResponse* response) override;
  grpc::ServerUnaryReactor* CreateInstances(grpc::CallbackServerContext* context,
                                            const v1::CreateInstancesRequest* request,
                                            v1::CreateInstancesResponse* response) override;
  grpc::ServerUnaryReactor* DestroyInstances(grpc::CallbackServerContext* context,
                                             const v1::DestroyInstancesRequest* request,
                                             v1::DestroyInstancesResponse* response) override;
  grpc::ServerUnaryReactor* Reset(grpc::CallbackServerContext* context,
                                  const v1::ResetRequest* request,
                                  v1::ResetResponse* response) override;
  grpc::ServerUnaryReactor* Step(grpc::CallbackServerContext* context,
                                 const v1::StepRequest* request,
                                 v1::StepResponse* response) override;
  grpc::ServerUnaryReactor* StepBatch(grpc::CallbackServerContext* context,
                                      const v1::StepBatchRequest* request,
                                      v1::StepBatchResponse* response) override;
  grpc::ServerBidiReactor<v1::SessionRequest, v1::SessionResponse>* Session(
      grpc::CallbackServerContext* context) override;
  grpc::ServerUnaryReactor* GetState(grpc::CallbackServerContext* context,
                                     const v1::GetStateRequest* request,
                                     v1::GetStateResponse* response) override;
  grpc::ServerUnaryReactor* SetState(grpc::CallbackServerContext* context,
                                     const v1::SetStateRequest* request,
                                     v1::SetStateResponse* response) override;
  grpc::ServerUnaryReactor* Query(grpc::CallbackServerContext* context,
                                  const v1::QueryRequest* request,
                                  v1::QueryResponse* response) override;
  grpc::ServerWriteReactor<v1::WatchFrame>* Watch(grpc::CallbackServerContext* context,
                                                  const v1::WatchRequest* request) override;

  // Frees instances unused for longer than `timeout`; returns how many.
  int ReclaimIdle(absl::Duration timeout);
  // Refreshes the gauges that are sampled rather than counted.
  void UpdateGauges();
  // Server shutdown: ends every Session stream (after the step in progress
  // is answered) and every Watch stream with UNAVAILABLE, and refuses new ones.
  void StopStreams() {
    session_hub_.Stop();
    watch_hub_.Stop();
  }
  // Rebuilds a checkpointed instance under its id and tenant: the model from
  // its source (FAILED_PRECONDITION when the model no longer has the
  // checkpoint's fingerprint), the settings, the state, the diverged flag.
  absl::Status RestoreInstance(const CheckpointRecord& record);

  const Registry& registry() const { return registry_; }

  // Steps one instance `substeps` times holding `action` (or fewer when the
  // deadline comes), fills `obs` including its status. Used by Step,
  // StepBatch and Session.
  void StepInstance(Instance& instance, const v1::StepRequest& request, absl::Time deadline,
                    v1::Observation* obs);
  // The same into row `row` of a packed batch sized for the instance's model.
  void StepInstance(Instance& instance, const v1::StepRequest& request, absl::Time deadline,
                    int row, v1::ObservationBatch* batch);
  // Whether a call with this many sub-steps in all runs inline.
  bool RunsInline(long total_substeps) const { return total_substeps <= options_.inline_substeps; }
  WorkerPool& pool() { return pool_; }
  Metrics& metrics() { return *metrics_; }
  // Resolves the instance of a step request of `tenant`; NOT_FOUND or
  // INVALID_ARGUMENT (sub-steps over the limit) naming the problem.
  absl::StatusOr<std::shared_ptr<Instance>> ResolveStep(const v1::StepRequest& request,
                                                        const std::string& tenant) const;
  // Who makes the call: the tenant "" without authentication, else the
  // tenant of the call's bearer token, or UNAUTHENTICATED.
  absl::StatusOr<Tenant> Caller(const grpc::CallbackServerContext* context) const;
  // The stepping shared by both StepInstance forms: `observe` reads the
  // simulation while the instance is still locked. Returns the step's status
  // and sets `substeps_done`.
  absl::Status StepAndObserve(Instance& instance, const v1::StepRequest& request,
                              absl::Time deadline,
                              absl::FunctionRef<void(const sim::Simulation&)> observe,
                              int& substeps_done);

 private:
  grpc::ServerUnaryReactor* Finish(grpc::CallbackServerContext* context, Rpc rpc, absl::Time start,
                                   const absl::Status& status);

  const ServiceOptions options_;
  Metrics* const metrics_;
  CheckpointStore* const checkpoints_;  // may be null
  Registry registry_;
  WorkerPool pool_;
  SessionHub session_hub_;
  WatchHub watch_hub_;
  v1::ListModelsResponse builtin_models_;  // built once at start
};

}  // namespace moreau::server

#endif  // MOREAU_SERVER_SERVICE_H_
