// LoadUrdfString / LoadUrdfFile (loader.h): the URDF pipeline
//   text → PrepareUrdf (XML checks, normalization) → urdfdom → LinkTree
//   (validated numbers) → BuildModel (bodies, contacts, actuators).
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
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

absl::StatusOr<std::shared_ptr<const Model>> LoadUrdfString(std::string_view urdf_xml,
                                                            const LoadOptions& options) {
  namespace internal = model_internal;
  MOREAU_ASSIGN_OR_RETURN(const internal::PreparedUrdf prepared,
                          internal::PrepareUrdf(urdf_xml, options.limits));
  MOREAU_ASSIGN_OR_RETURN(const urdf::ModelInterfaceSharedPtr parsed,
                          internal::ParseWithUrdfdom(prepared.xml));
  MOREAU_ASSIGN_OR_RETURN(
      internal::LinkTree tree,
      internal::LinkTreeFromUrdfdom(*parsed, prepared.link_order, prepared.joint_order));
  // Each visual to its link (names are unique: urdfdom refuses duplicates).
  std::map<std::string_view, internal::TreeLink*> links;
  for (internal::TreeLink& link : tree.links) links.emplace(link.name, &link);
  for (const VisualShape& shape : prepared.visuals) {
    if (const auto it = links.find(shape.link); it != links.end()) {
      it->second->visuals.push_back(shape);
    }
  }
  MOREAU_ASSIGN_OR_RETURN(Model model, internal::BuildModel(tree, options));
  // Before anything is sized by them: a simulation's contact buffers (the
  // Delassus matrix, the QP) grow with the square of their number.
  if (model.contact_points.size() > static_cast<size_t>(options.limits.max_contact_points)) {
    return LimitError(absl::StrCat("URDF model has ", model.contact_points.size(),
                                   " contact points, at most ", options.limits.max_contact_points,
                                   " (the server's --max-contact-points)"));
  }
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
  if (!ec && size > static_cast<std::uintmax_t>(std::max<int64_t>(options.limits.max_bytes, 0))) {
    return LimitError(absl::StrCat("URDF file '", path, "' is ", size, " bytes, at most ",
                                   options.limits.max_bytes, " (the server's --max-urdf-bytes)"));
  }
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  if (file) text << file.rdbuf();
  if (!file || file.bad()) {
    return absl::InvalidArgumentError(
        absl::StrCat("URDF file '", path, "': cannot read (", std::strerror(errno), ")"));
  }
  LoadOptions file_options = options;
  if (file_options.mesh_directory.empty()) {
    // Relative and package:// mesh names resolve from the URDF's folder.
    file_options.mesh_directory = fs::path(path).parent_path().string();
  }
  absl::StatusOr<std::shared_ptr<const Model>> model = LoadUrdfString(text.str(), file_options);
  if (!model.ok()) {
    const std::string message = absl::StrCat("URDF file '", path, "': ", model.status().message());
    if (IsLimitError(model.status())) return LimitError(message);
    return absl::Status(model.status().code(), message);
  }
  return model;
}

}  // namespace moreau
