// Model's own functions (model.h): names, lookups, totals.
#include "engine/model/model.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/model/loader.h"

namespace moreau {
namespace {

TEST(Model, TypeNames) {
  EXPECT_STREQ(JointTypeName(JointType::kFree), "free");
  EXPECT_STREQ(JointTypeName(JointType::kRevolute), "revolute");
  EXPECT_STREQ(JointTypeName(JointType::kPrismatic), "prismatic");
  Joint joint;
  joint.type = JointType::kRevolute;
  joint.continuous = true;
  EXPECT_STREQ(JointTypeName(joint), "continuous");
  joint.continuous = false;
  EXPECT_STREQ(JointTypeName(joint), "revolute");
  EXPECT_STREQ(GeomTypeName(GeomType::kSphere), "sphere");
  EXPECT_STREQ(GeomTypeName(GeomType::kBox), "box");
  EXPECT_STREQ(GeomTypeName(GeomType::kCylinder), "cylinder");
  EXPECT_STREQ(GeomTypeName(GeomType::kMesh), "mesh");
}

TEST(Model, TotalMassCountsEveryBodyIncludingTheWorld) {
  Model m;
  m.inertia = {Inertia(0.5, Vec3::Zero(), Mat3::Zero()), Inertia(2.0, Vec3::Zero(), Mat3::Zero()),
               Inertia(1.25, Vec3::Zero(), Mat3::Zero())};
  EXPECT_DOUBLE_EQ(m.TotalMass(), 3.75);
  EXPECT_EQ(Model().TotalMass(), 0.0);
}

TEST(Model, Lookups) {
  const auto model = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(model.ok()) << model.status();
  const Model& m = **model;
  EXPECT_EQ(m.BodyIndex("world"), 0);
  EXPECT_EQ(m.BodyIndex("body"), 1);
  EXPECT_EQ(m.BodyIndex("shank_fr"), 4);
  EXPECT_EQ(m.BodyIndex("toe_fr"), 4);  // merged into shank_fr
  EXPECT_EQ(m.BodyIndex("nope"), -1);
  EXPECT_EQ(m.JointIndex("floating_base"), 0);
  EXPECT_EQ(m.JointIndex("torso_to_abduct_fr_j"), 1);
  EXPECT_EQ(m.JointIndex("toe_fr_joint"), -1);  // fixed joints are merged away
  const std::vector<std::string> names = m.JointNames();
  ASSERT_EQ(names.size(), 13u);
  EXPECT_EQ(names[0], "floating_base");
  EXPECT_EQ(names[3], "thigh_fr_to_knee_fr_j");
  for (int j = 0; j < static_cast<int>(m.joints.size()); ++j) {
    EXPECT_EQ(m.JointIndex(names[j]), j);
    EXPECT_EQ(m.body_joint[m.joints[j].body], j);
  }
}

}  // namespace
}  // namespace moreau
