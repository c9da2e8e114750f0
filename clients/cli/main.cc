// `moreau`: the command-line client of the Moreau simulator. This file only
// dispatches: the command table, help, and the error/exit-code policy.
//
// Every failure prints exactly one line to stderr, "moreau: error: <message>",
// and exits 1 (kExitError), or 2 (kExitUsage) when the command line itself is
// malformed. A command's report is buffered and printed only on success, or
// when the failing command asks for it (WithReport, command_status.h): then
// the report goes to stdout before the error line.
#include <algorithm>
#include <exception>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "clients/cli/command.h"
#include "clients/cli/command_status.h"
#include "clients/cli/dynamics_command.h"
#include "clients/cli/flag_parser.h"
#include "clients/cli/flag_specs.h"
#include "clients/cli/info_command.h"
#include "clients/cli/remote_command.h"
#include "clients/cli/sim_command.h"
#include "clients/cli/text_format.h"
#include "engine/model/loader.h"

namespace moreau::cli {
namespace {

// The subcommands, in the order `moreau help` lists them. A new command is
// one more entry here and a <name>_command.{h,cc} pair.
const std::vector<const Command*>& Commands() {
  static const std::vector<const Command*>* const commands = new std::vector<const Command*>{
      &InfoCommand(), &DynamicsCommand(), &SimCommand(), &RemoteCommand()};
  return *commands;
}

const Command* FindCommand(absl::string_view name) {
  for (const Command* command : Commands()) {
    if (command->name == name) return command;
  }
  return nullptr;
}

// The flags of every command, each once.
std::vector<FlagSpec> AllFlags() {
  std::vector<FlagSpec> flags;
  for (const Command* command : Commands()) {
    for (const FlagSpec& spec : command->flags) {
      const auto same_name = [&](const FlagSpec& other) { return other.name == spec.name; };
      if (std::none_of(flags.begin(), flags.end(), same_name)) flags.push_back(spec);
    }
  }
  return flags;
}

std::vector<std::string> CommandNames() {
  std::vector<std::string> names;
  for (const Command* command : Commands()) names.emplace_back(command->name);
  names.emplace_back("help");
  return names;
}

std::string Usage() {
  std::string text =
      "usage: moreau <command> [arguments] [flags]\n"
      "       moreau help [<command>]\n\n"
      "Commands:\n";
  for (const Command* command : Commands()) {
    absl::StrAppend(&text, absl::StrFormat("  %-10s %s\n", command->name, command->summary));
  }
  absl::StrAppend(
      &text, absl::StrFormat("  %-10s %s\n", "help", "show this help, or a command's"), "\n",
      WrapText(absl::StrCat("MODEL is a built-in model (", absl::StrJoin(BuiltinModelNames(), ", "),
                            ") or the path of a URDF file. Commands that take "
                            "a MODEL accept:")),
      DescribeFlags({kBaseFlagSpec, kContactLinksFlagSpec, kCollisionFlagSpec,
                     kCollideLinksFlagSpec, kExcludeLinksFlagSpec}),
      "\n", "--json prints a report as one JSON object.\n\n", kStateConventions,
      "\nExit status: 0 success, 1 failure, 2 malformed command line.\n");
  return text;
}

std::string CommandUsage(const Command& command) {
  return absl::StrCat("usage: moreau ", command.name, " ", command.synopsis, "\n\n",
                      WrapText(command.description), "\nFlags:\n", DescribeFlags(command.flags),
                      command.notes.empty() ? "" : "\n", command.notes);
}

// One line: a multi-line message (e.g. a parser's) is joined with "; ".
std::string OneLine(absl::string_view message) {
  std::string line;
  bool pending_break = false;
  for (const char ch : message) {
    if (ch == '\n' || ch == '\r') {
      pending_break = !line.empty();
      continue;
    }
    if (pending_break) line += "; ";
    pending_break = false;
    line += ch;
  }
  return line;
}

int Fail(int exit_code, absl::string_view message) {
  std::cerr << "moreau: error: " << OneLine(message) << '\n';
  return exit_code;
}

int RunCommand(const Command& command, const std::vector<std::string>& words) {
  absl::StatusOr<ParsedCommandLine> parsed =
      ParseCommandLine(command.name, words, command.flags, AllFlags());
  if (!parsed.ok()) {
    return Fail(kExitUsage,
                absl::StrCat(parsed.status().message(), " (see 'moreau help ", command.name, "')"));
  }
  if (parsed->help) {
    std::cout << CommandUsage(command);
    return kExitOk;
  }
  const int count = static_cast<int>(parsed->args.size());
  if (count < command.min_args || count > command.max_args) {
    return Fail(kExitUsage,
                absl::StrCat("'", command.name, "' takes ",
                             command.min_args == command.max_args
                                 ? absl::StrCat(command.min_args)
                                 : absl::StrCat(command.min_args, " to ", command.max_args),
                             " argument(s), got ", count, ": usage: moreau ", command.name, " ",
                             command.synopsis));
  }

  std::ostringstream report;
  std::vector<std::string> warnings;
  const absl::Status status = command.run({.args = std::move(parsed->args),
                                           .flags = std::move(parsed->flags),
                                           .flags_given = std::move(parsed->flags_given),
                                           .out = &report,
                                           .warnings = &warnings});
  if (!status.ok()) {
    if (PrintsReport(status)) std::cout << report.str() << std::flush;
    return Fail(kExitError, status.message());
  }
  for (const std::string& warning : warnings) std::cerr << "warning: " << OneLine(warning) << '\n';
  std::cout << report.str() << std::flush;
  return kExitOk;
}

int Help(const std::vector<std::string>& topics) {
  if (topics.empty()) {
    std::cout << Usage();
    return kExitOk;
  }
  const Command* command = FindCommand(topics[0]);
  if (command == nullptr && topics[0] != "help") {
    return Fail(kExitUsage, absl::StrCat("no help for unknown command '", topics[0],
                                         "'; commands: ", absl::StrJoin(CommandNames(), ", ")));
  }
  std::cout << (command == nullptr ? Usage() : CommandUsage(*command));
  return kExitOk;
}

int Main(int argc, char** argv) {
  const std::vector<std::string> words(argv + (argc > 0 ? 1 : 0), argv + argc);
  if (words.empty()) {
    std::cout << Usage();
    return kExitOk;
  }
  const std::string& name = words[0];
  const std::vector<std::string> rest(words.begin() + 1, words.end());
  if (name == "help" || name == "--help" || name == "-h") return Help(rest);
  const Command* command = FindCommand(name);
  if (command == nullptr) {
    return Fail(kExitUsage, absl::StrCat("unknown command '", name,
                                         "'; commands: ", absl::StrJoin(CommandNames(), ", "),
                                         " (see 'moreau help')"));
  }
  return RunCommand(*command, rest);
}

// Nothing should throw; a library that does must still not crash the command.
int SafeMain(int argc, char** argv) {
  try {
    return Main(argc, argv);
  } catch (const std::exception& e) {
    return Fail(kExitError, absl::StrCat("internal error: ", e.what()));
  } catch (...) {
    return Fail(kExitError, "internal error: unknown exception");
  }
}

}  // namespace
}  // namespace moreau::cli

int main(int argc, char** argv) { return moreau::cli::SafeMain(argc, argv); }
