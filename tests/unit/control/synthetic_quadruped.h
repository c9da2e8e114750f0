// Synthetic quadrupeds for the controller tests: a URDF of a box trunk with
// four 3-joint legs (abduction about x, hip and knee about y, the A1's axis
// signs and joint ranges; box links, sphere feet), its mass, leg lengths and
// link masses given. SyntheticQuadrupedOfMass scales one shape to a mass.
#ifndef MOREAU_TESTS_UNIT_CONTROL_SYNTHETIC_QUADRUPED_H_
#define MOREAU_TESTS_UNIT_CONTROL_SYNTHETIC_QUADRUPED_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "engine/model/model.h"

namespace moreau::testing {

struct SyntheticQuadruped {
  std::string name = "synthetic_quadruped";
  double mass = 12.0;  // kg, total
  // Per leg, as fractions of the total mass: the abduction link, the thigh,
  // the shank (the foot gets 5 % of the shank's); the trunk gets the rest.
  double abduction_mass_fraction = 0.03;
  double thigh_mass_fraction = 0.04;
  double shank_mass_fraction = 0.015;
  double thigh = 0.2;         // m, hip → knee
  double shank = 0.2;         // m, knee → foot centre
  double trunk_length = 0.4;  // m, x; the hips at its corners (±length/2)
  double trunk_width = 0.2;   // m, y
  double trunk_height = 0.1;  // m, z
  double hip_offset = 0.08;   // m, abduction axis → leg plane (outward)
  double foot_radius = 0.02;  // m
  // N m; 0: m g (thigh + shank) / 2, enough for one leg to hold twice the
  // robot's weight at the leg's full length.
  double effort_limit = 0.0;
};

// A shape of 0.2 m + 0.2 m legs for 12 kg, every length scaled by
// (mass / 12 kg)^(1/3) (similar bodies of equal density), named
// "synthetic_<mass>kg".
SyntheticQuadruped SyntheticQuadrupedOfMass(double mass);

// The URDF text.
std::string SyntheticQuadrupedUrdf(const SyntheticQuadruped& spec);

// The loaded model (floating base).
absl::StatusOr<std::shared_ptr<const Model>> LoadSyntheticQuadruped(const SyntheticQuadruped& spec);

}  // namespace moreau::testing

#endif  // MOREAU_TESTS_UNIT_CONTROL_SYNTHETIC_QUADRUPED_H_
