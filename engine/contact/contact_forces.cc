#include "engine/contact/contact_forces.h"

#include <cassert>
#include <string>

#include "absl/strings/str_cat.h"
#include "engine/util/enum_table.h"

namespace moreau::contact {

namespace {

constexpr EnumEntry<ContactForceLaw> kContactForceLaws[] = {
    {ContactForceLaw::kSpringDamper, "spring_damper"},
    {ContactForceLaw::kHertz, "hertz"},
    {ContactForceLaw::kMicro, "micro"}};

}  // namespace

const char* ContactForceLawName(ContactForceLaw law) { return EnumName(kContactForceLaws, law); }

absl::StatusOr<ContactForceLaw> ParseContactForceLaw(std::string_view name) {
  return ParseEnum<ContactForceLaw>("contact force law", kContactForceLaws, name);
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

namespace {

// λ_k of the chosen law at an active contact (world, on the robot).
inline Vec3 LawForce(const ContactForceParams& params, double dt, const Contact& c,
                     ContactState& state) {
  switch (params.law) {
    case ContactForceLaw::kSpringDamper:
      return SpringDamperForce(params.spring_damper, c, state);
    case ContactForceLaw::kHertz:
      state.Clear();  // stateless law
      return HertzForce(params.hertz, c);
    case ContactForceLaw::kMicro:
      return MicroForce(params.micro, c, dt, state);
  }
  return Vec3::Zero();
}

// Evaluates the law of every active contact (an open one gets no force and a
// cleared state) and hands each to `apply(k, contact)`, which adds W_k λ_k.
template <typename Apply>
void ForEachContactForce(const ContactForceParams& params, double dt, ContactSet& set,
                         std::span<ContactState> states, Apply apply) {
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
    c.force = LawForce(params, dt, c, state);
    apply(k, c);
  }
}

}  // namespace

void ContactForces(const Model& model, const Data& data, const ContactForceParams& params,
                   double dt, ContactSet& set, std::span<ContactState> states,
                   Eigen::Ref<Eigen::VectorXd> h) {
  ForEachContactForce(params, dt, set, states, [&](int k, const Contact& c) {
    // 000 eq. 1: W_k λ_k with W_k = J_kᵀ (J_k: 3 × nv, world linear velocity
    // of the sphere centre, at which the force is applied), over the columns
    // of the body's support path, the only nonzero ones (001 Alg. 6).
    const Matrix3Xd& J = data.contact_J[k];
    for (int j = model.contact_points[k].body; j > 0; j = model.parent[j]) {
      const int vj = model.v_index[j];
      const int nvj = model.joint_type[j] == JointType::kFree ? 6 : 1;
      for (int d = vj; d < vj + nvj; ++d) h[d] += J.col(d).dot(c.force);
    }
  });
}

void ContactForcesOnPaths(const Model& model, const Data& data, const ContactForceParams& params,
                          double dt, ContactSet& set, std::span<ContactState> states,
                          Eigen::Ref<Eigen::VectorXd> h) {
  ForEachContactForce(params, dt, set, states, [&](int k, const Contact& c) {
    // J_kᵀ λ_k without J_k: column d of J_k is v_d + ω_d × p (001 Alg. 6,
    // (ω_d, v_d) = data.S_world's column d, p the sphere centre), so
    // J_k,dᵀ λ = v_d·λ + ω_d·(p × λ): the world wrench (p × λ, λ) about the
    // world origin against each axis of the support path.
    spatial::Vec6 wrench;
    wrench.head<3>() = data.contact_position[k].cross(c.force);
    wrench.tail<3>() = c.force;
    for (int j = model.contact_points[k].body; j > 0; j = model.parent[j]) {
      const int vj = model.v_index[j];
      const int nvj = model.joint_type[j] == JointType::kFree ? 6 : 1;
      for (int d = vj; d < vj + nvj; ++d) h[d] += data.S_world.col(d).dot(wrench);
    }
  });
}

void ContactForcesOnBodies(const Model& model, const Data& data, const ContactForceParams& params,
                           double dt, ContactSet& set, std::span<ContactState> states,
                           std::span<Force> bias) {
  assert(bias.size() == static_cast<size_t>(model.nbodies));
  ForEachContactForce(params, dt, set, states, [&](int k, const Contact& c) {
    // λ in body coordinates, E λ, at the body point r: the spatial force
    // (r × E λ, E λ) (RBDA §2.9).
    const ContactPoint& cp = model.contact_points[k];
    const Vec3 force_body = data.X_0[cp.body].E * c.force;
    Force& p = bias[cp.body];
    p.angular -= data.contact_point_body[k].cross(force_body);
    p.linear -= force_body;
  });
}

}  // namespace moreau::contact
