// The meshes compiled into the engine (builtin_meshes.h) and the built-in
// ur10 that names them: the bytes equal the files in models/ byte for byte,
// every mesh the model's shapes name is there, and the built-in is the
// upstream file's arm.
#include "engine/model/builtin_meshes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "engine/model/loader.h"

namespace moreau {
namespace {

// The repository's models/, which the build embeds from (not
// MOREAU_MODELS_DIR, which the tests may point elsewhere).
const std::string kSourceModels = MOREAU_SOURCE_MODELS_DIR;
const std::string kModels = MOREAU_MODELS_DIR;

std::string ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  EXPECT_TRUE(file.good()) << path;
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

TEST(BuiltinMeshes, Ur10MeshesEqualTheFilesByteForByte) {
  const std::vector<std::string> names = BuiltinMeshNames("ur10");
  ASSERT_EQ(names.size(), 7u);
  for (const std::string& name : names) {
    const auto bytes = BuiltinMesh("ur10", name);
    ASSERT_TRUE(bytes.has_value()) << name;
    const std::string file = ReadFile(kSourceModels + "/ur10/" + name);
    EXPECT_EQ(bytes->size(), file.size()) << name;
    EXPECT_TRUE(*bytes == file) << name;
    // Binary STL: an 80-byte header, a triangle count n, then 50 bytes each.
    ASSERT_GE(bytes->size(), 84u);
    uint32_t triangles = 0;
    std::memcpy(&triangles, bytes->data() + 80, 4);
    EXPECT_EQ(bytes->size(), 84u + 50u * triangles) << name;
    EXPECT_EQ(MeshFormat(name), "stl");
  }
  // Every file of the folder is embedded.
  std::set<std::string> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(kSourceModels + "/ur10/meshes/ur10/collision")) {
    files.insert("meshes/ur10/collision/" + entry.path().filename().string());
  }
  EXPECT_EQ(files, std::set<std::string>(names.begin(), names.end()));
}

TEST(BuiltinMeshes, UnknownMeshesAndModels) {
  EXPECT_FALSE(BuiltinMesh("ur10", "meshes/ur10/collision/gripper.stl").has_value());
  EXPECT_FALSE(BuiltinMesh("ur10", "base.stl").has_value());  // names are exact
  EXPECT_FALSE(BuiltinMesh("ur10", "").has_value());
  EXPECT_FALSE(BuiltinMesh("mini_cheetah", "meshes/mini_body.obj").has_value());
  EXPECT_FALSE(BuiltinMesh("my_robot", "meshes/ur10/collision/base.stl").has_value());
  EXPECT_TRUE(BuiltinMeshNames("pendulum").empty());
  EXPECT_TRUE(BuiltinMeshNames("no_such_model").empty());
  EXPECT_EQ(ModelsWithBuiltinMeshes(), std::vector<std::string>{"ur10"});
}

TEST(BuiltinMeshes, Format) {
  EXPECT_EQ(MeshFormat("a/b.stl"), "stl");
  EXPECT_EQ(MeshFormat("B.STL"), "stl");
  EXPECT_EQ(MeshFormat("meshes/mini_body.obj"), "obj");
  EXPECT_EQ(MeshFormat("base.dae"), "");
  EXPECT_EQ(MeshFormat("stl"), "");
}

// Every mesh the built-in ur10's shapes name is compiled in, and each link's
// visual draws its collision mesh, LightGrey, at the same pose.
TEST(BuiltinUr10, ShapesNameTheCompiledInMeshes) {
  const auto model = LoadBuiltin("ur10");
  ASSERT_TRUE(model.ok()) << model.status();
  const Model& m = **model;
  const std::vector<std::string> names = BuiltinMeshNames("ur10");
  const std::set<std::string> compiled_in(names.begin(), names.end());
  std::set<std::string> named;
  for (const Geom& g : m.geoms) {
    if (g.type == GeomType::kMesh) named.insert(g.mesh);
  }
  ASSERT_EQ(m.visual_shapes.size(), 7u);
  for (const VisualShape& v : m.visual_shapes) {
    EXPECT_EQ(v.type, GeomType::kMesh) << v.link;
    named.insert(v.mesh);
    EXPECT_EQ(v.material, "LightGrey");
    ASSERT_TRUE(v.rgba.has_value()) << v.link;
    EXPECT_EQ(*v.rgba, (std::array<double, 4>{0.7, 0.7, 0.7, 1.0}));
    const auto geom = std::find_if(m.geoms.begin(), m.geoms.end(), [&](const Geom& g) {
      return g.link == v.link && g.type == GeomType::kMesh;
    });
    ASSERT_NE(geom, m.geoms.end()) << v.link;
    EXPECT_EQ(v.mesh, geom->mesh);
    EXPECT_EQ(v.body, geom->body);
    EXPECT_EQ(v.position, geom->position);
    EXPECT_EQ(v.rotation, geom->rotation);
    EXPECT_EQ(v.size, Vec3::Ones());
  }
  EXPECT_EQ(named, compiled_in);
}

// The built-in is the upstream file's arm: the same bodies, joints, inertias
// and placements; only the mesh names differ.
TEST(BuiltinUr10, IsTheUpstreamArm) {
  const auto builtin = LoadBuiltin("ur10");
  const auto file = LoadUrdfFile(kModels + "/ur10/ur10_robot.urdf");
  ASSERT_TRUE(builtin.ok()) << builtin.status();
  ASSERT_TRUE(file.ok()) << file.status();
  const Model& b = **builtin;
  const Model& f = **file;
  EXPECT_EQ(b.name, "ur10");
  EXPECT_FALSE(b.floating_base);
  EXPECT_EQ(b.body_names, f.body_names);
  EXPECT_EQ(b.JointNames(), f.JointNames());
  EXPECT_EQ(b.merged_links, f.merged_links);
  ASSERT_EQ(b.nbodies, f.nbodies);
  for (int i = 0; i < b.nbodies; ++i) {
    EXPECT_EQ(b.inertia[i].mass, f.inertia[i].mass) << b.body_names[i];
    EXPECT_EQ(b.inertia[i].h, f.inertia[i].h) << b.body_names[i];
    EXPECT_EQ(b.inertia[i].Ibar, f.inertia[i].Ibar) << b.body_names[i];
    EXPECT_EQ(b.X_tree[i].E, f.X_tree[i].E) << b.body_names[i];
    EXPECT_EQ(b.X_tree[i].r, f.X_tree[i].r) << b.body_names[i];
  }
  ASSERT_EQ(b.joints.size(), f.joints.size());
  for (size_t j = 0; j < b.joints.size(); ++j) {
    EXPECT_EQ(b.joints[j].axis, f.joints[j].axis);
    EXPECT_EQ(b.joints[j].limits.effort, f.joints[j].limits.effort);
    EXPECT_EQ(b.joints[j].limits.lower, f.joints[j].limits.lower);
  }
  EXPECT_EQ(b.geoms.size(), f.geoms.size());
  EXPECT_EQ(b.visual_shapes.size(), f.visual_shapes.size());
  EXPECT_EQ(b.warnings, f.warnings);
}

}  // namespace
}  // namespace moreau
