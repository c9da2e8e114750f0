// Hertz contact with ramped damping and smooth stick–slip friction (001 §5,
// eq. 34–38): a nonlinear spring K δ^e, a damper whose coefficient a
// smoothstep ramps in over the first w of penetration (so the force has no
// jump at impact), and a friction coefficient μ(v) that is a smooth function
// of the slip speed. Stateless; integrated by the explicit schemes of step/.
#ifndef MOREAU_ENGINE_CONTACT_HERTZ_H_
#define MOREAU_ENGINE_CONTACT_HERTZ_H_

#include <Eigen/Core>

#include "absl/status/status.h"
#include "engine/contact/contact_set.h"
#include "engine/spatial/motion.h"

namespace moreau::contact {

// Defaults: 001 Table I ("our simulator"), tuned there with Δt = 1e-4 s.
//
// Units of K. Table I gives K = 1.0e4 "N/m" with e = 2.2, which cannot both
// hold for f_s = K δ^e (eq. 34): K δ^e is a force only if K is in N/m^e.
// Read literally in SI (δ in m, K in N/m^2.2) the spring is far too soft for
// the 9 kg Mini Cheetah: one quarter of its weight, 22 N, needs
// δ = (22 / 1e4)^(1/2.2) = 62 mm per foot, and the trotting robot sinks
// ≈ 0.15 m and falls — while 001 §7 reports a trunk height within 4.6 mm
// (mean absolute error) of MuJoCo's, whose contacts penetrate millimetres.
// We keep K in N/m and measure δ in millimetres, i.e. the spring is written
// with a reference depth δ₀ = 1 mm that makes eq. 34 dimensionally sound:
//   f_s = K δ₀ (δ / δ₀)^e,
// K being the secant stiffness f_s/δ at δ = δ₀. With Table I's values a
// Mini Cheetah foot then carries 22 N at δ = (22 / 10)^(1/2.2) mm = 1.4 mm
// with a tangent stiffness e f_s / δ ≈ 3.5e4 N/m — the stiffness 000 found
// robust for the same kind of robot (c_N = 3e4 N/m, 000 §5). reference_depth
// = 1 m gives the literal SI reading K δ^e.
struct HertzParams {
  double stiffness = 1.0e4;         // K, N/m: secant stiffness at δ = δ₀ (Table I)
  double exponent = 2.2;            // e (Table I)
  double reference_depth = 1.0e-3;  // δ₀, m: the unit δ is measured in (see above)
  double damping = 10.0;            // c_max, N s/m
  double ramp_depth = 1.0e-4;       // w, m
  double mu_static = 2.0;           // μ_s
  double stiction_velocity = 1e-4;  // v_s, m/s: μ = μ_s at ‖v‖ = v_s
  double mu_dynamic = 2.0;          // μ_d
  double sliding_velocity = 2e-4;   // v_d, m/s: μ = μ_d for ‖v‖ ≥ v_d
  // How eq. 38's friction is stepped. false: explicitly, at the stage's slip
  // velocity, as 001 does. true: backward Euler on the friction alone — the
  // force is μ(‖v⁺‖) f_n at the slip velocity v⁺ it leaves at the end of the
  // step (engine/step/implicit_friction.h). Table I's v_s makes the stick
  // regime a viscous law of slope 1.5 μ_s f_n / v_s (≈ 6.6e5 N s/m for a
  // Mini Cheetah foot, f_n ≈ 22 N), far beyond an explicit scheme's stability at 1e-4 s:
  // the stages then see saturated friction of alternating sign and a
  // standing robot's feet creep millimetres. Same law, same parameters.
  bool implicit_friction = false;
};

// InvalidArgument naming the field and value unless K > 0, e ≥ 1, δ₀ > 0,
// c_max ≥ 0, w > 0, μ_s, μ_d ≥ 0, 0 < v_s < v_d, all finite.
absl::Status Validate(const HertzParams& params);

// The cubic smoothstep S(x) = 3x² − 2x³ on [0, 1], 0 below, 1 above (C¹).
double Smoothstep(double x);

// Effective damping c(δ) of 001 eq. 35: c_max S(δ / w) — 0 at δ = 0, c_max/2
// at δ = w/2, c_max for δ ≥ w. (001 writes the ramp over δ ∈ [−w, 0] with δ
// the signed distance d_c; here δ is the penetration depth −d_c ≥ 0.)
double HertzDamping(const HertzParams& params, double depth);

// Effective friction coefficient μ(v) of 001 eq. 38 at slip speed v ≥ 0
// (odd in v, so μ(−v) = −μ(v) for a signed velocity). 001 gives the shape in
// words — a smoothstep from −μ_s to +μ_s as v crosses zero, then from μ_s to
// μ_d — but no formula; we take the cubic smoothstep pieces below (the shape
// of Simscape's continuous stick–slip friction law; 001 ran in Simulink):
//   |v| ≤ v_s:        μ = μ_s (2 S((v + v_s) / (2 v_s)) − 1)   (0 at v = 0)
//   v_s < |v| < v_d:  μ = μ_s + (μ_d − μ_s) S((|v| − v_s)/(v_d − v_s))
//   |v| ≥ v_d:        μ = μ_d
double HertzFrictionCoefficient(const HertzParams& params, double speed);

// Slope dμ/dv of HertzFrictionCoefficient at slip speed v ≥ 0 (1/(m/s)):
// 6 μ_s x(1 − x) / v_s with x = (v + v_s)/(2 v_s) for v ≤ v_s, then
// 6 (μ_d − μ_s) y(1 − y) / (v_d − v_s), 0 beyond v_d.
double HertzFrictionSlope(const HertzParams& params, double speed);

// Normal force f_n = max(0, K δ₀ (δ/δ₀)^e + c(δ) δ̇) of 001 eq. 34–35 at one
// contact (N, ≥ 0; 0 when g_N ≥ 0).
double HertzNormalForce(const HertzParams& params, const Contact& contact);

// 001 eq. 38's friction as a function of the slip velocity v (contact frame,
// m/s) for backward Euler (implicit_friction): phi = φ(v) = μ(‖v‖) f_n v/‖v‖,
// the friction force's magnitude along v (the force is −φ), and its Jacobian
// H = ∂φ/∂v = f_n [μ′ v̂v̂ᵀ + (μ/‖v‖)(I − v̂v̂ᵀ)] (f_n μ′(0) I at v = 0),
// symmetric. For μ_d ≥ μ_s, φ is the gradient of a convex potential and H is
// positive semi-definite; for μ_d < μ_s, μ′ < 0 between v_s and v_d and H is
// indefinite there. Allocation-free.
void HertzFrictionAndJacobian(const HertzParams& params, double f_n, const Eigen::Vector2d& v,
                              Eigen::Vector2d& phi, Eigen::Matrix2d& H);

// Force on the robot at one contact, world (N). Penetration δ = max(0, −g_N)
// (001 eq. 34: δ = d_c), penetration rate δ̇ = −γ_N (001 eq. 36):
//   f_n = max(0, K δ₀ (δ/δ₀)^e + c(δ) δ̇)       (001 eq. 34–35, no pulling)
//   f_T = −μ(‖γ_T‖) f_n γ_T/‖γ_T‖               (001 eq. 38, isotropic)
// 001 applies eq. 38 per axis of the contact frame (f_x = μ(v_x) f_n,
// f_y = μ(v_y) f_n), an anisotropic "friction square" whose bound along the
// diagonal is √2 μ f_n; we apply μ to the tangential speed ‖γ_T‖ along the
// slip direction instead (spatial Coulomb friction on the disc, as in 000
// eq. 3), so ‖f_T‖ ≤ max(μ_s, μ_d) f_n in every direction. Zero when
// g_N ≥ 0. Reads contact.gap, .normal, .t1, .t2, .gamma_N, .gamma_T.
// With params.implicit_friction the normal force only (the step adds the
// friction, step::AddHertzImplicitFriction in engine/step/implicit_friction.h).
// Allocation-free.
spatial::Vec3 HertzForce(const HertzParams& params, const Contact& contact);

}  // namespace moreau::contact

#endif  // MOREAU_ENGINE_CONTACT_HERTZ_H_
