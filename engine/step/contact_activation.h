// The contact-activation stage of the steps that solve contact impulses or
// forces (Moreau, least-constraint, micro-macro): after contact detection,
// which contacts take part in the contact solve. A contact is active when it
// is closed (g_N ≤ 0: 000 eq. 10's set I(q), 004 §2.1.1, 003 §III-D step 5)
// or when its approach would carry it through the surface within the step,
// g_N + t γ_N ≤ 0: an impact then stops at the surface instead of up to
// γ_N t inside it.
#ifndef MOREAU_ENGINE_STEP_CONTACT_ACTIVATION_H_
#define MOREAU_ENGINE_STEP_CONTACT_ACTIVATION_H_

#include <span>

#include "engine/model/model.h"
#include "engine/step/workspace.h"

namespace moreau::step {

struct ActivationRule {
  // t of g_N + t γ_N ≤ 0 (s): ½Δt from Moreau's midpoint, Δt for the
  // least-constraint and micro-macro steps (from the step's start).
  double horizon = 0.0;
  // Keep the forces already on the active slots (micro-macro's membrane,
  // applied before the macro layer); otherwise every slot's force is zeroed
  // for the contact solve to add its own.
  bool keep_forces = false;
};

// The active set of one step: n_c contacts in w.active, n_closed of them
// closed at detection (their positions in w.active in w.closed).
struct ActiveSet {
  int nc = 0;
  int n_closed = 0;
};

// After DetectContacts and the contact velocities into w.contacts, and with
// M factored (SupportDofs reads the factor's DOF tree): for every slot k,
// contacts[k].active by the rule (closed: the detection's active flag); for
// the active ones, in slot order, w.active, w.support / w.support_len (the
// DOFs that move the contact, SupportDofs) and w.Lambda's three entries =
// impulses[3k..3k+2] (the previous step's, the warm start); the open slots'
// impulses and forces are zeroed. contacts.num_active stays the detection's
// count. Allocation-free.
ActiveSet ActivateContacts(const Model& model, const ActivationRule& rule,
                           std::span<double> impulses, StepWorkspace& w);

}  // namespace moreau::step

#endif  // MOREAU_ENGINE_STEP_CONTACT_ACTIVATION_H_
