// Small hand-built models for the contact tests: a free-floating rigid body
// carrying contact spheres (no loader needed), and a point-mass harness that
// fills a Contact slot from a Terrain without a Model.
#ifndef MOREAU_TESTS_UNIT_CONTACT_TEST_BODIES_H_
#define MOREAU_TESTS_UNIT_CONTACT_TEST_BODIES_H_

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <vector>

#include "engine/contact/contact_set.h"
#include "engine/contact/terrain.h"
#include "engine/model/model.h"

namespace moreau::contact::testing {

// A floating body (free joint, nq = 7, nv = 6) of the given mass and
// rotational inertia about its origin (= centre of mass) with these contact
// spheres.
Model FloatingBody(double mass, const Mat3& inertia, const std::vector<ContactPoint>& points);

// A solid sphere of `radius` and `mass` with one contact sphere at its
// centre: the built-in "sphere" model, by hand.
Model SphereModel(double radius = 0.1, double mass = 1.0);

// q of a floating body: position, then quaternion (w, x, y, z).
Eigen::VectorXd FreeQ(const Vec3& position,
                      const Eigen::Quaterniond& orientation = Eigen::Quaterniond::Identity());

// The Contact of a sphere (centre, radius) moving at `velocity` over
// `terrain`, as DetectContacts + ComputeContactVelocities would fill it.
Contact PointContact(const Terrain& terrain, const Vec3& centre, double radius,
                     const Vec3& velocity);

// A point (radius 0) at `p` moving at `vel` over the flat ground z = 0: gap = p.z.
Contact Ground(const Vec3& p, const Vec3& vel = Vec3::Zero());

}  // namespace moreau::contact::testing

#endif  // MOREAU_TESTS_UNIT_CONTACT_TEST_BODIES_H_
