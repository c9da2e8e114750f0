#include "clients/cli/model_flags.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "engine/util/enum_table.h"
#include "engine/util/status_macros.h"

namespace moreau::cli {

namespace {

constexpr EnumEntry<BaseMode> kBaseModes[] = {
    {BaseMode::kAuto, "auto"}, {BaseMode::kFixed, "fixed"}, {BaseMode::kFloating, "floating"}};

}  // namespace

bool AbslParseFlag(absl::string_view text, BaseFlag* flag, std::string* error) {
  absl::StatusOr<BaseMode> mode =
      ParseEnum<BaseMode>("base", kBaseModes, std::string_view(text.data(), text.size()));
  if (!mode.ok()) {
    *error = absl::StrCat("expected ", EnumNameList(kBaseModes));
    return false;
  }
  flag->mode = *mode;
  return true;
}

std::string AbslUnparseFlag(const BaseFlag& flag) { return EnumName(kBaseModes, flag.mode); }

absl::StatusOr<LoadOptions> LoadOptionsFromFlags(const ModelFlags& flags) {
  LoadOptions options;
  options.base = flags.base.mode;
  const std::vector<std::string>& links = flags.contact_links;
  for (size_t i = 0; i < links.size(); ++i) {
    const std::string link(absl::StripAsciiWhitespace(links[i]));
    if (link.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--contact-links: entry ", i + 1, " is an empty link name"));
    }
    options.contact_links.push_back(link);
  }
  return options;
}

absl::StatusOr<std::shared_ptr<const Model>> LoadModelFromFlags(const std::string& name_or_path,
                                                                const ModelFlags& flags) {
  MOREAU_ASSIGN_OR_RETURN(const LoadOptions options, LoadOptionsFromFlags(flags));
  return LoadModel(std::string_view(name_or_path), options);
}

}  // namespace moreau::cli
