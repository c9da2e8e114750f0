#include "server/read_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "absl/strings/str_cat.h"

namespace moreau::server {

absl::StatusOr<std::string> ReadFile(const std::string& path, absl::string_view what) {
  const auto failure = [&](int error) {
    const std::string message =
        absl::StrCat("cannot read ", what, " '", path, "': ", std::strerror(error));
    return error == EACCES ? absl::PermissionDeniedError(message) : absl::NotFoundError(message);
  };
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (file == nullptr) return failure(errno);
  std::string bytes;
  char buffer[8192];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof(buffer), file.get())) > 0) bytes.append(buffer, n);
  // A directory opens but fails to read (EISDIR).
  if (std::ferror(file.get()) != 0) return failure(errno != 0 ? errno : EIO);
  return bytes;
}

}  // namespace moreau::server
