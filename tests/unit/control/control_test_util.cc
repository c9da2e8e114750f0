#include "tests/unit/control/control_test_util.h"

#include <gtest/gtest.h>

#include "engine/dynamics/kinematics.h"
#include "engine/model/loader.h"
#include "tests/unit/dynamics/test_models.h"

namespace moreau::testing {

std::shared_ptr<const Model> MiniCheetah() { return Builtin("mini_cheetah"); }

std::shared_ptr<const Model> UnitreeA1() {
  auto model = LoadUrdfFile(ModelPath("unitree_a1/a1.urdf"));
  EXPECT_TRUE(model.ok()) << model.status();
  return model.ok() ? *model : nullptr;
}

std::vector<Quadruped> Quadrupeds() {
  return {{"mini_cheetah", MiniCheetah()}, {"a1", UnitreeA1()}};
}

Eigen::VectorXd ConfigurationFromTargets(const Model& model, const Eigen::VectorXd& targets,
                                         double base_height) {
  Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq);
  if (model.floating_base) {
    q[2] = base_height;
    q[3] = 1.0;
  }
  for (int k = 0; k < model.nu(); ++k) {
    q[model.joints[model.actuators[k].joint].q_index] = targets[k];
  }
  return q;
}

Vec3 ContactPosition(const Model& model, Data& data, const Eigen::VectorXd& q, int k) {
  ForwardKinematics(model, data, q);
  const ContactPoint& c = model.contact_points[k];
  return BodyRotation(data, c.body) * c.position + BodyPosition(data, c.body);
}

}  // namespace moreau::testing
