#include "tests/integration/security_test_util.h"

#include <openssl/evp.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"

extern char** environ;

namespace moreau::testing {

absl::StatusOr<std::unique_ptr<TempDir>> TempDir::Make() {
  std::string pattern = (std::filesystem::temp_directory_path() / "moreau_sec_XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) return absl::InternalError("mkdtemp failed");
  return std::unique_ptr<TempDir>(new TempDir(pattern));
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

absl::Status TempDir::Write(const std::string& name, const std::string& text) const {
  // Written aside, then renamed: a reader sees the old or the new file whole.
  const std::string path = Path(name);
  const std::string staged = path + ".new";
  {
    std::ofstream file(staged, std::ios::binary | std::ios::trunc);
    file << text;
    if (!file) return absl::InternalError(absl::StrCat("cannot write ", staged));
  }
  std::error_code error;
  std::filesystem::rename(staged, path, error);
  if (error) return absl::InternalError(absl::StrCat("cannot rename to ", path));
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<TestPki>> TestPki::Make() {
  auto dir = TempDir::Make();
  if (!dir.ok()) return dir.status();
  std::string script = MOREAU_TEST_PKI_SCRIPT;
  std::string target = (*dir)->Path("pki");
  std::string bash = "bash";
  char* argv[] = {bash.data(), script.data(), target.data(), nullptr};
  pid_t pid = 0;
  if (posix_spawnp(&pid, "bash", nullptr, nullptr, argv, environ) != 0) {
    return absl::InternalError("cannot run bash");
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return absl::InternalError(absl::StrCat(script, " failed (is openssl installed?)"));
  }
  return std::unique_ptr<TestPki>(new TestPki(*std::move(dir)));
}

std::string TestPki::Read(const std::string& file) const {
  std::ifstream in(Path(file), std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> TestPki::ServerFlags(bool require_client_certificates) const {
  std::vector<std::string> flags = {"--tls-cert-file", Path("pki/server.pem"), "--tls-key-file",
                                    Path("pki/server.key")};
  if (require_client_certificates) {
    flags.insert(flags.end(), {"--tls-client-ca-file", Path("pki/ca.pem")});
  }
  return flags;
}

client::TlsOptions TestPki::ClientTls(const std::string& ca, const std::string& client) const {
  client::TlsOptions tls;
  tls.root_certificates = Read(absl::StrCat("pki/", ca, ".pem"));
  if (!client.empty()) {
    tls.certificate_chain = Read(absl::StrCat("pki/", client, ".pem"));
    tls.private_key = Read(absl::StrCat("pki/", client, ".key"));
  }
  return tls;
}

std::string TokenDigestHex(const std::string& token) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_Digest(token.data(), token.size(), digest, &size, EVP_sha256(), nullptr);
  std::string hex;
  for (unsigned int i = 0; i < size; ++i)
    absl::StrAppend(&hex, absl::Hex(digest[i], absl::kZeroPad2));
  return hex;
}

std::string TokenLine(const std::string& tenant, const std::string& token,
                      const std::string& option) {
  return absl::StrCat(tenant, " ", TokenDigestHex(token), option.empty() ? "" : " ", option);
}

}  // namespace moreau::testing
