#include "bench/control/stance_slip.h"

#include <algorithm>

namespace moreau::bench {

void TrackStance(bool stance_phase, bool closed, const Eigen::Vector2d& p, StanceTracker& tracker,
                 StanceStats& stats) {
  StanceTracker& s = tracker;
  if (s.closed && (!closed || !stance_phase)) stats.segment_slip.push_back(s.segment_slip);
  if (!stance_phase) {
    if (s.in_phase && s.touched) {
      stats.slip.push_back(s.slip);
      stats.displacement.push_back(s.displacement);
      stats.closures.push_back(s.closures);
    }
    s = StanceTracker{};
    return;
  }
  if (!s.in_phase) {
    s = StanceTracker{};
    s.in_phase = true;
  }
  if (closed) {
    if (!s.touched) {
      s.touched = true;
      s.first = p;
    }
    if (s.closed) {
      s.travel += p - s.last;
      s.slip = std::max(s.slip, s.travel.norm());
      s.segment_slip = std::max(s.segment_slip, (p - s.segment).norm());
    } else {
      ++s.closures;
      s.segment = p;
      s.segment_slip = 0.0;
    }
    s.displacement = std::max(s.displacement, (p - s.first).norm());
    s.last = p;
  }
  s.closed = closed;
}

}  // namespace moreau::bench
