// Body geometry for viewers from a real moreaud: the visual shapes of
// ModelSpec (GetModel, ListModels, CreateInstances' spec) beside the
// collision shapes, each with its role, and GetMesh: the built-in ur10's
// meshes byte for byte, and each code it answers with.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "tests/integration/service_test_util.h"

namespace moreau::testing {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  EXPECT_TRUE(file.good()) << path;
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

std::vector<double> Values(const google::protobuf::RepeatedField<double>& field) {
  return std::vector<double>(field.begin(), field.end());
}

// base.stl is 18384 bytes and wrist3.stl 24384: replies of at most 20000
// bytes carry the first and not the second.
class ServiceMeshTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = new LiveServer(StartServer({"--max_message_bytes", "20000"}));
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override { ASSERT_NE(server_->client, nullptr); }
  client::Client& client() { return *server_->client; }
  static LiveServer* server_;
};
LiveServer* ServiceMeshTest::server_ = nullptr;

// A robot no test has seen: a base with a coloured box and an uncoloured
// sphere, an arm whose tip is merged by a rotated fixed joint and drawn by a
// mesh under a material named nowhere.
constexpr char kLampUrdf[] = R"(<robot name="lamp">
  <material name="brass"><color rgba="0.8 0.6 0.2 1"/></material>
  <link name="base">
    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><origin xyz="0 0 0.1"/><geometry><box size="0.2 0.3 0.4"/></geometry><material name="brass"/></visual>
    <visual><geometry><sphere radius="0.05"/></geometry></visual>
    <collision><geometry><sphere radius="0.1"/></geometry></collision>
  </link>
  <joint name="hinge" type="revolute"><parent link="base"/><child link="arm"/>
    <origin xyz="0 0 0.2"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="5" velocity="2"/></joint>
  <link name="arm">
    <inertial><mass value="0.5"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <joint name="tip_joint" type="fixed"><parent link="arm"/><child link="tip"/>
    <origin xyz="0 0 0.5" rpy="0 0 1.5707963267948966"/></joint>
  <link name="tip">
    <visual><origin xyz="0.1 0 0"/><geometry><mesh filename="meshes/shade.obj" scale="2 2 2"/></geometry>
      <material name="nowhere"/></visual>
  </link>
</robot>)";

TEST_F(ServiceMeshTest, GetModel_VisualShapesWithTheirRoleColourAndPose) {
  v1::ModelSource source;
  source.set_urdf(kLampUrdf);
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::ModelSpec spec, client().GetModel(source));
  ASSERT_EQ(spec.shapes_size(), 1);
  EXPECT_EQ(spec.shapes(0).role(), "collision");
  EXPECT_EQ(spec.shapes(0).rgba_size(), 0);
  ASSERT_EQ(spec.visual_shapes_size(), 3);
  const v1::ShapeSpec& box = spec.visual_shapes(0);
  EXPECT_EQ(box.role(), "visual");
  EXPECT_EQ(box.type(), "box");
  EXPECT_EQ(box.link(), "base");
  EXPECT_EQ(spec.body_names(box.body()), "base");
  EXPECT_EQ(Values(box.size()), (std::vector<double>{0.2, 0.3, 0.4}));
  EXPECT_EQ(Values(box.position()), (std::vector<double>{0, 0, 0.1}));
  EXPECT_EQ(Values(box.rotation()), (std::vector<double>{1, 0, 0, 0}));
  EXPECT_EQ(Values(box.rgba()), (std::vector<double>{0.8, 0.6, 0.2, 1}));
  const v1::ShapeSpec& sphere = spec.visual_shapes(1);
  EXPECT_EQ(sphere.type(), "sphere");
  EXPECT_EQ(Values(sphere.size()), (std::vector<double>{0.05}));
  EXPECT_EQ(sphere.rgba_size(), 0);
  // The tip is merged into the arm: its origin after the fixed joint's.
  const v1::ShapeSpec& shade = spec.visual_shapes(2);
  EXPECT_EQ(shade.link(), "tip");
  EXPECT_EQ(spec.body_names(shade.body()), "arm");
  EXPECT_EQ(shade.mesh(), "meshes/shade.obj");
  EXPECT_EQ(Values(shade.size()), (std::vector<double>{2, 2, 2}));
  ASSERT_EQ(shade.position_size(), 3);
  EXPECT_NEAR(shade.position(0), 0.0, 1e-12);
  EXPECT_NEAR(shade.position(1), 0.1, 1e-12);
  EXPECT_NEAR(shade.position(2), 0.5, 1e-12);
  ASSERT_EQ(shade.rotation_size(), 4);  // a quarter turn about z
  EXPECT_NEAR(shade.rotation(0), std::sqrt(0.5), 1e-12);
  EXPECT_NEAR(shade.rotation(3), std::sqrt(0.5), 1e-12);
  EXPECT_EQ(shade.rgba_size(), 0);
  bool warned = false;
  for (const std::string& w : spec.warnings()) {
    warned |= absl::StrContains(w, "material 'nowhere' is not defined");
  }
  EXPECT_TRUE(warned);
}

