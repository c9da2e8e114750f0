// Contact-point Jacobians by the support path (001 Alg. 6) and J̇v.
#ifndef MOREAU_ENGINE_DYNAMICS_JACOBIANS_H_
#define MOREAU_ENGINE_DYNAMICS_JACOBIANS_H_

#include <Eigen/Core>
#include <cstdint>
#include <span>

#include "engine/dynamics/data.h"
#include "engine/model/model.h"

namespace moreau {

// Joint motion axes in world coordinates, data.S_world (6 × nv). Needs
// ForwardKinematics positions.
void ComputeJointAxesWorld(const Model& model, Data& data);

// Contact points are data.contact_point_body (a slot's witness point).
// World positions and 3 × nv Jacobians of every contact point at the q of
// the last ForwardKinematics (reads X_0 and R_base): the point's world linear
// velocity is contact_J[k] v. Also writes data.S_world.
void ContactJacobians(const Model& model, Data& data);
// ForwardKinematics(q), then ContactJacobians(model, data).
void ContactJacobians(const Model& model, Data& data, const Eigen::VectorXd& q);

// Only the world positions of the contact slots' centres (ContactPoint::
// position; contact_witness.h then moves sphere-bottom and rim slots to their
// witness points) into data.contact_position, at
// the q of the last ForwardKinematics: ContactJacobians without the
// Jacobians, for a step that forms them only for the touching contacts
// (PointJacobian into data.contact_J[k]). With `near` (one flag per body,
// contact/broad_phase.h), only the slots of bodies flagged nonzero; empty:
// every slot.
void ContactPositions(const Model& model, Data& data, std::span<const uint8_t> near = {});

// The world linear velocity Jacobian (3 × nv) of a point fixed on `body` at
// `point_body` (body coordinates). Needs ComputeJointAxesWorld.
void PointJacobian(const Model& model, const Data& data, int body, const Vec3& point_body,
                   Eigen::Ref<Matrix3Xd> J);

// J̇ v of every contact point (world frame): the point's acceleration when
// q̈ = 0 and without gravity. Runs ForwardKinematics(q, v); writes
// data.contact_position and data.contact_Jdot_v.
void ContactJdotV(const Model& model, Data& data, const Eigen::VectorXd& q,
                  const Eigen::VectorXd& v);
// The per-point part of ContactJdotV, at the bias accelerations data.a and
// twists it left: J̇ v and the world position of every slot's
// data.contact_point_body (after a contact detection moved the witness
// points).
void ContactPointsJdotV(const Model& model, Data& data);

}  // namespace moreau

#endif  // MOREAU_ENGINE_DYNAMICS_JACOBIANS_H_
