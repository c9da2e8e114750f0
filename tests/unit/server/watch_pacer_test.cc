#include "server/watch_pacer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

namespace moreau::server {
namespace {

constexpr int64_t kMs = 1'000'000;
constexpr int64_t kPeriod = 1'000'000'000 / 30;  // 30 Hz

// The send times of a stream paced by `pacer` over `duration_ns` when the
// pump polls at the times `next_poll(now)` gives, starting at 0.
std::vector<int64_t> Sends(WatchPacer& pacer, int64_t duration_ns,
                           const std::function<int64_t(int64_t)>& next_poll) {
  std::vector<int64_t> sends;
  for (int64_t now = 0; now < duration_ns; now = next_poll(now)) {
    if (pacer.Due(now)) {
      pacer.Sent(now);
      sends.push_back(now);
    }
  }
  return sends;
}

// The most sends in any window of `window_ns` starting at a send.
int MostInWindow(const std::vector<int64_t>& sends, int64_t window_ns) {
  int most = 0;
  for (size_t i = 0; i < sends.size(); ++i) {
    const auto end = std::lower_bound(sends.begin() + i, sends.end(), sends[i] + window_ns);
    most = std::max(most, static_cast<int>(end - (sends.begin() + i)));
  }
  return most;
}

int64_t SmallestGap(const std::vector<int64_t>& sends) {
  int64_t smallest = INT64_MAX;
  for (size_t i = 1; i < sends.size(); ++i) smallest = std::min(smallest, sends[i] - sends[i - 1]);
  return smallest;
}

TEST(WatchPacer, PolledEveryMillisecondSendsAtTheRate) {
  WatchPacer pacer(kPeriod);
  const std::vector<int64_t> sends =
      Sends(pacer, 2000 * kMs, [](int64_t now) { return now + kMs; });
  // 2 s at 30 Hz: frames at 0, 33.3 ms, … (the schedule kept, not drifting
  // by the polls' millisecond).
  EXPECT_EQ(sends.size(), 60u);
  EXPECT_GE(SmallestGap(sends), kPeriod - kMs);
}

TEST(WatchPacer, LateFramesAreNotFollowedByACatchUpBurst) {
  // Every third frame goes out 12 ms late (the pump starved by steps, or the
  // previous write still in flight): no poll between its due time and then.
  WatchPacer pacer(kPeriod);
  int frame = 0;
  int64_t stalled_until = -1;
  const std::vector<int64_t> sends = Sends(pacer, 2000 * kMs, [&](int64_t now) {
    if (now < stalled_until) return stalled_until;
    if (pacer.Due(now + kMs) && ++frame % 3 == 0) {
      stalled_until = now + 13 * kMs;
      return stalled_until;
    }
    return now + kMs;
  });
  EXPECT_GE(SmallestGap(sends), kPeriod - WatchPacer::kMaxOnTimeNs);
  EXPECT_LE(MostInWindow(sends, 1000 * kMs), 31);
  EXPECT_LE(sends.size(), 61u);
  // Late frames slow the stream, they do not stop it: a 12 ms delay in three
  // periods at most.
  EXPECT_GE(sends.size(), 50u);
}

TEST(WatchPacer, IrregularPollsNeverExceedTheRate) {
  std::mt19937 random(7);
  std::uniform_int_distribution<int64_t> gap(kMs / 2, 15 * kMs);
  WatchPacer pacer(kPeriod);
  const std::vector<int64_t> sends =
      Sends(pacer, 5000 * kMs, [&](int64_t now) { return now + gap(random); });
  EXPECT_GE(SmallestGap(sends), kPeriod - WatchPacer::kMaxOnTimeNs);
  EXPECT_LE(MostInWindow(sends, 1000 * kMs), 31);
  EXPECT_LE(sends.size(), 5u * 30 + 1);
  EXPECT_GE(sends.size(), 5u * 20);
}

TEST(WatchPacer, ToleranceIsAQuarterOfAShortPeriod) {
  // 1 kHz: polled every 0.1 ms, sends come at least 0.75 ms apart.
  WatchPacer pacer(kMs);
  const std::vector<int64_t> sends = Sends(
      pacer, 100 * kMs, [](int64_t now) { return now + kMs / 10 + (now / kMs % 3) * kMs / 10; });
  EXPECT_GE(SmallestGap(sends), kMs - kMs / 4);
  EXPECT_LE(MostInWindow(sends, 10 * kMs), 11);
}

}  // namespace
}  // namespace moreau::server
