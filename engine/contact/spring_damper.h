// Linear spring-damper contact with a stick/slip anchor (000 Alg. 1, the
// "compliant contact" of 000 §2, Fig. 2): λ_N from a normal spring-damper,
// λ_T from a tangential spring-damper to the anchor P0 bounded by the
// friction disc. Integrated by the explicit schemes of step/.
#ifndef MOREAU_ENGINE_CONTACT_SPRING_DAMPER_H_
#define MOREAU_ENGINE_CONTACT_SPRING_DAMPER_H_

#include "absl/status/status.h"
#include "engine/contact/contact_set.h"
#include "engine/contact/contact_state.h"
#include "engine/spatial/motion.h"

namespace moreau::contact {

// Defaults: 000 §5 ("c_N = c_T = 30'000 N/m, d_N = d_T = 50 N s/m", two
// updates per 2.5 ms control period) and μ = 0.8 (000 §4).
struct SpringDamperParams {
  double normal_stiffness = 30000.0;      // c_N, N/m
  double normal_damping = 50.0;           // d_N, N s/m
  double tangential_stiffness = 30000.0;  // c_T, N/m
  double tangential_damping = 50.0;       // d_T, N s/m
  double mu = 0.8;                        // μ
  // "‖γ_T‖ ≈ 0" of 000 Alg. 1 line 3 (m/s); not given by 000.
  double stick_velocity = 1e-4;
};

// InvalidArgument naming the field and value unless every stiffness and
// damping is finite and ≥ 0 (stiffnesses > 0), μ finite ≥ 0 and
// stick_velocity finite ≥ 0.
absl::Status Validate(const SpringDamperParams& params);

// Force on the robot at one contact, world (N): λ_N n + λ_T1 t1 + λ_T2 t2.
//  - open (gap > 0): zero, and the anchor is cleared (state.Clear()).
//  - closed: λ_N = max(−c_N g_N − d_N γ_N, 0) (000 Alg. 1 line 1), λ_T by
//    StickSlipFriction (lines 2–11) with c_T, d_T, μ.
// Reads contact.gap, .position, .normal, .t1, .t2, .gamma_N, .gamma_T.
// Allocation-free.
spatial::Vec3 SpringDamperForce(const SpringDamperParams& params, const Contact& contact,
                                ContactState& state);

}  // namespace moreau::contact

#endif  // MOREAU_ENGINE_CONTACT_SPRING_DAMPER_H_
