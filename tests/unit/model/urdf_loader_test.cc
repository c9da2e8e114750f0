// LoadUrdfString / LoadUrdfFile on the third-party URDFs in models/ and on small
// hand-written ones: structure, totals against an independent reading of the
// files, fixed-joint merging, base modes, contact points, limits, defaults.
#include <gtest/gtest.h>
#include <tinyxml.h>

#include <Eigen/Geometry>
#include <cctype>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "engine/model/loader.h"
#include "engine/model/model.h"

namespace moreau {
namespace {

const std::string kModels = MOREAU_MODELS_DIR;

std::shared_ptr<const Model> Load(const std::string& relative_path,
                                  const LoadOptions& options = {}) {
  auto model = LoadUrdfFile(kModels + "/" + relative_path, options);
  EXPECT_TRUE(model.ok()) << model.status();
  return model.ok() ? *model : nullptr;
}

LoadOptions Base(BaseMode base) {
  LoadOptions options;
  options.base = base;
  return options;
}

LoadOptions Contacts(std::vector<std::string> links) {
  LoadOptions options;
  options.contact_links = std::move(links);
  return options;
}

std::shared_ptr<const Model> LoadText(const std::string& xml, const LoadOptions& options = {}) {
  auto model = LoadUrdfString(xml, options);
  EXPECT_TRUE(model.ok()) << model.status();
  return model.ok() ? *model : nullptr;
}

// ---------------------------------------------------------------------------
// Reference totals, read with TinyXML straight from the URDF text (no urdfdom,
// no Moreau code): mass, centre of mass and rotational inertia about the root
// link's origin, everything at q = 0 in the root link's frame.

struct Totals {
  double mass = 0.0;
  Vec3 com = Vec3::Zero();
  Mat3 inertia = Mat3::Zero();  // about the root frame's origin
};

Vec3 ParseVec(const TiXmlElement* e, const char* attribute) {
  Vec3 v = Vec3::Zero();
  const char* text = e != nullptr ? e->Attribute(attribute) : nullptr;
  if (text != nullptr) std::istringstream(text) >> v.x() >> v.y() >> v.z();
  return v;
}

double ParseDouble(const TiXmlElement* e, const char* attribute) {
  const char* text = e != nullptr ? e->Attribute(attribute) : nullptr;
  return text != nullptr ? std::stod(text) : 0.0;
}

// URDF rpy: fixed-axis roll about x, then pitch about y, then yaw about z.
Mat3 Rpy(const Vec3& rpy) {
  return (Eigen::AngleAxisd(rpy.z(), Vec3::UnitZ()) * Eigen::AngleAxisd(rpy.y(), Vec3::UnitY()) *
          Eigen::AngleAxisd(rpy.x(), Vec3::UnitX()))
      .toRotationMatrix();
}

struct Frame {
  Mat3 R = Mat3::Identity();
  Vec3 p = Vec3::Zero();
};

Totals ReferenceTotals(const std::string& xml) {
  TiXmlDocument doc;
  doc.Parse(xml.c_str());
  const TiXmlElement* robot = doc.RootElement();
  std::map<std::string, std::pair<std::string, Frame>> parent_of;  // child → (parent, origin)
  for (const TiXmlElement* j = robot->FirstChildElement("joint"); j != nullptr;
       j = j->NextSiblingElement("joint")) {
    const TiXmlElement* origin = j->FirstChildElement("origin");
    Frame f{Rpy(ParseVec(origin, "rpy")), ParseVec(origin, "xyz")};
    parent_of[j->FirstChildElement("child")->Attribute("link")] = {
        j->FirstChildElement("parent")->Attribute("link"), f};
  }
  auto frame_of = [&](std::string link) {
    Frame f;
    for (auto it = parent_of.find(link); it != parent_of.end(); it = parent_of.find(link)) {
      const Frame& o = it->second.second;  // link in its parent
      f = {o.R * f.R, o.R * f.p + o.p};
      link = it->second.first;
    }
    return f;
  };
  Totals t;
  Vec3 first_moment = Vec3::Zero();
  for (const TiXmlElement* l = robot->FirstChildElement("link"); l != nullptr;
       l = l->NextSiblingElement("link")) {
    const TiXmlElement* inertial = l->FirstChildElement("inertial");
    if (inertial == nullptr) continue;
    const Frame link = frame_of(l->Attribute("name"));
    const TiXmlElement* origin = inertial->FirstChildElement("origin");
    const TiXmlElement* in = inertial->FirstChildElement("inertia");
    const double m = ParseDouble(inertial->FirstChildElement("mass"), "value");
    Mat3 I;
    I << ParseDouble(in, "ixx"), ParseDouble(in, "ixy"), ParseDouble(in, "ixz"),
        ParseDouble(in, "ixy"), ParseDouble(in, "iyy"), ParseDouble(in, "iyz"),
        ParseDouble(in, "ixz"), ParseDouble(in, "iyz"), ParseDouble(in, "izz");
    const Mat3 R = link.R * Rpy(ParseVec(origin, "rpy"));
    const Vec3 c = link.R * ParseVec(origin, "xyz") + link.p;
    t.mass += m;
    first_moment += m * c;
    // Parallel axis: I_o = R I_c Rᵀ + m (|c|² 1 − c cᵀ).
    t.inertia +=
        R * I * R.transpose() + m * (c.squaredNorm() * Mat3::Identity() - c * c.transpose());
  }
  t.com = t.mass > 0 ? Vec3(first_moment / t.mass) : Vec3::Zero();
  return t;
}

// The same totals from the Model, at q = 0 (a floating base at the origin).
Totals ModelTotals(const Model& m) {
  std::vector<Transform> body_X_world(m.nbodies);
  Inertia total = m.inertia[0];
  for (int i = 1; i < m.nbodies; ++i) {
    body_X_world[i] = m.X_tree[i] * body_X_world[m.parent[i]];
    total += m.inertia[i].ExpressedInParent(body_X_world[i]);
  }
  return {total.mass, total.CenterOfMass(), total.Ibar};
}

std::string ReadFile(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// ---------------------------------------------------------------------------

struct Expected {
  std::string file;
  BaseMode base;
  bool floating;
  int nq, nv, nbodies;
  double mass;  // models/README.md
  int contacts;
};

void PrintTo(const Expected& e, std::ostream* os) { *os << e.file; }

class ModelFileTest : public testing::TestWithParam<Expected> {};

TEST_P(ModelFileTest, LoadsWithExpectedStructureAndTotals) {
  const Expected& e = GetParam();
  LoadOptions options;
  options.base = e.base;
  const auto model = Load(e.file, options);
  ASSERT_NE(model, nullptr);
  const Model& m = *model;
  EXPECT_EQ(m.floating_base, e.floating);
  EXPECT_EQ(m.nq, e.nq);
  EXPECT_EQ(m.nv, e.nv);
  EXPECT_EQ(m.nbodies, e.nbodies);
  EXPECT_EQ(static_cast<int>(m.contact_points.size()), e.contacts);
  EXPECT_NEAR(m.TotalMass(), e.mass, 1e-9);

  // Per-body arrays, topological order, coordinates in body order.
  ASSERT_EQ(static_cast<int>(m.body_names.size()), m.nbodies);
  for (const auto* size : {&m.parent, &m.body_joint, &m.q_index, &m.v_index}) {
    EXPECT_EQ(static_cast<int>(size->size()), m.nbodies);
  }
  EXPECT_EQ(static_cast<int>(m.X_tree.size()), m.nbodies);
  EXPECT_EQ(static_cast<int>(m.inertia.size()), m.nbodies);
  EXPECT_EQ(static_cast<int>(m.merged_links.size()), m.nbodies);
  EXPECT_EQ(m.body_names[0], "world");
  EXPECT_EQ(m.parent[0], -1);
  EXPECT_EQ(static_cast<int>(m.joints.size()), m.nbodies - 1);
  int q = 0, v = 0;
  for (int i = 1; i < m.nbodies; ++i) {
    EXPECT_LT(m.parent[i], i);
    const Joint& joint = m.joints[m.body_joint[i]];
    EXPECT_EQ(joint.body, i);
    EXPECT_EQ(m.q_index[i], q);
    EXPECT_EQ(m.v_index[i], v);
    EXPECT_EQ(joint.q_index, q);
    EXPECT_EQ(joint.v_index, v);
    EXPECT_EQ(m.joint_type[i], joint.type);
    if (joint.type != JointType::kFree) {
      EXPECT_NEAR(m.joint_axis[i].norm(), 1.0, 1e-12);
    }
    q += joint.nq;
    v += joint.nv;
  }
  EXPECT_EQ(q, m.nq);
  EXPECT_EQ(v, m.nv);
  EXPECT_EQ(m.q_default.size(), m.nq);

  // Totals against an independent reading of the file.
  const Totals expected = ReferenceTotals(ReadFile(kModels + "/" + e.file));
  const Totals actual = ModelTotals(m);
  EXPECT_NEAR(actual.mass, expected.mass, 1e-12);
  EXPECT_TRUE(actual.com.isApprox(expected.com, 1e-9) || (actual.com - expected.com).norm() < 1e-12)
      << actual.com.transpose() << " vs " << expected.com.transpose();
  EXPECT_TRUE(actual.inertia.isApprox(expected.inertia, 1e-9)) << actual.inertia << "\nvs\n"
                                                               << expected.inertia;
}

INSTANTIATE_TEST_SUITE_P(
    ModelFiles, ModelFileTest,
    testing::Values(
        Expected{"mini_cheetah/mini_cheetah.urdf", BaseMode::kAuto, true, 19, 18, 14, 8.852, 4},
        Expected{"unitree_a1/a1.urdf", BaseMode::kAuto, true, 19, 18, 14, 13.741, 4},
        Expected{"ur10/ur10_robot.urdf", BaseMode::kFixed, false, 6, 6, 7, 32.7, 0},
        Expected{"pendulum/Pendulum.urdf", BaseMode::kAuto, false, 1, 1, 2, 2.01, 1},
        Expected{"double_pendulum/double_pendulum.urdf", BaseMode::kFixed, false, 2, 2, 3, 3.0, 0},
        Expected{"acrobot/acrobot.urdf", BaseMode::kAuto, false, 2, 2, 3, 2.0, 0},
        Expected{"cartpole/cartpole.urdf", BaseMode::kFixed, false, 2, 2, 3, 1.1, 0},
        Expected{"sphere/sphere2.urdf", BaseMode::kAuto, true, 7, 6, 2, 10.0, 1},
        Expected{"box/box.urdf", BaseMode::kAuto, true, 7, 6, 2, 1.0, 8},
        Expected{"box/cube.urdf", BaseMode::kAuto, true, 7, 6, 2, 1.0, 8}),
    [](const testing::TestParamInfo<Expected>& info) {
      std::string name = info.param.file.substr(info.param.file.find('/') + 1);
      for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return name;
    });

TEST(UrdfLoader, MiniCheetah) {
  const auto m = Load("mini_cheetah/mini_cheetah.urdf");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->name, "mini_cheetah");
  EXPECT_EQ(m->body_names[1], "body");
  EXPECT_EQ(m->joints[0].name, "floating_base");
  EXPECT_EQ(m->joints[0].type, JointType::kFree);
  EXPECT_EQ(m->joints[0].nq, 7);
  EXPECT_EQ(m->joints[0].nv, 6);
  EXPECT_EQ(m->nu(), 12);
  for (const Joint& j : m->joints) {
    if (j.type == JointType::kFree) continue;
    EXPECT_TRUE(j.continuous) << j.name;
    EXPECT_STREQ(JointTypeName(j), "continuous");
    EXPECT_FALSE(j.limits.has_position_limits);
  }
  const std::vector<std::string> toes = {"toe_fr", "toe_fl", "toe_hr", "toe_hl"};
  const std::vector<std::string> shanks = {"shank_fr", "shank_fl", "shank_hr", "shank_hl"};
  ASSERT_EQ(m->contact_points.size(), 4u);
  for (int k = 0; k < 4; ++k) {
    const ContactPoint& c = m->contact_points[k];
    EXPECT_EQ(c.name, toes[k]);
    EXPECT_EQ(m->body_names[c.body], shanks[k]);
    EXPECT_EQ(m->merged_links[c.body], std::vector<std::string>{toes[k]});
    EXPECT_DOUBLE_EQ(c.radius, 0.015);
    EXPECT_TRUE(c.position.isApprox(Vec3(0, 0, -0.18)));
  }
  // Legs straight at q = 0: toe centres 0.209 + 0.18 m below the hips.
  EXPECT_NEAR(m->default_base_height, 0.209 + 0.18 + 0.015, 1e-12);
  EXPECT_NEAR(m->q_default(2), m->default_base_height, 0);
  EXPECT_EQ(m->q_default(3), 1.0);
  // The four thigh tensors violate the triangle inequality (README.md).
  int triangle_warnings = 0;
  for (const std::string& w : m->warnings) {
    if (w.find("triangle") != std::string::npos) ++triangle_warnings;
  }
  EXPECT_EQ(triangle_warnings, 4);
}

TEST(UrdfLoader, UnitreeA1) {
  const auto m = Load("unitree_a1/a1.urdf");
  ASSERT_NE(m, nullptr);
  // "base" (no inertial) is the root; trunk and the IMU are welded to it.
  EXPECT_EQ(m->body_names[1], "base");
  EXPECT_EQ(m->merged_links[1], (std::vector<std::string>{"trunk", "imu_link"}));
  EXPECT_EQ(m->BodyIndex("trunk"), 1);
  EXPECT_NEAR(m->inertia[1].mass, 6.001, 1e-12);
  ASSERT_EQ(m->contact_points.size(), 4u);
  for (const ContactPoint& c : m->contact_points) {
    EXPECT_DOUBLE_EQ(c.radius,
                     0.02);  // the collision sphere, not the 0.01 visual
    EXPECT_EQ(c.name.substr(3), "foot");
  }
  EXPECT_NEAR(m->default_base_height, 0.42, 1e-12);
  // Limits, damping and friction.
  const Joint& thigh = m->joints[m->JointIndex("FR_thigh_joint")];
  EXPECT_TRUE(thigh.limits.has_position_limits);
  EXPECT_DOUBLE_EQ(thigh.limits.lower, -1.0471975512);
  EXPECT_DOUBLE_EQ(thigh.limits.upper, 4.18879020479);
  EXPECT_DOUBLE_EQ(thigh.limits.velocity, 21);
  EXPECT_DOUBLE_EQ(thigh.limits.effort, 33.5);
  EXPECT_DOUBLE_EQ(thigh.damping, 0.01);
  EXPECT_DOUBLE_EQ(thigh.friction, 0.2);
  ASSERT_EQ(m->nu(), 12);
  EXPECT_EQ(m->actuators[1].name, "FR_thigh_joint");
  EXPECT_EQ(m->actuators[1].joint, m->JointIndex("FR_thigh_joint"));
  EXPECT_DOUBLE_EQ(m->actuators[1].effort_limit, 33.5);
  EXPECT_DOUBLE_EQ(m->actuators[1].gear, 1.0);
  EXPECT_TRUE(m->warnings.empty()) << m->warnings.front();
}

TEST(UrdfLoader, Ur10RecordsMeshesAndIsFixedByItsWorldLink) {
  const auto m = Load("ur10/ur10_robot.urdf");  // kAuto: root "world" → fixed
  ASSERT_NE(m, nullptr);
  EXPECT_FALSE(m->floating_base);
  EXPECT_EQ(m->nv, 6);
  EXPECT_NEAR(m->inertia[0].mass, 4.0,
              1e-12);  // base_link is welded to the world
  int meshes = 0;
  for (const Geom& g : m->geoms) {
    if (g.type != GeomType::kMesh) continue;
    ++meshes;
    EXPECT_NE(g.mesh.find("package://"), std::string::npos);
    EXPECT_EQ(g.size, Vec3::Ones());  // default scale
  }
  EXPECT_EQ(meshes, 7);
  EXPECT_DOUBLE_EQ(m->joints[m->JointIndex("elbow_joint")].limits.effort, 150.0);
}

TEST(UrdfLoader, AcrobotImplicitWorldAndLenientLimits) {
  const auto m = Load("acrobot/acrobot.urdf");
  ASSERT_NE(m, nullptr);
  EXPECT_FALSE(m->floating_base);
  EXPECT_EQ(m->JointNames(), (std::vector<std::string>{"ShoulderJoint", "ElbowJoint"}));
  // <limit effort="0"/> and no <limit> at all: no limits, unlimited effort.
  for (const Joint& j : m->joints) {
    EXPECT_EQ(j.type, JointType::kRevolute);
    EXPECT_FALSE(j.continuous);
    EXPECT_FALSE(j.limits.has_position_limits);
    EXPECT_TRUE(std::isinf(j.limits.effort));
    EXPECT_TRUE(std::isinf(j.limits.velocity));
    EXPECT_DOUBLE_EQ(j.damping, 0.1);
  }
  EXPECT_TRUE(m->X_tree[1].r.isApprox(Vec3(0, 0.15, 0)));
  EXPECT_TRUE(m->X_tree[2].r.isApprox(Vec3(0, 0.15, -1)));
  EXPECT_TRUE(m->inertia[1].CenterOfMass().isApprox(Vec3(0, 0, -0.5)));
}

TEST(UrdfLoader, PendulumWarnsAboutPointMassesWithoutFailing) {
  const auto m = Load("pendulum/Pendulum.urdf");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->merged_links[0], std::vector<std::string>{"base"});
  EXPECT_NEAR(m->inertia[0].mass, 1.01, 1e-12);  // world's dummy 0.01 kg + base
  EXPECT_EQ(m->merged_links[1], std::vector<std::string>{"arm_com"});
  EXPECT_TRUE(m->X_tree[1].r.isApprox(Vec3(0, 0, 1)));
  EXPECT_DOUBLE_EQ(m->joints[0].damping, 0.1);
  for (const std::string link : {"arm", "arm_com", "base"}) {
    bool warned = false;
    for (const std::string& w : m->warnings) {
      warned |= w.find("'" + link + "'") != std::string::npos &&
                w.find("not positive definite") != std::string::npos;
    }
    EXPECT_TRUE(warned) << link;
  }
}

// ---------------------------------------------------------------------------
// Fixed-joint merging, checked against hand-computed values.

constexpr char kMerged[] = R"(<robot name="merged">
  <link name="base">
    <inertial>
      <mass value="2"/>
      <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.2" iyz="0" izz="0.3"/>
    </inertial>
  </link>
  <joint name="weld" type="fixed">
    <parent link="base"/>
    <child link="tool"/>
    <origin xyz="1 0 0" rpy="0 0 1.5707963267948966"/>
  </joint>
  <link name="tool">
    <inertial>
      <origin xyz="0 0.5 0"/>
      <mass value="1"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.03"/>
    </inertial>
    <collision>
      <origin xyz="0 0.5 0"/>
      <geometry><sphere radius="0.1"/></geometry>
    </collision>
  </link>
</robot>)";

