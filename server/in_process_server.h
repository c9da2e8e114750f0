// A moreaud inside the calling process: the same parts, service and
// interceptors as the server binary, reached through gRPC's in-process
// transport instead of a port. What the Python client's in-process engine
// (clients/python/native) runs on, so that every call behaves as it does
// over the network: the same validation, stepping, observations, snapshots
// and errors.
#ifndef MOREAU_SERVER_IN_PROCESS_SERVER_H_
#define MOREAU_SERVER_IN_PROCESS_SERVER_H_

#include <grpcpp/grpcpp.h>

#include <memory>

#include "absl/status/statusor.h"
#include "server/maintenance.h"
#include "server/metrics.h"
#include "server/server_parts.h"
#include "server/service.h"
#include "server/service_options.h"

namespace moreau::server {

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

 private:
  InProcessServer(const ServiceOptions& options, int max_message_bytes);

  Metrics metrics_;
  ServerParts parts_;
  Maintenance maintenance_;
  SimulatorService service_;
  std::unique_ptr<grpc::Server> server_;
  std::shared_ptr<grpc::Channel> channel_;
};

}  // namespace moreau::server

#endif  // MOREAU_SERVER_IN_PROCESS_SERVER_H_
