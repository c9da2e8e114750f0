// Building a Model: from URDF (through urdfdom) or from a built-in name.
#ifndef MOREAU_ENGINE_MODEL_LOADER_H_
#define MOREAU_ENGINE_MODEL_LOADER_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/model/model.h"
#include "engine/model/urdf_limits.h"

namespace moreau {

enum class BaseMode {
  kAuto,      // a root link named "world" fixes the base, otherwise it floats
  kFixed,     // the root link is welded to the world
  kFloating,  // the root link floats (a root named "world" is dropped and its
              // single child becomes the floating base)
};

// Which collision geometry touches the terrain (docs/collision.md).
enum class CollisionMode {
  kFeet,  // the foot spheres only (contact_links chooses them)
  kAll,   // every collision geometry of every link: spheres, boxes,
          // cylinders, meshes (collision_geometry.h)
};
// "feet", "all"; the one name table of CollisionMode.
const char* CollisionModeName(CollisionMode mode);
std::string CollisionModeNames();  // "feet or all"
absl::StatusOr<CollisionMode> ParseCollisionMode(std::string_view name);

struct LoadOptions {
  BaseMode base = BaseMode::kAuto;
  // Links whose sphere collision geoms become contact points. Empty: the
  // sphere collision geoms of leaf links (the feet). An unknown link name is
  // an error.
  std::vector<std::string> contact_links;
  CollisionMode collision = CollisionMode::kFeet;
  // Per-link overrides of `collision`: every collision geometry of a
  // collide_links link becomes contact slots (also in kFeet); an
  // exclude_links link gets none beyond its feet. An unknown link name is an
  // error, and so is a link in both lists.
  std::vector<std::string> collide_links;
  std::vector<std::string> exclude_links;
  // Directory that relative mesh file names are resolved against; empty:
  // LoadUrdfFile takes the URDF file's directory (package:// names search its
  // ancestors, mesh_file.h).
  std::string mesh_directory;
  // False: collision meshes are not read from the file system (a URDF that
  // arrived over the network must not name the server's files); each mesh's
  // link collides as its inertia box instead, with a warning.
  bool read_mesh_files = true;
  // Bounds on the URDF's size, checked before the work they bound
  // (urdf_limits.h); exceeding one is a LimitError naming it.
  UrdfLimits limits;
};

// Parses and validates URDF text. Errors (InvalidArgument) name the link or
// joint and the offending value, or the exceeded limit of options.limits
// (IsLimitError); warnings land in Model::warnings. A file larger than
// options.limits.max_bytes is refused before it is read.
absl::StatusOr<std::shared_ptr<const Model>> LoadUrdfString(std::string_view urdf_xml,
                                                            const LoadOptions& options = {});
absl::StatusOr<std::shared_ptr<const Model>> LoadUrdfFile(const std::string& path,
                                                          const LoadOptions& options = {});

// Built-in models: mini_cheetah (shipped URDF), pendulum, double_pendulum,
// cartpole, acrobot, sphere, box, biped (robots/biped.urdf: box feet whose
// corners are the contacts), four_bar (a closed chain: one loop closure),
// ur10 (robots/ur10.urdf: a fixed-base 6-joint arm whose shapes are meshes
// compiled in, builtin_meshes.h).
std::vector<std::string> BuiltinModelNames();
absl::StatusOr<std::shared_ptr<const Model>> LoadBuiltin(std::string_view name,
                                                         const LoadOptions& options = {});

// MODEL argument of the commands: a built-in name, else a URDF file path.
absl::StatusOr<std::shared_ptr<const Model>> LoadModel(std::string_view name_or_path,
                                                       const LoadOptions& options = {});

}  // namespace moreau

#endif  // MOREAU_ENGINE_MODEL_LOADER_H_
