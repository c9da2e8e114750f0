// The controller's parameters by name: one table shared by the service
// (Settings.controller.parameters in simulator.proto) and `moreau sim
// --controller-parameters`, so both accept and reject the same names.
#ifndef MOREAU_ENGINE_SIM_CONTROLLER_PARAMETERS_H_
#define MOREAU_ENGINE_SIM_CONTROLLER_PARAMETERS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "engine/sim/actuation.h"
#include "engine/sim/settings.h"

namespace moreau::sim {

// The names SetControllerParameter accepts for the controller `kind` runs
// under control mode `mode` (RunsVelocityTrot: the velocity trot's options,
// else ControllerOptions'), in a fixed order; empty for "none" and "zero".
std::vector<std::string> ControllerParameterNames(ControllerKind kind, ControlMode mode);

// Sets the named parameter of controller.options, or of
// controller.velocity_trot when RunsVelocityTrot(controller.kind, mode).
// InvalidArgument when the value is not finite, the name is not one of
// ControllerParameterNames (the message lists them), or a flag
// (velocity_feedforward, balance, swing_clearance, weight_feedforward,
// stable_pd) gets anything but 0 or 1, or tuning (stand, trot: a
// control::Tuning by number) anything but 0 (auto), 1 (paper-001) or 2
// (derived). Range checks of the values themselves
// are the controller's (MakeController, VelocityTrot::Create), at
// Simulation::Create.
absl::Status SetControllerParameter(ControllerSettings& controller, ControlMode mode,
                                    absl::string_view name, double value);

}  // namespace moreau::sim

#endif  // MOREAU_ENGINE_SIM_CONTROLLER_PARAMETERS_H_
