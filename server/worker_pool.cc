#include "server/worker_pool.h"

#include <chrono>
#include <thread>
#include <utility>

namespace moreau::server {
namespace {

int64_t SteadyNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

WorkerPool::WorkerPool(int threads, Metrics* metrics, absl::Duration spin)
    : metrics_(metrics), spin_(spin) {
  if (threads < 1) threads = 1;
  if (metrics_ != nullptr) metrics_->SetWorkerThreads(threads);
  threads_.reserve(static_cast<size_t>(threads));
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { Run(); });
}

WorkerPool::~WorkerPool() {
  stop_spin_.store(true, std::memory_order_relaxed);
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  for (std::thread& t : threads_) t.join();
}

void WorkerPool::Submit(absl::AnyInvocable<void() &&> task) {
  const int64_t now = metrics_ != nullptr ? SteadyNowNs() : 0;
  absl::MutexLock lock(&mu_);
  tasks_.push_back(Task{std::move(task), now});
  queued_.fetch_add(1, std::memory_order_relaxed);
  if (metrics_ != nullptr) metrics_->SetQueueDepth(static_cast<int>(tasks_.size()));
}

void WorkerPool::Run() {
  const int64_t spin_ns = absl::ToInt64Nanoseconds(spin_);
  // Whether the last wait for a task ended within spin_ns.
  bool tasks_come_soon = true;
  for (;;) {
    const int64_t idle_from = SteadyNowNs();
    // Poll until a task is queued or the spin is over (then sleep in Await).
    // One worker at a time: the others sleep, so that polling takes at most
    // one core from the client and gRPC's threads.
    if (spin_ns > 0 && tasks_come_soon && !polling_.exchange(true, std::memory_order_acq_rel)) {
      const int64_t until = idle_from + spin_ns;
      int64_t now = idle_from;
      while (queued_.load(std::memory_order_relaxed) == 0 &&
             !stop_spin_.load(std::memory_order_relaxed) && now < until) {
        std::this_thread::yield();
        now = SteadyNowNs();
      }
      polling_.store(false, std::memory_order_release);
      polled_ns_.fetch_add(now - idle_from, std::memory_order_relaxed);
    }
    Task task;
    {
      absl::MutexLock lock(&mu_);
      mu_.Await(absl::Condition(&WorkerPool::HasWork, this));
      if (tasks_.empty()) return;  // stopping and drained
      task = std::move(tasks_.front());
      tasks_.pop_front();
      queued_.fetch_sub(1, std::memory_order_relaxed);
      if (metrics_ != nullptr) metrics_->SetQueueDepth(static_cast<int>(tasks_.size()));
    }
    const int64_t start = SteadyNowNs();
    tasks_come_soon = start - idle_from < spin_ns;
    if (metrics_ != nullptr) {
      metrics_->ObserveQueueWait(static_cast<double>(start - task.submitted_ns) * 1e-9);
    }
    std::move(task.run)();
  }
}

bool WorkerPool::HasWork(WorkerPool* pool) {
  pool->mu_.AssertHeld();
  return !pool->tasks_.empty() || pool->stopping_;
}

}  // namespace moreau::server
