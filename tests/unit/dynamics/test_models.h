// The models every dynamics property test runs over: all built-ins and every
// robot URDF in models/.
#ifndef MOREAU_TESTS_UNIT_DYNAMICS_TEST_MODELS_H_
#define MOREAU_TESTS_UNIT_DYNAMICS_TEST_MODELS_H_

#include <memory>
#include <string>
#include <vector>

#include "engine/model/model.h"

namespace moreau::testing {

struct NamedModel {
  std::string label;
  std::shared_ptr<const Model> model;
};

// Loads every test model; a load failure fails the calling test.
std::vector<NamedModel> AllTestModels();

// Loads one built-in model or fails the test.
std::shared_ptr<const Model> Builtin(const std::string& name);

// Path of a file under models/ (MOREAU_MODELS_DIR).
std::string ModelPath(const std::string& relative);

}  // namespace moreau::testing

#endif  // MOREAU_TESTS_UNIT_DYNAMICS_TEST_MODELS_H_
