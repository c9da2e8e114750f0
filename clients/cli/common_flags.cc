#include "clients/cli/common_flags.h"

#include "absl/flags/flag.h"

ABSL_FLAG(bool, json, false, "Print the report as one JSON object instead of text.");
ABSL_FLAG(std::string, control, "",
          "How actions drive the joints: torque (joint torques), pd (joint position targets, "
          "PD at the simulation rate), id (position targets by inverse dynamics) or "
          "id-constraint (position targets as bounded joint-velocity constraints; moreau-jor "
          "or moreau-sor only). Default torque.");
ABSL_FLAG(std::string, state_out, "", "Write the complete state (a binary blob) to this file.");
