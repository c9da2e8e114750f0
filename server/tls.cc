#include "server/tls.h"

#include <grpcpp/security/server_credentials.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "server/read_file.h"

namespace moreau::server {
namespace {

// OpenSSL's reason for the last failure (and an empty error queue after).
std::string OpenSslReason() {
  const unsigned long code = ERR_peek_last_error();
  ERR_clear_error();
  if (code == 0) return "";
  char text[256];
  ERR_error_string_n(code, text, sizeof(text));
  return absl::StrCat(" (", text, ")");
}

struct BioDeleter {
  void operator()(BIO* bio) const { BIO_free(bio); }
};
struct X509Deleter {
  void operator()(X509* x) const { X509_free(x); }
};
struct KeyDeleter {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
using Bio = std::unique_ptr<BIO, BioDeleter>;
using Certificate = std::unique_ptr<X509, X509Deleter>;
using PrivateKey = std::unique_ptr<EVP_PKEY, KeyDeleter>;

Bio MemoryBio(const std::string& pem) {
  return Bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
}

// The file's text with `flag` in any error.
absl::StatusOr<std::string> ReadFlagFile(absl::string_view flag, const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path, flag);
  if (!text.ok()) return text.status();
  if (text->empty()) {
    return absl::InvalidArgumentError(absl::StrCat(flag, " '", path, "' is empty"));
  }
  return text;
}

// The first certificate of a PEM bundle after checking that every block in
// it is a certificate.
absl::StatusOr<Certificate> ParseCertificates(absl::string_view flag, const std::string& path,
                                              const std::string& pem) {
  ERR_clear_error();
  Bio bio = MemoryBio(pem);
  Certificate first;
  int count = 0;
  while (true) {
    Certificate cert(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
    if (cert == nullptr) break;
    if (first == nullptr) first = std::move(cert);
    ++count;
  }
  // The loop ends at the end of the text (PEM_R_NO_START_LINE) or at a block
  // that is not a certificate.
  const unsigned long last = ERR_peek_last_error();
  const bool clean_end =
      ERR_GET_LIB(last) == ERR_LIB_PEM && ERR_GET_REASON(last) == PEM_R_NO_START_LINE;
  if (count == 0 || !clean_end) {
    std::string reason;
    if (clean_end) {
      ERR_clear_error();
    } else {
      reason = OpenSslReason();
    }
    return absl::InvalidArgumentError(absl::StrCat(
        flag, " '", path, "' is not a PEM certificate (BEGIN CERTIFICATE) bundle", reason));
  }
  ERR_clear_error();
  return first;
}

absl::StatusOr<PrivateKey> ParsePrivateKey(const std::string& path, const std::string& pem) {
  ERR_clear_error();
  Bio bio = MemoryBio(pem);
  PrivateKey key(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
  if (key == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--tls-key-file '", path, "' is not an unencrypted PEM private key (BEGIN PRIVATE KEY)",
        OpenSslReason()));
  }
  return key;
}

}  // namespace

const char* TransportName(const TlsFiles& files) {
  if (files.cert_file.empty()) return "plaintext";
  return files.client_ca_file.empty() ? "TLS" : "mTLS";
}

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> MakeServerCredentials(
    const TlsFiles& files) {
  if (files.cert_file.empty() && files.key_file.empty()) {
    if (!files.client_ca_file.empty()) {
      return absl::InvalidArgumentError(
          "--tls-client-ca-file needs --tls-cert-file and --tls-key-file (the server's own "
          "certificate)");
    }
    return grpc::InsecureServerCredentials();
  }
  if (files.cert_file.empty() || files.key_file.empty()) {
    return absl::InvalidArgumentError(
        "give both --tls-cert-file and --tls-key-file (the server's certificate and its key)");
  }
  absl::StatusOr<std::string> cert_pem = ReadFlagFile("--tls-cert-file", files.cert_file);
  if (!cert_pem.ok()) return cert_pem.status();
  absl::StatusOr<std::string> key_pem = ReadFlagFile("--tls-key-file", files.key_file);
  if (!key_pem.ok()) return key_pem.status();
  absl::StatusOr<Certificate> leaf =
      ParseCertificates("--tls-cert-file", files.cert_file, *cert_pem);
  if (!leaf.ok()) return leaf.status();
  absl::StatusOr<PrivateKey> key = ParsePrivateKey(files.key_file, *key_pem);
  if (!key.ok()) return key.status();
  if (X509_check_private_key(leaf->get(), key->get()) != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("--tls-key-file '", files.key_file,
                     "' is not the key of the first certificate in --tls-cert-file '",
                     files.cert_file, "'", OpenSslReason()));
  }
  grpc::SslServerCredentialsOptions options(GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
  options.pem_key_cert_pairs.push_back({*key_pem, *cert_pem});
  if (!files.client_ca_file.empty()) {
    absl::StatusOr<std::string> ca_pem = ReadFlagFile("--tls-client-ca-file", files.client_ca_file);
    if (!ca_pem.ok()) return ca_pem.status();
    absl::StatusOr<Certificate> ca =
        ParseCertificates("--tls-client-ca-file", files.client_ca_file, *ca_pem);
    if (!ca.ok()) return ca.status();
    // Clients must present a certificate that chains to one of these CAs.
    options.client_certificate_request = GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY;
    options.pem_root_certs = *ca_pem;
  }
  return grpc::SslServerCredentials(options);
}

}  // namespace moreau::server
