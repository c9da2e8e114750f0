#include "clients/cli/flag_parser.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"
#include "clients/cli/text_format.h"

namespace moreau::cli {
namespace {

// The spec `flags` has for `name` (a flag's name or its older spelling).
const FlagSpec* Find(const std::vector<FlagSpec>& flags, absl::string_view name) {
  for (const FlagSpec& spec : flags) {
    if (spec.name == name || (!spec.alias.empty() && spec.alias == name)) return &spec;
  }
  return nullptr;
}

// Whether some flag of `flags` has the name `name` (older spellings aside).
bool HasFlagNamed(const std::vector<FlagSpec>& flags, absl::string_view name) {
  for (const FlagSpec& spec : flags) {
    if (spec.name == name) return true;
  }
  return false;
}

}  // namespace

std::string FlagDisplayName(absl::string_view name) {
  return absl::StrCat("--", absl::StrReplaceAll(name, {{"_", "-"}}));
}

absl::StatusOr<ParsedCommandLine> ParseCommandLine(absl::string_view command_name,
                                                   const std::vector<std::string>& argv,
                                                   const std::vector<FlagSpec>& flags,
                                                   const std::vector<FlagSpec>& all_flags) {
  ParsedCommandLine parsed;
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& word = argv[i];
    if (word == "--") {
      parsed.args.insert(parsed.args.end(), argv.begin() + i + 1, argv.end());
      break;
    }
    if (word.size() < 2 || word[0] != '-') {
      parsed.args.push_back(word);
      continue;
    }
    if (word == "-h" || word == "--help") {
      parsed.help = true;
      continue;
    }
    // -name or --name, with an optional =value.
    absl::string_view body(word);
    body.remove_prefix(absl::StartsWith(body, "--") ? 2 : 1);
    const size_t equals = body.find('=');
    const bool has_value = equals != absl::string_view::npos;
    std::string name = absl::StrReplaceAll(body.substr(0, equals), {{"-", "_"}});
    const std::string display = FlagDisplayName(name);
    if (name.empty())
      return absl::InvalidArgumentError(absl::StrCat("malformed flag '", word, "'"));

    const FlagSpec* spec = Find(flags, name);
    if (spec != nullptr) name = std::string(spec->name);
    if (!HasFlagNamed(all_flags, name)) {
      return absl::InvalidArgumentError(absl::StrCat("unknown flag ", display));
    }
    if (spec == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", command_name, "' does not take ", display));
    }
    std::string value;
    if (has_value) {
      value = std::string(body.substr(equals + 1));
    } else if (spec->is_bool) {
      value = "true";
    } else if (i + 1 < argv.size()) {
      value = argv[++i];
    } else {
      return absl::InvalidArgumentError(absl::StrCat(display, " needs a value"));
    }
    std::string error;
    if (!spec->parse(value, &parsed.flags, &error)) {
      return absl::InvalidArgumentError(absl::StrCat("invalid value '", value, "' for ", display,
                                                     error.empty() ? "" : ": ", error));
    }
    parsed.flags_given.insert(name);
  }
  return parsed;
}

std::string DescribeFlags(const std::vector<FlagSpec>& flags) {
  std::string text;
  for (const FlagSpec& spec : flags) {
    absl::StrAppend(&text, "  ", FlagDisplayName(spec.name));
    if (!spec.value.empty()) absl::StrAppend(&text, " ", spec.value);
    if (!spec.alias.empty()) absl::StrAppend(&text, "  (also ", FlagDisplayName(spec.alias), ")");
    absl::StrAppend(&text, "\n");
    std::string help(spec.help);
    const std::string default_value = spec.default_value();
    if (!default_value.empty() && !spec.is_bool) {
      absl::StrAppend(&help, " (default: ", default_value, ")");
    }
    if (spec.choices != nullptr) absl::StrAppend(&help, "; one of:");
    absl::StrAppend(&text, WrapText(help, 80, "      "));
    if (spec.choices == nullptr) continue;
    // "        name              help", the help wrapped in its own column.
    constexpr size_t kHelpColumn = 27;
    for (const auto& [choice, choice_help] : spec.choices()) {
      std::string lines = WrapText(choice_help, 80, std::string(kHelpColumn, ' '));
      const std::string label = absl::StrCat("        ", choice, " ");
      if (label.size() <= kHelpColumn) {
        lines.replace(0, label.size(), label);
      } else {
        lines.insert(0, absl::StrCat(label, "\n"));
      }
      absl::StrAppend(&text, lines);
    }
  }
  return text;
}

}  // namespace moreau::cli
