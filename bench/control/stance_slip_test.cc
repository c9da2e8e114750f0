// TrackStance (stance_slip.h): slip per stance phase, not restarted by a
// flickering contact; displacement with hops; per-segment slip as before.
#include "bench/control/stance_slip.h"

#include <gtest/gtest.h>

#include <vector>

namespace moreau::bench {
namespace {

struct Step {
  bool stance;
  bool closed;
  double x;
};

StanceStats Track(const std::vector<Step>& steps) {
  StanceTracker tracker;
  StanceStats stats;
  for (const Step& s : steps) TrackStance(s.stance, s.closed, {s.x, 0.0}, tracker, stats);
  TrackStance(false, false, {0.0, 0.0}, tracker, stats);
  return stats;
}

TEST(TrackStance, PlantedFootHasNoSlip) {
  const StanceStats stats = Track({{false, false, 0.0},
                                   {true, true, 0.1},
                                   {true, true, 0.1},
                                   {true, true, 0.1},
                                   {false, false, 0.2}});
  ASSERT_EQ(stats.slip.size(), 1u);
  EXPECT_EQ(stats.slip[0], 0.0);
  EXPECT_EQ(stats.displacement[0], 0.0);
  EXPECT_EQ(stats.closures[0], 1);
  ASSERT_EQ(stats.segment_slip.size(), 1u);
  EXPECT_EQ(stats.segment_slip[0], 0.0);
}

TEST(TrackStance, FlickeringContactDoesNotRestartTheSlip) {
  // Slides 1 mm per closed step in three closed segments; between them the
  // foot is airborne for a step and moves 10 mm.
  const StanceStats stats = Track({{true, true, 0.000},
                                   {true, true, 0.001},
                                   {true, false, 0.011},
                                   {true, true, 0.011},
                                   {true, true, 0.012},
                                   {true, false, 0.022},
                                   {true, true, 0.022},
                                   {true, true, 0.023},
                                   {false, false, 0.05}});
  ASSERT_EQ(stats.slip.size(), 1u);
  EXPECT_NEAR(stats.slip[0], 0.003, 1e-12);          // in contact: 3 × 1 mm
  EXPECT_NEAR(stats.displacement[0], 0.023, 1e-12);  // with the two 10 mm hops
  EXPECT_EQ(stats.closures[0], 3);
  ASSERT_EQ(stats.segment_slip.size(), 3u);  // the old measure: 1 mm each
  for (double s : stats.segment_slip) EXPECT_NEAR(s, 0.001, 1e-12);
}

TEST(TrackStance, TravelIsNetAndTheLargestOverTheStance) {
  // Out 2 mm and back: the slip is the largest excursion, 2 mm.
  const StanceStats stats =
      Track({{true, true, 0.0}, {true, true, 0.002}, {true, true, 0.0}, {false, false, 0.0}});
  ASSERT_EQ(stats.slip.size(), 1u);
  EXPECT_NEAR(stats.slip[0], 0.002, 1e-12);
}

TEST(TrackStance, StancesAreSeparatedBySwingAndNeedAClosedContact) {
  // Two stance phases with a swing between, then a stance phase whose foot
  // never touches down (not a stance); a closed contact in swing counts
  // nothing.
  const StanceStats stats = Track({{true, true, 0.0},
                                   {true, true, 0.004},
                                   {false, true, 0.1},
                                   {false, true, 0.2},
                                   {true, true, 0.3},
                                   {true, true, 0.301},
                                   {false, false, 0.4},
                                   {true, false, 0.5},
                                   {true, false, 0.6}});
  ASSERT_EQ(stats.slip.size(), 2u);
  EXPECT_NEAR(stats.slip[0], 0.004, 1e-12);
  EXPECT_NEAR(stats.slip[1], 0.001, 1e-12);
  EXPECT_EQ(stats.closures[0], 1);
  EXPECT_EQ(stats.closures[1], 1);
  EXPECT_EQ(stats.segment_slip.size(), 2u);
}

}  // namespace
}  // namespace moreau::bench
