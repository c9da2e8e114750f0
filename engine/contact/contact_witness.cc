#include "engine/contact/contact_witness.h"

#include <cmath>

#include "engine/dynamics/jacobians.h"
#include "engine/dynamics/kinematics.h"

namespace moreau::contact {

Vec3 Perpendicular(const Vec3& a) {
  int least = 0;
  for (int i = 1; i < 3; ++i) {
    if (std::abs(a[i]) < std::abs(a[least])) least = i;
  }
  return a.cross(Vec3::Unit(least)).normalized();
}

void UpdateWitnessPoints(const Model& model, const Terrain& terrain, const BroadPhase& broad,
                         Data& data) {
  if (!data.has_witness_slots) return;
  const int nc = static_cast<int>(model.contact_points.size());
  for (int k = 0; k < nc; ++k) {
    const ContactPoint& cp = model.contact_points[k];
    if (cp.witness == ContactWitness::kFixed || !broad.Near(cp.body)) continue;
    const Transform& X = data.X_0[cp.body];
    const Vec3 centre = data.contact_position[k];
    const Vec3 n = terrain.Query(centre).normal;
    Vec3 p;
    if (cp.witness == ContactWitness::kSphereBottom) {
      p = centre - cp.radius * n;
    } else {
      const Vec3 a = X.E.transpose() * cp.axis;
      // −n projected on the rim's plane: the direction of the lowest point.
      Vec3 u = -n + n.dot(a) * a;
      const double norm = u.norm();
      u = norm > 1e-6 ? Vec3(u / norm) : Vec3(X.E.transpose() * Perpendicular(cp.axis));
      const Vec3 w = a.cross(u);
      p = centre + cp.radius * (std::cos(cp.angle) * u + std::sin(cp.angle) * w);
    }
    data.contact_position[k] = p;
    data.contact_point_body[k] = X.TransformPoint(p);
  }
}

void UpdateWitnessPoints(const Model& model, const Terrain& terrain, Data& data) {
  UpdateWitnessPoints(model, terrain, BroadPhase(), data);
}

void WitnessJacobians(const Model& model, const Terrain& terrain, const Eigen::VectorXd& q,
                      Data& data) {
  ForwardKinematics(model, data, q);
  ContactPositions(model, data);  // the slots' centres, which the witness points start from
  UpdateWitnessPoints(model, terrain, data);
  ContactJacobians(model, data);  // at data.contact_point_body
}

}  // namespace moreau::contact
