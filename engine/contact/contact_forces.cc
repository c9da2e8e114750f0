#include "engine/contact/contact_forces.h"

#include <cassert>
#include <string>

#include "absl/strings/str_cat.h"

namespace moreau::contact {

const char* ContactForceLawName(ContactForceLaw law) {
  switch (law) {
    case ContactForceLaw::kSpringDamper:
      return "spring_damper";
    case ContactForceLaw::kHertz:
      return "hertz";
    case ContactForceLaw::kMicro:
      return "micro";
  }
  return "unknown";
}

absl::StatusOr<ContactForceLaw> ParseContactForceLaw(std::string_view name) {
  for (ContactForceLaw law :
       {ContactForceLaw::kSpringDamper, ContactForceLaw::kHertz, ContactForceLaw::kMicro}) {
    if (name == ContactForceLawName(law)) return law;
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown contact force law \"", std::string(name),
                                                 "\"; expected spring_damper, hertz or micro"));
}

absl::Status Validate(const ContactForceParams& params) {
  switch (params.law) {
    case ContactForceLaw::kSpringDamper:
      return Validate(params.spring_damper);
    case ContactForceLaw::kHertz:
      return Validate(params.hertz);
    case ContactForceLaw::kMicro:
      return Validate(params.micro);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("contact force law must be one of spring_damper, hertz, micro, got ",
                   static_cast<int>(params.law)));
}

std::vector<ContactState> MakeContactStates(const Model& model) {
  return std::vector<ContactState>(model.contact_points.size());
}

void ContactForces(const Model& model, const Data& data, const ContactForceParams& params,
                   double dt, ContactSet& set, std::span<ContactState> states,
                   Eigen::Ref<Eigen::VectorXd> h) {
  assert(states.size() == set.contacts.size());
  const int nc = set.capacity();
  for (int k = 0; k < nc; ++k) {
    Contact& c = set.contacts[k];
    ContactState& state = states[k];
    if (!c.active) {
      c.force.setZero();
      state.Clear();
      continue;
    }
    switch (params.law) {
      case ContactForceLaw::kSpringDamper:
        c.force = SpringDamperForce(params.spring_damper, c, state);
        break;
      case ContactForceLaw::kHertz:
        c.force = HertzForce(params.hertz, c);
        state.Clear();  // stateless law
        break;
      case ContactForceLaw::kMicro:
        c.force = MicroForce(params.micro, c, dt, state);
        break;
    }
    // 000 eq. 1: W_k λ_k with W_k = J_kᵀ (J_k: 3 × nv, world linear velocity
    // of the sphere centre, at which the force is applied), over the columns
    // of the body's support path, the only nonzero ones (001 Alg. 6).
    const Matrix3Xd& J = data.contact_J[k];
    for (int j = model.contact_points[k].body; j > 0; j = model.parent[j]) {
      const int vj = model.v_index[j];
      const int nvj = model.joint_type[j] == JointType::kFree ? 6 : 1;
      for (int d = vj; d < vj + nvj; ++d) h[d] += J.col(d).dot(c.force);
    }
  }
}

}  // namespace moreau::contact
