#include "engine/contact/broad_phase.h"

#include <algorithm>
#include <cmath>

namespace moreau::contact {

BroadPhase MakeBroadPhase(const Model& model) {
  BroadPhase broad;
  broad.near.assign(model.nbodies, 1);
  broad.gap_bound.assign(model.nbodies, 0.0);
  for (int b = 0; b < model.nbodies; ++b) {
    // The box around the body's slot spheres; its middle is the centre.
    Vec3 lo = Vec3::Constant(INFINITY);
    Vec3 hi = Vec3::Constant(-INFINITY);
    int slots = 0;
    for (const ContactPoint& cp : model.contact_points) {
      if (cp.body != b) continue;
      lo = lo.cwiseMin(cp.position - Vec3::Constant(cp.radius));
      hi = hi.cwiseMax(cp.position + Vec3::Constant(cp.radius));
      ++slots;
    }
    // A body with one slot: its narrow phase costs what the test would.
    if (slots < 2) continue;
    BodyBound bound;
    bound.body = b;
    bound.centre = 0.5 * (lo + hi);
    for (const ContactPoint& cp : model.contact_points) {
      if (cp.body != b) continue;
      bound.radius = std::max(bound.radius, (cp.position - bound.centre).norm() + cp.radius);
      if (cp.witness == ContactWitness::kFixed) {
        bound.fixed_radius = std::max(bound.fixed_radius, cp.radius);
      }
    }
    broad.bounds.push_back(bound);
  }
  return broad;
}

void RunBroadPhase(const Data& data, const Terrain& terrain, double margin, double horizon,
                   BroadPhase& broad) {
  broad.any_far = false;
  for (const BodyBound& bound : broad.bounds) {
    const Transform& X = data.X_0[bound.body];
    const Vec3 centre = X.InverseTransformPoint(bound.centre);
    double d = terrain.DistanceLowerBound(centre, bound.radius);
    if (bound.fixed_radius > 0.0) {
      // A fixed slot: g_N = distance(centre_k) − r_k ≥ that bound (equal to d
      // on a plane, below it on a heightfield's slopes).
      d = std::min(d, terrain.DistanceLowerBound(centre, bound.radius - bound.fixed_radius) -
                          bound.fixed_radius);
    }
    // Rounding slack: the narrow phase forms the same distances in another
    // order of operations.
    const double slack = 1e-9 * (1.0 + centre.lpNorm<Eigen::Infinity>() + bound.radius);
    bool far = d > margin + slack;
    if (far && horizon > 0.0) {
      // Speed of any point of the sphere: ‖v_O + ω × c‖ + ‖ω‖ R (body
      // coordinates, norms are frame-invariant).
      const Motion& twist = data.v[bound.body];
      const double speed = (twist.linear + twist.angular.cross(bound.centre)).norm() +
                           twist.angular.norm() * bound.radius;
      far = d - horizon * speed > slack;
    }
    broad.near[bound.body] = far ? 0 : 1;
    broad.any_far = broad.any_far || far;
    broad.gap_bound[bound.body] = d;
  }
}

}  // namespace moreau::contact
