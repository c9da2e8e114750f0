// Articulated-body algorithm (Featherstone RBDA Table 7.1, with the floating
// base of RBDA §9.3): q̈ = M⁻¹(τ − c − g + Σ Jᵀ f_ext) in O(n), M with the
// rotors' reflected inertia Model::armature on its diagonal (002 §IV-C).
#ifndef MOREAU_ENGINE_DYNAMICS_ABA_H_
#define MOREAU_ENGINE_DYNAMICS_ABA_H_

#include <Eigen/Core>
#include <vector>

#include "engine/dynamics/data.h"
#include "engine/model/model.h"

namespace moreau {

// Writes data.qacc (nv) and returns it. f_ext as in rnea.h (body coordinates).
// Also leaves X_up, v, vJ and a (body coordinates, a_0 = −g) at (q, v, q̈); the
// world placements X_0 are not needed and not updated.
const Eigen::VectorXd& Aba(const Model& model, Data& data, const Eigen::VectorXd& q,
                           const Eigen::VectorXd& v, const Eigen::VectorXd& tau,
                           const std::vector<Force>* f_ext = nullptr);

// Aba in two halves at the q of the last kinematics call (any of
// kinematics.h, which leave X_up and R_base): the joint transforms are not
// recomputed, and a caller that needs the body twists before it knows every
// force (the compliant contact step: contact velocities from the twists,
// then the contact forces on the bodies) applies those in between.
// Pass 1 (RBDA Table 7.1) at the X_up and R_base of the last kinematics call:
// body twists v_i (data.v), velocity-product accelerations c_i, I^A_i = I_i
// and p^A_i = v_i ×* I_i v_i − f^x_i (data.pA). More external forces f on body
// i (body coordinates) may then be applied as data.pA[i] −= f.
void AbaVelocities(const Model& model, Data& data, const Eigen::VectorXd& v,
                   const std::vector<Force>* f_ext = nullptr);
// Passes 2 and 3 (RBDA Table 7.1) after AbaVelocities: writes data.qacc and
// returns it.
const Eigen::VectorXd& AbaAccelerations(const Model& model, Data& data, const Eigen::VectorXd& tau);

}  // namespace moreau

#endif  // MOREAU_ENGINE_DYNAMICS_ABA_H_
