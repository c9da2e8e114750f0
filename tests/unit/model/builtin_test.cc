// Built-in models and LoadModel (loader.h).
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <ostream>
#include <string>
#include <vector>

#include "engine/model/loader.h"

namespace moreau {
namespace {

const std::string kModels = MOREAU_MODELS_DIR;

struct Expected {
  std::string name;
  bool floating;
  int nq, nv, nbodies;
  double mass;
  int contacts;
  double base_height;
};

void PrintTo(const Expected& e, std::ostream* os) { *os << e.name; }

class BuiltinTest : public testing::TestWithParam<Expected> {};

TEST_P(BuiltinTest, Loads) {
  const Expected& e = GetParam();
  const auto model = LoadBuiltin(e.name);
  ASSERT_TRUE(model.ok()) << model.status();
  const Model& m = **model;
  EXPECT_EQ(m.name, e.name);
  EXPECT_EQ(m.floating_base, e.floating);
  EXPECT_EQ(m.nq, e.nq);
  EXPECT_EQ(m.nv, e.nv);
  EXPECT_EQ(m.nbodies, e.nbodies);
  EXPECT_NEAR(m.TotalMass(), e.mass, 1e-12);
  EXPECT_EQ(static_cast<int>(m.contact_points.size()), e.contacts);
  EXPECT_NEAR(m.default_base_height, e.base_height, 1e-12);
  // One actuator per joint except the free one.
  EXPECT_EQ(m.nu(), static_cast<int>(m.joints.size()) - (e.floating ? 1 : 0));
  // Built-ins other than the (approximate) Mini Cheetah are warning-free and
  // every moving body has a positive-definite inertia.
  if (e.name != "mini_cheetah") {
    EXPECT_TRUE(m.warnings.empty()) << m.warnings.front();
    for (int i = 1; i < m.nbodies; ++i) {
      const Eigen::SelfAdjointEigenSolver<Mat3> eig(m.inertia[i].InertiaAboutCom());
      EXPECT_GT(eig.eigenvalues().minCoeff(), 0.0) << m.body_names[i];
    }
  }
  // Same result through LoadModel.
  const auto again = LoadModel(e.name);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ((*again)->nv, m.nv);
}

INSTANTIATE_TEST_SUITE_P(
    Builtins, BuiltinTest,
    testing::Values(Expected{"mini_cheetah", true, 19, 18, 14, 8.852, 4, 0.404},
                    // 2.2 kg pelvis + 2 × 1.4 kg legs; 8 corners per foot box;
                    // pelvis 0.05 + 2 × 0.1 cos 0.35 + 0.03 m above the soles.
                    Expected{"biped", true, 19, 18, 14, 5.0, 16,
                             0.05 + 0.2 * std::cos(0.35) + 0.03},
                    Expected{"pendulum", false, 1, 1, 2, 1.0, 0, 0.0},
                    Expected{"double_pendulum", false, 2, 2, 3, 2.0, 0, 0.0},
                    Expected{"cartpole", false, 2, 2, 3, 1.1, 0, 0.0},
                    Expected{"acrobot", false, 2, 2, 3, 2.0, 0, 0.0},
                    Expected{"sphere", true, 7, 6, 2, 1.0, 1, 0.1},
                    Expected{"box", true, 7, 6, 2, 1.0, 8, 0.15},
                    Expected{"four_bar", false, 3, 3, 4, 3.5, 0, 0.0},
                    // Six links on six revolute joints, base_link welded to
                    // the world; no foot spheres.
                    Expected{"ur10", false, 6, 6, 7, 32.7, 0, 0.0}),
    [](const testing::TestParamInfo<Expected>& info) { return info.param.name; });

TEST(Builtin, NamesAreListedInOrder) {
  EXPECT_EQ(BuiltinModelNames(),
            (std::vector<std::string>{"mini_cheetah", "pendulum", "double_pendulum", "cartpole",
                                      "acrobot", "sphere", "box", "biped", "four_bar", "ur10"}));
}

TEST(Builtin, MiniCheetahMatchesTheSharedFile) {
  const auto builtin = LoadBuiltin("mini_cheetah");
  const auto file = LoadUrdfFile(kModels + "/mini_cheetah/mini_cheetah.urdf");
  ASSERT_TRUE(builtin.ok()) << builtin.status();
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_EQ((*builtin)->body_names, (*file)->body_names);
  EXPECT_EQ((*builtin)->JointNames(), (*file)->JointNames());
  EXPECT_EQ((*builtin)->TotalMass(), (*file)->TotalMass());
}

TEST(Builtin, MechanismParameters) {
  const auto pendulum = LoadBuiltin("pendulum");
  ASSERT_TRUE(pendulum.ok());
  const Model& p = **pendulum;
  EXPECT_TRUE(p.joint_axis[1].isApprox(Vec3::UnitY()));
  EXPECT_TRUE(p.inertia[1].CenterOfMass().isApprox(Vec3(0, 0, -1)));
  EXPECT_TRUE(p.joints[0].continuous);

  const auto cartpole = LoadBuiltin("cartpole");
  ASSERT_TRUE(cartpole.ok());
  const Model& c = **cartpole;
  EXPECT_EQ(c.joints[0].type, JointType::kPrismatic);
  EXPECT_TRUE(c.joint_axis[1].isApprox(Vec3::UnitX()));
  EXPECT_TRUE(c.joints[0].limits.has_position_limits);
  EXPECT_EQ(c.actuators[0].effort_limit, 1000.0);
  EXPECT_EQ(c.joints[1].type, JointType::kRevolute);
  EXPECT_NEAR(c.inertia[2].mass, 0.1, 1e-15);
  EXPECT_TRUE(c.inertia[2].CenterOfMass().isApprox(Vec3(0, 0, 0.5)));

  const auto acrobot = LoadBuiltin("acrobot");
  ASSERT_TRUE(acrobot.ok());
  const Model& a = **acrobot;
  EXPECT_NEAR(a.inertia[2].InertiaAboutCom()(1, 1), 0.33, 1e-12);
  EXPECT_DOUBLE_EQ(a.joints[1].damping, 0.1);

  const auto sphere = LoadBuiltin("sphere");
  ASSERT_TRUE(sphere.ok());
  const Model& s = **sphere;
  EXPECT_DOUBLE_EQ(s.contact_points[0].radius, 0.1);
  EXPECT_EQ(s.q_default(2), 0.1);
  EXPECT_EQ(s.q_default(3), 1.0);

  const auto box = LoadBuiltin("box");
  ASSERT_TRUE(box.ok());
  ASSERT_EQ((*box)->geoms.size(), 1u);
  EXPECT_EQ((*box)->geoms[0].type, GeomType::kBox);
  EXPECT_TRUE((*box)->geoms[0].size.isApprox(Vec3(0.1, 0.2, 0.3)));
  // A box contacts the ground through its eight corners.
  ASSERT_EQ((*box)->contact_points.size(), 8u);
  for (const ContactPoint& c : (*box)->contact_points) {
    EXPECT_EQ(c.radius, 0.0);
    EXPECT_TRUE(c.position.cwiseAbs().isApprox(Vec3(0.05, 0.1, 0.15))) << c.name;
  }
}

TEST(Builtin, OptionsApply) {
  LoadOptions fixed;
  fixed.base = BaseMode::kFixed;
  const auto cheetah = LoadBuiltin("mini_cheetah", fixed);
  ASSERT_TRUE(cheetah.ok()) << cheetah.status();
  EXPECT_FALSE((*cheetah)->floating_base);
  EXPECT_EQ((*cheetah)->nv, 12);
}

TEST(Builtin, UnknownNames) {
  const auto builtin = LoadBuiltin("nope");
  ASSERT_FALSE(builtin.ok());
  EXPECT_EQ(builtin.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(builtin.status().message().find("'nope'"), std::string::npos);
  EXPECT_NE(builtin.status().message().find("mini_cheetah"), std::string::npos);

  const auto model = LoadModel("no_such_robot");
  ASSERT_FALSE(model.ok());
  EXPECT_EQ(model.status().code(), absl::StatusCode::kNotFound);
  const std::string message(model.status().message());
  EXPECT_NE(message.find("unknown model 'no_such_robot'"), std::string::npos) << message;
  EXPECT_NE(message.find("mini_cheetah, pendulum"), std::string::npos) << message;
  EXPECT_NE(message.find("no such file"), std::string::npos) << message;
}

TEST(Builtin, LoadModelFallsBackToAPath) {
  const auto model = LoadModel(kModels + "/unitree_a1/a1.urdf");
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ((*model)->name, "a1");
}

}  // namespace
}  // namespace moreau
