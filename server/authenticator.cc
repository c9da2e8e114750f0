#include "server/authenticator.h"

#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace moreau::server {

absl::StatusOr<std::unique_ptr<Authenticator>> Authenticator::FromFile(const std::string& path) {
  absl::StatusOr<TokenTable> table = TokenTable::Load(path);
  if (!table.ok()) return table.status();
  return std::make_unique<Authenticator>(path, *std::move(table));
}

Authenticator::Authenticator(std::string path, TokenTable table)
    : path_(std::move(path)), table_(std::make_shared<const TokenTable>(std::move(table))) {}

absl::Status Authenticator::Reload() {
  absl::StatusOr<TokenTable> table = TokenTable::Load(path_);
  if (!table.ok()) return table.status();
  auto fresh = std::make_shared<const TokenTable>(*std::move(table));
  absl::MutexLock lock(&mu_);
  table_ = std::move(fresh);
  return absl::OkStatus();
}

std::shared_ptr<const TokenTable> Authenticator::table() const {
  absl::ReaderMutexLock lock(&mu_);
  return table_;
}

absl::StatusOr<Tenant> Authenticator::Authenticate(const Metadata& metadata) const {
  // gRPC delivers metadata keys in lower case (HTTP/2, RFC 7540 § 8.1.2).
  const auto [begin, end] = metadata.equal_range("authorization");
  if (begin == end) {
    return absl::UnauthenticatedError(
        "this server requires a bearer token: send 'authorization: Bearer TOKEN' metadata");
  }
  if (std::next(begin) != end) {
    return absl::UnauthenticatedError("more than one authorization metadata entry");
  }
  const absl::string_view value(begin->second.data(), begin->second.size());
  // credentials = auth-scheme 1*SP token68; the scheme is case-insensitive
  // (RFC 7235 § 2.1, RFC 6750 § 2.1).
  constexpr absl::string_view kScheme = "bearer";
  if (value.size() <= kScheme.size() + 1 ||
      !absl::EqualsIgnoreCase(value.substr(0, kScheme.size()), kScheme) ||
      value[kScheme.size()] != ' ') {
    return absl::UnauthenticatedError("the authorization metadata must be 'Bearer TOKEN'");
  }
  const absl::string_view token = absl::StripLeadingAsciiWhitespace(value.substr(kScheme.size()));
  if (token.empty()) {
    return absl::UnauthenticatedError("the authorization metadata must be 'Bearer TOKEN'");
  }
  const std::shared_ptr<const TokenTable> tokens = table();
  const Tenant* tenant = tokens->Find(token);
  if (tenant == nullptr) return absl::UnauthenticatedError("the bearer token is not valid");
  return *tenant;
}

}  // namespace moreau::server
