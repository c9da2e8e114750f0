// LoadUrdfString / LoadUrdfFile (loader.h): the URDF pipeline
//   text → PrepareUrdf (XML checks, normalization) → urdfdom → LinkTree
//   (validated numbers) → BuildModel (bodies, contacts, actuators).
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "engine/model/build_model.h"
#include "engine/model/link_tree.h"
#include "engine/model/loader.h"
#include "engine/model/urdf_prepare.h"
#include "engine/model/urdfdom_parse.h"
#include "engine/util/status_macros.h"

namespace moreau {
namespace {

// Larger files are rejected rather than read (the largest real robot URDFs
// are a few MB).
constexpr std::uintmax_t kMaxUrdfFileBytes = 64u << 20;

}  // namespace

absl::StatusOr<std::shared_ptr<const Model>> LoadUrdfString(std::string_view urdf_xml,
                                                            const LoadOptions& options) {
  namespace internal = model_internal;
  MOREAU_ASSIGN_OR_RETURN(const internal::PreparedUrdf prepared, internal::PrepareUrdf(urdf_xml));
  MOREAU_ASSIGN_OR_RETURN(const urdf::ModelInterfaceSharedPtr parsed,
                          internal::ParseWithUrdfdom(prepared.xml));
  MOREAU_ASSIGN_OR_RETURN(
      const internal::LinkTree tree,
      internal::LinkTreeFromUrdfdom(*parsed, prepared.link_order, prepared.joint_order));
  MOREAU_ASSIGN_OR_RETURN(Model model, internal::BuildModel(tree, options));
  MOREAU_RETURN_IF_ERROR(internal::ApplyTransmissions(prepared.transmissions, model));
  model.warnings.insert(model.warnings.end(), prepared.warnings.begin(), prepared.warnings.end());
  return std::make_shared<const Model>(std::move(model));
}

absl::StatusOr<std::shared_ptr<const Model>> LoadUrdfFile(const std::string& path,
                                                          const LoadOptions& options) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory) {
    return absl::InvalidArgumentError(absl::StrCat("URDF file '", path, "': ", ec.message()));
  }
  if (!fs::exists(status)) {
    return absl::NotFoundError(absl::StrCat("URDF file '", path, "': no such file"));
  }
  if (!fs::is_regular_file(status)) {
    return absl::InvalidArgumentError(absl::StrCat("URDF file '", path, "': not a regular file"));
  }
  const std::uintmax_t size = fs::file_size(path, ec);
  if (!ec && size > kMaxUrdfFileBytes) {
    return absl::InvalidArgumentError(absl::StrCat("URDF file '", path, "': too large (", size,
                                                   " bytes, at most ", kMaxUrdfFileBytes, ")"));
  }
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  if (file) text << file.rdbuf();
  if (!file || file.bad()) {
    return absl::InvalidArgumentError(
        absl::StrCat("URDF file '", path, "': cannot read (", std::strerror(errno), ")"));
  }
  absl::StatusOr<std::shared_ptr<const Model>> model = LoadUrdfString(text.str(), options);
  if (!model.ok()) {
    return absl::Status(model.status().code(),
                        absl::StrCat("URDF file '", path, "': ", model.status().message()));
  }
  return model;
}

}  // namespace moreau
