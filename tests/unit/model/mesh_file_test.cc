// Mesh files (mesh_file.h): STL binary and ASCII, OBJ, path resolution.
#include "engine/model/mesh_file.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace moreau::model_internal {
namespace {

namespace fs = std::filesystem;

fs::path TempDir() {
  const fs::path dir = fs::temp_directory_path() /
                       ("moreau_mesh_file_test_" +
                        std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  fs::create_directories(dir);
  return dir;
}

void WriteFile(const fs::path& path, const std::string& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << bytes;
}

// A binary STL of the given triangles (3 vertices each).
std::string BinaryStl(const std::vector<Vec3>& vertices) {
  std::string out(80, ' ');
  const uint32_t n = static_cast<uint32_t>(vertices.size() / 3);
  out.append(reinterpret_cast<const char*>(&n), 4);
  for (uint32_t t = 0; t < n; ++t) {
    float record[12] = {0, 0, 1};
    for (int v = 0; v < 3; ++v) {
      for (int i = 0; i < 3; ++i)
        record[3 + 3 * v + i] = static_cast<float>(vertices[3 * t + v][i]);
    }
    out.append(reinterpret_cast<const char*>(record), sizeof(record));
    out.append(2, '\0');
  }
  return out;
}

TEST(MeshFile, ReadsBinaryStl) {
  const fs::path path = TempDir() / "tri.stl";
  WriteFile(path, BinaryStl({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 2, 0), Vec3(0, 0, 3),
                             Vec3(1, 0, 0), Vec3(0, 2, 0)}));
  const auto v = ReadMeshVertices(path.string());
  ASSERT_TRUE(v.ok()) << v.status();
  ASSERT_EQ(v->size(), 6u);
  EXPECT_EQ((*v)[2], Vec3(0, 2, 0));
  EXPECT_EQ((*v)[3], Vec3(0, 0, 3));
}

TEST(MeshFile, ReadsAsciiStl) {
  const fs::path path = TempDir() / "tri_ascii.STL";
  WriteFile(path,
            "solid t\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1.5 0 0\n"
            "   vertex 0 1 -2e-1\n  endloop\n endfacet\nendsolid t\n");
  const auto v = ReadMeshVertices(path.string());
  ASSERT_TRUE(v.ok()) << v.status();
  ASSERT_EQ(v->size(), 3u);
  EXPECT_EQ((*v)[1], Vec3(1.5, 0, 0));
  EXPECT_EQ((*v)[2], Vec3(0, 1, -0.2));
}

TEST(MeshFile, ReadsObjVertices) {
  const fs::path path = TempDir() / "shape.obj";
  WriteFile(path, "# comment\nv 1 2 3\nvn 0 0 1\nvt 0.5 0.5\nv -1 -2 -3\nf 1 2 1\n");
  const auto v = ReadMeshVertices(path.string());
  ASSERT_TRUE(v.ok()) << v.status();
  ASSERT_EQ(v->size(), 2u);
  EXPECT_EQ((*v)[0], Vec3(1, 2, 3));
  EXPECT_EQ((*v)[1], Vec3(-1, -2, -3));
}

TEST(MeshFile, Errors) {
  const fs::path dir = TempDir();
  const auto missing = ReadMeshVertices((dir / "nothing.stl").string());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("nothing.stl"), std::string::npos);
  WriteFile(dir / "a.dae", "<COLLADA/>");
  const auto dae = ReadMeshVertices((dir / "a.dae").string());
  EXPECT_EQ(dae.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(dae.status().message().find(".dae"), std::string::npos);
  WriteFile(dir / "bad.obj", "v 1 2\n");
  const auto bad = ReadMeshVertices((dir / "bad.obj").string());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("line 1"), std::string::npos);
  WriteFile(dir / "nan.obj", "v 1 nan 2\n");
  EXPECT_FALSE(ReadMeshVertices((dir / "nan.obj").string()).ok());
  WriteFile(dir / "empty.obj", "# nothing\n");
  EXPECT_FALSE(ReadMeshVertices((dir / "empty.obj").string()).ok());
  WriteFile(dir / "junk.stl", "not an stl at all");
  EXPECT_FALSE(ReadMeshVertices((dir / "junk.stl").string()).ok());
}

TEST(MeshFile, ResolvesRelativeAbsoluteAndPackagePaths) {
  const fs::path dir = TempDir() / "ws";
  WriteFile(dir / "my_robot" / "meshes" / "body.stl", "solid x\nendsolid x\n");
  const std::string urdf_dir = (dir / "my_robot" / "urdf").string();
  fs::create_directories(urdf_dir);
  // Relative to the URDF's folder.
  EXPECT_EQ(ResolveMeshPath("../meshes/body.stl", urdf_dir),
            (fs::path(urdf_dir) / "../meshes/body.stl").string());
  EXPECT_EQ(ResolveMeshPath("/abs/m.obj", urdf_dir), "/abs/m.obj");
  EXPECT_EQ(ResolveMeshPath("file:///abs/m.obj", urdf_dir), "/abs/m.obj");
  // package://my_robot/…: an ancestor named my_robot.
  EXPECT_TRUE(fs::equivalent(ResolveMeshPath("package://my_robot/meshes/body.stl", urdf_dir),
                             dir / "my_robot" / "meshes" / "body.stl"));
  // … or an ancestor holding a folder my_robot.
  EXPECT_TRUE(fs::equivalent(
      ResolveMeshPath("package://my_robot/meshes/body.stl", (dir / "other").string()),
      dir / "my_robot" / "meshes" / "body.stl"));
  // Not found anywhere: the rest under the folder.
  EXPECT_EQ(ResolveMeshPath("package://none/m.stl", urdf_dir),
            (fs::path(urdf_dir) / "m.stl").string());
}

}  // namespace
}  // namespace moreau::model_internal
