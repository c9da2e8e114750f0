#include "engine/step/contact_activation.h"

#include "engine/step/delassus.h"

namespace moreau::step {

ActiveSet ActivateContacts(const Model& model, const ActivationRule& rule,
                           std::span<double> impulses, StepWorkspace& w) {
  const int nv = model.nv;
  ActiveSet set;
  for (int k = 0; k < w.contacts.capacity(); ++k) {
    contact::Contact& ct = w.contacts.contacts[k];
    const bool closed = ct.active;
    ct.active = closed || ct.gap + rule.horizon * ct.gamma_N <= 0.0;
    if (!rule.keep_forces || !ct.active) ct.force.setZero();
    if (!ct.active) {
      for (int l = 0; l < 3; ++l) impulses[3 * k + l] = 0.0;
      continue;
    }
    const int a = set.nc++;
    w.active[a] = k;
    // W's columns (000 eq. 2: w = Jᵀ n, Jᵀ t1, Jᵀ t2) are nonzero only on
    // the support path of the contact's body.
    w.support_len[a] =
        SupportDofs(model, w.data, model.contact_points[k].body, w.support.data() + a * nv);
    for (int l = 0; l < 3; ++l) w.Lambda[3 * a + l] = impulses[3 * k + l];
    if (closed) w.closed[set.n_closed++] = a;
  }
  return set;
}

}  // namespace moreau::step