TEST_F(ServiceMeshTest, Ur10_EverySpecCarriesItsVisualShapesAndItsMeshesAreServed) {
  v1::Settings settings;
  settings.set_control_mode("id");
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::CreateInstancesResponse made,
                              client().CreateBuiltin("ur10", 1, settings));
  const v1::ModelSpec& spec = made.spec().model();
  ASSERT_EQ(spec.visual_shapes_size(), 7);
  for (const v1::ShapeSpec& shape : spec.shapes()) EXPECT_EQ(shape.role(), "collision");
  for (const v1::ShapeSpec& shape : spec.visual_shapes()) {
    SCOPED_TRACE(shape.link());
    EXPECT_EQ(shape.role(), "visual");
    EXPECT_EQ(shape.type(), "mesh");
    EXPECT_EQ(Values(shape.rgba()), (std::vector<double>{0.7, 0.7, 0.7, 1}));
  }
  v1::ModelSource source;
  source.set_builtin("ur10");
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::ModelSpec got, client().GetModel(source));
  EXPECT_EQ(got.SerializeAsString(), spec.SerializeAsString());
  ASSERT_TRUE(client().DestroyInstances({made.instance_ids(0)}).ok());

  const std::string& mesh = spec.visual_shapes(0).mesh();
  EXPECT_EQ(mesh, "meshes/ur10/collision/base.stl");
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::GetMeshResponse bytes, client().GetMesh("ur10", mesh));
  EXPECT_EQ(bytes.format(), "stl");
  EXPECT_TRUE(bytes.data() == ReadFile(std::string(MOREAU_SOURCE_MODELS_DIR) + "/ur10/" + mesh));
}

TEST_F(ServiceMeshTest, GetMesh_EachCode) {
  auto code = [&](const std::string& model, const std::string& mesh) {
    return client().GetMesh(model, mesh).status();
  };
  const absl::Status unknown = code("ur10", "meshes/ur10/collision/gripper.stl");
  EXPECT_EQ(unknown.code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(absl::StrContains(unknown.message(),
                                "model 'ur10' has no mesh 'meshes/ur10/collision/gripper.stl'"))
      << unknown;
  for (const char* name :
       {"base", "shoulder", "upperarm", "forearm", "wrist1", "wrist2", "wrist3"}) {
    EXPECT_TRUE(
        absl::StrContains(unknown.message(), absl::StrCat("meshes/ur10/collision/", name, ".stl")))
        << name;
  }
  const absl::Status builtin = code("mini_cheetah", "meshes/mini_body.obj");
  EXPECT_EQ(builtin.code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(absl::StrContains(builtin.message(),
                                "built-in model 'mini_cheetah' has no compiled-in meshes"))
      << builtin;
  const absl::Status urdf = code("lamp", "meshes/shade.obj");
  EXPECT_EQ(urdf.code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(absl::StrContains(urdf.message(), "not a built-in model")) << urdf;
  EXPECT_TRUE(absl::StrContains(urdf.message(), "built-in models with meshes: ur10")) << urdf;
  // A long name is quoted cut short.
  const absl::Status long_name = code(std::string(5000, 'x'), "a.stl");
  EXPECT_EQ(long_name.code(), absl::StatusCode::kNotFound);
  EXPECT_LT(long_name.message().size(), 500u);

  EXPECT_EQ(code("", "meshes/ur10/collision/base.stl").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(code("ur10", "").code(), absl::StatusCode::kInvalidArgument);

  const absl::Status big = code("ur10", "meshes/ur10/collision/wrist3.stl");
  EXPECT_EQ(big.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_TRUE(absl::StrContains(big.message(), "--max-message-bytes (20000)")) << big;
  EXPECT_TRUE(client().GetMesh("ur10", "meshes/ur10/collision/base.stl").ok());
}

}  // namespace
}  // namespace moreau::testing
