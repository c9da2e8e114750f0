// First pass over URDF text, before urdfdom: checks that the input is XML text,
// reports XML syntax errors with line and column, and normalizes the document
// into what urdfdom 3 accepts from real-world files.
#ifndef MOREAU_ENGINE_MODEL_URDF_PREPARE_H_
#define MOREAU_ENGINE_MODEL_URDF_PREPARE_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace moreau::model_internal {

struct PreparedUrdf {
  std::string xml;                       // normalized text for urdf::parseURDF
  std::vector<std::string> link_order;   // <link> names in document order
  std::vector<std::string> joint_order;  // <joint> names in document order
};

// Normalizations (none changes the kinematics or the inertias):
//  - a `<link name="world"/>` is added when joints name "world" as a link that
//    is not declared (Drake's convention, e.g. acrobot.urdf);
//  - <visual> and top-level <material> elements are removed (Moreau does not
//    use them, and urdfdom rejects e.g. a visual <material> without a name);
//  - <limit> gets effort="0" / velocity="0" where missing, and revolute or
//    prismatic joints without <limit> get one: urdfdom requires both, Drake and
//    PyBullet read their absence as "unlimited", and so does Moreau (≤ 0 reads
//    as unlimited).
// Errors (InvalidArgument) start with "URDF parse error: ".
absl::StatusOr<PreparedUrdf> PrepareUrdf(std::string_view urdf_xml);

}  // namespace moreau::model_internal

#endif  // MOREAU_ENGINE_MODEL_URDF_PREPARE_H_
