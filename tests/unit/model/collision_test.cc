// Whole-body collision (collision_geometry.h, LoadOptions::collision): which
// geometry becomes which contact slots, the per-link overrides and their
// errors, the mesh hull and its inertia-box fallback.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "engine/model/collision_geometry.h"
#include "engine/model/loader.h"

namespace moreau {
namespace {

namespace fs = std::filesystem;

// A floating trunk (box), a hip (cylinder along y), a calf (box and a mesh
// cube of half side 1 scaled by 0.05) with a foot sphere on a fixed joint, and
// a tail whose mesh file is missing (inertia-box fallback).
constexpr char kRobot[] = R"(<robot name="bot">
  <link name="trunk">
    <inertial><mass value="5"/><inertia ixx="0.02" iyy="0.07" izz="0.08" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><box size="0.4 0.2 0.1"/></geometry></collision>
  </link>
  <joint name="hip_joint" type="revolute"><parent link="trunk"/><child link="hip"/>
    <origin xyz="0.2 0 0"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="10" velocity="10"/></joint>
  <link name="hip">
    <inertial><mass value="0.5"/><inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><origin rpy="1.5707963267948966 0 0"/><geometry><cylinder radius="0.04" length="0.03"/></geometry></collision>
  </link>
  <joint name="knee" type="revolute"><parent link="hip"/><child link="calf"/>
    <origin xyz="0 0 -0.1"/><axis xyz="0 1 0"/><limit lower="-2" upper="2" effort="10" velocity="10"/></joint>
  <link name="calf">
    <inertial><origin xyz="0 0 -0.1"/><mass value="0.2"/><inertia ixx="0.001" iyy="0.001" izz="0.0001" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><origin xyz="0 0 -0.1"/><geometry><box size="0.02 0.02 0.2"/></geometry></collision>
    <collision><origin xyz="0 0 -0.05"/><geometry><mesh filename="meshes/cube.obj" scale="0.05 0.05 0.05"/></geometry></collision>
  </link>
  <joint name="ankle" type="fixed"><parent link="calf"/><child link="foot"/><origin xyz="0 0 -0.2"/></joint>
  <link name="foot">
    <inertial><mass value="0.05"/><inertia ixx="1e-5" iyy="1e-5" izz="1e-5" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><sphere radius="0.02"/></geometry></collision>
  </link>
  <joint name="tail_joint" type="revolute"><parent link="trunk"/><child link="tail"/>
    <origin xyz="-0.2 0 0"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="10" velocity="10"/></joint>
  <link name="tail">
    <inertial><origin xyz="-0.05 0 0"/><mass value="1.2"/><inertia ixx="0.0005" iyy="0.0029" izz="0.0026" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><mesh filename="package://bot/meshes/missing.stl"/></geometry></collision>
  </link>
</robot>)";

fs::path WriteRobot() {
  const fs::path dir =
      fs::temp_directory_path() / ("moreau_model_collision_test_" + std::to_string(getpid()));
  fs::create_directories(dir / "meshes");
  std::ofstream(dir / "robot.urdf") << kRobot;
  std::ofstream obj(dir / "meshes" / "cube.obj");
  for (int c = 0; c < 8; ++c) {
    obj << "v " << ((c & 1) ? 1 : -1) << ' ' << ((c & 2) ? 1 : -1) << ' ' << ((c & 4) ? 1 : -1)
        << '\n';
  }
  obj << "v 0 0 0\nv 0.5 0.2 -0.3\n";  // interior vertices: no slots
  return dir / "robot.urdf";
}

// Slots per geometry index.
std::map<int, int> SlotsPerGeom(const Model& m) {
  std::map<int, int> count;
  for (const ContactPoint& c : m.contact_points) ++count[c.geom];
  return count;
}

int GeomIndex(const Model& m, const std::string& link, GeomType type) {
  for (int g = 0; g < static_cast<int>(m.geoms.size()); ++g) {
    if (m.geoms[g].link == link && m.geoms[g].type == type) return g;
  }
  return -1;
}

TEST(ModelCollision, ModeNames) {
  EXPECT_STREQ(CollisionModeName(CollisionMode::kFeet), "feet");
  EXPECT_STREQ(CollisionModeName(CollisionMode::kAll), "all");
  EXPECT_EQ(*ParseCollisionMode("all"), CollisionMode::kAll);
  const auto bad = ParseCollisionMode("body");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("feet or all"), std::string::npos) << bad.status();
}

