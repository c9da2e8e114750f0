// Forward kinematics with body velocities (001 Alg. 1).
#ifndef MOREAU_ENGINE_DYNAMICS_KINEMATICS_H_
#define MOREAU_ENGINE_DYNAMICS_KINEMATICS_H_

#include <Eigen/Core>

#include "engine/dynamics/data.h"
#include "engine/model/model.h"

namespace moreau {

// Joint transforms only: writes X_up and R_base (what the body-frame
// recursions RNEA and CRBA need). q: nq.
void UpdateJointTransforms(const Model& model, Data& data, const Eigen::VectorXd& q);

// Joint transforms and body twists, without world placements: writes X_up,
// R_base, vJ, cJ and v.
void UpdateJointTransformsAndVelocities(const Model& model, Data& data, const Eigen::VectorXd& q,
                                        const Eigen::VectorXd& v);

// Positions: writes X_up, X_0 and R_base. q: nq.
void ForwardKinematics(const Model& model, Data& data, const Eigen::VectorXd& q);

// Positions and velocities: also writes vJ, cJ and the body twists v. v: nv.
void ForwardKinematics(const Model& model, Data& data, const Eigen::VectorXd& q,
                       const Eigen::VectorXd& v);

// World pose of body i from the last ForwardKinematics: rotation (body axes in
// world) and origin.
inline Mat3 BodyRotation(const Data& data, int i) { return data.X_0[i].E.transpose(); }
inline const Vec3& BodyPosition(const Data& data, int i) { return data.X_0[i].r; }

}  // namespace moreau

#endif  // MOREAU_ENGINE_DYNAMICS_KINEMATICS_H_
