// Watch streams (dashboards): one pump thread samples every watched instance
// at its stream's rate (the latest published sample, whether or not the
// instance stepped since) and writes a frame when the previous write is done.
// Stepping only copies the state and contact forces into the instance's
// sample while someone watches; the frame's body poses come from a
// sim::Inspection of the sample, computed here, so a watcher never slows the
// instance's stepping and a slow watcher only gets fewer frames.
#ifndef MOREAU_SERVER_WATCH_HUB_H_
#define MOREAU_SERVER_WATCH_HUB_H_

#include <grpcpp/grpcpp.h>

#include <memory>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "moreau/v1/simulator.pb.h"
#include "server/instance.h"
#include "server/metrics.h"

namespace moreau::server {

// A server stream that ends at once with `status`.
template <typename Frame>
class FailedWriteReactor final : public grpc::ServerWriteReactor<Frame> {
 public:
  explicit FailedWriteReactor(const grpc::Status& status) { this->Finish(status); }
  void OnDone() override { delete this; }
};

class WatchHub {
 public:
  // At most `max_streams` streams at once.
  WatchHub(Metrics* metrics, int max_streams);
  ~WatchHub();  // Stop, then joins the pump
  WatchHub(const WatchHub&) = delete;
  WatchHub& operator=(const WatchHub&) = delete;

  // A stream of frames of `instance` at `rate_hz`; one that ends at once with
  // RESOURCE_EXHAUSTED when max_streams are open.
  grpc::ServerWriteReactor<v1::WatchFrame>* Start(std::shared_ptr<Instance> instance,
                                                  double rate_hz) ABSL_LOCKS_EXCLUDED(mu_);
  // Ends every stream with UNAVAILABLE ("the server is shutting down") and
  // refuses new ones.
  void Stop() ABSL_LOCKS_EXCLUDED(mu_);

 private:
  class Reactor;
  void Pump() ABSL_LOCKS_EXCLUDED(mu_);
  // A stream is open or being admitted, or the hub is stopping: the pump
  // ticks (every millisecond); else it sleeps until one of these changes.
  static bool PumpHasWork(WatchHub* hub);

  Metrics* const metrics_;
  const int max_streams_;
  absl::Mutex mu_;
  std::vector<Reactor*> reactors_ ABSL_GUARDED_BY(mu_);
  int starting_ ABSL_GUARDED_BY(mu_) = 0;  // admitted, not yet in reactors_
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::thread pump_;
};

}  // namespace moreau::server

#endif  // MOREAU_SERVER_WATCH_HUB_H_
