// Composite-rigid-body algorithm (001 Alg. 5; RBDA Table 6.2) and the sparse
// factorization of the joint-space inertia M = LᵀDL (RBDA §6.5, Table 6.3).
#ifndef MOREAU_ENGINE_DYNAMICS_CRBA_H_
#define MOREAU_ENGINE_DYNAMICS_CRBA_H_

#include <Eigen/Core>

#include "engine/dynamics/data.h"
#include "engine/model/model.h"

namespace moreau {

// M(q), nv × nv, symmetric, written in full to data.M (also writes Ic), at
// the q of the last kinematics call (any of kinematics.h, which leave X_up
// and R_base). The diagonal includes Model::armature (N²·I_rotor, 002 §IV-C).
const Eigen::MatrixXd& Crba(const Model& model, Data& data);

// UpdateJointTransforms(q), then Crba(model, data).
const Eigen::MatrixXd& Crba(const Model& model, Data& data, const Eigen::VectorXd& q);

// Factorizes data.M as LᵀDL along the DOF tree (no fill-in, O(n d²) for depth
// d) into data.L_values / data.L_diag. Returns false if a pivot is not
// positive (M not positive definite).
bool FactorMassMatrix(const Model& model, Data& data);

// Crba then FactorMassMatrix without the dense M: CRBA writes
// each entry straight into the factor's tree-sparse rows (data.L_diag and
// data.L_values, the layout FactorMassMatrix gathers from M) and factors them
// in place — the same factor, bit for bit. data.M is not written. Returns
// false as FactorMassMatrix does.
bool CrbaFactor(const Model& model, Data& data);

// x ← M⁻¹ x with the factor from FactorMassMatrix.
void SolveMassMatrix(const Data& data, Eigen::Ref<Eigen::VectorXd> x);

// x ← L⁻ᵀ x: the first half of SolveMassMatrix (Lᵀ y = x from the leaves to
// the root), whose SolveMassMatrixFromHalf is M⁻¹ x.
void SolveMassMatrixHalf(const Data& data, Eigen::Ref<Eigen::VectorXd> x);

// x ← L⁻¹ D⁻¹ x: the second half of SolveMassMatrix (M⁻¹ b = L⁻¹ D⁻¹ L⁻ᵀ b)
// for an x that already is L⁻ᵀ b, e.g. Y Λ with Y = L⁻ᵀ W from the contact
// assembly (engine/step/delassus.h), which saves the L⁻ᵀ half.
void SolveMassMatrixFromHalf(const Data& data, Eigen::Ref<Eigen::VectorXd> x);

}  // namespace moreau

#endif  // MOREAU_ENGINE_DYNAMICS_CRBA_H_
