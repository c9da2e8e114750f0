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