TEST(UrdfLoader, FixedChildIsMergedIntoItsParent) {
  const auto m = LoadText(kMerged);
  ASSERT_NE(m, nullptr);
  ASSERT_EQ(m->nbodies, 2);
  EXPECT_EQ(m->merged_links[1], std::vector<std::string>{"tool"});
  ASSERT_EQ(m->merged_link_origins[1].size(), 1u);
  EXPECT_EQ(m->merged_link_origins[1][0], Vec3(1, 0, 0));
  // Tool frame: rotated 90° about z, at (1, 0, 0); its COM (0, 0.5, 0) is at
  // (0.5, 0, 0) in the base frame, its tensor becomes diag(0.02, 0.01, 0.03),
  // and the parallel-axis term m (|c|² 1 − c cᵀ) adds diag(0, 0.25, 0.25).
  const Inertia& I = m->inertia[1];
  EXPECT_DOUBLE_EQ(I.mass, 3.0);
  EXPECT_TRUE(I.h.isApprox(Vec3(0.5, 0, 0), 1e-12)) << I.h.transpose();
  const Mat3 expected = Vec3(0.1 + 0.02, 0.2 + 0.01 + 0.25, 0.3 + 0.03 + 0.25).asDiagonal();
  EXPECT_TRUE(I.Ibar.isApprox(expected, 1e-12)) << I.Ibar;
  // The geom and the contact point move to the base frame too.
  ASSERT_EQ(m->geoms.size(), 1u);
  EXPECT_EQ(m->geoms[0].body, 1);
  EXPECT_EQ(m->geoms[0].link, "tool");
  EXPECT_TRUE(m->geoms[0].position.isApprox(Vec3(0.5, 0, 0), 1e-12));
  EXPECT_TRUE(m->geoms[0].rotation.isApprox(
      Eigen::AngleAxisd(M_PI / 2, Vec3::UnitZ()).toRotationMatrix(), 1e-12));
  ASSERT_EQ(m->contact_points.size(), 1u);
  EXPECT_EQ(m->contact_points[0].name, "tool");
  EXPECT_EQ(m->contact_points[0].body, 1);
  EXPECT_TRUE(m->contact_points[0].position.isApprox(Vec3(0.5, 0, 0), 1e-12));
  EXPECT_NEAR(m->default_base_height, 0.1, 1e-12);  // sphere centre at z = 0
}

