// The Session stream: a closed loop of one request → one step → one response,
// in order. An instance-level failure (unknown id, bad action, divergence)
// comes back in that response's Observation.status and the stream goes on;
// the stream ends when the client closes its side or cancels.
#ifndef MOREAU_SERVER_SESSION_REACTOR_H_
#define MOREAU_SERVER_SESSION_REACTOR_H_

#include <grpcpp/grpcpp.h>

#include "absl/time/time.h"
#include "moreau/v1/simulator.pb.h"

namespace moreau::server {

class SimulatorService;

class SessionReactor final
    : public grpc::ServerBidiReactor<v1::SessionRequest, v1::SessionResponse> {
 public:
  SessionReactor(SimulatorService* service, grpc::CallbackServerContext* context);

  void OnReadDone(bool ok) override;
  void OnWriteDone(bool ok) override;
  void OnDone() override;

 private:
  void Process();

  SimulatorService* const service_;
  grpc::CallbackServerContext* const context_;
  const absl::Time start_;
  v1::SessionRequest request_;
  v1::SessionResponse response_;
};

// A Session refused at its start: the stream ends at once with `status`.
class FailedSessionReactor final
    : public grpc::ServerBidiReactor<v1::SessionRequest, v1::SessionResponse> {
 public:
  explicit FailedSessionReactor(const grpc::Status& status) { Finish(status); }
  void OnDone() override { delete this; }
};

}  // namespace moreau::server

#endif  // MOREAU_SERVER_SESSION_REACTOR_H_
