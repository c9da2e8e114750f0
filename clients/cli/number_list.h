// Parsing of the vector-valued flags (--q, --v, --tau): comma-separated
// finite numbers, e.g. --q=0,0,0.3,1,0,0,0.
#ifndef MOREAU_CLIENTS_CLI_NUMBER_LIST_H_
#define MOREAU_CLIENTS_CLI_NUMBER_LIST_H_

#include <Eigen/Core>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace moreau::cli {

// Parses `text`, the value of `flag` (e.g. "--q"), into exactly
// `expected_size` finite numbers; `size_name` names that size in the error
// ("nq"). Errors (InvalidArgument) name the flag and the entry (1-based):
//   --v: entry 2 ("abc") is not a number
//   --q: expected 19 values (nq), got 3
// An empty (or all-blank) text is the empty list.
absl::StatusOr<Eigen::VectorXd> ParseNumberList(absl::string_view flag, absl::string_view text,
                                                int expected_size, absl::string_view size_name);

}  // namespace moreau::cli

#endif  // MOREAU_CLIENTS_CLI_NUMBER_LIST_H_