TEST(UrdfLoader, InertialRpyRotatesTheTensor) {
  const auto m = LoadText(R"(<robot name="r"><link name="a"><inertial>
      <origin xyz="0 0 0" rpy="1.5707963267948966 0 0"/>
      <mass value="1"/>
      <inertia ixx="1" ixy="0" ixz="0" iyy="2" iyz="0" izz="3"/>
    </inertial></link></robot>)");
  ASSERT_NE(m, nullptr);
  // I_link = R I Rᵀ with R a quarter turn about x: y and z swap.
  EXPECT_TRUE(m->inertia[1].Ibar.isApprox(Vec3(1, 3, 2).asDiagonal().toDenseMatrix(), 1e-12))
      << m->inertia[1].Ibar;
}

TEST(UrdfLoader, FixedJointsBetweenMovingBodiesComposeIntoXTree) {
  const auto m = LoadText(R"(<robot name="r">
    <link name="base"><inertial><mass value="1"/>
      <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
    <link name="a"><inertial><mass value="1"/>
      <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
    <link name="b"/>
    <link name="c"><inertial><mass value="1"/>
      <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
    <joint name="j1" type="revolute">
      <parent link="base"/><child link="a"/><origin xyz="0 0 1"/><axis xyz="0 0 2"/>
      <limit lower="-1" upper="1" effort="5" velocity="3"/>
    </joint>
    <joint name="f" type="fixed">
      <parent link="a"/><child link="b"/><origin xyz="0 1 0" rpy="0 0 1.5707963267948966"/>
    </joint>
    <joint name="j2" type="prismatic">
      <parent link="b"/><child link="c"/><origin xyz="1 0 0"/><axis xyz="0 1 0"/>
      <limit lower="0" upper="0.5" effort="10" velocity="1"/>
    </joint>
  </robot>)",
                          Base(BaseMode::kFixed));
  ASSERT_NE(m, nullptr);
  ASSERT_EQ(m->nbodies, 3);
  EXPECT_EQ(m->body_names, (std::vector<std::string>{"world", "a", "c"}));
  EXPECT_EQ(m->merged_links[0], std::vector<std::string>{"base"});
  EXPECT_EQ(m->merged_links[1], std::vector<std::string>{"b"});
  EXPECT_TRUE(m->joint_axis[1].isApprox(Vec3::UnitZ()));  // normalized
  // c in a: (Rz(90°), (0, 1, 0)) ∘ (1, (1, 0, 0)) = (Rz(90°), (0, 2, 0)).
  const Mat3 Rz = Eigen::AngleAxisd(M_PI / 2, Vec3::UnitZ()).toRotationMatrix();
  EXPECT_TRUE(m->X_tree[2].Rotation().isApprox(Rz, 1e-12));
  EXPECT_TRUE(m->X_tree[2].Translation().isApprox(Vec3(0, 2, 0), 1e-12));
  EXPECT_TRUE(m->X_tree[1].Translation().isApprox(Vec3(0, 0, 1), 1e-12));
  const Joint& j2 = m->joints[1];
  EXPECT_EQ(j2.type, JointType::kPrismatic);
  EXPECT_STREQ(JointTypeName(j2), "prismatic");
  EXPECT_TRUE(j2.limits.has_position_limits);
  EXPECT_EQ(j2.limits.lower, 0.0);
  EXPECT_EQ(j2.limits.upper, 0.5);
  EXPECT_EQ(m->nu(), 2);
  EXPECT_EQ(m->actuators[1].effort_limit, 10.0);
  EXPECT_EQ(m->q_default, Eigen::VectorXd::Zero(2));
}

