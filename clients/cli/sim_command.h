// `moreau sim MODEL [--contact …] [--integrator …] [--dt S] [--duration S]
// [--controller …] [--push …] [--terrain …] [--mu M] [--out FILE.csv]
// [--json]`: runs a simulation in-process (no server) with a controller at
// the simulation rate and reports its cost (wall time, steps/s, realtime
// factor, solver iterations) and outcome (final base pose, penetration, foot
// slip, whether the robot fell or the simulation diverged).
#ifndef MOREAU_CLIENTS_CLI_SIM_COMMAND_H_
#define MOREAU_CLIENTS_CLI_SIM_COMMAND_H_

#include "clients/cli/command.h"

namespace moreau::cli {

const Command& SimCommand();

}  // namespace moreau::cli

#endif  // MOREAU_CLIENTS_CLI_SIM_COMMAND_H_
