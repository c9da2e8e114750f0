// Parsing of the vector-valued flags (--q, --v, --tau): comma-separated
// finite numbers, e.g. --q=0,0,0.3,1,0,0,0; and of NAME=VALUE entries
// (--contact-param).
#ifndef MOREAU_CLIENTS_CLI_NUMBER_LIST_H_
#define MOREAU_CLIENTS_CLI_NUMBER_LIST_H_

#include <Eigen/Core>
#include <string>
#include <utility>

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

// One NAME=VALUE entry of `flag` with a numeric VALUE (whether the number is
// finite and the name known is for the caller). Errors (InvalidArgument):
//   --contact-param: entry "mu" is not NAME=VALUE
//   --contact-param: value of "mu" ("abc") is not a number
absl::StatusOr<std::pair<std::string, double>> ParseNamedNumber(absl::string_view flag,
                                                                absl::string_view entry);

}  // namespace moreau::cli

#endif  // MOREAU_CLIENTS_CLI_NUMBER_LIST_H_
