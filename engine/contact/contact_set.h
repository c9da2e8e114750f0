// Collision detection of contact spheres against the Terrain (001 eq. 31) and
// the contact-point relative velocities γ = W_kᵀ v (000 eq. 1, γ_U = [γ_N,
// γ_T]): the contacts stage of the step (engine/step/stages.h).
//
// A ContactSet has one slot per model contact point (slot k ↔
// model.contact_points[k]); its capacity is fixed when it is made, so no
// per-step function allocates and the set can never overflow. Every slot is
// filled every step; `active` marks the ones the force laws and solvers use.
#ifndef MOREAU_ENGINE_CONTACT_CONTACT_SET_H_
#define MOREAU_ENGINE_CONTACT_CONTACT_SET_H_

#include <Eigen/Core>
#include <vector>

#include "engine/contact/broad_phase.h"
#include "engine/contact/terrain.h"
#include "engine/dynamics/data.h"
#include "engine/model/model.h"
#include "engine/spatial/motion.h"

namespace moreau::contact {

using spatial::Vec3;

// One contact-point slot. Frames and vectors are world coordinates.
struct Contact {
  // --- position (DetectContacts) ---
  // g_N = d(centre) − radius (001 eq. 31: d_c = d_f − r), m; < 0 penetration.
  double gap = 0.0;
  // True when gap ≤ the set's activation margin.
  bool active = false;
  // Contact point P: the point of the sphere closest to the terrain,
  // centre − radius·n (001 §5: the contact frame {C_k} origin).
  Vec3 position = Vec3::Zero();
  // Contact frame (t1, t2, n): n the terrain normal at the sphere centre
  // (pointing out of the terrain, the direction of λ_N on the robot), t1, t2
  // tangents; orthonormal and right-handed (t1 × t2 = n). See TangentBasis.
  Vec3 normal = Vec3::UnitZ();
  Vec3 t1 = Vec3::UnitX();
  Vec3 t2 = Vec3::UnitY();

  // --- velocity (ComputeContactVelocities) ---
  // Velocity of the sphere centre, J v (m/s). The sphere-centre Jacobian is
  // used for the contact point as in 000 and 001 eq. 36–37 (point feet): the
  // surface point of a rolling sphere would move at J v + ω × (−r n), which
  // this ignores — exact for r → 0 and for non-rotating feet.
  Vec3 velocity = Vec3::Zero();
  double gamma_N = 0.0;                               // n·(J v), > 0 separating
  Eigen::Vector2d gamma_T = Eigen::Vector2d::Zero();  // [t1·J v, t2·J v]

  // --- contact (ContactForces) ---
  // Force on the robot at this contact, world (N); zero when inactive.
  Vec3 force = Vec3::Zero();

  // The force's component along the normal (N), 0 when inactive.
  double NormalForce() const { return active ? force.dot(normal) : 0.0; }
};

struct ContactSet {
  std::vector<Contact> contacts;  // size = capacity, fixed by MakeContactSet
  // A slot is active when gap ≤ activation_margin (m, ≥ 0; default 0 =
  // touching or penetrating, 000's set I(q) = {i | g_N ≤ 0}).
  double activation_margin = 0.0;
  // The per-body bounding spheres and this step's far bodies (broad_phase.h):
  // the slots of a far body skip detection and velocities; they are
  // inactive with gap = the body's gap bound (> activation_margin), velocity,
  // γ_N and γ_T = 0, and keep their last position and frame.
  BroadPhase broad;

  // --- written by DetectContacts ---
  int num_active = 0;
  int peak_active = 0;           // max num_active since MakeContactSet
  double max_penetration = 0.0;  // max(0, −min gap) over all slots (m)

  int capacity() const { return static_cast<int>(contacts.size()); }
};

// A set with one slot per model.contact_points entry (the only allocation).
ContactSet MakeContactSet(const Model& model, double activation_margin = 0.0);

// A tangent basis (t1, t2) for the unit normal n with (t1, t2, n) orthonormal
// and right-handed: t1 is the projection of the world x axis on the tangent
// plane, normalized, t2 = n × t1. It varies continuously with n for all
// |n_x| < 0.9 (every ground, incline or heightfield normal in practice) and
// equals (x, y) for n = z; for |n_x| ≥ 0.9 (walls facing ±x) the world y axis
// is projected instead.
void TangentBasis(const Vec3& n, Vec3& t1, Vec3& t2);

// Detection: gap, contact point, normal, tangent frame and active flag of every
// slot of a near body (set.broad; the far bodies' slots as described there)
// from data.contact_position (world sphere centres, or the witness
// points of sphere-bottom and rim slots, contact_witness.h; written by
// ContactJacobians or ContactJdotV, and UpdateWitnessPoints). Updates num_active, peak_active,
// max_penetration. Allocation-free.
void DetectContacts(const Model& model, const Data& data, const Terrain& terrain, ContactSet& set);

// The contact-point velocities. Three ways to form the same J_k v
// (up to rounding), by what data already holds; each writes velocity, γ_N
// and γ_T in each slot's frame (set by DetectContacts), the slots of far
// bodies (set.broad) getting 0. With active_only,
// the inactive slots get velocity, γ_N and γ_T = 0 instead (for the force
// laws, which read them only where active). Allocation-free.
//
// From the body twists (data.v, data.X_0 of ForwardKinematics with v): the
// sphere centre's world velocity Eᵀ (v_O + ω × r) for the centre r in body
// coordinates (001 Alg. 1).
void ComputeContactVelocities(const Model& model, const Data& data, ContactSet& set,
                              bool active_only = false);

// From the Jacobians: J_k v with data.contact_J[k] (3 × nv, written by
// ContactJacobians at the same q). v has size nv.
void ComputeContactVelocities(const Model& model, const Data& data, const Eigen::VectorXd& v,
                              ContactSet& set);

// On the support paths, from the world joint axes: J_k v as the
// world twist (ω, v_O) = Σ_d S_world,d v_d over the support path of the
// contact's body, v_O + ω × p at the sphere centre p. Needs data.S_world
// (ComputeJointAxesWorld) and data.contact_position (ContactPositions) at the
// set's q; v has size nv.
void ComputeContactVelocitiesOnPaths(const Model& model, const Data& data, const Eigen::VectorXd& v,
                                     ContactSet& set, bool active_only = false);

}  // namespace moreau::contact

#endif  // MOREAU_ENGINE_CONTACT_CONTACT_SET_H_
