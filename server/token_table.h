// The bearer tokens a server accepts (--auth-tokens-file). The file holds one
// line per token:
//
//   TENANT SHA256_HEX [max_instances=N]
//
// TENANT: 1–64 of [A-Za-z0-9._-] (it becomes a metrics label); SHA256_HEX: the
// SHA-256 digest of the token (FIPS 180-4) in 64 hex digits — the file never
// holds tokens themselves; max_instances: the tenant's instance quota (N ≥ 1;
// a tenant with several tokens gives it once or the same on every line).
// '#' starts a comment; blank lines are skipped.
#ifndef MOREAU_SERVER_TOKEN_TABLE_H_
#define MOREAU_SERVER_TOKEN_TABLE_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "server/tenant.h"

namespace moreau::server {

class TokenTable {
 public:
  using Digest = std::array<uint8_t, 32>;

  // Parses the text of a tokens file; INVALID_ARGUMENT naming `source`, the
  // line and what is wrong with it.
  static absl::StatusOr<TokenTable> Parse(absl::string_view text, absl::string_view source);
  // Reads and parses the file at `path` (NOT_FOUND when it cannot be read).
  static absl::StatusOr<TokenTable> Load(const std::string& path);

  // SHA-256 of `token`.
  static Digest Hash(absl::string_view token);

  // The tenant whose token is `token`, or nullptr. The token is hashed and
  // its digest compared with every entry's in constant time (CRYPTO_memcmp),
  // so the time taken says nothing about how close a guess came.
  const Tenant* Find(absl::string_view token) const;

  int tokens() const { return static_cast<int>(entries_.size()); }
  int tenants() const { return static_cast<int>(tenants_.size()); }

 private:
  struct Entry {
    Digest digest;
    int tenant;  // index into tenants_
  };
  std::vector<Entry> entries_;
  std::vector<Tenant> tenants_;
};

}  // namespace moreau::server

#endif  // MOREAU_SERVER_TOKEN_TABLE_H_
