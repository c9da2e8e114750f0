// The flags that set a model's state and input: --q, --v (generalized
// coordinates and velocities) and --tau (generalized forces), each a
// comma-separated list of finite numbers; their values, and the state they
// give. Unset (or empty): q = the model's default configuration, v = 0, τ = 0.
#ifndef MOREAU_CLIENTS_CLI_STATE_FLAGS_H_
#define MOREAU_CLIENTS_CLI_STATE_FLAGS_H_

#include <Eigen/Core>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/model/model.h"

namespace moreau::cli {

// The flags' texts, parsed by StateFromFlags once the model's sizes are known.
struct StateFlags {
  std::string q;    // --q
  std::string v;    // --v
  std::string tau;  // --tau
};

struct StateInput {
  Eigen::VectorXd q;    // nq
  Eigen::VectorXd v;    // nv
  Eigen::VectorXd tau;  // nv
};

// The state and input `flags` give for `model`. Sizes must be nq, nv, nv. A floating
// base's quaternion q[3:7] must have a non-zero norm; it is normalized, with a
// warning appended to `warnings` when it was not unit within 1e-6.
absl::StatusOr<StateInput> StateFromFlags(const Model& model, const StateFlags& flags,
                                          std::vector<std::string>* warnings);

}  // namespace moreau::cli

#endif  // MOREAU_CLIENTS_CLI_STATE_FLAGS_H_
