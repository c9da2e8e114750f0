// The listening port's transport security: plaintext, TLS (the server proves
// itself with a certificate) or mutual TLS (clients must present a
// certificate signed by one of the given CAs, verified in the handshake).
#ifndef MOREAU_SERVER_TLS_H_
#define MOREAU_SERVER_TLS_H_

#include <grpcpp/security/server_credentials.h>

#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace moreau::server {

struct TlsFiles {
  std::string cert_file;       // PEM certificate chain of the server, leaf first
  std::string key_file;        // PEM private key of the leaf certificate
  std::string client_ca_file;  // PEM CA certificates; set: clients need a certificate (mTLS)
};

// "plaintext", "TLS" or "mTLS".
const char* TransportName(const TlsFiles& files);

// The credentials of the listening port: insecure when no file is named.
// Every file is read and parsed here (and the key checked against the
// certificate) so that a bad one stops the server at start-up with an error
// naming the flag, the file and the problem, rather than failing handshakes.
absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> MakeServerCredentials(
    const TlsFiles& files);

}  // namespace moreau::server

#endif  // MOREAU_SERVER_TLS_H_
