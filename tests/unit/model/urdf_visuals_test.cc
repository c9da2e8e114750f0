// Visual shapes of a URDF (urdf_visuals.h, Model::visual_shapes): every
// geometry type, the pose through fixed-joint merging (as the collision
// geometry's), colours inline, by a robot's material and by a visual's, and
// malformed visuals as warnings.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/model/loader.h"

namespace moreau {
namespace {

const std::string kModels = MOREAU_MODELS_DIR;

std::shared_ptr<const Model> Load(const std::string& urdf, const LoadOptions& options = {}) {
  auto model = LoadUrdfString(urdf, options);
  EXPECT_TRUE(model.ok()) << model.status();
  return model.ok() ? *model : nullptr;
}

// The warnings that contain `text`.
int CountWarnings(const Model& model, const std::string& text) {
  return static_cast<int>(
      std::count_if(model.warnings.begin(), model.warnings.end(),
                    [&](const std::string& w) { return absl::StrContains(w, text); }));
}

std::string Warnings(const Model& model) { return absl::StrJoin(model.warnings, "\n"); }

// A robot no test has seen: a base (welded to the world) with a box and a
// sphere; through a revolute joint an arm with a cylinder and a scaled mesh;
// a hand merged into the arm by a rotated fixed joint, carrying a mesh and a
// collision box on the same origin.
constexpr char kArm[] = R"(<?xml version="1.0"?>
<robot name="visual_arm">
  <material name="steel"><color rgba="0.5 0.5 0.55 1"/></material>
  <material name="decal"><texture filename="decal.png"/></material>
  <link name="world"/>
  <joint name="weld" type="fixed"><parent link="world"/><child link="base"/></joint>
  <link name="base">
    <inertial><mass value="2"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual name="plate">
      <origin xyz="0 0 0.05"/>
      <geometry><box size="0.4 0.3 0.1"/></geometry>
      <material name="steel"/>
    </visual>
    <visual>
      <origin xyz="0.1 0 0.1" rpy="0 0 1.5707963267948966"/>
      <geometry><sphere radius="0.05"/></geometry>
      <material name="lamp"><color rgba="1 0.2 0 0.5"/></material>
    </visual>
  </link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="arm"/>
    <origin xyz="0 0 0.1"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="10" velocity="5"/>
  </joint>
  <link name="arm">
    <inertial><origin xyz="0 0 0.25"/><mass value="1"/>
      <inertia ixx="0.02" iyy="0.02" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual>
      <origin xyz="0 0 0.25"/>
      <geometry><cylinder radius="0.03" length="0.5"/></geometry>
      <material name="lamp"/>
    </visual>
    <visual>
      <geometry><mesh filename="package://arm/meshes/arm.stl" scale="0.001 0.002 0.003"/></geometry>
      <material name="decal"/>
    </visual>
  </link>
  <joint name="wrist" type="fixed"><parent link="arm"/><child link="hand"/>
    <origin xyz="0 0 0.5" rpy="0.3 -0.2 1.1"/>
  </joint>
  <link name="hand">
    <inertial><mass value="0.2"/><inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual>
      <origin xyz="0.01 0.02 0.03" rpy="0.4 0.5 -0.6"/>
      <geometry><mesh filename="meshes/hand.obj"/></geometry>
    </visual>
    <collision>
      <origin xyz="0.01 0.02 0.03" rpy="0.4 0.5 -0.6"/>
      <geometry><box size="0.05 0.05 0.05"/></geometry>
    </collision>
  </link>
</robot>
)";

TEST(UrdfVisuals, EveryTypeWithItsSizeBodyAndLink) {
  const auto model = Load(kArm);
  ASSERT_NE(model, nullptr);
  const Model& m = *model;
  EXPECT_TRUE(m.warnings.empty()) << Warnings(m);
  ASSERT_EQ(m.visual_shapes.size(), 5u);
  const VisualShape& plate = m.visual_shapes[0];
  EXPECT_EQ(plate.link, "base");
  EXPECT_EQ(plate.body, 0);  // welded to the world
  EXPECT_EQ(plate.type, GeomType::kBox);
  EXPECT_EQ(plate.size, Vec3(0.4, 0.3, 0.1));
  EXPECT_EQ(plate.position, Vec3(0, 0, 0.05));
  EXPECT_TRUE(plate.rotation.isIdentity(0.0));
  EXPECT_TRUE(plate.mesh.empty());

  const VisualShape& lamp = m.visual_shapes[1];
  EXPECT_EQ(lamp.type, GeomType::kSphere);
  EXPECT_EQ(lamp.size, Vec3(0.05, 0, 0));
  // rpy = (0, 0, π/2): the shape's x axis along the body's y.
  EXPECT_TRUE((lamp.rotation * Vec3::UnitX()).isApprox(Vec3::UnitY(), 1e-12));

  const int arm = m.BodyIndex("arm");
  ASSERT_GT(arm, 0);
  const VisualShape& cylinder = m.visual_shapes[2];
  EXPECT_EQ(cylinder.link, "arm");
  EXPECT_EQ(cylinder.body, arm);
  EXPECT_EQ(cylinder.type, GeomType::kCylinder);
  EXPECT_EQ(cylinder.size, Vec3(0.03, 0.5, 0));  // radius, length
  EXPECT_EQ(cylinder.position, Vec3(0, 0, 0.25));

  const VisualShape& mesh = m.visual_shapes[3];
  EXPECT_EQ(mesh.type, GeomType::kMesh);
  EXPECT_EQ(mesh.mesh, "package://arm/meshes/arm.stl");  // as written
  EXPECT_EQ(mesh.size, Vec3(0.001, 0.002, 0.003));       // the scale

  const VisualShape& hand = m.visual_shapes[4];
  EXPECT_EQ(hand.link, "hand");
  EXPECT_EQ(hand.body, arm);  // merged by the fixed joint
  EXPECT_EQ(hand.mesh, "meshes/hand.obj");
  EXPECT_EQ(hand.size, Vec3::Ones());  // no scale: 1 1 1
}

// The merged hand's visual and its collision box share an origin: the same
// pose in the arm's frame, wrist ∘ origin.
TEST(UrdfVisuals, PoseComposesFixedJointsAsCollisionGeometry) {
  const auto model = Load(kArm);
  ASSERT_NE(model, nullptr);
  const VisualShape& hand = model->visual_shapes[4];
  const auto geom = std::find_if(model->geoms.begin(), model->geoms.end(),
                                 [](const Geom& g) { return g.link == "hand"; });
  ASSERT_NE(geom, model->geoms.end());
  EXPECT_EQ(hand.body, geom->body);
  EXPECT_TRUE(hand.position.isApprox(geom->position, 1e-15));
  EXPECT_TRUE(hand.rotation.isApprox(geom->rotation, 1e-15));
  // Independently: R = Rz(y) Ry(p) Rx(r) for each rpy, then wrist ∘ origin.
  const auto rpy = [](double r, double p, double y) {
    return Mat3(Eigen::AngleAxisd(y, Vec3::UnitZ()) * Eigen::AngleAxisd(p, Vec3::UnitY()) *
                Eigen::AngleAxisd(r, Vec3::UnitX()));
  };
  const Mat3 wrist_R = rpy(0.3, -0.2, 1.1);
  const Vec3 wrist_p(0, 0, 0.5);
  EXPECT_TRUE(hand.rotation.isApprox(wrist_R * rpy(0.4, 0.5, -0.6), 1e-12));
  EXPECT_TRUE(hand.position.isApprox(wrist_p + wrist_R * Vec3(0.01, 0.02, 0.03), 1e-12));
}

TEST(UrdfVisuals, ColoursInlineByRobotMaterialAndByAVisualsMaterial) {
  const auto model = Load(kArm);
  ASSERT_NE(model, nullptr);
  const std::vector<VisualShape>& v = model->visual_shapes;
  // Named, defined by the robot.
  EXPECT_EQ(v[0].material, "steel");
  ASSERT_TRUE(v[0].rgba.has_value());
  EXPECT_EQ(*v[0].rgba, (std::array<double, 4>{0.5, 0.5, 0.55, 1}));
  // Inline.
  ASSERT_TRUE(v[1].rgba.has_value());
  EXPECT_EQ(*v[1].rgba, (std::array<double, 4>{1, 0.2, 0, 0.5}));
  // By the name another visual gave its colour.
  EXPECT_EQ(v[2].material, "lamp");
  ASSERT_TRUE(v[2].rgba.has_value());
  EXPECT_EQ(*v[2].rgba, (std::array<double, 4>{1, 0.2, 0, 0.5}));
  // A textured material has no colour, and is no error.
  EXPECT_EQ(v[3].material, "decal");
  EXPECT_FALSE(v[3].rgba.has_value());
  // No material.
  EXPECT_TRUE(v[4].material.empty());
  EXPECT_FALSE(v[4].rgba.has_value());
}

TEST(UrdfVisuals, InlineColourWinsOverTheRobotsMaterialOfThatName) {
  const auto model = Load(R"(<robot name="r">
    <material name="paint"><color rgba="0 0 1 1"/></material>
    <link name="body">
      <inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
      <visual><geometry><box size="1 1 1"/></geometry>
        <material name="paint"><color rgba="1 0 0 1"/></material></visual>
    </link></robot>)");
  ASSERT_NE(model, nullptr);
  ASSERT_EQ(model->visual_shapes.size(), 1u);
  EXPECT_EQ(*model->visual_shapes[0].rgba, (std::array<double, 4>{1, 0, 0, 1}));
}

TEST(UrdfVisuals, UndefinedMaterialIsAWarningNamingIt) {
  const auto model = Load(R"(<robot name="r">
    <link name="body">
      <inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
      <visual><geometry><sphere radius="0.1"/></geometry><material name="chartreuse"/></visual>
    </link></robot>)");
  ASSERT_NE(model, nullptr);
  ASSERT_EQ(model->visual_shapes.size(), 1u);  // kept, without colour
  EXPECT_FALSE(model->visual_shapes[0].rgba.has_value());
  EXPECT_EQ(model->visual_shapes[0].material, "chartreuse");
  EXPECT_EQ(CountWarnings(*model, "material 'chartreuse' is not defined"), 1) << Warnings(*model);
  EXPECT_EQ(CountWarnings(*model, "link 'body'"), 1) << Warnings(*model);
}

// Each malformed visual is skipped (or loses its colour) with a warning naming
// its link and what is wrong; the model loads and the good visual stays.
TEST(UrdfVisuals, MalformedVisualsAreWarningsNeverErrors) {
  const std::string visuals[] = {
      R"(<visual name="no_geometry"><origin xyz="0 0 1"/></visual>)",
      R"(<visual><geometry/></visual>)",
      R"(<visual><geometry><capsule radius="0.1" length="0.2"/></geometry></visual>)",
      R"(<visual><geometry><box size="0.1 0.2"/></geometry></visual>)",
      R"(<visual><geometry><box size="0.1 -0.2 0.3"/></geometry></visual>)",
      R"(<visual><geometry><sphere radius="wide"/></geometry></visual>)",
      R"(<visual><geometry><sphere/></geometry></visual>)",
      R"(<visual><geometry><cylinder radius="0.1" length="nan"/></geometry></visual>)",
      R"(<visual><geometry><mesh/></geometry></visual>)",
      R"(<visual><geometry><mesh filename="a.stl" scale="1 inf 1"/></geometry></visual>)",
      R"(<visual><origin xyz="1 2"/><geometry><sphere radius="1"/></geometry></visual>)",
      R"(<visual><origin rpy="0 0 x"/><geometry><sphere radius="1"/></geometry></visual>)",
  };
  std::string urdf = R"(<robot name="r"><link name="body">
      <inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>)";
  for (const std::string& v : visuals) urdf += v;
  urdf += R"(<visual name="good"><geometry><sphere radius="0.5"/></geometry>
      <material name="bad_colour"><color rgba="1 2 0 1"/></material></visual>
      <visual name="short_colour"><geometry><sphere radius="0.5"/></geometry>
      <material><color rgba="1 0 0"/></material></visual>
    </link></robot>)";
  const auto model = Load(urdf);
  ASSERT_NE(model, nullptr);
  // Only the two with bad colours are drawn, without colour.
  ASSERT_EQ(model->visual_shapes.size(), 2u);
  EXPECT_FALSE(model->visual_shapes[0].rgba.has_value());
  EXPECT_FALSE(model->visual_shapes[1].rgba.has_value());
  const int malformed = static_cast<int>(std::size(visuals));
  EXPECT_EQ(static_cast<int>(model->warnings.size()), malformed + 2) << Warnings(*model);
  EXPECT_EQ(CountWarnings(*model, "link 'body'"), malformed + 2);
  EXPECT_EQ(CountWarnings(*model, "not drawn"), malformed);
  EXPECT_EQ(CountWarnings(*model, "drawn without colour"), 2);
  EXPECT_EQ(CountWarnings(*model, "visual 'no_geometry': no <geometry>"), 1);
  EXPECT_EQ(CountWarnings(*model, "visual 2: <geometry> is empty"), 1);
  EXPECT_EQ(CountWarnings(*model, "geometry <capsule> is not supported"), 1);
  EXPECT_EQ(CountWarnings(*model, "box size '0.1 0.2' is not 3 finite numbers ≥ 0"), 1);
  EXPECT_EQ(CountWarnings(*model, "box size '0.1 -0.2 0.3'"), 1);
  EXPECT_EQ(CountWarnings(*model, "sphere radius 'wide' is not a finite number ≥ 0"), 1);
  EXPECT_EQ(CountWarnings(*model, "<sphere> has no radius"), 1);
  EXPECT_EQ(CountWarnings(*model, "cylinder length 'nan'"), 1);
  EXPECT_EQ(CountWarnings(*model, "<mesh> has no filename"), 1);
  EXPECT_EQ(CountWarnings(*model, "mesh scale '1 inf 1'"), 1);
  EXPECT_EQ(CountWarnings(*model, "origin xyz '1 2' is not 3 finite numbers"), 1);
  EXPECT_EQ(CountWarnings(*model, "origin rpy '0 0 x'"), 1);
  EXPECT_EQ(CountWarnings(*model, "visual 'good': color rgba '1 2 0 1' is not in [0, 1]"), 1);
  EXPECT_EQ(CountWarnings(*model, "visual 'short_colour': color rgba '1 0 0' is not 4"), 1);
}

