#include "server/worker_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <vector>

#include "absl/synchronization/blocking_counter.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace moreau::server {
namespace {

TEST(WorkerPoolTest, OneWorkerRunsTasksInSubmissionOrder) {
  std::vector<int> order;
  absl::Mutex mu;
  {
    WorkerPool pool(1);
    for (int i = 0; i < 100; ++i) {
      pool.Submit([i, &order, &mu] {
        absl::MutexLock lock(&mu);
        order.push_back(i);
      });
    }
  }  // the destructor runs every task submitted
  ASSERT_EQ(order.size(), 100u);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(order[static_cast<size_t>(i)], i);
}

// Workers that poll before sleeping take tasks submitted while they poll and
// tasks submitted after they went to sleep alike.
TEST(WorkerPoolTest, SpinningWorkersRunTasksWhetherPollingOrAsleep) {
  WorkerPool pool(2, nullptr, absl::Milliseconds(20));
  std::atomic<int> ran{0};
  for (int round = 0; round < 3; ++round) {
    absl::BlockingCounter done(8);
    for (int i = 0; i < 8; ++i) {
      pool.Submit([&ran, &done] {
        ran.fetch_add(1);
        done.DecrementCount();
      });
    }
    done.Wait();
    // Round 0 is followed by a pause well inside the polling, round 1 by one
    // well past it (the workers asleep).
    absl::SleepFor(round == 0 ? absl::Milliseconds(1) : absl::Milliseconds(100));
  }
  EXPECT_EQ(ran.load(), 24);
}

// Workers poll after a task only while tasks come sooner than the polling
// window: after calls 100 ms apart (five times the window) a worker polls
// once, then sleeps at once; calls back to back keep them polling.
TEST(WorkerPoolTest, WorkersPollOnlyWhileTasksComeWithinTheWindow) {
  constexpr absl::Duration kSpin = absl::Milliseconds(20);
  WorkerPool pool(1, nullptr, kSpin);
  auto run_one = [&pool] {
    absl::BlockingCounter done(1);
    pool.Submit([&done] { done.DecrementCount(); });
    done.Wait();
  };
  run_one();
  absl::SleepFor(absl::Milliseconds(100));  // polls kSpin, then sleeps
  const absl::Duration after_first = pool.polled();
  EXPECT_GE(after_first, kSpin);
  for (int i = 0; i < 3; ++i) {
    run_one();  // found after a wait longer than kSpin: no polling after it
    absl::SleepFor(absl::Milliseconds(100));
  }
  EXPECT_LT(pool.polled() - after_first, kSpin / 2);
  // Back to back: the wait was short, so the worker polls again.
  run_one();
  run_one();
  absl::SleepFor(absl::Milliseconds(100));
  EXPECT_GE(pool.polled() - after_first, kSpin);
}

// One worker polls at a time: two idle workers, both free to poll when they
// start, poll for one window between them, not two.
TEST(WorkerPoolTest, OneWorkerPollsAtATime) {
  constexpr absl::Duration kSpin = absl::Milliseconds(20);
  WorkerPool pool(2, nullptr, kSpin);
  absl::SleepFor(absl::Milliseconds(100));
  EXPECT_GE(pool.polled(), kSpin);
  EXPECT_LT(pool.polled(), kSpin * 3 / 2);
}

// The destructor ends the polling: a pool whose workers would poll for an
// hour is destroyed at once (a regression hangs here until ctest's timeout).
TEST(WorkerPoolTest, DestructorEndsAWorkersPolling) {
  std::atomic<int> ran{0};
  {
    WorkerPool pool(2, nullptr, absl::Hours(1));
    absl::BlockingCounter done(1);
    pool.Submit([&ran, &done] {
      ran.fetch_add(1);
      done.DecrementCount();
    });
    done.Wait();  // both workers are polling now
    pool.Submit([&ran] { ran.fetch_add(1); });
  }
  EXPECT_EQ(ran.load(), 2);
}

}  // namespace
}  // namespace moreau::server
