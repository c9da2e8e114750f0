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

bool AbslParseFlag(absl::string_view text, CollisionFlag* flag, std::string* error) {
  absl::StatusOr<CollisionMode> mode =
      ParseCollisionMode(std::string_view(text.data(), text.size()));
  if (!mode.ok()) {
    *error = absl::StrCat("expected ", CollisionModeNames());
    return false;
  }
  flag->mode = *mode;
  return true;
}

std::string AbslUnparseFlag(const CollisionFlag& flag) { return CollisionModeName(flag.mode); }

namespace {

// The link names of a list flag, trimmed; an empty one is an error.
absl::StatusOr<std::vector<std::string>> LinkList(const std::vector<std::string>& links,
                                                  const char* flag) {
  std::vector<std::string> out;
  for (size_t i = 0; i < links.size(); ++i) {
    const std::string link(absl::StripAsciiWhitespace(links[i]));
    if (link.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat(flag, ": entry ", i + 1, " is an empty link name"));
    }
    out.push_back(link);
  }
  return out;
}

}  // namespace

absl::StatusOr<LoadOptions> LoadOptionsFromFlags(const ModelFlags& flags) {
  LoadOptions options;
  options.base = flags.base.mode;
  options.collision = flags.collision.mode;
  MOREAU_ASSIGN_OR_RETURN(options.contact_links, LinkList(flags.contact_links, "--contact-links"));
  MOREAU_ASSIGN_OR_RETURN(options.collide_links, LinkList(flags.collide_links, "--collide-links"));
  MOREAU_ASSIGN_OR_RETURN(options.exclude_links, LinkList(flags.exclude_links, "--exclude-links"));
  return options;
}

absl::StatusOr<std::shared_ptr<const Model>> LoadModelFromFlags(const std::string& name_or_path,
                                                                const ModelFlags& flags) {
  MOREAU_ASSIGN_OR_RETURN(const LoadOptions options, LoadOptionsFromFlags(flags));
  return LoadModel(std::string_view(name_or_path), options);
}

}  // namespace moreau::cli
