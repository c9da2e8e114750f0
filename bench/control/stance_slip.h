// Stance-foot slip of a gait, measured per stance phase (moreau_control_bench,
// BENCHMARKS.md). A stance is one stance phase of a leg's gait in
// which the foot's contact closes at least once (closed: active and carrying
// a compressive normal force). Per stance:
//   slip          the foot's tangential travel while in contact: the
//                 horizontal displacement of its contact point summed over
//                 consecutive steps at which the contact is closed, largest
//                 magnitude over the stance. A contact that opens and closes
//                 again within the stance does not restart it.
//   displacement  the largest horizontal distance of the contact point, at
//                 closed steps, from where the stance first touched down: the
//                 slip plus whatever the foot moved while briefly airborne.
//   closures      how many times the contact closed within the stance.
// and per closed segment (the contact closed from one closure to the next
// opening, or to the end of the stance phase):
//   segment slip  the largest distance from where the segment began (the
//                 measure reported before; a flickering contact restarts it).
#ifndef MOREAU_BENCH_CONTROL_STANCE_SLIP_H_
#define MOREAU_BENCH_CONTROL_STANCE_SLIP_H_

#include <Eigen/Core>
#include <vector>

namespace moreau::bench {

// One foot's current stance.
struct StanceTracker {
  bool in_phase = false;                              // the gait has the leg in stance
  bool touched = false;                               // the contact closed in this stance
  bool closed = false;                                // closed at the last step
  Eigen::Vector2d first = Eigen::Vector2d::Zero();    // first touchdown
  Eigen::Vector2d last = Eigen::Vector2d::Zero();     // at the last closed step
  Eigen::Vector2d travel = Eigen::Vector2d::Zero();   // summed over closed steps
  Eigen::Vector2d segment = Eigen::Vector2d::Zero();  // where the contact last closed
  double slip = 0.0;
  double displacement = 0.0;
  double segment_slip = 0.0;
  int closures = 0;
};

// Finished stances (slip, displacement, closures: one entry per stance) and
// closed segments (segment_slip).
struct StanceStats {
  std::vector<double> slip;
  std::vector<double> displacement;
  std::vector<int> closures;
  std::vector<double> segment_slip;
};

// Advances `tracker` by one step: the leg in its stance phase or not, the
// contact closed or not with its contact point at `p` (horizontal, m). A
// stance or segment that ends is appended to `stats`; call with
// stance_phase = false once at the end to flush the open ones.
void TrackStance(bool stance_phase, bool closed, const Eigen::Vector2d& p, StanceTracker& tracker,
                 StanceStats& stats);

}  // namespace moreau::bench

#endif  // MOREAU_BENCH_CONTROL_STANCE_SLIP_H_
