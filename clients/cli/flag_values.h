// The values of every flag of `moreau`, one group per file that reads them:
// what the flag parser fills in (flag_parser.h, by the FlagSpecs of
// flag_specs.h) and a command runs with (Invocation, command.h). A flag not
// on the command line keeps its default here, the one its help shows.
#ifndef MOREAU_CLIENTS_CLI_FLAG_VALUES_H_
#define MOREAU_CLIENTS_CLI_FLAG_VALUES_H_

#include "clients/cli/common_flags.h"
#include "clients/cli/model_flags.h"
#include "clients/cli/remote_flags.h"
#include "clients/cli/settings_flags.h"
#include "clients/cli/sim_flags.h"
#include "clients/cli/state_flags.h"

namespace moreau::cli {

struct FlagValues {
  CommonFlags common;      // --json, --state-out
  ModelFlags model;        // --base, --contact-links
  StateFlags state;        // --q, --v, --tau
  SettingsFlags settings;  // --settings and the moreau.v1.Settings fields
  SimFlags sim;            // the flags only `moreau sim` takes
  RemoteFlags remote;      // the flags only `moreau remote` takes
};

}  // namespace moreau::cli

#endif  // MOREAU_CLIENTS_CLI_FLAG_VALUES_H_
