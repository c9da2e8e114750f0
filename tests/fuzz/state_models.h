// The simulations the state fuzzer restores blobs into, shared with the seed
// writer so that seed byte 0 and 1 name the same model and contact model.
#ifndef MOREAU_TESTS_FUZZ_STATE_MODELS_H_
#define MOREAU_TESTS_FUZZ_STATE_MODELS_H_

#include <array>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "engine/model/loader.h"

namespace moreau::fuzz {

struct StateCase {
  std::string name;
  std::shared_ptr<const Model> model;
};

// Floating and fixed bases, a closed chain, box feet.
inline const std::vector<StateCase>& StateCases() {
  static const auto* cases = [] {
    auto* out = new std::vector<StateCase>;
    for (const char* name : {"mini_cheetah", "box", "pendulum", "four_bar", "biped", "cartpole"}) {
      auto model = LoadBuiltin(name);
      if (!model.ok()) std::abort();
      out->push_back({name, *model});
    }
    return out;
  }();
  return *cases;
}

inline constexpr std::array<const char*, 4> kContactModels = {"moreau-sor", "spring-damper",
                                                              "hertz", "least-constraint"};

}  // namespace moreau::fuzz

#endif  // MOREAU_TESTS_FUZZ_STATE_MODELS_H_
