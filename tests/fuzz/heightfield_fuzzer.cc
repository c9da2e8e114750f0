// Heightfield terrain data as a client sends it: a moreau.v1.Terrain message
// (origin, cell size, nx, ny, heights — or a plane or an incline), through
// the server's conversion (SettingsFromProto: the size limit, then
// contact::Terrain's checks). Every terrain it accepts is queried at points
// on, between and far off its grid, and a box (eight corner contacts) is
// dropped on it for a few steps under a force law and under hard contact.
#include <Eigen/Core>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>

#include "engine/contact/terrain.h"
#include "engine/model/loader.h"
#include "engine/sim/simulation.h"
#include "moreau/v1/simulator.pb.h"
#include "server/convert.h"

namespace {

using moreau::contact::Terrain;
using moreau::contact::Vec3;

volatile double sink = 0.0;

const std::shared_ptr<const moreau::Model>& Box() {
  static const auto* model = new std::shared_ptr<const moreau::Model>(*moreau::LoadBuiltin("box"));
  return *model;
}

// The terrain is queried where contact detection asks: any point, finite or
// not (a non-finite answer is the simulation's divergence check's to report).
void Query(const Terrain& terrain) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Vec3& o = terrain.origin();
  const double extent_x = terrain.cell_size() * std::max(terrain.nx() - 1, 1);
  const double extent_y = terrain.cell_size() * std::max(terrain.ny() - 1, 1);
  const double xs[] = {o.x() - 1.0,
                       o.x(),
                       o.x() + 0.37 * extent_x,
                       o.x() + extent_x,
                       o.x() + 2.0 * extent_x + 1.0,
                       inf,
                       -inf,
                       nan,
                       1e300};
  const double ys[] = {o.y() - 1.0, o.y(), o.y() + 0.61 * extent_y, o.y() + extent_y, -inf, nan};
  for (double x : xs) {
    for (double y : ys) {
      const moreau::contact::TerrainQuery q = terrain.Query(Vec3(x, y, 0.5));
      sink = q.distance + q.normal.x();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  moreau::v1::Settings proto;
  if (!proto.mutable_terrain()->ParseFromArray(data, static_cast<int>(size))) return 0;
  moreau::contact::HeightfieldLimits limits;
  limits.max_nodes = 4096;
  for (const char* contact : {"spring-damper", "moreau-sor"}) {
    proto.set_contact_model(contact);
    auto settings = moreau::server::SettingsFromProto(proto, limits);
    if (!settings.ok()) return 0;
    Query(settings->terrain);
    auto sim = moreau::sim::Simulation::Create(Box(), *settings);
    if (!sim.ok()) continue;
    (*sim)->StepAction(Eigen::VectorXd(), 10).IgnoreError();
  }
  return 0;
}
