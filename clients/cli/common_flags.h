// Flags that several commands share: --json.
#ifndef MOREAU_CLIENTS_CLI_COMMON_FLAGS_H_
#define MOREAU_CLIENTS_CLI_COMMON_FLAGS_H_

#include <string>

#include "absl/flags/declare.h"
#include "clients/cli/command.h"

ABSL_DECLARE_FLAG(bool, json);
ABSL_DECLARE_FLAG(std::string, state_out);

namespace moreau::cli {

inline constexpr FlagSpec kJsonFlagSpec{"json", ""};
inline constexpr FlagSpec kStateOutFlagSpec{"state_out", "FILE"};

}  // namespace moreau::cli

#endif  // MOREAU_CLIENTS_CLI_COMMON_FLAGS_H_
