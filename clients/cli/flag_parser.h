// Parses a subcommand's command line into FlagValues by the FlagSpecs of the
// flags it takes (flag_specs.h). It accepts only those flags, reports every
// problem as a Status (no exit, no multi-line report), and allows dashes in
// flag names (--contact-links for the flag contact_links).
//
// Grammar: --name=value, --name value, --bool-flag, --bool-flag=true|false,
// -h / --help, and "--" to end the flags. Anything else is a positional
// argument. A flag given twice keeps its last value.
#ifndef MOREAU_CLIENTS_CLI_FLAG_PARSER_H_
#define MOREAU_CLIENTS_CLI_FLAG_PARSER_H_

#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "clients/cli/command.h"
#include "clients/cli/flag_values.h"

namespace moreau::cli {

struct ParsedCommandLine {
  std::vector<std::string> args;      // positional arguments
  FlagValues flags;                   // the values given, the defaults for the others
  std::set<std::string> flags_given;  // names (FlagSpec::name) of the flags set
  bool help = false;                  // -h or --help was given
};

// Reads `argv` (the words after the command name) by `flags`, the flags the
// command takes; `all_flags` are the flags of every command, to tell a flag
// the command does not take from an unknown one. Errors (InvalidArgument)
// are usage errors: an unknown flag, a flag the command does not take, a
// missing or unparsable value.
absl::StatusOr<ParsedCommandLine> ParseCommandLine(absl::string_view command_name,
                                                   const std::vector<std::string>& argv,
                                                   const std::vector<FlagSpec>& flags,
                                                   const std::vector<FlagSpec>& all_flags);

// "--contact-links" for the flag "contact_links".
std::string FlagDisplayName(absl::string_view name);

// Help lines for `flags`: "  --name VALUE" then the flag's help and default.
std::string DescribeFlags(const std::vector<FlagSpec>& flags);

}  // namespace moreau::cli

#endif  // MOREAU_CLIENTS_CLI_FLAG_PARSER_H_
