// First pass over URDF text, before urdfdom: checks that the input is XML text,
// reports XML syntax errors with line and column, and normalizes the document
// into what urdfdom 3 accepts from real-world files.
#ifndef MOREAU_ENGINE_MODEL_URDF_PREPARE_H_
#define MOREAU_ENGINE_MODEL_URDF_PREPARE_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/model/model.h"
#include "engine/model/urdf_limits.h"

namespace moreau::model_internal {

// One <transmission> of the URDF (ros_control SimpleTransmission, 002 §IV-C):
//   <transmission name="T">
//     <type>transmission_interface/SimpleTransmission</type>
//     <joint name="J"/>
//     <actuator name="A">
//       <mechanicalReduction>N</mechanicalReduction>
//       <rotorInertia>I</rotorInertia>   <!-- Moreau: kg m², motor side -->
//     </actuator>
//   </transmission>
// The ROS format has no rotor inertia; Moreau reads <rotorInertia> (text,
// kg m², named like mechanicalReduction) or Drake's
// <drake:rotor_inertia value="I"/>, and Drake's <drake:gear_ratio value="N"/>
// for the reduction. Both may also sit directly under <transmission> (the
// pre-Groovy format, e.g. acrobot.urdf). Missing: N = 1, I_rotor = 0.
struct TransmissionSpec {
  std::string name;            // <transmission name>
  std::string joint;           // <joint name>
  double reduction = 1.0;      // N > 0
  double rotor_inertia = 0.0;  // I_rotor ≥ 0, kg m²
};

struct PreparedUrdf {
  std::string xml;                              // normalized text for urdf::parseURDF
  std::vector<std::string> link_order;          // <link> names in document order
  std::vector<std::string> joint_order;         // <joint> names in document order
  std::vector<TransmissionSpec> transmissions;  // document order
  // The links' <visual> shapes in their link frames (urdf_visuals.h).
  std::vector<VisualShape> visuals;
  std::vector<std::string> warnings;  // e.g. unsupported transmission types,
                                      // malformed visuals
};

// Normalizations (none changes the kinematics or the inertias):
//  - a `<link name="world"/>` is added when joints name "world" as a link that
//    is not declared (Drake's convention, e.g. acrobot.urdf);
//  - <visual> and top-level <material> elements are removed, once read into
//    PreparedUrdf::visuals (urdfdom rejects e.g. a visual <material> without
//    a name, and a malformed visual is a warning, never an error);
//  - <limit> gets effort="0" / velocity="0" where missing, and revolute or
//    prismatic joints without <limit> get one: urdfdom requires both, Drake and
//    PyBullet read their absence as "unlimited", and so does Moreau (≤ 0 reads
//    as unlimited).
// Transmissions are read into PreparedUrdf::transmissions; errors name the
// transmission and joint: no <joint name>, a joint that is not declared, a
// joint with two transmissions, a reduction that is not finite and > 0, a
// rotor inertia that is not finite and ≥ 0. A type other than
// SimpleTransmission (e.g. a differential) is skipped with a warning.
// First of all the text is checked against `limits` (xml_scan.h): a LimitError
// names the exceeded limit. Other errors (InvalidArgument) start with
// "URDF parse error: ".
absl::StatusOr<PreparedUrdf> PrepareUrdf(std::string_view urdf_xml, const UrdfLimits& limits);

}  // namespace moreau::model_internal

#endif  // MOREAU_ENGINE_MODEL_URDF_PREPARE_H_
