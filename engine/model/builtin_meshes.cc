#include "engine/model/builtin_meshes.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "engine/model/embedded.h"

namespace moreau {
namespace {

struct MeshFile {
  std::string_view model;  // the built-in's name (builtin.cc)
  std::string_view name;   // the <mesh filename> of its URDF
  std::string_view (*bytes)();
};

// The ur10's URDF (robots/ur10.urdf) names each mesh by its path under
// models/ur10/, where the files are.
constexpr std::array<MeshFile, 7> kMeshes = {{
    {"ur10", "meshes/ur10/collision/base.stl", &embedded::Ur10BaseStl},
    {"ur10", "meshes/ur10/collision/shoulder.stl", &embedded::Ur10ShoulderStl},
    {"ur10", "meshes/ur10/collision/upperarm.stl", &embedded::Ur10UpperarmStl},
    {"ur10", "meshes/ur10/collision/forearm.stl", &embedded::Ur10ForearmStl},
    {"ur10", "meshes/ur10/collision/wrist1.stl", &embedded::Ur10Wrist1Stl},
    {"ur10", "meshes/ur10/collision/wrist2.stl", &embedded::Ur10Wrist2Stl},
    {"ur10", "meshes/ur10/collision/wrist3.stl", &embedded::Ur10Wrist3Stl},
}};

}  // namespace

std::vector<std::string> BuiltinMeshNames(std::string_view model) {
  std::vector<std::string> names;
  for (const MeshFile& m : kMeshes) {
    if (m.model == model) names.emplace_back(m.name);
  }
  return names;
}

std::vector<std::string> ModelsWithBuiltinMeshes() {
  std::vector<std::string> models;
  for (const MeshFile& m : kMeshes) {
    if (models.empty() || models.back() != m.model) models.emplace_back(m.model);
  }
  return models;
}

std::optional<std::string_view> BuiltinMesh(std::string_view model, std::string_view mesh) {
  for (const MeshFile& m : kMeshes) {
    if (m.model == model && m.name == mesh) return m.bytes();
  }
  return std::nullopt;
}

std::string_view MeshFormat(std::string_view name) {
  const absl::string_view text(name.data(), name.size());
  if (absl::EndsWithIgnoreCase(text, ".stl")) return "stl";
  if (absl::EndsWithIgnoreCase(text, ".obj")) return "obj";
  return "";
}

}  // namespace moreau