TEST(ModelCollision, FeetModeIsTheFootSpheresOnly) {
  const auto m = LoadUrdfFile(WriteRobot().string());
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_EQ((*m)->contact_points.size(), 1u);
  const ContactPoint& foot = (*m)->contact_points[0];
  EXPECT_EQ(foot.name, "foot");
  EXPECT_TRUE(foot.foot);
  EXPECT_EQ(foot.witness, ContactWitness::kFixed);
  EXPECT_EQ(foot.geom, GeomIndex(**m, "foot", GeomType::kSphere));
}

TEST(ModelCollision, AllModeShapesBecomeSlots) {
  LoadOptions options;
  options.collision = CollisionMode::kAll;
  const auto loaded = LoadUrdfFile(WriteRobot().string(), options);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  const Model& m = **loaded;
  // Feet first.
  ASSERT_GE(m.contact_points.size(), 1u);
  EXPECT_EQ(m.contact_points[0].name, "foot");
  EXPECT_TRUE(m.contact_points[0].foot);
  for (size_t k = 1; k < m.contact_points.size(); ++k) EXPECT_FALSE(m.contact_points[k].foot);
  const std::map<int, int> slots = SlotsPerGeom(m);
  EXPECT_EQ(slots.at(GeomIndex(m, "foot", GeomType::kSphere)), 1);
  EXPECT_EQ(slots.at(GeomIndex(m, "trunk", GeomType::kBox)), 8);
  EXPECT_EQ(slots.at(GeomIndex(m, "hip", GeomType::kCylinder)), 8);
  EXPECT_EQ(slots.at(GeomIndex(m, "calf", GeomType::kBox)), 8);
  EXPECT_EQ(slots.at(GeomIndex(m, "calf", GeomType::kMesh)), 8);  // the cube's corners
  EXPECT_EQ(slots.at(GeomIndex(m, "tail", GeomType::kMesh)), 8);  // its inertia box
  EXPECT_EQ(m.contact_points.size(), 41u);

  for (const ContactPoint& c : m.contact_points) {
    const Geom& g = m.geoms[c.geom];
    if (g.type == GeomType::kBox && g.link == "trunk") {
      EXPECT_EQ(c.witness, ContactWitness::kFixed);
      EXPECT_EQ(c.radius, 0.0);
      EXPECT_TRUE(c.position.cwiseAbs().isApprox(Vec3(0.2, 0.1, 0.05), 1e-12)) << c.name;
    }
    if (g.type == GeomType::kCylinder) {
      // Rims at ±length/2 along the axis (URDF z turned onto −y).
      EXPECT_EQ(c.witness, ContactWitness::kRim);
      EXPECT_DOUBLE_EQ(c.radius, 0.04);
      EXPECT_TRUE(c.axis.isApprox(Vec3(0, -1, 0), 1e-9)) << c.axis.transpose();
      EXPECT_NEAR(std::abs(c.position.y()), 0.015, 1e-9);
    }
    if (g.type == GeomType::kMesh && g.link == "calf") {
      // Hull of the scaled cube, at the geom origin (0, 0, −0.05).
      EXPECT_EQ(c.witness, ContactWitness::kFixed);
      EXPECT_TRUE((c.position - Vec3(0, 0, -0.05)).cwiseAbs().isApprox(Vec3::Constant(0.05), 1e-9))
          << c.name << ": " << c.position.transpose();
    }
  }
  // The rims' four slots each: angles 0, 90, 180, 270°.
  int rim_quarters[4] = {0, 0, 0, 0};
  for (const ContactPoint& c : m.contact_points) {
    if (c.witness == ContactWitness::kRim) {
      ++rim_quarters[static_cast<int>(std::lround(c.angle / (0.5 * M_PI)))];
    }
  }
  for (int q : rim_quarters) EXPECT_EQ(q, 2);
  // The missing mesh: a warning naming it and the fallback.
  const bool warned = std::any_of(m.warnings.begin(), m.warnings.end(), [](const std::string& w) {
    return w.find("missing.stl") != std::string::npos && w.find("inertia box") != std::string::npos;
  });
  EXPECT_TRUE(warned);
}

TEST(ModelCollision, InertiaBoxMatchesAUniformBox) {
  // A 0.3 × 0.2 × 0.1 box of 2 kg: I = m (b² + c²)/12 …
  const double m = 2.0, a = 0.3, b = 0.2, c = 0.1;
  const Mat3 I = Vec3(m * (b * b + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + b * b) / 12)
                     .asDiagonal();
  const auto box = model_internal::InertiaBox(Inertia::FromMassComInertia(m, Vec3(0.1, 0, 0), I));
  ASSERT_TRUE(box.has_value());
  // Sides in the eigenvalue order (ascending moments: x, y, z).
  EXPECT_NEAR(box->size.x(), a, 1e-12);
  EXPECT_NEAR(box->size.y(), b, 1e-12);
  EXPECT_NEAR(box->size.z(), c, 1e-12);
  EXPECT_TRUE(box->position.isApprox(Vec3(0.1, 0, 0)));
  EXPECT_NEAR(box->rotation.determinant(), 1.0, 1e-12);
  EXPECT_FALSE(model_internal::InertiaBox(Inertia::Zero()).has_value());
}