// ---------------------------------------------------------------------------
// Base modes.

TEST(UrdfLoader, BaseModeOverrides) {
  // A floating robot welded to the world: everything above the first joints
  // lands in body 0.
  const auto a1_fixed = Load("unitree_a1/a1.urdf", Base(BaseMode::kFixed));
  ASSERT_NE(a1_fixed, nullptr);
  EXPECT_FALSE(a1_fixed->floating_base);
  EXPECT_EQ(a1_fixed->nv, 12);
  EXPECT_EQ(a1_fixed->nq, 12);
  EXPECT_EQ(a1_fixed->merged_links[0], (std::vector<std::string>{"base", "trunk", "imu_link"}));
  EXPECT_NEAR(a1_fixed->inertia[0].mass, 6.001, 1e-12);
  EXPECT_NEAR(a1_fixed->TotalMass(), 13.741, 1e-9);
  EXPECT_EQ(a1_fixed->default_base_height, 0.0);

  // A fixed robot set free: "world" is dropped, its single child floats.
  const auto ur10_free = Load("ur10/ur10_robot.urdf", Base(BaseMode::kFloating));
  ASSERT_NE(ur10_free, nullptr);
  EXPECT_TRUE(ur10_free->floating_base);
  EXPECT_EQ(ur10_free->nv, 12);
  EXPECT_EQ(ur10_free->nq, 13);
  EXPECT_EQ(ur10_free->body_names[1], "base_link");
  EXPECT_EQ(ur10_free->JointNames().front(), "floating_base");
  EXPECT_NEAR(ur10_free->TotalMass(), 32.7, 1e-9);

  const auto pendulum_free = Load("pendulum/Pendulum.urdf", Base(BaseMode::kFloating));
  ASSERT_NE(pendulum_free, nullptr);
  EXPECT_EQ(pendulum_free->nv, 7);
  EXPECT_EQ(pendulum_free->body_names[1], "base");
  EXPECT_NEAR(pendulum_free->inertia[0].mass, 0.01,
              1e-12);  // the world link stays
  EXPECT_NEAR(pendulum_free->TotalMass(), 2.01, 1e-12);

  const auto dp_auto = Load("double_pendulum/double_pendulum.urdf");
  ASSERT_NE(dp_auto, nullptr);
  EXPECT_TRUE(dp_auto->floating_base);  // root "base", not "world"
  EXPECT_EQ(dp_auto->nv, 8);
}

