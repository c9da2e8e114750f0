// A subcommand of `moreau`: its name, help text, the flags it accepts and the
// function that runs it. main.cc keeps the table of commands.
#ifndef MOREAU_CLIENTS_CLI_COMMAND_H_
#define MOREAU_CLIENTS_CLI_COMMAND_H_

#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "clients/cli/flag_values.h"

namespace moreau::cli {

// Exit codes of the `moreau` process.
inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;  // the command failed (bad model, bad values)
inline constexpr int kExitUsage = 2;  // the command line is malformed

// What a command runs with: its positional arguments, the values of the
// flags (as given, else their defaults) and which were given, where to write
// its report, and where to collect non-fatal warnings (printed to stderr,
// "warning: …", only when the command succeeds, so that a failure prints
// exactly one line).
struct Invocation {
  std::vector<std::string> args;
  FlagValues flags;                   // as given, else the defaults
  std::set<std::string> flags_given;  // names (FlagSpec::name) of the flags on the command line
  std::ostream* out = nullptr;
  std::vector<std::string>* warnings = nullptr;
};

// A flag (flag_specs.h): its name ("contact_links"; on the command line both
// --contact-links and --contact_links work), a placeholder for its value in
// help text (empty for a bool flag), an older spelling still accepted
// ("contact" for "contact_model"), for a flag whose value is one of a
// vocabulary the vocabulary's names and help lines (from its EnumTable), and
// its help text. `parse` sets the flag's field of FlagValues from the text of
// its value (false, with the reason in *error when there is one, for a text
// it cannot read); `default_value` is the field's default as text, for the
// help.
struct FlagSpec {
  absl::string_view name;
  absl::string_view value;
  absl::string_view alias = {};
  std::vector<std::pair<std::string, std::string>> (*choices)() = nullptr;
  absl::string_view help = {};
  bool is_bool = false;  // --name alone means --name=true
  bool (*parse)(absl::string_view text, FlagValues* values, std::string* error) = nullptr;
  std::string (*default_value)() = nullptr;
};

struct Command {
  absl::string_view name;
  absl::string_view synopsis;     // arguments after the name, e.g. "MODEL [--json]"
  absl::string_view summary;      // one line for the command list
  absl::string_view description;  // paragraphs for `moreau help NAME` (wrapped)
  absl::string_view notes;        // printed verbatim after the flags
  std::vector<FlagSpec> flags;    // the flags it accepts
  int min_args = 0;               // positional arguments
  int max_args = 0;
  absl::Status (*run)(const Invocation& invocation) = nullptr;
};

}  // namespace moreau::cli

#endif  // MOREAU_CLIENTS_CLI_COMMAND_H_
