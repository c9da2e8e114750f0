// `moreau info MODEL [--json] [--tuning T]`: what a model is made of — sizes,
// bodies, joints, mass, contact points, actuators and the loader's warnings —
// and the tuning its stand and trot controllers would run (tuning.h).
#ifndef MOREAU_CLIENTS_CLI_INFO_COMMAND_H_
#define MOREAU_CLIENTS_CLI_INFO_COMMAND_H_

#include <ostream>

#include "clients/cli/command.h"
#include "engine/control/controller.h"
#include "engine/model/model.h"

namespace moreau::cli {

const Command& InfoCommand();

// The reports, for a loaded model; the controller's under `tuning`.
void WriteInfoJson(const Model& model, std::ostream& out,
                   control::Tuning tuning = control::Tuning::kAuto);
void WriteInfoText(const Model& model, std::ostream& out,
                   control::Tuning tuning = control::Tuning::kAuto);

}  // namespace moreau::cli

#endif  // MOREAU_CLIENTS_CLI_INFO_COMMAND_H_