TEST(UrdfVisuals, RobotMaterialsWithoutNameOrDefinedTwiceAreWarnings) {
  const auto model = Load(R"(<robot name="r">
    <material><color rgba="1 1 1 1"/></material>
    <material name="ink"><color rgba="0 0 0 1"/></material>
    <material name="ink"><color rgba="1 1 1 1"/></material>
    <material name="mud"><color rgba="brown"/></material>
    <link name="body">
      <inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
      <visual><geometry><box size="1 1 1"/></geometry><material name="ink"/></visual>
      <visual><geometry><box size="1 1 1"/></geometry><material name="mud"/></visual>
    </link></robot>)");
  ASSERT_NE(model, nullptr);
  ASSERT_EQ(model->visual_shapes.size(), 2u);
  EXPECT_EQ(*model->visual_shapes[0].rgba, (std::array<double, 4>{0, 0, 0, 1}));  // the first
  EXPECT_FALSE(model->visual_shapes[1].rgba.has_value());
  EXPECT_EQ(CountWarnings(*model, "has no name"), 1) << Warnings(*model);
  EXPECT_EQ(CountWarnings(*model, "material 'ink' is defined twice"), 1);
  EXPECT_EQ(CountWarnings(*model, "material 'mud': color rgba 'brown'"), 1);
  EXPECT_EQ(model->warnings.size(), 3u) << Warnings(*model);
}

