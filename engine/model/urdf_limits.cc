#include "engine/model/urdf_limits.h"

#include "absl/strings/cord.h"
#include "absl/strings/string_view.h"

namespace moreau {
namespace {

// The payload that marks a limit error (absl::Status payloads are keyed by a
// type URL).
constexpr absl::string_view kLimitPayload = "type.moreau/limit";

}  // namespace

absl::Status LimitError(absl::string_view message) {
  absl::Status status = absl::InvalidArgumentError(message);
  status.SetPayload(kLimitPayload, absl::Cord());
  return status;
}

bool IsLimitError(const absl::Status& status) {
  return status.GetPayload(kLimitPayload).has_value();
}

}  // namespace moreau
