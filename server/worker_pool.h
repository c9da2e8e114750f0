// A fixed pool of worker threads that run tasks in submission order (the
// EnvPool pattern, STYLE.md rule 9): the server hands it instance steps so
// long steps never hold gRPC's own threads. With metrics, it reports its
// threads, the tasks waiting and each task's wait (Submit to start). A
// worker that runs out of tasks may poll for a while before it sleeps: a
// sleeping thread takes tens of microseconds to wake on an idle core (more
// in a virtual machine), which a client stepping a batch after each reply
// pays every round trip.
#ifndef MOREAU_SERVER_WORKER_POOL_H_
#define MOREAU_SERVER_WORKER_POOL_H_

#include <atomic>
#include <cstdint>
#include <deque>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/functional/any_invocable.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "server/metrics.h"

namespace moreau::server {

class WorkerPool {
 public:
  // `threads` ≥ 1 workers, started now; `metrics` (optional) must outlive
  // the pool. A worker out of tasks polls for a new one for up to `spin`
  // (yielding its core to any other runnable thread) before it sleeps, when
  // its last wait for a task was shorter than `spin` (or it has not waited
  // yet) and no other worker is polling: a client that sends its next call
  // right after each reply finds a worker awake, and one that calls at
  // longer intervals costs no polling.
  explicit WorkerPool(int threads, Metrics* metrics = nullptr,
                      absl::Duration spin = absl::ZeroDuration());
  // Runs every task already submitted, then joins the workers.
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  void Submit(absl::AnyInvocable<void() &&> task) ABSL_LOCKS_EXCLUDED(mu_);

  int size() const { return static_cast<int>(threads_.size()); }
  // The time the workers have spent polling, summed over the workers.
  absl::Duration polled() const {
    return absl::Nanoseconds(polled_ns_.load(std::memory_order_relaxed));
  }

 private:
  void Run() ABSL_LOCKS_EXCLUDED(mu_);
  static bool HasWork(WorkerPool* pool);

  struct Task {
    absl::AnyInvocable<void() &&> run;
    int64_t submitted_ns;  // steady clock
  };

  Metrics* const metrics_;
  const absl::Duration spin_;
  std::atomic<int> queued_{0};          // tasks_.size(), read without the lock
  std::atomic<bool> stop_spin_{false};  // the destructor ends the polling
  std::atomic<int64_t> polled_ns_{0};   // polled()
  std::atomic<bool> polling_{false};    // a worker is polling
  absl::Mutex mu_;
  std::deque<Task> tasks_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> threads_;
};

}  // namespace moreau::server

#endif  // MOREAU_SERVER_WORKER_POOL_H_
