// `moreau info MODEL [--json]`: what a model is made of — sizes, bodies,
// joints, mass, contact points, actuators and the loader's warnings.
#ifndef MOREAU_CLIENTS_CLI_INFO_COMMAND_H_
#define MOREAU_CLIENTS_CLI_INFO_COMMAND_H_

#include <ostream>

#include "clients/cli/command.h"
#include "engine/model/model.h"

namespace moreau::cli {

const Command& InfoCommand();

// The reports, for a loaded model.
void WriteInfoJson(const Model& model, std::ostream& out);
void WriteInfoText(const Model& model, std::ostream& out);

}  // namespace moreau::cli

#endif  // MOREAU_CLIENTS_CLI_INFO_COMMAND_H_
