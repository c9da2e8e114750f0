// ContactState: the memory one contact carries from step to step — the stick
// anchor P0 of 000 Alg. 1 and its stick/slip flag. It is part of State
// (docs/architecture.md: "contact memory (stick anchors …)"), so it is a small,
// trivially copyable struct that snapshots copy byte for byte; one per
// contact point (slot k of a ContactSet ↔ model.contact_points[k]).
#ifndef MOREAU_ENGINE_CONTACT_CONTACT_STATE_H_
#define MOREAU_ENGINE_CONTACT_CONTACT_STATE_H_

#include <array>
#include <type_traits>

#include "engine/spatial/motion.h"

namespace moreau::contact {

struct ContactState {
  // True while the contact is closed (g_N ≤ 0) and `anchor` holds P0, the
  // contact point recorded when the contact closed, dragged along while it
  // slips (000 Alg. 1, Fig. 2; stick_slip.h). False: open, anchor unused.
  bool closed = false;
  // 000 Alg. 1 "Slip": the tangential force is on the friction-disc boundary.
  bool slip = false;
  // P0 in world coordinates (m).
  std::array<double, 3> anchor = {0.0, 0.0, 0.0};

  spatial::Vec3 Anchor() const { return spatial::Vec3(anchor[0], anchor[1], anchor[2]); }
  void SetAnchor(const spatial::Vec3& p) { anchor = {p.x(), p.y(), p.z()}; }
  // Contact opened: forget the anchor (000 Alg. 1 applies only while closed).
  void Clear() { *this = ContactState(); }
};

static_assert(std::is_trivially_copyable_v<ContactState>);
static_assert(std::is_standard_layout_v<ContactState>);

}  // namespace moreau::contact

#endif  // MOREAU_ENGINE_CONTACT_CONTACT_STATE_H_