TEST(UrdfLoader, FloatingAWorldWithSeveralChildrenFails) {
  const auto model = LoadUrdfString(R"(<robot name="r">
    <link name="world"/>
    <link name="a"><inertial><mass value="1"/>
      <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
    <link name="b"><inertial><mass value="1"/>
      <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
    <joint name="wa" type="fixed"><parent link="world"/><child link="a"/></joint>
    <joint name="wb" type="fixed"><parent link="world"/><child link="b"/></joint>
  </robot>)",
                                    Base(BaseMode::kFloating));
  ASSERT_FALSE(model.ok());
  EXPECT_EQ(model.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(model.status().message().find("'world' has 2 child joints (exactly one"),
            std::string::npos)
      << model.status();
}

// ---------------------------------------------------------------------------
// Contact points.

TEST(UrdfLoader, ContactLinksOverrideTheDefault) {
  const auto m = Load("unitree_a1/a1.urdf", Contacts({"RL_foot", "FR_foot"}));
  ASSERT_NE(m, nullptr);
  ASSERT_EQ(m->contact_points.size(), 2u);
  EXPECT_EQ(m->contact_points[0].name, "RL_foot");
  EXPECT_EQ(m->contact_points[1].name, "FR_foot");
  EXPECT_EQ(m->body_names[m->contact_points[1].body], "FR_calf");

  // Contacts on a non-leaf link.
  const auto cheetah = Load("mini_cheetah/mini_cheetah.urdf", Contacts({"toe_fr"}));
  ASSERT_NE(cheetah, nullptr);
  EXPECT_EQ(cheetah->contact_points.size(), 1u);

  for (const auto& [links, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"FR_foot", "nope"}, "contact link 'nope' is not a link"},
           {{"FR_hip"}, "contact link 'FR_hip' has no sphere or box collision"}}) {
    const auto bad = LoadUrdfFile(kModels + "/unitree_a1/a1.urdf", Contacts(links));
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(bad.status().message().find(message), std::string::npos) << bad.status();
  }
}

