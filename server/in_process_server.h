// A moreaud inside the calling process: the same parts, service and
// interceptors as the server binary, reached through gRPC's in-process
// transport instead of a port. What the Python client's in-process engine
// (clients/python/native) runs on, so that every call behaves as it does
// over the network: the same validation, stepping, observations, snapshots
// and errors.
#ifndef MOREAU_SERVER_IN_PROCESS_SERVER_H_
#define MOREAU_SERVER_IN_PROCESS_SERVER_H_

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "moreau/v1/simulator.pb.h"
#include "server/maintenance.h"
#include "server/metrics.h"
#include "server/server_parts.h"
#include "server/service.h"
#include "server/service_options.h"

namespace moreau::server {

class InProcessServer;
class StepBatchRun;

// A StepBatch called without gRPC (InProcessServer::StartStepBatch): the
// same request bytes, validation, stepping, reply bytes and errors as the
// RPC, with none of its thread hand-offs. Pool runners step entries; the
// caller may step some itself (Help) instead of waiting for a worker.
class DirectStepBatch : public std::enable_shared_from_this<DirectStepBatch> {
 public:
  ~DirectStepBatch();

  // Steps unclaimed entries on the calling thread until none is left or
  // `until` passes; entries left then are stepped by the pool.
  void Help(absl::Time until);
  // Waits up to `timeout` for the call to finish; whether it has.
  bool Wait(absl::Duration timeout);
  bool done() const { return done_.HasBeenNotified(); }
  // After done(): the call's status and, when OK, the reply and its
  // serialized size (computed: SerializeWithCachedSizesToArray writes it).
  const absl::Status& status() const { return status_; }
  const v1::StepBatchResponse& reply() const { return response_; }
  size_t reply_bytes() const { return reply_bytes_; }

 private:
  friend class InProcessServer;
  DirectStepBatch() = default;
  // One runner finished: the last one checks the deadline and the reply's
  // size against the message limit, then marks the call done.
  void Leave();

  InProcessServer* server_ = nullptr;
  absl::Time start_;
  v1::StepBatchRequest request_;
  v1::StepBatchResponse response_;
  std::unique_ptr<StepBatchRun> run_;
  std::atomic<int> runners_{0};
  bool helper_left_ = false;  // the caller's own share (Help) has ended
  absl::Status status_;
  size_t reply_bytes_ = 0;
  absl::Notification done_;
};

class InProcessServer {
 public:
  // Starts the service with `options` (no authentication: options.auth must
  // be null); `max_message_bytes` bounds requests and replies as moreaud's
  // --max-message-bytes does. INVALID_ARGUMENT names a limit below its floor.
  static absl::StatusOr<std::unique_ptr<InProcessServer>> Start(const ServiceOptions& options,
                                                                int max_message_bytes);
  // Ends the open streams, then shuts the server down (calls in flight get
  // up to a second) and frees every instance.
  ~InProcessServer();
  InProcessServer(const InProcessServer&) = delete;
  InProcessServer& operator=(const InProcessServer&) = delete;

  // A channel to the service; every channel from here shares the server.
  std::shared_ptr<grpc::Channel> channel() const { return channel_; }
  int workers() const { return parts_.pool.size(); }

  // Starts a StepBatch of the serialized `request` (with `timeout_s`, as a
  // call's deadline) as the RPC would run: the same validation, stepping and
  // reply. With `caller_helps`, one pool worker fewer is asked for: the
  // caller is to call Help. The server must outlive the call's stepping
  // (its destructor waits for the pool to drain).
  std::shared_ptr<DirectStepBatch> StartStepBatch(std::string_view request,
                                                  std::optional<double> timeout_s,
                                                  bool caller_helps);

 private:
  InProcessServer(const ServiceOptions& options, int max_message_bytes);
  friend class DirectStepBatch;
  // Submits one pool runner of `call`.
  void SubmitRunner(std::shared_ptr<DirectStepBatch> call);

  // The options, with max_message_bytes the server's message limit.
  const ServiceOptions options_;

  Metrics metrics_;
  ServerParts parts_;
  Maintenance maintenance_;
  SimulatorService service_;
  std::unique_ptr<grpc::Server> server_;
  std::shared_ptr<grpc::Channel> channel_;
};

}  // namespace moreau::server

#endif  // MOREAU_SERVER_IN_PROCESS_SERVER_H_
