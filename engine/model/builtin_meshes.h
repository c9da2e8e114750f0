// Mesh files compiled into the engine for the built-in models whose URDF
// names them (the ur10's collision STL files, which its visuals draw too), so
// that a viewer can fetch what a model's shapes name from the server alone
// (the GetMesh RPC) by the model's name and the mesh's file name as the
// model's shapes write it (Geom::mesh, VisualShape::mesh). Nothing here reads
// a file.
#ifndef MOREAU_ENGINE_MODEL_BUILTIN_MESHES_H_
#define MOREAU_ENGINE_MODEL_BUILTIN_MESHES_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace moreau {

// The names of the meshes of built-in model `model`, in the order its links
// name them; empty when it has none (or is not a built-in).
std::vector<std::string> BuiltinMeshNames(std::string_view model);

// The built-in models that have meshes.
std::vector<std::string> ModelsWithBuiltinMeshes();

// The bytes of mesh `mesh` of built-in model `model` (its file's bytes
// exactly), or nullopt when the model has no such mesh.
std::optional<std::string_view> BuiltinMesh(std::string_view model, std::string_view mesh);

// A mesh file's format from its name's extension, case-insensitive: "stl" or
// "obj"; "" for any other.
std::string_view MeshFormat(std::string_view name);

}  // namespace moreau

#endif  // MOREAU_ENGINE_MODEL_BUILTIN_MESHES_H_
