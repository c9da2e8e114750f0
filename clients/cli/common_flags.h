// Flags that several commands share: --json.
#ifndef MOREAU_CLIENTS_CLI_COMMON_FLAGS_H_
#define MOREAU_CLIENTS_CLI_COMMON_FLAGS_H_

#include "absl/flags/declare.h"
#include "clients/cli/command.h"

ABSL_DECLARE_FLAG(bool, json);

namespace moreau::cli {

inline constexpr FlagSpec kJsonFlagSpec{"json", ""};

}  // namespace moreau::cli

#endif  // MOREAU_CLIENTS_CLI_COMMON_FLAGS_H_
