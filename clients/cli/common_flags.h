// The values of the flags that several commands share: --json and
// --state-out.
#ifndef MOREAU_CLIENTS_CLI_COMMON_FLAGS_H_
#define MOREAU_CLIENTS_CLI_COMMON_FLAGS_H_

#include <string>

namespace moreau::cli {

struct CommonFlags {
  bool json = false;      // --json: the report as one JSON object instead of text
  std::string state_out;  // --state-out: the file to write the complete state blob to
};

}  // namespace moreau::cli

#endif  // MOREAU_CLIENTS_CLI_COMMON_FLAGS_H_
