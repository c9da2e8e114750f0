#include "server/token_table.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "server/read_file.h"

namespace moreau::server {
namespace {

constexpr absl::string_view kLineFormat = "TENANT SHA256_HEX [max_instances=N]";
constexpr size_t kMaxTenantName = 64;

bool IsTenantName(absl::string_view name) {
  if (name.empty() || name.size() > kMaxTenantName) return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// 64 hex digits → 32 bytes; false when `hex` is anything else.
bool ParseDigest(absl::string_view hex, TokenTable::Digest& digest) {
  if (hex.size() != 2 * digest.size()) return false;
  for (size_t i = 0; i < digest.size(); ++i) {
    const int hi = HexValue(hex[2 * i]);
    const int lo = HexValue(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    digest[i] = static_cast<uint8_t>(hi << 4 | lo);
  }
  return true;
}

}  // namespace

TokenTable::Digest TokenTable::Hash(absl::string_view token) {
  Digest digest{};
  unsigned int size = 0;
  EVP_Digest(token.data(), token.size(), digest.data(), &size, EVP_sha256(), nullptr);
  return digest;
}

absl::StatusOr<TokenTable> TokenTable::Parse(absl::string_view text, absl::string_view source) {
  TokenTable table;
  absl::flat_hash_map<std::string, int> tenant_index;  // name → index into tenants_
  absl::flat_hash_map<int, int> quota_line;            // tenant index → line giving its quota
  std::vector<int> entry_line;                         // line of each entry
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    const auto error = [&](const auto&... what) {
      return absl::InvalidArgumentError(absl::StrCat(source, ":", line_number, ": ", what...));
    };
    if (const size_t hash = line.find('#'); hash != absl::string_view::npos) {
      line = line.substr(0, hash);
    }
    const std::vector<absl::string_view> fields =
        absl::StrSplit(line, absl::ByAnyChar(" \t\r"), absl::SkipEmpty());
    if (fields.empty()) continue;
    if (fields.size() > 3 || fields.size() < 2) {
      return error("expected '", kLineFormat, "', got ", fields.size(), " field(s)");
    }
    const absl::string_view name = fields[0];
    if (!IsTenantName(name)) {
      return error("tenant '", name.substr(0, kMaxTenantName),
                   "' must be 1 to 64 of A-Z a-z 0-9 . _ -");
    }
    Entry entry{};
    if (!ParseDigest(fields[1], entry.digest)) {
      return error("the token's SHA-256 must be 64 hex digits, got ", fields[1].size(),
                   " character(s) (the file holds digests, e.g. from sha256sum, never tokens)");
    }
    int quota = 0;
    if (fields.size() == 3) {
      absl::string_view option = fields[2];
      if (!absl::ConsumePrefix(&option, "max_instances=")) {
        return error("unknown option '", option, "' (expected max_instances=N)");
      }
      if (!absl::SimpleAtoi(option, &quota) || quota < 1) {
        return error("max_instances must be an integer ≥ 1, got '", option, "'");
      }
    }
    for (size_t k = 0; k < table.entries_.size(); ++k) {
      if (table.entries_[k].digest == entry.digest) {
        return error("the same token digest as line ", entry_line[k]);
      }
    }
    auto [it, added] = tenant_index.try_emplace(std::string(name), table.tenants());
    if (added) table.tenants_.push_back(Tenant{std::string(name), 0});
    entry.tenant = it->second;
    Tenant& tenant = table.tenants_[static_cast<size_t>(entry.tenant)];
    if (quota > 0) {
      if (tenant.max_instances > 0 && tenant.max_instances != quota) {
        return error("tenant '", name, "' has max_instances=", tenant.max_instances, " on line ",
                     quota_line[entry.tenant], " but ", quota, " here");
      }
      tenant.max_instances = quota;
      quota_line[entry.tenant] = line_number;
    }
    table.entries_.push_back(entry);
    entry_line.push_back(line_number);
  }
  return table;
}

absl::StatusOr<TokenTable> TokenTable::Load(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path, "tokens file");
  if (!text.ok()) return text.status();
  return Parse(*text, path);
}

const Tenant* TokenTable::Find(absl::string_view token) const {
  const Digest digest = Hash(token);
  const Tenant* found = nullptr;
  // Every entry is compared, whatever matched before.
  for (const Entry& entry : entries_) {
    const bool match = CRYPTO_memcmp(entry.digest.data(), digest.data(), digest.size()) == 0;
    if (match) found = &tenants_[static_cast<size_t>(entry.tenant)];
  }
  return found;
}

}  // namespace moreau::server
