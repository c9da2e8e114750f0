// URDF <transmission> tags (urdf_prepare.h, TransmissionSpec): gear ratio and
// rotor inertia per actuator, the reflected inertia N²·I_rotor in
// Model::armature (002 §IV-C), and the errors that name the transmission.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/model/loader.h"

namespace moreau {
namespace {

const std::string kModels = MOREAU_MODELS_DIR;

// A world-fixed two-link arm: joints j1 (revolute), j2 (prismatic), and a fixed
// tool; `extra` is appended inside <robot>.
std::string Arm(const std::string& extra) {
  const std::string inertial =
      R"(<inertial><mass value="1"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>)";
  return R"(<robot name="arm"><link name="world"/>)"
         R"(<link name="l1">)" +
         inertial + R"(</link><link name="l2">)" + inertial + R"(</link><link name="tool">)" +
         inertial +
         R"(</link>
<joint name="j1" type="revolute"><parent link="world"/><child link="l1"/><axis xyz="0 0 1"/>
  <limit lower="-1" upper="1" effort="10" velocity="1"/></joint>
<joint name="j2" type="prismatic"><parent link="l1"/><child link="l2"/><axis xyz="1 0 0"/>
  <origin xyz="0 0 0.5"/><limit lower="-1" upper="1" effort="10" velocity="1"/></joint>
<joint name="fix" type="fixed"><parent link="l2"/><child link="tool"/></joint>)" +
         extra + "</robot>";
}

std::string Transmission(const std::string& name, const std::string& joint,
                         const std::string& actuator_body) {
  return "<transmission name=\"" + name +
         "\"><type>transmission_interface/SimpleTransmission</type><joint name=\"" + joint +
         "\"><hardwareInterface>EffortJointInterface</hardwareInterface></joint>"
         "<actuator name=\"m_" +
         joint + "\">" + actuator_body + "</actuator></transmission>";
}

void ExpectError(const std::string& xml, const std::vector<std::string>& needles) {
  const auto model = LoadUrdfString(xml);
  ASSERT_FALSE(model.ok());
  EXPECT_EQ(model.status().code(), absl::StatusCode::kInvalidArgument) << model.status();
  for (const std::string& needle : needles) {
    EXPECT_NE(model.status().message().find(needle), std::string::npos)
        << "'" << needle << "' not in: " << model.status().message();
  }
}

TEST(UrdfTransmission, NoTransmissionMeansDirectDriveAndZeroArmature) {
  const auto model = LoadUrdfString(Arm(""));
  ASSERT_TRUE(model.ok()) << model.status();
  ASSERT_EQ((*model)->nu(), 2);
  for (const Actuator& a : (*model)->actuators) {
    EXPECT_EQ(a.gear, 1.0);
    EXPECT_EQ(a.rotor_inertia, 0.0);
  }
  ASSERT_EQ((*model)->armature.size(), (*model)->nv);
  EXPECT_TRUE((*model)->armature.isZero());
}

TEST(UrdfTransmission, ReductionAndRotorInertiaGiveArmature) {
  const std::string xml =
      Arm(Transmission("t1", "j1",
                       "<mechanicalReduction>50</mechanicalReduction>"
                       "<rotorInertia>2e-5</rotorInertia>") +
          // Drake's spelling on the second joint.
          Transmission("t2", "j2",
                       R"(<drake:gear_ratio value="7"/><drake:rotor_inertia value="0.001"/>)"));
  const auto model = LoadUrdfString(xml);
  ASSERT_TRUE(model.ok()) << model.status();
  const Model& m = **model;
  const Actuator& a1 = m.actuators[0];
  const Actuator& a2 = m.actuators[1];
  EXPECT_EQ(m.joints[a1.joint].name, "j1");
  EXPECT_EQ(a1.gear, 50.0);
  EXPECT_EQ(a1.rotor_inertia, 2e-5);
  EXPECT_EQ(a2.gear, 7.0);
  EXPECT_EQ(a2.rotor_inertia, 0.001);
  EXPECT_DOUBLE_EQ(m.armature[m.joints[a1.joint].v_index], 50.0 * 50.0 * 2e-5);
  EXPECT_DOUBLE_EQ(m.armature[m.joints[a2.joint].v_index], 49.0 * 0.001);
}

TEST(UrdfTransmission, PreGroovyFormatUnderTransmission) {
  const std::string xml = Arm(
      R"(<transmission type="SimpleTransmission" name="old"><actuator name="m"/><joint name="j2"/>
      <mechanicalReduction>3</mechanicalReduction><rotorInertia>0.5</rotorInertia></transmission>)");
  const auto model = LoadUrdfString(xml);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ((*model)->actuators[1].gear, 3.0);
  EXPECT_EQ((*model)->actuators[1].rotor_inertia, 0.5);
  EXPECT_EQ((*model)->armature[1], 4.5);
  EXPECT_EQ((*model)->armature[0], 0.0);
}

TEST(UrdfTransmission, UnsupportedTypeIsSkippedWithAWarning) {
  const std::string xml = Arm(
      R"(<transmission name="diff"><type>transmission_interface/DifferentialTransmission</type>
      <joint name="j1"/><joint name="j2"/><actuator name="a"><mechanicalReduction>9</mechanicalReduction></actuator>
      </transmission>)");
  const auto model = LoadUrdfString(xml);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ((*model)->actuators[0].gear, 1.0);
  bool warned = false;
  for (const std::string& w : (*model)->warnings) {
    warned |= w.find("diff") != std::string::npos &&
              w.find("DifferentialTransmission") != std::string::npos;
  }
  EXPECT_TRUE(warned);
}

TEST(UrdfTransmission, Errors) {
  ExpectError(Arm(Transmission("t", "nope", "")), {"transmission 't'", "no joint named 'nope'"});
  ExpectError(Arm(Transmission("t", "j1", "<mechanicalReduction>0</mechanicalReduction>")),
              {"transmission 't'", "joint 'j1'", "mechanicalReduction", "> 0"});
  ExpectError(Arm(Transmission("t", "j1", "<mechanicalReduction>-3</mechanicalReduction>")),
              {"transmission 't'", "-3"});
  ExpectError(Arm(Transmission("t", "j1", "<mechanicalReduction>abc</mechanicalReduction>")),
              {"transmission 't'", "'abc'", "not a finite number"});
  ExpectError(Arm(Transmission("t", "j1", "<mechanicalReduction>inf</mechanicalReduction>")),
              {"transmission 't'", "not a finite number"});
  ExpectError(Arm(Transmission("t", "j1", "<rotorInertia>-1e-4</rotorInertia>")),
              {"transmission 't'", "joint 'j1'", "rotorInertia", "≥ 0"});
  ExpectError(Arm(Transmission("t", "j1", "<rotorInertia>nan</rotorInertia>")),
              {"transmission 't'", "rotorInertia", "not a finite number"});
  ExpectError(Arm(Transmission("t", "j1",
                               "<mechanicalReduction>2</mechanicalReduction>"
                               "<drake:gear_ratio value=\"2\"/>")),
              {"transmission 't'", "both"});
  ExpectError(Arm(Transmission("a", "j1", "") + Transmission("b", "j1", "")),
              {"joint 'j1'", "two transmissions", "'a'", "'b'"});
  ExpectError(Arm(Transmission("t", "fix", "")),
              {"transmission 't'", "joint 'fix'", "not actuated"});
  ExpectError(Arm(R"(<transmission name="t"><actuator name="m"/></transmission>)"),
              {"transmission 't'", "one <joint"});
}

TEST(UrdfTransmission, ModelFilesLoadWithTheirTransmissions) {
  // ur10 and unitree_a1 declare SimpleTransmissions with reduction 1 on every
  // joint; acrobot uses the pre-Groovy format.
  for (const std::string path :
       {"/ur10/ur10_robot.urdf", "/unitree_a1/a1.urdf", "/acrobot/acrobot.urdf"}) {
    const auto model = LoadUrdfFile(kModels + path);
    ASSERT_TRUE(model.ok()) << path << ": " << model.status();
    for (const Actuator& a : (*model)->actuators) EXPECT_EQ(a.gear, 1.0) << path << " " << a.name;
    EXPECT_TRUE((*model)->armature.isZero()) << path;
  }
}

}  // namespace
}  // namespace moreau
