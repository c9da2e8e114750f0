// Witness points of the contact slots that are not fixed on their body
// (model.h ContactWitness): the point of a sphere or of a cylinder's rim
// that touches the terrain moves over the body as it rolls, so each contact
// detection finds it anew and the Jacobians, J̇ v and the contact forces act
// there (docs/collision.md).
#ifndef MOREAU_ENGINE_CONTACT_CONTACT_WITNESS_H_
#define MOREAU_ENGINE_CONTACT_CONTACT_WITNESS_H_

#include <Eigen/Core>

#include "engine/contact/broad_phase.h"
#include "engine/contact/terrain.h"
#include "engine/dynamics/data.h"
#include "engine/model/model.h"

namespace moreau::contact {

// For each kSphereBottom and kRim slot, from its world centre in
// data.contact_position (ContactPositions) and the terrain normal n there:
//   sphere  p = c − r n (the sphere's point deepest along −n);
//   rim     with a the world axis and u the unit projection of −n on the
//           circle's plane, p = c + r (cos φ u + sin φ (a × u)), φ the
//           slot's angle (0: the rim's lowest point). When the axis is
//           within 1e-6 of n (a cylinder lying on a face) u is the body's
//           fixed direction perpendicular to the axis instead.
// Writes p to data.contact_position[k] (world) and data.contact_point_body[k]
// (body frame). kFixed slots, and the slots of bodies the broad phase found
// far, are left alone. Allocation-free.
void UpdateWitnessPoints(const Model& model, const Terrain& terrain, const BroadPhase& broad,
                         Data& data);
// Every slot's witness point (no broad phase).
void UpdateWitnessPoints(const Model& model, const Terrain& terrain, Data& data);

// Every slot's world position (data.contact_position) and linear velocity
// Jacobian (data.contact_J, 3 × nv, world) at configuration q, taken at its
// witness point on `terrain` as the step's contact stage finds it: a
// sphere's lowest point, a rim's, a fixed slot's own point. Runs the forward
// kinematics at q.
void WitnessJacobians(const Model& model, const Terrain& terrain, const Eigen::VectorXd& q,
                      Data& data);

// A unit vector perpendicular to the unit vector a: a × e for the world axis
// e least aligned with a, normalized.
Vec3 Perpendicular(const Vec3& a);

}  // namespace moreau::contact

#endif  // MOREAU_ENGINE_CONTACT_CONTACT_WITNESS_H_
