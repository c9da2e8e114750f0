#include "engine/contact/terrain_generators.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace moreau::contact {
namespace {

using ::testing::HasSubstr;

TEST(RoughTerrain, IsTheSeededPatchBelowTheGround) {
  auto rough = RoughTerrain(0.02);
  ASSERT_TRUE(rough.ok()) << rough.status();
  EXPECT_EQ(rough->type(), TerrainType::kHeightfield);
  EXPECT_EQ(rough->nx(), kRoughNodes);
  EXPECT_EQ(rough->ny(), kRoughNodes);
  EXPECT_EQ(rough->cell_size(), kRoughCell);
  // Centred on the origin: 8 m × 8 m.
  EXPECT_DOUBLE_EQ(rough->origin().x(), -4.0);
  EXPECT_DOUBLE_EQ(rough->origin().y(), -4.0);
  double lowest = 0.0, highest = -1.0;
  for (double h : rough->heights()) {
    lowest = std::min(lowest, h);
    highest = std::max(highest, h);
  }
  EXPECT_LE(highest, 0.0);
  EXPECT_GE(lowest, -0.02);
  EXPECT_LT(lowest, -0.019);  // the heights fill [−A, 0]
  // The first node is the generator's first draw from the default seed.
  const uint64_t x = kRoughSeed * 6364136223846793005ull + 1442695040888963407ull;
  EXPECT_EQ(rough->heights()[0], -0.02 * static_cast<double>(x >> 11) * 0x1.0p-53);
}

TEST(RoughTerrain, SameSeedSameGroundOtherSeedOtherGround) {
  auto a = RoughTerrain(0.05, 7);
  auto b = RoughTerrain(0.05, 7);
  auto c = RoughTerrain(0.05, 8);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(a->heights(), b->heights());
  EXPECT_NE(a->heights(), c->heights());
}

TEST(RoughTerrain, RejectsAmplitudesOutOfRange) {
  for (double amplitude : {-0.01, 0.11, std::nan(""), double{INFINITY}}) {
    auto rough = RoughTerrain(amplitude);
    ASSERT_FALSE(rough.ok()) << amplitude;
    EXPECT_THAT(rough.status().message(), HasSubstr("roughness amplitude must be in [0, 0.1]"));
  }
  EXPECT_TRUE(RoughTerrain(0.0).ok());
  EXPECT_TRUE(RoughTerrain(kMaxRoughAmplitude).ok());
}

TEST(HeightfieldFromCsv, ReadsRowsAndTheCellSize) {
  const std::string csv =
      "# a 3 x 2 grid\n"
      "# cell_size: 0.5\n"
      "0, 0.1, 0.2\r\n"
      "\n"
      "0.3,0.4,0.5\n";
  auto terrain = HeightfieldFromCsv(csv);
  ASSERT_TRUE(terrain.ok()) << terrain.status();
  EXPECT_EQ(terrain->nx(), 3);
  EXPECT_EQ(terrain->ny(), 2);
  EXPECT_EQ(terrain->cell_size(), 0.5);
  EXPECT_EQ(terrain->heights(), (std::vector<double>{0, 0.1, 0.2, 0.3, 0.4, 0.5}));
  // Centred on the origin: node (1, 0) at x = 0, y = −0.25, z = 0.1.
  EXPECT_DOUBLE_EQ(terrain->origin().x(), -0.5);
  EXPECT_DOUBLE_EQ(terrain->origin().y(), -0.25);
  EXPECT_NEAR(terrain->Height(0.0, -0.25), 0.1, 1e-12);
  EXPECT_NEAR(terrain->Height(0.5, 0.25), 0.5, 1e-12);
}

TEST(HeightfieldFromCsv, DefaultCell) {
  auto terrain = HeightfieldFromCsv("1,2\n3,4\n");
  ASSERT_TRUE(terrain.ok()) << terrain.status();
  EXPECT_EQ(terrain->cell_size(), kDefaultCsvCell);
}

struct BadCsv {
  std::string text;
  std::string message;
};

class HeightfieldFromCsvErrors : public ::testing::TestWithParam<BadCsv> {};

TEST_P(HeightfieldFromCsvErrors, NameTheLineAndProblem) {
  HeightfieldLimits limits;
  limits.max_nodes = 6;
  auto terrain = HeightfieldFromCsv(GetParam().text, limits);
  ASSERT_FALSE(terrain.ok());
  EXPECT_EQ(terrain.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(terrain.status().message(), HasSubstr(GetParam().message));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, HeightfieldFromCsvErrors,
    ::testing::Values(
        BadCsv{"", "needs at least 2 rows of at least 2 heights, got 0 x 0"},
        BadCsv{"0,0,0\n", "needs at least 2 rows of at least 2 heights, got 1 x 3"},
        BadCsv{"0\n0\n", "got 2 x 1"},
        BadCsv{"0,1\n0,x\n", "line 2, value 2: \"x\" is not a finite height in metres"},
        BadCsv{"0,1\n0,nan\n", "line 2, value 2: \"nan\" is not a finite height"},
        BadCsv{"0,1\n0,1e999\n", "is not a finite height"},
        BadCsv{"0,1,2\n0,1\n", "line 2 has 2 heights, the first row has 3"},
        BadCsv{"# cell_size: -1\n0,1\n0,1\n", "line 1: cell_size must be a finite number > 0"},
        BadCsv{"0,1,2\n3,4,5\n6,7,8\n", "line 3: more than 6 heights"},
        BadCsv{"0,,1\n", "line 1, value 2: \"\" is not a finite height"}));

}  // namespace
}  // namespace moreau::contact
