// The controller a Settings::controller names, made for a model: what
// Simulation::Create runs inside its step, and what another engine's loop
// (bench/vs_mujoco) runs to drive the same controller.
#ifndef MOREAU_ENGINE_SIM_MAKE_CONTROLLER_H_
#define MOREAU_ENGINE_SIM_MAKE_CONTROLLER_H_

#include <memory>

#include "absl/status/statusor.h"
#include "engine/control/controller.h"
#include "engine/model/model.h"
#include "engine/sim/settings.h"

namespace moreau::sim {

// settings.controller for `model`: the velocity trot when RunsVelocityTrot
// (its time constant settings.control.id_time_constant), else MakeController
// of the kind's controller ("trot" for pd-trot) with
// settings.controller.options; nullptr for "none". InvalidArgument for a
// controller the model or the control mode cannot run, the message prefixed
// "controller '<kind>': " once, with the kind's Settings name.
absl::StatusOr<std::unique_ptr<control::Controller>> MakeSimulationController(
    const Model& model, const Settings& settings);

}  // namespace moreau::sim

#endif  // MOREAU_ENGINE_SIM_MAKE_CONTROLLER_H_
