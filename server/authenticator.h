// Bearer-token authentication (RFC 6750 § 2.1): a call presents
// "authorization: Bearer TOKEN" metadata; the token's tenant comes from the
// server's tokens file (token_table.h), which Reload re-reads (SIGHUP) without
// disturbing calls in flight.
#ifndef MOREAU_SERVER_AUTHENTICATOR_H_
#define MOREAU_SERVER_AUTHENTICATOR_H_

#include <grpcpp/support/string_ref.h>

#include <map>
#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "server/tenant.h"
#include "server/token_table.h"

namespace moreau::server {

class Authenticator {
 public:
  using Metadata = std::multimap<grpc::string_ref, grpc::string_ref>;

  // Loads the tokens file at `path` (the file's error when it is bad).
  static absl::StatusOr<std::unique_ptr<Authenticator>> FromFile(const std::string& path);
  // Serves the tokens of `table` (tests); Reload then reads `path`.
  Authenticator(std::string path, TokenTable table);

  // Re-reads the tokens file. On any error the current tokens stay in force
  // and the error (naming the file and line) is returned.
  absl::Status Reload() ABSL_LOCKS_EXCLUDED(mu_);

  // The tenant of a call with client metadata `metadata`; UNAUTHENTICATED
  // when the authorization entry is missing, not "Bearer TOKEN" or the token
  // is unknown. Never names the presented token.
  absl::StatusOr<Tenant> Authenticate(const Metadata& metadata) const ABSL_LOCKS_EXCLUDED(mu_);

  const std::string& path() const { return path_; }
  // The tokens now in force.
  std::shared_ptr<const TokenTable> table() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  const std::string path_;
  mutable absl::Mutex mu_;
  // Replaced whole by Reload; a call holds the table it checked against.
  std::shared_ptr<const TokenTable> table_ ABSL_GUARDED_BY(mu_);
};

}  // namespace moreau::server

#endif  // MOREAU_SERVER_AUTHENTICATOR_H_
