// The Session stream: a closed loop of one request → one step → one response,
// in order. An instance-level failure (unknown id, bad action, divergence)
// comes back in that response's Observation.status and the stream goes on;
// the stream ends when the client closes its side or cancels.
#ifndef MOREAU_SERVER_SESSION_REACTOR_H_
#define MOREAU_SERVER_SESSION_REACTOR_H_

#include <grpcpp/grpcpp.h>

#include <string>

#include "absl/time/time.h"
#include "moreau/v1/simulator.pb.h"

namespace moreau::server {

class SimulatorService;

// A bidirectional stream that ends at once with `status`.
template <typename Request, typename Response>
class FailedBidiReactor final : public grpc::ServerBidiReactor<Request, Response> {
 public:
  explicit FailedBidiReactor(const grpc::Status& status) { this->Finish(status); }
  void OnDone() override { delete this; }
};

class SessionReactor final
    : public grpc::ServerBidiReactor<v1::SessionRequest, v1::SessionResponse> {
 public:
  // A session of `tenant`: it steps only that tenant's instances.
  SessionReactor(SimulatorService* service, grpc::CallbackServerContext* context,
                 std::string tenant);

  void OnReadDone(bool ok) override;
  void OnWriteDone(bool ok) override;
  void OnDone() override;

 private:
  void Process();

  SimulatorService* const service_;
  grpc::CallbackServerContext* const context_;
  const absl::Time start_;
  const std::string tenant_;
  v1::SessionRequest request_;
  v1::SessionResponse response_;
};

}  // namespace moreau::server

#endif  // MOREAU_SERVER_SESSION_REACTOR_H_
