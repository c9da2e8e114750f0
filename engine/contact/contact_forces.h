// The contact solve of compliant contact (engine/step/stages.h): evaluate the
// chosen force law at every active contact and add the generalized contact force
// W λ = Σ_k J_kᵀ λ_k to h (000 eq. 1: M u̇ = h + W λ).
#ifndef MOREAU_ENGINE_CONTACT_CONTACT_FORCES_H_
#define MOREAU_ENGINE_CONTACT_CONTACT_FORCES_H_

#include <Eigen/Core>
#include <span>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/contact/contact_set.h"
#include "engine/contact/contact_state.h"
#include "engine/contact/hertz.h"
#include "engine/contact/micro.h"
#include "engine/contact/spring_damper.h"
#include "engine/dynamics/data.h"
#include "engine/model/model.h"

namespace moreau::contact {

enum class ContactForceLaw {
  kSpringDamper,  // 000 Alg. 1
  kHertz,         // 001 eq. 34–38
  kMicro,         // 003 eq. 14–15
};

// "spring_damper", "hertz", "micro".
const char* ContactForceLawName(ContactForceLaw law);
// The inverse of ContactForceLawName; InvalidArgument naming the unknown
// value and the accepted ones.
absl::StatusOr<ContactForceLaw> ParseContactForceLaw(std::string_view name);

// The law and every law's parameters (only the chosen law's are used).
struct ContactForceParams {
  ContactForceLaw law = ContactForceLaw::kSpringDamper;
  SpringDamperParams spring_damper;
  HertzParams hertz;
  MicroParams micro;
};

// Validates the chosen law's parameters (the others are not used).
absl::Status Validate(const ContactForceParams& params);

// Contact memory for a model: one cleared ContactState per contact point
// (the only allocation; the State keeps it).
std::vector<ContactState> MakeContactStates(const Model& model);

// For every slot k of `set` (DetectContacts and ComputeContactVelocities
// done at the same q, v, and data.contact_J from ContactJacobians at that q):
//   active:   set.contacts[k].force = λ_k from the law (world, on the robot),
//             h += J_kᵀ λ_k;
//   inactive: force = 0, states[k] cleared (the contact is open).
// states.size() must equal set.capacity() (slot k ↔ states[k]); h has size
// nv and is added to, not overwritten. dt (s) is used by the micro law only.
// λ_k acts at the sphere centre (the point whose Jacobian J_k is, as for γ in
// ComputeContactVelocities): for point feet the moment r n × λ_T of friction
// about the centre is neglected.
// Allocation-free.
void ContactForces(const Model& model, const Data& data, const ContactForceParams& params,
                   double dt, ContactSet& set, std::span<ContactState> states,
                   Eigen::Ref<Eigen::VectorXd> h);

// ContactForces on the support paths, without the Jacobians: h += J_kᵀ λ_k formed as
// S_worldᵀ (p_k × λ_k, λ_k) over the support path of the contact's body, from
// data.S_world (ComputeJointAxesWorld) and data.contact_position (p_k, the
// sphere centre; ContactPositions) at the set's q — the same sum as
// ContactForces up to rounding, for a step that never forms data.contact_J.
// Allocation-free.
void ContactForcesOnPaths(const Model& model, const Data& data, const ContactForceParams& params,
                          double dt, ContactSet& set, std::span<ContactState> states,
                          Eigen::Ref<Eigen::VectorXd> h);

// ContactForces for ABA, as wrenches on the contacts' bodies (no Jacobian,
// no world axes): λ_k acts at the sphere centre, r_k = ContactPoint::position
// in the coordinates of its body b, so on b it is the spatial force
// f_k = (r_k × E λ_k, E λ_k) in body coordinates, E = data.X_0[b].E (world to
// body; ForwardKinematics at the set's q). Each f_k is subtracted from
// bias[b]: ABA's articulated bias force p^A_b = v_b ×* I_b v_b − f^x_b of
// pass 1 (RBDA Table 7.1; AbaVelocities, then AbaAccelerations), which then
// gives the accelerations with Σ_k J_kᵀ λ_k, as ContactForces adds it to h.
// bias.size() must be model.nbodies. Allocation-free.
void ContactForcesOnBodies(const Model& model, const Data& data, const ContactForceParams& params,
                           double dt, ContactSet& set, std::span<ContactState> states,
                           std::span<Force> bias);

}  // namespace moreau::contact

#endif  // MOREAU_ENGINE_CONTACT_CONTACT_FORCES_H_
