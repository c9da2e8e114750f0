// `moreau sim --actions FILE.csv`: a recorded sequence of actions, one row per
// action, one column per actuator, replayed through Simulation::StepAction —
// the same path the server's Step takes, so a replay reproduces a remote run
// bit for bit.
#ifndef MOREAU_CLIENTS_CLI_ACTION_REPLAY_H_
#define MOREAU_CLIENTS_CLI_ACTION_REPLAY_H_

#include <Eigen/Core>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace moreau::cli {

// Reads comma-separated rows of `size` finite numbers; blank lines and lines
// starting with '#' are skipped. Errors name the file, line and entry.
absl::StatusOr<std::vector<Eigen::VectorXd>> ReadActionsCsv(const std::string& path, int size);

}  // namespace moreau::cli

#endif  // MOREAU_CLIENTS_CLI_ACTION_REPLAY_H_
