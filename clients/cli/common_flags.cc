#include "clients/cli/common_flags.h"

#include "absl/flags/flag.h"

ABSL_FLAG(bool, json, false, "Print the report as one JSON object instead of text.");
ABSL_FLAG(std::string, state_out, "", "Write the complete state (a binary blob) to this file.");
