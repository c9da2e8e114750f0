// The Session stream: a closed loop of one request → one step → one response,
// in order. An instance-level failure (unknown id, bad action, divergence)
// comes back in that response's Observation.status and the stream goes on;
// the stream ends when the client closes its side or cancels, or with
// UNAVAILABLE when the server shuts down (SessionHub::Stop).
#ifndef MOREAU_SERVER_SESSION_REACTOR_H_
#define MOREAU_SERVER_SESSION_REACTOR_H_

#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "moreau/v1/simulator.pb.h"
#include "server/instance_stepper.h"
#include "server/metrics.h"
#include "server/worker_pool.h"

namespace moreau::server {

class SessionReactor;

// A stream refused at its start: it ends at once with `status`.
template <typename Request, typename Response>
class FailedBidiReactor final : public grpc::ServerBidiReactor<Request, Response> {
 public:
  explicit FailedBidiReactor(const grpc::Status& status) { this->Finish(status); }
  void OnDone() override { delete this; }
};

// The open sessions, so that shutdown can end them.
class SessionHub {
 public:
  // Sessions step through `stepper`, long steps on `pool`; at most
  // `max_sessions` are open at once.
  SessionHub(const InstanceStepper* stepper, WorkerPool* pool, Metrics* metrics, int max_sessions);
  SessionHub(const SessionHub&) = delete;
  SessionHub& operator=(const SessionHub&) = delete;

  // A new session of `tenant` (it steps only that tenant's instances); after
  // Stop, one that ends at once with UNAVAILABLE; with max_sessions open
  // already, one that ends at once with RESOURCE_EXHAUSTED.
  grpc::ServerBidiReactor<v1::SessionRequest, v1::SessionResponse>* Start(std::string tenant)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Ends every session with UNAVAILABLE ("the server is shutting down"): at
  // once when it waits for a request, after answering the step in progress
  // otherwise. Refuses new sessions.
  void Stop() ABSL_LOCKS_EXCLUDED(mu_);

 private:
  friend class SessionReactor;
  const InstanceStepper* const stepper_;
  WorkerPool* const pool_;
  Metrics* const metrics_;
  const int max_sessions_;
  absl::Mutex mu_;
  std::vector<SessionReactor*> sessions_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
};

class SessionReactor final
    : public grpc::ServerBidiReactor<v1::SessionRequest, v1::SessionResponse> {
 public:
  SessionReactor(SessionHub* hub, std::string tenant);

  void OnReadDone(bool ok) override;
  void OnWriteDone(bool ok) override;
  void OnDone() override;

 private:
  friend class SessionHub;
  // Where the stream is; read and written under hub_->mu_. gRPC may run a
  // reaction inline inside StartRead, StartWrite or Finish, so those are
  // always called without the lock.
  enum class Phase { kReading, kStepping, kFinished };

  // Starts the next read (finishing instead when the hub stopped meanwhile).
  void ArmRead();
  void Process();
  void FinishWith(const grpc::Status& status);

  SessionHub* const hub_;
  const absl::Time start_;
  const std::string tenant_;
  v1::SessionRequest request_;
  v1::SessionResponse response_;
  grpc::StatusCode code_ = grpc::StatusCode::OK;  // the status the stream ended with
  Phase phase_ = Phase::kReading;
  bool read_armed_ = false;  // the pending read's StartRead has returned
  uint64_t reads_done_ = 0;  // OnReadDone calls so far
};

}  // namespace moreau::server

#endif  // MOREAU_SERVER_SESSION_REACTOR_H_
