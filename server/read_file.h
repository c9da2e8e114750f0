// Reads a whole (small) configuration file: certificates, keys, tokens.
#ifndef MOREAU_SERVER_READ_FILE_H_
#define MOREAU_SERVER_READ_FILE_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace moreau::server {

// The bytes of the regular file at `path`; NOT_FOUND (or PERMISSION_DENIED)
// naming `what`, the path and the system's reason when it cannot be read.
absl::StatusOr<std::string> ReadFile(const std::string& path, absl::string_view what);

}  // namespace moreau::server

#endif  // MOREAU_SERVER_READ_FILE_H_
