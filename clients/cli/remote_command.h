// `moreau remote …`: drive a running moreaud from the command line.
#ifndef MOREAU_CLIENTS_CLI_REMOTE_COMMAND_H_
#define MOREAU_CLIENTS_CLI_REMOTE_COMMAND_H_

#include "clients/cli/command.h"

namespace moreau::cli {

const Command& RemoteCommand();

}  // namespace moreau::cli

#endif  // MOREAU_CLIENTS_CLI_REMOTE_COMMAND_H_
