// Terrains made from a description rather than given node by node: a rough
// patch from a seeded generator, and a heightfield read from CSV text. The
// command line (--terrain rough:A, heightfield:FILE.csv), the service
// (Terrain.rough, Terrain.heightfield_csv) and the Python client build them
// here, so the same description gives the same ground everywhere.
#ifndef MOREAU_ENGINE_CONTACT_TERRAIN_GENERATORS_H_
#define MOREAU_ENGINE_CONTACT_TERRAIN_GENERATORS_H_

#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"
#include "engine/contact/terrain.h"

namespace moreau::contact {

// The rough patch: kRoughNodes × kRoughNodes nodes at kRoughCell (8 m × 8 m at
// 5 cm) centred on the origin, so a 10 s trot at 0.5 m/s stays on it.
inline constexpr int kRoughNodes = 161;
inline constexpr double kRoughCell = 0.05;         // m
inline constexpr double kMaxRoughAmplitude = 0.1;  // m
inline constexpr uint64_t kRoughSeed = 0x9E3779B97F4A7C15ull;
// The node spacing of CSV heightfields without a "# cell_size:" line.
inline constexpr double kDefaultCsvCell = 0.05;  // m

// Node heights −amplitude·u with u uniform in [0, 1) from a 64-bit linear
// congruential generator (Knuth's MMIX constants) started at `seed`, so every
// run and platform sees the same ground for the same seed; all heights ≤ 0,
// so a robot placed on flat ground starts on or above it. Errors: amplitude
// outside [0, kMaxRoughAmplitude] or not finite.
absl::StatusOr<Terrain> RoughTerrain(double amplitude, uint64_t seed = kRoughSeed);

// A heightfield centred on the origin (x, y) from CSV text: one line of
// comma-separated heights (m) per grid row j, the x index i along a line;
// blank lines and lines starting with '#' are skipped, except
// "# cell_size: C" which sets the node spacing (m, default kDefaultCsvCell).
// Errors name the line (and value): a field that is not a finite number, rows
// of different lengths, fewer than 2 × 2 nodes, more nodes than
// limits.max_nodes (checked while reading, before the heights are stored).
absl::StatusOr<Terrain> HeightfieldFromCsv(std::string_view text,
                                           const HeightfieldLimits& limits = {});

}  // namespace moreau::contact

#endif  // MOREAU_ENGINE_CONTACT_TERRAIN_GENERATORS_H_
