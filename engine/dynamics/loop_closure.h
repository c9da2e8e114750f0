// Cut joints of closed kinematic chains (000 eq. 19–20, 004 §3.1): the
// constraint rows of a Model::loop_closures entry at the current kinematics.
//
// A revolute cut between frame A (point p_A, axis a_A on body_a) and frame B
// (p_B, a_B on body_b), in world coordinates x_A, x_B, a_A, a_B, with (t1, t2)
// an orthonormal pair perpendicular to a_A:
//   φ = [x_A − x_B ; t1ᵀ(a_A × a_B) ; t2ᵀ(a_A × a_B)]        (5, position error)
//   J_φ v = [ẋ_A − ẋ_B ; t1ᵀ(ω_B − ω_A) ; t2ᵀ(ω_B − ω_A)]      (the rows' rates)
// (d/dt (a_A × a_B) = ((ω_B − ω_A) × a)⊥ where a_A = a_B = a.) Rows whose
// Jacobian vanishes identically (a planar mechanism: the out-of-plane
// translation and both tilts) are kept; the solvers drop them.
#ifndef MOREAU_ENGINE_DYNAMICS_LOOP_CLOSURE_H_
#define MOREAU_ENGINE_DYNAMICS_LOOP_CLOSURE_H_

#include <Eigen/Core>

#include "engine/dynamics/data.h"
#include "engine/model/model.h"

namespace moreau {

// φ (5) of `loop` at the last ForwardKinematics (X_0).
void LoopClosureError(const Model& model, const Data& data, const LoopClosure& loop,
                      Eigen::Ref<Eigen::VectorXd> phi);

// φ (5) and J_φ (5 × nv; zero off the two bodies' support paths) of `loop`.
// Needs ForwardKinematics and ComputeJointAxesWorld. Allocation-free.
void LoopClosureRows(const Model& model, const Data& data, const LoopClosure& loop,
                     Eigen::Ref<Eigen::MatrixXd> J, Eigen::Ref<Eigen::VectorXd> phi);

}  // namespace moreau

#endif  // MOREAU_ENGINE_DYNAMICS_LOOP_CLOSURE_H_
