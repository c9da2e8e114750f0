// The flags shared by every command that takes a MODEL argument:
//   --base auto|fixed|floating   how the root link attaches to the world
//   --contact-links a,b,c        links whose sphere collision geoms are
//   contacts
//   --collision feet|all         which collision geometry touches the terrain
//   --collide-links, --exclude-links a,b,c   per-link overrides of it
// their values, and the loading of that model with them.
#ifndef MOREAU_CLIENTS_CLI_MODEL_FLAGS_H_
#define MOREAU_CLIENTS_CLI_MODEL_FLAGS_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/model/loader.h"
#include "engine/model/model.h"

namespace moreau::cli {

// The value of --base, read by absl::ParseFlag (flag_specs.cc) through
// AbslParseFlag / AbslUnparseFlag.
struct BaseFlag {
  BaseMode mode = BaseMode::kAuto;
};
bool AbslParseFlag(absl::string_view text, BaseFlag* flag, std::string* error);
std::string AbslUnparseFlag(const BaseFlag& flag);

// The value of --collision (LoadOptions::collision).
struct CollisionFlag {
  CollisionMode mode = CollisionMode::kFeet;
};
bool AbslParseFlag(absl::string_view text, CollisionFlag* flag, std::string* error);
std::string AbslUnparseFlag(const CollisionFlag& flag);

struct ModelFlags {
  BaseFlag base;                           // --base
  std::vector<std::string> contact_links;  // --contact-links, split at the commas
  CollisionFlag collision;                 // --collision
  std::vector<std::string> collide_links;  // --collide-links
  std::vector<std::string> exclude_links;  // --exclude-links
};

// LoadOptions from --base, --contact-links, --collision, --collide-links and
// --exclude-links. An empty link name in a list is an InvalidArgument error.
absl::StatusOr<LoadOptions> LoadOptionsFromFlags(const ModelFlags& flags);

// LoadModel(name_or_path) with the options of the flags.
absl::StatusOr<std::shared_ptr<const Model>> LoadModelFromFlags(const std::string& name_or_path,
                                                                const ModelFlags& flags);

}  // namespace moreau::cli

#endif  // MOREAU_CLIENTS_CLI_MODEL_FLAGS_H_
