// Helpers of the control tests: the two quadrupeds and whole-robot forward
// kinematics of actuator-shaped joint targets.
#ifndef MOREAU_TESTS_UNIT_CONTROL_CONTROL_TEST_UTIL_H_
#define MOREAU_TESTS_UNIT_CONTROL_CONTROL_TEST_UTIL_H_

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "engine/dynamics/data.h"
#include "engine/model/model.h"

namespace moreau::testing {

// The built-in Mini Cheetah and the Unitree A1 URDF of models/ (floating base).
std::shared_ptr<const Model> MiniCheetah();
std::shared_ptr<const Model> UnitreeA1();

struct Quadruped {
  std::string label;
  std::shared_ptr<const Model> model;
};
std::vector<Quadruped> Quadrupeds();

// q (nq) with the base at (0, 0, base_height), level, and the actuated joints
// at `targets` (actuator-shaped); other joints 0.
Eigen::VectorXd ConfigurationFromTargets(const Model& model, const Eigen::VectorXd& targets,
                                         double base_height);

// World position of contact point k (runs ForwardKinematics).
Vec3 ContactPosition(const Model& model, Data& data, const Eigen::VectorXd& q, int k);

}  // namespace moreau::testing

#endif  // MOREAU_TESTS_UNIT_CONTROL_CONTROL_TEST_UTIL_H_