TEST(UrdfVisuals, WarningsAreCappedForADocumentOfBadVisuals) {
  std::string urdf = R"(<robot name="r"><link name="body">
      <inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>)";
  for (int k = 0; k < 100; ++k) urdf += "<visual/>";
  urdf += "</link></robot>";
  const auto model = Load(urdf);
  ASSERT_NE(model, nullptr);
  EXPECT_TRUE(model->visual_shapes.empty());
  ASSERT_EQ(model->warnings.size(), 21u);
  EXPECT_EQ(model->warnings.back(), "80 more warnings about visuals not shown");
}

TEST(UrdfVisuals, WarningsQuoteLongTextCutShort) {
  const std::string junk(10000, '7');
  const auto model = Load(absl::StrCat(R"(<robot name="r"><link name="body">
      <inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
      <visual><geometry><box size=")",
                                       junk, R"("/></geometry></visual>
      <visual><geometry><sphere radius="1"/></geometry><material name=")",
                                       junk, R"("/></visual>
    </link></robot>)"));
  ASSERT_NE(model, nullptr);
  ASSERT_EQ(model->warnings.size(), 2u) << Warnings(*model);
  for (const std::string& w : model->warnings) {
    EXPECT_LT(w.size(), 250u) << w;
    EXPECT_TRUE(absl::StrContains(w, "7777…'")) << w;
  }
}

TEST(UrdfVisuals, NoVisualsNoShapesNoWarnings) {
  const auto model = Load(R"(<robot name="r"><link name="body">
      <inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
      <collision><geometry><sphere radius="0.1"/></geometry></collision>
    </link></robot>)");
  ASSERT_NE(model, nullptr);
  EXPECT_TRUE(model->visual_shapes.empty());
  EXPECT_TRUE(model->warnings.empty()) << Warnings(*model);
}

// The base mode moves the body a visual belongs to, as it does a geom's.
TEST(UrdfVisuals, FloatingBaseVisualsBelongToTheBase) {
  LoadOptions floating;
  floating.base = BaseMode::kFloating;
  const auto model = Load(kArm, floating);
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->visual_shapes[0].body, model->BodyIndex("base"));
  EXPECT_GT(model->visual_shapes[0].body, 0);
}

