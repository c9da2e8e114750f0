// The flags that set a model's state and input: --q, --v (generalized
// coordinates and velocities) and --tau (generalized forces), each a
// comma-separated list of finite numbers. Unset (or empty): q = the model's
// default configuration, v = 0, τ = 0.
#ifndef MOREAU_CLIENTS_CLI_STATE_FLAGS_H_
#define MOREAU_CLIENTS_CLI_STATE_FLAGS_H_

#include <Eigen/Core>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "clients/cli/command.h"
#include "engine/model/model.h"

namespace moreau::cli {

inline constexpr FlagSpec kQFlagSpec{"q", "Q1,Q2,..."};
inline constexpr FlagSpec kVFlagSpec{"v", "V1,V2,..."};
inline constexpr FlagSpec kTauFlagSpec{"tau", "TAU1,TAU2,..."};

struct StateInput {
  Eigen::VectorXd q;    // nq
  Eigen::VectorXd v;    // nv
  Eigen::VectorXd tau;  // nv
};

// Reads --q, --v and --tau for `model`. Sizes must be nq, nv, nv. A floating
// base's quaternion q[3:7] must have a non-zero norm; it is normalized, with a
// warning appended to `warnings` when it was not unit within 1e-6.
absl::StatusOr<StateInput> StateFromFlags(const Model& model, std::vector<std::string>* warnings);

}  // namespace moreau::cli

#endif  // MOREAU_CLIENTS_CLI_STATE_FLAGS_H_
