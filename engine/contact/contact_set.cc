#include "engine/contact/contact_set.h"

#include <algorithm>
#include <cmath>

namespace moreau::contact {

ContactSet MakeContactSet(const Model& model, double activation_margin) {
  ContactSet set;
  set.contacts.assign(model.contact_points.size(), Contact());
  set.activation_margin = activation_margin;
  set.broad = MakeBroadPhase(model);
  return set;
}

void TangentBasis(const Vec3& n, Vec3& t1, Vec3& t2) {
  // Gram–Schmidt of a fixed world axis against n; 1 − n_x² ≥ 0.19 keeps the
  // projection well away from zero.
  const Vec3 ref = std::abs(n.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  t1 = ref - ref.dot(n) * n;
  t1 /= t1.norm();
  t2 = n.cross(t1);  // t1 × t2 = t1 × (n × t1) = n
}

void DetectContacts(const Model& model, const Data& data, const Terrain& terrain, ContactSet& set) {
  const int nc = set.capacity();
  int active = 0;
  double min_gap = 0.0;
  const Contact* last = nullptr;  // the last slot whose frame was set
  for (int k = 0; k < nc; ++k) {
    const ContactPoint& cp = model.contact_points[k];
    Contact& c = set.contacts[k];
    if (!set.broad.Near(cp.body)) {
      // A far body (broad_phase.h): g_N ≥ its bound > the margin.
      c.gap = set.broad.gap_bound[cp.body];
      c.active = false;
      continue;
    }
    const Vec3& centre = data.contact_position[k];
    const TerrainQuery t = terrain.Query(centre);
    // 001 eq. 31: d_c = d_f − r (sphere-to-terrain distance); a witness
    // point (contact_witness.h) already lies on the sphere or rim: r = 0.
    const double radius = cp.witness == ContactWitness::kFixed ? cp.radius : 0.0;
    c.gap = t.distance - radius;
    c.normal = t.normal;
    if (last != nullptr && t.normal == last->normal) {
      // The same normal as the slot before (any plane): the same basis.
      c.t1 = last->t1;
      c.t2 = last->t2;
    } else {
      TangentBasis(c.normal, c.t1, c.t2);
    }
    // 001 §5: {C_k} sits on the foot sphere at the point closest to the
    // ground, r below the centre along −n (001 eq. 33: r_{C O_f} = (0, 0, r)).
    c.position = centre - radius * c.normal;
    c.active = c.gap <= set.activation_margin;
    last = &c;
    if (c.active) ++active;
    min_gap = std::min(min_gap, c.gap);
  }
  set.num_active = active;
  set.peak_active = std::max(set.peak_active, active);
  set.max_penetration = min_gap < 0.0 ? -min_gap : 0.0;
}

namespace {

// Each slot's velocity c.velocity = velocity_of(k) (zero when active_only and
// the slot is inactive) and its parts in the contact frame, γ_N = n · v and
// γ_T = (t1 · v, t2 · v).
template <typename VelocityOf>
void SetContactVelocities(const Model& model, ContactSet& set, bool active_only,
                          const VelocityOf& velocity_of) {
  const int nc = set.capacity();
  for (int k = 0; k < nc; ++k) {
    Contact& c = set.contacts[k];
    if ((active_only && !c.active) || !set.broad.Near(model.contact_points[k].body)) {
      c.velocity.setZero();
      c.gamma_N = 0.0;
      c.gamma_T.setZero();
      continue;
    }
    c.velocity = velocity_of(k);
    c.gamma_N = c.normal.dot(c.velocity);
    c.gamma_T = Eigen::Vector2d(c.t1.dot(c.velocity), c.t2.dot(c.velocity));
  }
}

}  // namespace

void ComputeContactVelocities(const Model& model, const Data& data, const Eigen::VectorXd& v,
                              ContactSet& set) {
  SetContactVelocities(model, set, /*active_only=*/false, [&](int k) {
    // γ_U = W_Uᵀ u (000 eq. 1) with W = Jᵀ of the sphere centre; 001 eq. 36:
    // δ̇ = ẑ_Cᵀ v_f. J v over the columns of the body's support path, the
    // only nonzero ones (PointJacobian, 001 Alg. 6).
    const Matrix3Xd& J = data.contact_J[k];
    Vec3 velocity = Vec3::Zero();
    for (int j = model.contact_points[k].body; j > 0; j = model.parent[j]) {
      const int vj = model.v_index[j];
      const int nvj = model.joint_type[j] == JointType::kFree ? 6 : 1;
      for (int d = vj; d < vj + nvj; ++d) velocity += J.col(d) * v[d];
    }
    return velocity;
  });
}

void ComputeContactVelocitiesOnPaths(const Model& model, const Data& data, const Eigen::VectorXd& v,
                                     ContactSet& set, bool active_only) {
  SetContactVelocities(model, set, active_only, [&](int k) -> Vec3 {
    // J_k v = Σ_d (v_d + ω_d × p) u_d = v_O + ω × p with the world twist
    // (ω, v_O) = Σ_d S_world,d u_d of the body over its support path
    // (001 Alg. 6), p the sphere centre.
    spatial::Vec6 twist = spatial::Vec6::Zero();
    for (int j = model.contact_points[k].body; j > 0; j = model.parent[j]) {
      const int vj = model.v_index[j];
      const int nvj = model.joint_type[j] == JointType::kFree ? 6 : 1;
      for (int d = vj; d < vj + nvj; ++d) twist.noalias() += data.S_world.col(d) * v[d];
    }
    return twist.tail<3>() + twist.head<3>().cross(data.contact_position[k]);
  });
}

void ComputeContactVelocities(const Model& model, const Data& data, ContactSet& set,
                              bool active_only) {
  SetContactVelocities(model, set, active_only, [&](int k) -> Vec3 {
    const ContactPoint& cp = model.contact_points[k];
    const Motion& twist = data.v[cp.body];
    const Vec3 velocity_body = twist.linear + twist.angular.cross(data.contact_point_body[k]);
    return data.X_0[cp.body].E.transpose() * velocity_body;
  });
}

}  // namespace moreau::contact
