// Turns a validated URDF link tree into a Model (model.h): chooses the base,
// merges fixed joints, numbers bodies and coordinates, picks contact points
// and actuators, and checks that the mass matrix can be regular.
#ifndef MOREAU_ENGINE_MODEL_BUILD_MODEL_H_
#define MOREAU_ENGINE_MODEL_BUILD_MODEL_H_

#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/model/link_tree.h"
#include "engine/model/loader.h"
#include "engine/model/model.h"
#include "engine/model/urdf_prepare.h"

namespace moreau::model_internal {

// The joint name of a floating base's free joint.
inline constexpr char kFreeJointName[] = "floating_base";

absl::StatusOr<Model> BuildModel(const LinkTree& tree, const LoadOptions& options);

// Sets Actuator::gear and rotor_inertia of the actuators whose joints the
// transmissions name (002 §IV-C), then Model::armature (UpdateArmature).
// InvalidArgument naming the transmission and joint when the joint has no
// actuator (a fixed joint, merged away, or the floating base).
absl::Status ApplyTransmissions(const std::vector<TransmissionSpec>& transmissions, Model& model);

}  // namespace moreau::model_internal

#endif  // MOREAU_ENGINE_MODEL_BUILD_MODEL_H_
