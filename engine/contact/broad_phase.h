// Broad phase of contact detection: a bounding sphere per body around all of
// its contact slots, tested against the terrain once per step, so that the
// slots of a body far from the ground skip the narrow phase (positions,
// witness points, terrain queries, velocities). The test is conservative: a
// body is skipped only when no slot of it can be active by the rule of
// contact_activation.h, g_N ≤ margin or g_N + t γ_N ≤ 0, so the contact set
// is the one the narrow phase alone would give (docs/collision.md).
#ifndef MOREAU_ENGINE_CONTACT_BROAD_PHASE_H_
#define MOREAU_ENGINE_CONTACT_BROAD_PHASE_H_

#include <cstdint>
#include <vector>

#include "engine/contact/terrain.h"
#include "engine/dynamics/data.h"
#include "engine/model/model.h"

namespace moreau::contact {

// The bounding sphere of one body's slots, body frame: every slot's centre
// lies within radius − r_k of `centre`, so the slot's sphere, rim or witness
// point lies within the sphere.
struct BodyBound {
  int body = 0;
  Vec3 centre = Vec3::Zero();
  double radius = 0.0;
  // The largest radius r_f of its fixed slots (kFixed): their gap is the
  // distance of the centre less r_f, which on a slope falls faster than a
  // point's (RunBroadPhase).
  double fixed_radius = 0.0;
};

struct BroadPhase {
  // One per body with two or more slots, body order (a single slot is tested
  // as cheaply by the narrow phase: its body stays near).
  std::vector<BodyBound> bounds;
  // Per body (model.nbodies), written by RunBroadPhase: 1 when its slots go
  // to the narrow phase, and a lower bound on their gaps g_N when they do not.
  std::vector<uint8_t> near;
  std::vector<double> gap_bound;

  // Whether the last RunBroadPhase found any body far (false until then):
  // without one, every slot goes to the narrow phase, which then reads no
  // flag.
  bool any_far = false;

  // True when the body's slots take part in the narrow phase (always when the
  // broad phase never ran, e.g. a hand-made ContactSet).
  bool Near(int body) const { return !any_far || near[body] != 0; }
};

// The bounds of model.contact_points, centre the middle of the slots' box,
// radius max_k ‖p_k − centre‖ + r_k; near = 1 for every body (the only
// allocation).
BroadPhase MakeBroadPhase(const Model& model);

// Per body at the q of the last ForwardKinematics (data.X_0): d, a lower bound
// of the terrain distance over its bounding sphere (Terrain::
// DistanceLowerBound) — with fixed slots, the smaller of that and
// DistanceLowerBound(c, R − r_f) − r_f, the bound of a fixed slot's gap
// (its centre lies within R − r_f of c) — and with horizon t > 0 the bound s = ‖v_c‖ + ‖ω‖ R on
// the speed of any point of the sphere from the body twist data.v (which must
// then be at the same q and v as the contact velocities). The body is far,
// near = 0, when d > margin and d − t s > 0 (each with a rounding slack):
// every slot then has g_N ≥ d > margin and g_N + t γ_N ≥ d − t s > 0.
// Allocation-free.
void RunBroadPhase(const Data& data, const Terrain& terrain, double margin, double horizon,
                   BroadPhase& broad);

}  // namespace moreau::contact

#endif  // MOREAU_ENGINE_CONTACT_BROAD_PHASE_H_
