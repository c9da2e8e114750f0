// The flags shared by every command that takes a MODEL argument:
//   --base auto|fixed|floating   how the root link attaches to the world
//   --contact-links a,b,c        links whose sphere collision geoms are
//   contacts
// and the loading of that model with them.
#ifndef MOREAU_CLIENTS_CLI_MODEL_FLAGS_H_
#define MOREAU_CLIENTS_CLI_MODEL_FLAGS_H_

#include <memory>
#include <string>

#include "absl/flags/declare.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "clients/cli/command.h"
#include "engine/model/loader.h"
#include "engine/model/model.h"

namespace moreau::cli {

// The value of --base (an absl flag type: AbslParseFlag / AbslUnparseFlag).
struct BaseFlag {
  BaseMode mode = BaseMode::kAuto;
};
bool AbslParseFlag(absl::string_view text, BaseFlag* flag, std::string* error);
std::string AbslUnparseFlag(const BaseFlag& flag);

// Flag specs to list in a Command's flags.
inline constexpr FlagSpec kBaseFlagSpec{"base", "auto|fixed|floating"};
inline constexpr FlagSpec kContactLinksFlagSpec{"contact_links", "LINK,LINK,..."};

// LoadOptions from --base and --contact-links. An empty link name in the
// list is an InvalidArgument error.
absl::StatusOr<LoadOptions> LoadOptionsFromFlags();

// LoadModel(name_or_path) with the options of the flags.
absl::StatusOr<std::shared_ptr<const Model>> LoadModelFromFlags(const std::string& name_or_path);

}  // namespace moreau::cli

#endif  // MOREAU_CLIENTS_CLI_MODEL_FLAGS_H_
