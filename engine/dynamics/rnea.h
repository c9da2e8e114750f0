// Recursive Newton–Euler algorithm (001 Alg. 2–4; RBDA Table 5.1) and its
// split terms: quadratic-velocity c(q, v), gravity g(q) and external wrenches.
//
//   τ = M(q) q̈ + c(q, v) + g(q) − Σ Jᵢᵀ f_ext,i
//
// M includes the rotors' reflected inertia diag(Model::armature) (002 §IV-C):
// Rnea adds armature · q̈; c, g and the wrench term have none.
//
// External wrenches are per body (size nbodies, index 0 ignored), spatial
// forces in body coordinates about the body origin.
#ifndef MOREAU_ENGINE_DYNAMICS_RNEA_H_
#define MOREAU_ENGINE_DYNAMICS_RNEA_H_

#include <Eigen/Core>
#include <vector>

#include "engine/dynamics/data.h"
#include "engine/model/model.h"

namespace moreau {

// Full inverse dynamics; writes data.tau (and kinematics, a, f). Returns data.tau.
const Eigen::VectorXd& Rnea(const Model& model, Data& data, const Eigen::VectorXd& q,
                            const Eigen::VectorXd& v, const Eigen::VectorXd& qacc,
                            const std::vector<Force>* f_ext = nullptr);

// c(q, v): RNEA with q̈ = 0 and no gravity (001 Alg. 2). Writes data.c.
const Eigen::VectorXd& ComputeCoriolis(const Model& model, Data& data, const Eigen::VectorXd& q,
                                       const Eigen::VectorXd& v);

// g(q): RNEA with v = q̈ = 0 and gravity only (001 Alg. 3). Writes data.g.
const Eigen::VectorXd& ComputeGravity(const Model& model, Data& data, const Eigen::VectorXd& q);

// c(q, v) + g(q) in one pass (MuJoCo's qfrc_bias) at the (q, v) of the last
// ForwardKinematics(model, data, q, v) or UpdateJointTransformsAndVelocities
// (reads X_up, R_base, v, vJ, cJ); writes data.tau.
const Eigen::VectorXd& NonlinearEffects(const Model& model, Data& data);
// The same at (q, v), computing the joint transforms and twists on the way.
const Eigen::VectorXd& NonlinearEffects(const Model& model, Data& data, const Eigen::VectorXd& q,
                                        const Eigen::VectorXd& v);

// −Σ Jᵢᵀ f_ext,i: the generalized force of external wrenches (001 Alg. 4),
// written to `out` (nv). Needs ForwardKinematics positions in data.
void ExternalWrenchForce(const Model& model, Data& data, const std::vector<Force>& f_ext,
                         Eigen::VectorXd& out);

}  // namespace moreau

#endif  // MOREAU_ENGINE_DYNAMICS_RNEA_H_