TEST(ModelCollision, OverridesAddAndRemoveLinks) {
  const std::string path = WriteRobot().string();
  LoadOptions feet_plus_trunk;
  feet_plus_trunk.collide_links = {"trunk"};
  const auto a = LoadUrdfFile(path, feet_plus_trunk);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ((*a)->contact_points.size(), 1u + 8u);
  LoadOptions all_but_tail_and_foot;
  all_but_tail_and_foot.collision = CollisionMode::kAll;
  all_but_tail_and_foot.exclude_links = {"tail", "foot"};
  const auto b = LoadUrdfFile(path, all_but_tail_and_foot);
  ASSERT_TRUE(b.ok()) << b.status();
  // The foot stays a foot; the tail has no slots (and no fallback warning).
  EXPECT_EQ((*b)->contact_points.size(), 41u - 8u);
  EXPECT_TRUE((*b)->contact_points[0].foot);
}

TEST(ModelCollision, UnknownOrContradictoryLinksAreErrors) {
  const std::string path = WriteRobot().string();
  LoadOptions unknown;
  unknown.collide_links = {"wing"};
  const auto a = LoadUrdfFile(path, unknown);
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.status().message().find("collide link 'wing' is not a link"), std::string::npos)
      << a.status();
  LoadOptions unknown_exclude;
  unknown_exclude.exclude_links = {"fin"};
  const auto b = LoadUrdfFile(path, unknown_exclude);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("exclude link 'fin'"), std::string::npos) << b.status();
  LoadOptions both;
  both.collide_links = {"hip"};
  both.exclude_links = {"hip"};
  const auto c = LoadUrdfFile(path, both);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("'hip' is both"), std::string::npos) << c.status();
}

TEST(ModelCollision, DefaultHeightKeepsEverySlotAboveGround) {
  LoadOptions options;
  options.collision = CollisionMode::kAll;
  const auto m = LoadUrdfFile(WriteRobot().string(), options);
  ASSERT_TRUE(m.ok()) << m.status();
  // At q = 0 the foot bottom is lowest (0.1 + 0.2 + 0.02 below the trunk).
  EXPECT_NEAR((*m)->default_base_height, 0.32, 1e-12);
}

TEST(ModelCollision, LowestPointOfARim) {
  ContactPoint rim;
  rim.witness = ContactWitness::kRim;
  rim.radius = 0.1;
  rim.axis = Vec3::UnitY();
  rim.position = Vec3(0, 0, 1);
  EXPECT_NEAR(model_internal::LowestPointHeight(rim, Mat3::Identity(), Vec3::Zero()), 0.9, 1e-12);
  rim.axis = Vec3::UnitZ();  // lying flat: the circle is level with its centre
  EXPECT_NEAR(model_internal::LowestPointHeight(rim, Mat3::Identity(), Vec3::Zero()), 1.0, 1e-12);
}

TEST(ModelCollision, QuadrupedsInAllMode) {
  LoadOptions options;
  options.collision = CollisionMode::kAll;
  const auto a1 = LoadUrdfFile(std::string(MOREAU_MODELS_DIR) + "/unitree_a1/a1.urdf", options);
  ASSERT_TRUE(a1.ok()) << a1.status();
  int feet = 0;
  for (const ContactPoint& c : (*a1)->contact_points) feet += c.foot ? 1 : 0;
  EXPECT_EQ(feet, 4);
  EXPECT_GT((*a1)->contact_points.size(), 40u);
  // The Mini Cheetah's meshes are not shipped: every mesh link falls back to
  // its inertia box, with a warning.
  const auto mc = LoadBuiltin("mini_cheetah", options);
  ASSERT_TRUE(mc.ok()) << mc.status();
  feet = 0;
  for (const ContactPoint& c : (*mc)->contact_points) feet += c.foot ? 1 : 0;
  EXPECT_EQ(feet, 4);
  const int fallbacks = static_cast<int>(std::count_if(
      (*mc)->warnings.begin(), (*mc)->warnings.end(),
      [](const std::string& w) { return w.find("inertia box") != std::string::npos; }));
  EXPECT_GE(fallbacks, 1);
  const auto feet_only = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(feet_only.ok());
  EXPECT_EQ((*feet_only)->contact_points.size(), 4u);
}

}  // namespace
}  // namespace moreau
