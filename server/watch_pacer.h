// When a Watch stream's frames are due. While frames go out on time (within
// the on-time tolerance of their due time) they keep to a fixed schedule, one
// every period; a frame that goes out later than that restarts the schedule
// one period after it. So no two frames are closer than the period less the
// tolerance, and over any window the stream sends at most one frame per
// period plus one: a late frame is never followed by a burst that catches up.
#ifndef MOREAU_SERVER_WATCH_PACER_H_
#define MOREAU_SERVER_WATCH_PACER_H_

#include <algorithm>
#include <cstdint>

namespace moreau::server {

class WatchPacer {
 public:
  // The largest tolerance: the pump polls every millisecond or so.
  static constexpr int64_t kMaxOnTimeNs = 2'000'000;

  // `period_ns` > 0. The tolerance is kMaxOnTimeNs or a quarter of the
  // period, whichever is smaller.
  explicit WatchPacer(int64_t period_ns)
      : period_ns_(period_ns), on_time_ns_(std::min(kMaxOnTimeNs, period_ns / 4)) {}

  int64_t period_ns() const { return period_ns_; }

  // Whether a frame is due at `now_ns` (the first one is due at once).
  bool Due(int64_t now_ns) const { return !sent_any_ || now_ns >= next_due_ns_; }

  // A frame went out at `now_ns`: schedules the next one.
  void Sent(int64_t now_ns) {
    const bool on_time = sent_any_ && now_ns - next_due_ns_ <= on_time_ns_;
    next_due_ns_ = (on_time ? next_due_ns_ : now_ns) + period_ns_;
    sent_any_ = true;
  }

 private:
  const int64_t period_ns_;
  const int64_t on_time_ns_;
  int64_t next_due_ns_ = 0;
  bool sent_any_ = false;
};

}  // namespace moreau::server

#endif  // MOREAU_SERVER_WATCH_PACER_H_
