// urdf::parseURDF with its console_bridge output captured into the Status.
#ifndef MOREAU_ENGINE_MODEL_URDFDOM_PARSE_H_
#define MOREAU_ENGINE_MODEL_URDFDOM_PARSE_H_

#include <urdf_model/model.h>
#include <urdf_world/types.h>

#include <string>

#include "absl/status/statusor.h"

namespace moreau::model_internal {

// urdfdom reports errors only by logging through console_bridge (to stderr by
// default) and returning null. This installs a capturing console_bridge
// handler for the duration of the call (console_bridge's handler is
// process-wide, so calls are serialized by a mutex) and returns
// InvalidArgument "URDF parse error: <urdfdom's messages>" when urdfdom fails
// or logs any error. Nothing is printed, and exceptions escaping urdfdom
// become errors too.
absl::StatusOr<urdf::ModelInterfaceSharedPtr> ParseWithUrdfdom(const std::string& xml);

}  // namespace moreau::model_internal

#endif  // MOREAU_ENGINE_MODEL_URDFDOM_PARSE_H_
