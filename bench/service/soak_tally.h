// The outcome tally of a soak worker: calls counted by RPC and gRPC code, and
// the calls whose code was not one the kind of call may get ("unexpected").
// A worker prints its tally as lines on stdout, which the supervisor reads
// (soak_supervisor.h):
//   T <rpc>:<code>=<n> …   the cumulative counts (a whole snapshot per line)
//   U <rpc> <what> <code>: <message>   one unexpected outcome, at once
#ifndef MOREAU_BENCH_SERVICE_SOAK_TALLY_H_
#define MOREAU_BENCH_SERVICE_SOAK_TALLY_H_

#include <cstdio>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace moreau::bench::soak {

// Counts by (RPC, code).
using Counts = std::map<std::pair<std::string, int>, long>;

class Tally {
 public:
  explicit Tally(std::FILE* out) : out_(out) {}

  // Counts `got` for `rpc`; prints an unexpected line unless `got` is one of
  // `allowed`. `what` names the kind of call (e.g. "hostile/nan-action").
  // Returns whether `got` was allowed.
  bool Record(absl::string_view rpc, absl::string_view what, const absl::Status& got,
              std::initializer_list<absl::StatusCode> allowed);

  // An unexpected outcome that is not a call's code (e.g. a reply's content).
  void Unexpected(absl::string_view rpc, absl::string_view what, absl::string_view message);

  // Prints the snapshot line ("T …").
  void Flush();

  long unexpected() const { return unexpected_; }

 private:
  std::FILE* out_;
  Counts counts_;
  long unexpected_ = 0;
};

// Parses a snapshot line's body (after "T "); false when malformed.
bool ParseSnapshot(absl::string_view body, Counts& counts);

// The canonical name of a gRPC code number, e.g. "INVALID_ARGUMENT".
std::string CodeName(int code);

}  // namespace moreau::bench::soak

#endif  // MOREAU_BENCH_SERVICE_SOAK_TALLY_H_
