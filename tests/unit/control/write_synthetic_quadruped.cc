// control_write_synthetic_quadruped NAME [OUT.urdf]: writes the synthetic
// quadruped NAME = synthetic_<mass>kg (e.g. synthetic_30kg; synthetic_quadruped.h)
// as URDF to OUT.urdf, or to stdout.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "tests/unit/control/synthetic_quadruped.h"

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: " << argv[0] << " synthetic_<mass>kg [OUT.urdf]\n";
    return 2;
  }
  absl::string_view name = argv[1];
  double mass = 0.0;
  if (!absl::ConsumePrefix(&name, "synthetic_") || !absl::ConsumeSuffix(&name, "kg") ||
      !absl::SimpleAtod(name, &mass) || !(mass > 0.0)) {
    std::cerr << "NAME must be synthetic_<mass>kg with a mass > 0, e.g. synthetic_30kg; got '"
              << argv[1] << "'\n";
    return 2;
  }
  const std::string urdf =
      moreau::testing::SyntheticQuadrupedUrdf(moreau::testing::SyntheticQuadrupedOfMass(mass));
  if (argc == 2) {
    std::cout << urdf;
    return 0;
  }
  std::ofstream out(argv[2]);
  out << urdf;
  if (!out) {
    std::cerr << "cannot write " << argv[2] << "\n";
    return 1;
  }
  return 0;
}
