#include "tests/unit/dynamics/test_models.h"

#include <gtest/gtest.h>

#include "engine/model/loader.h"

namespace moreau::testing {

std::string ModelPath(const std::string& relative) {
  return std::string(MOREAU_MODELS_DIR) + "/" + relative;
}

std::shared_ptr<const Model> Builtin(const std::string& name) {
  auto model = LoadBuiltin(name);
  EXPECT_TRUE(model.ok()) << name << ": " << model.status();
  return model.ok() ? *model : nullptr;
}

std::vector<NamedModel> AllTestModels() {
  std::vector<NamedModel> out;
  for (const std::string& name : BuiltinModelNames()) {
    if (auto m = Builtin(name)) out.push_back({"builtin:" + name, m});
  }
  struct File {
    const char* path;
    BaseMode base;
  };
  // Arms and pendulums are meant to be fixed to the ground; the legged robots
  // and free objects float.
  const File files[] = {
      {"mini_cheetah/mini_cheetah.urdf", BaseMode::kAuto},
      {"unitree_a1/a1.urdf", BaseMode::kAuto},
      {"ur10/ur10_robot.urdf", BaseMode::kFixed},
      {"ur10/ur10_robot.urdf", BaseMode::kFloating},
      {"pendulum/Pendulum.urdf", BaseMode::kAuto},
      {"double_pendulum/double_pendulum.urdf", BaseMode::kFixed},
      {"acrobot/acrobot.urdf", BaseMode::kAuto},
      {"cartpole/cartpole.urdf", BaseMode::kFixed},
      {"sphere/sphere2.urdf", BaseMode::kAuto},
      {"box/box.urdf", BaseMode::kAuto},
      {"box/cube.urdf", BaseMode::kAuto},
  };
  for (const File& f : files) {
    LoadOptions options;
    options.base = f.base;
    auto model = LoadUrdfFile(ModelPath(f.path), options);
    EXPECT_TRUE(model.ok()) << f.path << ": " << model.status();
    if (model.ok()) {
      out.push_back({std::string(f.path) + (f.base == BaseMode::kFixed      ? " (fixed)"
                                            : f.base == BaseMode::kFloating ? " (floating)"
                                                                            : ""),
                     *model});
    }
  }
  return out;
}

}  // namespace moreau::testing