// Real files: Drake's pendulum names the robot's materials; the Mini Cheetah
// names one ("darkgray") that it never defines.
TEST(UrdfVisuals, ThirdPartyFiles) {
  const auto pendulum = LoadUrdfFile(kModels + "/pendulum/Pendulum.urdf");
  ASSERT_TRUE(pendulum.ok()) << pendulum.status();
  ASSERT_EQ((*pendulum)->visual_shapes.size(), 3u);
  for (const VisualShape& v : (*pendulum)->visual_shapes) {
    EXPECT_TRUE(v.rgba.has_value()) << v.link;
  }
  EXPECT_EQ(*(*pendulum)->visual_shapes[0].rgba, (std::array<double, 4>{0.3, 0.6, 0.4, 1}));
  EXPECT_EQ(CountWarnings(**pendulum, "visual"), 0) << Warnings(**pendulum);

  const auto cheetah = LoadUrdfFile(kModels + "/mini_cheetah/mini_cheetah.urdf");
  ASSERT_TRUE(cheetah.ok()) << cheetah.status();
  EXPECT_EQ((*cheetah)->visual_shapes.size(), 17u);
  EXPECT_EQ(CountWarnings(**cheetah, "material 'darkgray' is not defined"), 4)
      << Warnings(**cheetah);
}

}  // namespace
}  // namespace moreau
