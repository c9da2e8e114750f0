// A test body for whole-body collision: one floating link with a cylinder
// (radius 0.1, length 0.2, along the link's y axis: rim slots), a sphere
// (radius 0.05 at (0.3, 0, 0)) and optionally a box (0.1 × 0.2 × 0.05 at
// (−0.3, 0.1, 0): fixed corner slots), all colliding.
#ifndef MOREAU_TESTS_UNIT_CONTACT_COLLISION_BODY_H_
#define MOREAU_TESTS_UNIT_CONTACT_COLLISION_BODY_H_

#include <gtest/gtest.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "engine/model/loader.h"
#include "engine/model/model.h"

namespace moreau::test_models {

inline std::string CollisionBodyUrdf(bool with_box) {
  return absl::StrCat(
      R"(<robot name="body">
  <link name="body">
    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><origin rpy="1.5707963267948966 0 0"/><geometry><cylinder radius="0.1" length="0.2"/></geometry></collision>
    <collision><origin xyz="0.3 0 0"/><geometry><sphere radius="0.05"/></geometry></collision>
)",
      with_box
          ? R"(    <collision><origin xyz="-0.3 0.1 0"/><geometry><box size="0.1 0.2 0.05"/></geometry></collision>
)"
          : "",
      "  </link>\n</robot>");
}

// The body with `collision = all`, its sphere turned from the link's "foot"
// (a fixed point, the loader's choice for a leaf link's sphere) into a
// sphere-bottom slot as a body-collision sphere is.
inline Model LoadCollisionBody(bool with_box) {
  LoadOptions options;
  options.collision = CollisionMode::kAll;
  auto m = LoadUrdfString(CollisionBodyUrdf(with_box), options);
  EXPECT_TRUE(m.ok()) << m.status();
  Model model = **m;
  for (ContactPoint& c : model.contact_points) {
    if (c.radius == 0.05) c.witness = ContactWitness::kSphereBottom;
  }
  return model;
}

}  // namespace moreau::test_models

#endif  // MOREAU_TESTS_UNIT_CONTACT_COLLISION_BODY_H_