TEST(UrdfLoader, SeveralSpheresOnALeafAreNumbered) {
  const auto m = LoadText(R"(<robot name="r"><link name="foot">
    <inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
    <collision><origin xyz="0 0 -0.1"/><geometry><sphere radius="0.05"/></geometry></collision>
    <collision><geometry><box size="1 1 1"/></geometry></collision>
    <collision><origin xyz="0 0 -0.3"/><geometry><sphere radius="0.02"/></geometry></collision>
  </link></robot>)");
  ASSERT_NE(m, nullptr);
  ASSERT_EQ(m->contact_points.size(), 2u);
  EXPECT_EQ(m->contact_points[0].name, "foot_0");
  EXPECT_EQ(m->contact_points[1].name, "foot_1");
  EXPECT_DOUBLE_EQ(m->contact_points[1].radius, 0.02);
  EXPECT_NEAR(m->default_base_height, 0.32,
              1e-12);  // the lower sphere touches z = 0
  EXPECT_EQ(m->geoms.size(), 3u);
  EXPECT_EQ(m->geoms[1].type, GeomType::kBox);
  EXPECT_EQ(m->geoms[1].size, Vec3::Ones());
}

TEST(UrdfLoader, LoadUrdfFileErrorsNameThePath) {
  const auto missing = LoadUrdfFile("/nonexistent/robot.urdf");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("/nonexistent/robot.urdf"), std::string::npos);

  const auto directory = LoadUrdfFile(kModels);
  ASSERT_FALSE(directory.ok());
  EXPECT_EQ(directory.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(directory.status().message().find("not a regular file"), std::string::npos);

  const auto not_urdf = LoadUrdfFile(kModels + "/unitree_a1/a1.xml");  // MJCF
  ASSERT_FALSE(not_urdf.ok());
  EXPECT_EQ(not_urdf.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(not_urdf.status().message().find("a1.xml"), std::string::npos);
  EXPECT_NE(not_urdf.status().message().find("expected <robot>"), std::string::npos)
      << not_urdf.status();
}

}  // namespace
}  // namespace moreau
