// One step of the `micro-macro` contact model (003 §III): rigid terrain
// covered by a thin elastic membrane. Both layers act at every point touching
// the terrain (g_N ≤ 0, and for the macro layer also the points the motion
// would bring there within the step): the micro layer (003 eq. 14–15, the
// `micro` force law of engine/contact/micro.h) first, its forces entering
// u_E (eq. 18), then the macro layer (003 eq. 16–36), whose impulses Δf solve
// the regularised least-squares QP
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
//
// Which points are macro (003's set H) and which micro (T) 003 leaves open.
// We put every touching point in both, as 003 Fig. 4's procedure runs steps
// 4 (micro) and 5–6 (macro) over the same detected points. The alternative,
// H = the points pressed through the 0.5 mm membrane onto the rigid floor,
// leaves a resting body on the membrane alone, i.e. without the macro
// layer's static friction: the 1 kg box of box_friction_test on a 30°
// incline then crept 14 mm in 2 s (the membrane's explicit stick anchor at
// Δt = 1 ms after the landing transient) instead of < 0.1 mm. With λ > 0
// the macro layer carries no static load (it leaks a fraction of the
// velocity error every step), so the membrane ends up carrying the weight at
// m g / k deep, and 003's membrane thickness is not a parameter.
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
#include "engine/step/contact_activation.h"
#include "engine/step/stages.h"
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
  // The rigid floor (macro layer): "rebound coefficient 0, maximum static
  // friction coefficient 1.0 and kinetic friction coefficient 0.4".
  double restitution = 0.0;  // e, eq. 29
  double mu_static = 1.0;    // μ_S, eq. 35
  double mu_kinetic = 0.4;   // μ_K, eq. 11, 26, 36
  // λ of eq. 33 (units of A², 1/kg²): 1.0 in 003 §IV-D–E (walking, falling,
  // jumping).
  double lambda = 1.0;
  // ε of eq. 7 and 25 (m/s): a point slower than this is static. 003: "a
  // tiny value"; 2 cm/s is ours. With λ > 0 a static point is not stopped
  // exactly (eq. 33 leaves a fraction ≈ λ/(a² + λ) of its velocity error),
  // so ε must exceed that creep or static points flip to kinetic and the
  // feet slide: on the built-in biped ε = 1 mm/s let the soles slide at
  // 1–2 cm/s with alternating corner forces, ε ≥ 2 cm/s keeps them static
  // (creep < 0.1 mm/s) with smooth forces.
  double slip_velocity = 0.02;
  contact::QpParams qp;
};

// InvalidArgument naming the field ("micro_macro.<field>") and value unless
// the membrane is valid (contact::Validate(MicroParams)), e ∈ [0, 1], μ_S ≥ μ_K ≥ 0, λ > 0 (eq. 33
// needs it for the hyperstatic case), slip_velocity > 0, all finite, and qp valid.
absl::Status Validate(const MicroMacroParams& params);

// Advances (q, v) by dt. `states` (one per contact slot) is the membrane's
// stick-anchor memory; `impulses` (3 per slot: N, T1, T2, N s) the previous
// macro impulses for the QP's warm start, receiving this step's. Forces
// (membrane + macro, world) land in w.contacts[k].force; the QP iterations in
// w.qp.last. A point is in the macro set when it touches (g_N ≤ 0) or would
// within the step (g_N + Δt γ_N ≤ 0; its normal row then targets the surface
// instead of −e v_ν).
// FailedPrecondition when M is not positive definite. The stages, in order:
// ForwardKinematics, SmoothDynamics, Actuation, ContactDetection and the
// velocities, MembraneForces, ActivateContacts (horizon Δt, the membrane
// forces kept), MacroContactSolve, Integrate.
absl::Status MicroMacroStep(const Model& model, const contact::Terrain& terrain,
                            const MicroMacroParams& params, double dt, const StepInputs& inputs,
                            Eigen::VectorXd& q, Eigen::VectorXd& v,
                            std::span<contact::ContactState> states, std::span<double> impulses,
                            StepWorkspace& w);

// The micro layer (003 §III-D step 4), after the contact velocities: the
// membrane forces (003 eq. 14, 7, 12; the `micro` law) at every slot
// touching it (g_N ≤ 0, the detection's active flag), into each slot's force
// and added to w.h (eq. 18). `states` as in MicroMacroStep. Allocation-free.
void MembraneForces(const Model& model, const MicroMacroParams& params, double dt,
                    std::span<contact::ContactState> states, StepWorkspace& w);

// The macro layer's contact solve (003 §III-D steps 5–8), after
// ActivateContacts: u_free = v + Δt H⁻¹ (w.h) (eq. 23–24), each active point
// static or kinetic (eq. 25–26), the least-squares QP (eq. 33) and its
// static-to-kinetic friction limit (eq. 35–36); the end velocity in
// w.u_free, the impulses Δf added to the active slots' forces as Δf/Δt.
// Writes contacts.num_active and w.qp.last. Allocation-free.
void MacroContactSolve(const Model& model, const MicroMacroParams& params, double dt,
                       const ActiveSet& set, const Eigen::VectorXd& v, std::span<double> impulses,
                       StepWorkspace& w);

}  // namespace moreau::step

#endif  // MOREAU_ENGINE_STEP_MICRO_MACRO_STEP_H_
