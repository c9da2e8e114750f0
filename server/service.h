// moreau.v1.Simulator on gRPC's callback API: a thin layer over engine/sim
// (STYLE.md rule 8) — validate the whole request, look up the instance, call
// the simulation, fill the reply. Steps run on the worker pool (or inline when
// short), one thread per instance at a time. The instances, what builds and
// steps them, the pool and the streams are the ServerParts the service is
// given (server/server_parts.h).
#ifndef MOREAU_SERVER_SERVICE_H_
#define MOREAU_SERVER_SERVICE_H_

#include <grpcpp/grpcpp.h>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "moreau/v1/simulator.grpc.pb.h"
#include "server/metrics.h"
#include "server/server_parts.h"
#include "server/service_options.h"
#include "server/tenant.h"

namespace moreau::server {

class CheckpointStore;

class SimulatorService final : public v1::Simulator::CallbackService {
 public:
  // Serves the instances of `parts` (built from the same options).
  // `checkpoints` (optional): the state directory, told when instances are
  // destroyed.
  SimulatorService(const ServiceOptions& options, ServerParts* parts, Metrics* metrics,
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
  grpc::ServerUnaryReactor* ListInstances(grpc::CallbackServerContext* context,
                                          const v1::ListInstancesRequest* request,
                                          v1::ListInstancesResponse* response) override;
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
  grpc::ServerUnaryReactor* GetMesh(grpc::CallbackServerContext* context,
                                    const v1::GetMeshRequest* request,
                                    v1::GetMeshResponse* response) override;

 private:
  grpc::ServerUnaryReactor* Finish(grpc::CallbackServerContext* context, Rpc rpc, absl::Time start,
                                   const absl::Status& status);
  // Who makes the call: the tenant "" without authentication, else the
  // tenant of the call's bearer token, or UNAUTHENTICATED.
  absl::StatusOr<Tenant> Caller(const grpc::CallbackServerContext* context) const;

  const ServiceOptions options_;
  ServerParts* const parts_;
  Metrics* const metrics_;
  CheckpointStore* const checkpoints_;     // may be null
  v1::ListModelsResponse builtin_models_;  // built once at start
};

}  // namespace moreau::server

#endif  // MOREAU_SERVER_SERVICE_H_
