// Pieces of the TLS and bearer-token tests: a throw-away PKI made at test time
// by make_test_pki.sh (Debian's openssl), and tokens files.
#ifndef MOREAU_TESTS_INTEGRATION_SECURITY_TEST_UTIL_H_
#define MOREAU_TESTS_INTEGRATION_SECURITY_TEST_UTIL_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "clients/cpp/client.h"

namespace moreau::testing {

// A fresh temporary folder, removed with everything in it on destruction.
class TempDir {
 public:
  static absl::StatusOr<std::unique_ptr<TempDir>> Make();
  ~TempDir();
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }
  absl::Status Write(const std::string& name, const std::string& text) const;

 private:
  explicit TempDir(std::string dir) : dir_(std::move(dir)) {}
  std::string dir_;
};

// The PKI of make_test_pki.sh in a TempDir: ca, server, client (signed by
// ca), other_ca and other_client (signed by other_ca); NAME.pem and NAME.key.
class TestPki {
 public:
  static absl::StatusOr<std::unique_ptr<TestPki>> Make();
  std::string Path(const std::string& file) const { return dir_->Path(file); }
  // The text of one of its files.
  std::string Read(const std::string& file) const;
  // moreaud's TLS flags with the server certificate (and, for mTLS, the CA
  // that client certificates must chain to).
  std::vector<std::string> ServerFlags(bool require_client_certificates) const;
  // Client TLS trusting `ca` ("ca" or "other_ca"), with the certificate and
  // key `client` ("": none; "client" or "other_client").
  client::TlsOptions ClientTls(const std::string& ca, const std::string& client = "") const;

 private:
  explicit TestPki(std::unique_ptr<TempDir> dir) : dir_(std::move(dir)) {}
  std::unique_ptr<TempDir> dir_;
};

// SHA-256 of `token` in hex: the form the tokens file holds.
std::string TokenDigestHex(const std::string& token);

// One tokens-file line: "TENANT SHA256_HEX[ OPTION]".
std::string TokenLine(const std::string& tenant, const std::string& token,
                      const std::string& option = "");

}  // namespace moreau::testing

#endif  // MOREAU_TESTS_INTEGRATION_SECURITY_TEST_UTIL_H_
