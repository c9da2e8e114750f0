// `moreau dynamics MODEL [--q …] [--v …] [--tau …] [--json]`: the terms of
// M(q) q̈ + c(q, v) + g(q) = τ at one state, the forward dynamics q̈ (ABA) and
// the contact-point Jacobians.
#ifndef MOREAU_CLIENTS_CLI_DYNAMICS_COMMAND_H_
#define MOREAU_CLIENTS_CLI_DYNAMICS_COMMAND_H_

#include "absl/strings/string_view.h"
#include "clients/cli/command.h"

namespace moreau::cli {

// The state conventions, for help texts and reports.
inline constexpr absl::string_view kStateConventions =
    "Conventions (MuJoCo's free joint; a fixed base has the joints only):\n"
    "  q = [base position (world, 3),\n"
    "       base quaternion w, x, y, z (rotating base to world, 4),\n"
    "       joint coordinates]\n"
    "  v = [base linear velocity (world, 3),\n"
    "       base angular velocity (base frame, 3),\n"
    "       joint rates]\n"
    "  M(q) qacc + c(q, v) + g(q) = tau\n";

const Command& DynamicsCommand();

}  // namespace moreau::cli

#endif  // MOREAU_CLIENTS_CLI_DYNAMICS_COMMAND_H_
