#include "engine/contact/terrain_generators.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"

namespace moreau::contact {
namespace {

// A heightfield of nx × ny nodes at `cell` spacing centred on the world
// origin in x and y, its nodes at z = heights.
absl::StatusOr<Terrain> CenteredHeightfield(double cell, int nx, int ny,
                                            std::vector<double> heights,
                                            const HeightfieldLimits& limits) {
  const Vec3 origin(-0.5 * cell * (nx - 1), -0.5 * cell * (ny - 1), 0.0);
  return Terrain::Heightfield(origin, cell, nx, ny, std::move(heights), limits);
}

std::string Quoted(absl::string_view text) {
  constexpr size_t kShown = 40;
  const bool cut = text.size() > kShown;
  return absl::StrCat("\"", absl::CHexEscape(text.substr(0, kShown)), cut ? "...\"" : "\"");
}

}  // namespace

absl::StatusOr<Terrain> RoughTerrain(double amplitude, uint64_t seed) {
  if (!(amplitude >= 0.0 && amplitude <= kMaxRoughAmplitude)) {
    return absl::InvalidArgumentError(absl::StrCat("the roughness amplitude must be in [0, ",
                                                   kMaxRoughAmplitude, "] m, got ", amplitude));
  }
  std::vector<double> heights(static_cast<size_t>(kRoughNodes) * kRoughNodes);
  uint64_t x = seed;
  for (double& h : heights) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;    // MMIX LCG
    h = -amplitude * static_cast<double>(x >> 11) * 0x1.0p-53;  // top 53 bits → [0, 1)
  }
  return CenteredHeightfield(kRoughCell, kRoughNodes, kRoughNodes, std::move(heights), {});
}

absl::StatusOr<Terrain> HeightfieldFromCsv(std::string_view csv, const HeightfieldLimits& limits) {
  double cell = kDefaultCsvCell;
  std::vector<double> heights;
  int nx = 0;
  int ny = 0;
  int line_number = 0;
  for (const absl::string_view line :
       absl::StrSplit(absl::string_view(csv.data(), csv.size()), '\n')) {
    ++line_number;
    absl::string_view text = absl::StripAsciiWhitespace(line);
    if (text.empty()) continue;
    if (absl::ConsumePrefix(&text, "#")) {
      text = absl::StripLeadingAsciiWhitespace(text);
      if (absl::ConsumePrefix(&text, "cell_size:")) {
        if (!absl::SimpleAtod(absl::StripAsciiWhitespace(text), &cell) || !std::isfinite(cell) ||
            cell <= 0.0) {
          return absl::InvalidArgumentError(
              absl::StrCat("line ", line_number, ": cell_size must be a finite number > 0 (m)"));
        }
      }
      continue;
    }
    int count = 0;
    for (const absl::string_view field : absl::StrSplit(text, ',')) {
      double h = 0.0;
      if (!absl::SimpleAtod(absl::StripAsciiWhitespace(field), &h) || !std::isfinite(h)) {
        return absl::InvalidArgumentError(absl::StrCat("line ", line_number, ", value ", count + 1,
                                                       ": ", Quoted(field),
                                                       " is not a finite height in metres"));
      }
      if (static_cast<int64_t>(heights.size()) >= limits.max_nodes) {
        return absl::InvalidArgumentError(
            absl::StrCat("line ", line_number, ": more than ", limits.max_nodes,
                         " heights (the server's --max-heightfield-nodes)"));
      }
      heights.push_back(h);
      ++count;
    }
    if (ny > 0 && count != nx) {
      return absl::InvalidArgumentError(
          absl::StrCat("line ", line_number, " has ", count, " heights, the first row has ", nx));
    }
    nx = count;
    ++ny;
  }
  if (nx < 2 || ny < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("needs at least 2 rows of at least 2 heights, got ", ny, " x ", nx));
  }
  return CenteredHeightfield(cell, nx, ny, std::move(heights), limits);
}

}  // namespace moreau::contact
