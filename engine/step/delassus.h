// The contact-space quantities of Moreau's midpoint step (000 eq. 11–12) from
// the sparse factor M = LᵀDL (engine/dynamics/crba.h), exploiting the tree
// sparsity of the contact Jacobians: a point on body b moves only with the
// DOFs on b's support path (for a quadruped's foot: the base and three leg
// DOFs), and L⁻ᵀ keeps that support. With Y = L⁻ᵀ W (MuJoCo's half solve),
//   G = Wᵀ M⁻¹ W = Wᵀ L⁻¹ D⁻¹ L⁻ᵀ W = Yᵀ D⁻¹ Y,
// so each column of Y costs O(d²) for a path of d DOFs and each entry of G
// O(d), instead of a full solve per column and a dense product.
#ifndef MOREAU_ENGINE_STEP_DELASSUS_H_
#define MOREAU_ENGINE_STEP_DELASSUS_H_

#include <Eigen/Core>
#include <span>

#include "engine/contact/contact_set.h"
#include "engine/dynamics/data.h"
#include "engine/model/model.h"

namespace moreau::step {

// The DOFs that move a point fixed on `body`, in decreasing order (the body's
// last DOF, then its ancestors, nearest first), written to `dofs` (room for
// nv). Returns their number (0 for the world body).
int SupportDofs(const Model& model, const Data& data, int body, int* dofs);

// The contact Jacobians J_k are not read: their support-path columns
// v_d + ω_d × p_k come from the world joint axes data.S_world
// (ComputeJointAxesWorld) and the sphere centres data.contact_position
// (ContactPositions), both at the factor's q (ContactJacobians writes both).
//
// For the active contacts (slots `active`, n = 3 n_c directions [n, t1, t2]
// each, W = Jᵀ [n t1 t2]):
// Y = L⁻ᵀ W and G (n × n) = Yᵀ D⁻¹ Y. `support` holds each active contact's
// SupportDofs (nv ints per contact) and `support_len` their counts.
// Y_path (nv × 2n) receives Y's columns on their support paths (entry s of
// contact a's columns ↔ DOF support[a nv + s]; rows past a path's length are
// left as they were), then D⁻¹ Y the same way in columns n..2n−1. Y (nv × n,
// zero off each column's support) gets the full columns, which
// AssembleBilateralRows needs; pass nv × 0 to skip them. Needs
// FactorMassMatrix.
void AssembleDelassus(const Data& data, const contact::ContactSet& contacts,
                      std::span<const int> active, std::span<const int> support,
                      std::span<const int> support_len, Eigen::Ref<Eigen::MatrixXd> Y,
                      Eigen::Ref<Eigen::MatrixXd> Y_path, Eigen::Ref<Eigen::MatrixXd> G);

// out (nv) = Y Λ from AssembleDelassus's Y_path: L⁻ᵀ W Λ, whose
// SolveMassMatrixFromHalf is M⁻¹ W Λ.
void PathImpulse(std::span<const int> support, std::span<const int> support_len,
                 Eigen::Ref<const Eigen::MatrixXd> Y_path, Eigen::Ref<const Eigen::VectorXd> Lambda,
                 Eigen::Ref<Eigen::VectorXd> out);

// out (n) += Yᵀ D⁻¹ z from AssembleDelassus's Y_path (its D⁻¹ Y columns
// n..2n−1) for z = L⁻ᵀ x (SolveMassMatrixHalf): Wᵀ M⁻¹ x = (L⁻ᵀ W)ᵀ D⁻¹ L⁻ᵀ x,
// a dot product over each contact's support path.
void AddPathVelocity(std::span<const int> support, std::span<const int> support_len,
                     Eigen::Ref<const Eigen::MatrixXd> Y_path, Eigen::Ref<const Eigen::VectorXd> z,
                     Eigen::Ref<Eigen::VectorXd> out);

// out (n) = Wᵀ u: per active contact, [n t1 t2]ᵀ J u over the support.
void ContactSpaceVelocity(const Data& data, const contact::ContactSet& contacts,
                          std::span<const int> active, std::span<const int> support,
                          std::span<const int> support_len, const Eigen::VectorXd& u,
                          Eigen::Ref<Eigen::VectorXd> out);

// For each active contact a (slot k = active[a]): impulses[3k..3k+2] = Λ's
// [N, T1, T2] of a (the next step's warm start), and the slot's force +=
// (Λ_N n + Λ_T1 t1 + Λ_T2 t2) / Δt (the steps zero it first; micro-macro adds
// to its membrane force).
void RecordContactImpulses(std::span<const int> active, Eigen::Ref<const Eigen::VectorXd> Lambda,
                           double dt, contact::ContactSet& contacts, std::span<double> impulses);

// out (nv) = W Λ = Σ J_kᵀ (Λ_N n + Λ_T1 t1 + Λ_T2 t2), over the supports.
void GeneralizedImpulse(const Data& data, const contact::ContactSet& contacts,
                        std::span<const int> active, std::span<const int> support,
                        std::span<const int> support_len, Eigen::Ref<const Eigen::VectorXd> Lambda,
                        Eigen::Ref<Eigen::VectorXd> out);

// Bilateral rows (000 eq. 19–20) after the n contact rows: row r's
// generalized direction b_r (column r of B, nv × m, zero off its support) —
// a unit vector e_j for a joint-velocity row, a cut-joint Jacobian row for a
// loop closure. `support` holds nv ints per row: the DOFs where b_r may be
// nonzero, closed under DOF ancestry and in decreasing order (SupportDofs of
// a joint's body, or the union of two such paths). Writes Y's columns n..n+m−1
// = L⁻ᵀ B and G's rows/columns n..n+m−1 against all n + m columns (G_jk = e_jᵀ
// M⁻¹ b_k: entries of M⁻¹ and of M⁻¹ W for joint rows). Needs the contact
// block already in Y and G (AssembleDelassus) and FactorMassMatrix.
void AssembleBilateralRows(const Data& data, Eigen::Ref<const Eigen::MatrixXd> B,
                           std::span<const int> support, std::span<const int> support_len, int n,
                           Eigen::Ref<Eigen::MatrixXd> Y, Eigen::Ref<Eigen::MatrixXd> G);

}  // namespace moreau::step

#endif  // MOREAU_ENGINE_STEP_DELASSUS_H_
