// Mesh files of URDF collision geometry: where a <mesh filename> points and
// the vertices it holds (STL binary and ASCII, Wavefront OBJ). Only the
// vertices are read: the contact slots of a mesh are vertices of its convex
// hull (convex_hull.h).
#ifndef MOREAU_ENGINE_MODEL_MESH_FILE_H_
#define MOREAU_ENGINE_MODEL_MESH_FILE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/model/model.h"

namespace moreau::model_internal {

// Files larger than this are refused before they are read (bytes).
inline constexpr int64_t kMaxMeshFileBytes = 64 << 20;

// The path of a URDF mesh file name:
//   package://PKG/REST  the first of DIR/PKG/REST or ANCESTOR/REST where
//                       ANCESTOR is `directory` or one of its ancestors named
//                       PKG, or holding a folder PKG (ANCESTOR/PKG/REST);
//                       `directory`/REST when none exists;
//   file:///ABS         /ABS;
//   an absolute path    itself;
//   a relative path     `directory`/name.
std::string ResolveMeshPath(std::string_view filename, const std::string& directory);

// The vertices of the mesh at `path`, in the file's units: STL (binary when
// the size is 84 + 50 n for the n triangles of its header, else ASCII "solid
// … vertex x y z …") or OBJ ("v x y z" lines), chosen by the extension
// (.stl, .obj; case-insensitive). NotFound when the file does not exist;
// InvalidArgument naming the file and line for unreadable content, an
// unsupported extension, a non-finite coordinate, no vertex at all, or a file
// larger than kMaxMeshFileBytes.
absl::StatusOr<std::vector<Vec3>> ReadMeshVertices(const std::string& path);

}  // namespace moreau::model_internal

#endif  // MOREAU_ENGINE_MODEL_MESH_FILE_H_
