// One step of the `micro-macro` contact model (003 §III): rigid terrain
// covered by a thin elastic membrane. The micro layer (003 eq. 14–15, the
// `micro` force law of engine/contact/micro.h) acts at every point touching
// the membrane; the macro layer (003 eq. 16–36) at the points that reach the
// rigid floor beneath it: per step, the impulses Δf solve the regularised
// least-squares QP
//   min ½‖A Δf − v‖² + ½ λ ‖Δf‖²  s.t.  νᵢᵀ Δfᵢ ≥ 0          (003 eq. 33)
// where A Δf = v (eq. 32) stacks eq. 30 (static points: the point stops,
// three rows and three unknowns) and eq. 31 (kinetic points: the normal
// velocity after the step is −e v_ν, one row, one unknown Δf_ν along
// ν − μ_K σ, eq. 26). f = Δf/Δt (eq. 34). Static friction above μ_S f_ν
// is replaced by kinetic friction μ_K f_ν in the same direction (eq. 35–36).
// λ > 0 leaves part of the velocity error to the membrane, which carries the
// static load ("balanced"; 003 Fig. 7–8: smooth, evenly spread sole forces
// for λ up to 4, sinking for λ ≈ 7). Integration: 003 §IV-A's first-order
// symplectic (semi-implicit Euler) scheme.
#ifndef MOREAU_ENGINE_STEP_MICRO_MACRO_STEP_H_
#define MOREAU_ENGINE_STEP_MICRO_MACRO_STEP_H_

#include <Eigen/Core>
#include <span>

#include "absl/status/status.h"
#include "engine/contact/contact_state.h"
#include "engine/contact/micro.h"
#include "engine/contact/qp_solver.h"
#include "engine/contact/terrain.h"
#include "engine/model/model.h"
#include "engine/step/explicit_step.h"
#include "engine/step/workspace.h"

namespace moreau::step {

// Defaults: 003 §IV-C (the floor of the standing and walking tests) unless
// marked ours.
struct MicroMacroParams {
  // The membrane (micro layer): "a 0.0005 [m] elastic membrane with spring
  // coefficient 5512 [N/m], damping coefficient 158 [N/m·s⁻¹] and kinetic
  // friction coefficient 0.4". Its friction is the `micro` law's stick
  // anchor (micro.h; tangential spring and damper ours).
  contact::MicroParams membrane{5512.0, 158.0, 0.4, 5512.0, 158.0, 1e-4};
  double membrane_thickness = 0.0005;  // m
  // The rigid floor (macro layer): "rebound coefficient 0, maximum static
  // friction coefficient 1.0 and kinetic friction coefficient 0.4".
  double restitution = 0.0;  // e, eq. 29
  double mu_static = 1.0;    // μ_S, eq. 35
  double mu_kinetic = 0.4;   // μ_K, eq. 11, 26, 36
  // λ of eq. 33 (units of A², 1/kg²): 1.0 in 003 §IV-D–E (walking, falling,
  // jumping).
  double lambda = 1.0;
  // ε of eq. 7 and 25 (m/s): a point slower than this is static. 003: "a
  // tiny value"; 1 mm/s is ours.
  double slip_velocity = 1e-3;
  contact::QpParams qp;
};

// InvalidArgument naming the field ("micro_macro.<field>") and value unless
// the membrane is valid (contact::Validate(MicroParams)), thickness ≥ 0,
// e ∈ [0, 1], μ_S ≥ μ_K ≥ 0, λ > 0 (eq. 33 needs it for the hyperstatic
// case), slip_velocity > 0, all finite, and qp valid.
absl::Status Validate(const MicroMacroParams& params);

// Advances (q, v) by dt. `states` (one per contact slot) is the membrane's
// stick-anchor memory; `impulses` (3 per slot: N, T1, T2, N s) the previous
// macro impulses for the QP's warm start, receiving this step's. Forces
// (membrane + macro, world) land in w.contacts[k].force; the QP iterations in
// w.last_qp. A point is in the macro set when it reaches the rigid floor
// (g_N ≤ −thickness) or would within the step (g_N + thickness + Δt γ_N ≤
// 0; its normal row then targets the floor instead of −e v_ν).
// FailedPrecondition when M is not positive definite.
absl::Status MicroMacroStep(const Model& model, const contact::Terrain& terrain,
                            const MicroMacroParams& params, double dt, const StepInputs& inputs,
                            Eigen::VectorXd& q, Eigen::VectorXd& v,
                            std::span<contact::ContactState> states, std::span<double> impulses,
                            StepWorkspace& w);

}  // namespace moreau::step

#endif  // MOREAU_ENGINE_STEP_MICRO_MACRO_STEP_H_
