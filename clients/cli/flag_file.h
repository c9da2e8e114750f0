// The text of a file a flag names (--settings FILE, --terrain
// heightfield:FILE.csv).
#ifndef MOREAU_CLIENTS_CLI_FLAG_FILE_H_
#define MOREAU_CLIENTS_CLI_FLAG_FILE_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace moreau::cli {

// The whole text of the file at `path`; InvalidArgument "<flag>: cannot open
// "<path>": <the system's reason>" when it cannot be opened.
absl::StatusOr<std::string> ReadFlagFile(absl::string_view flag, const std::string& path);

}  // namespace moreau::cli

#endif  // MOREAU_CLIENTS_CLI_FLAG_FILE_H_
