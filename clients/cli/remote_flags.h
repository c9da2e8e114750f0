// The values of the flags of `moreau remote` that no other command takes: the
// connection (--address, --tls-*, --token) and the arguments of its
// subcommands (--count, --seed, --noise for create; --action, --substeps for
// step; --rate, --frames for watch; --state-in for state; --out for mesh;
// --timeout-s for health).
#ifndef MOREAU_CLIENTS_CLI_REMOTE_FLAGS_H_
#define MOREAU_CLIENTS_CLI_REMOTE_FLAGS_H_

#include <cstdint>
#include <string>

namespace moreau::cli {

struct RemoteFlags {
  std::string address = "localhost:50051";  // moreaud's host:port (else $MOREAU_ADDRESS)
  int count = 1;                            // create: how many instances
  uint64_t seed = 0;                        // create: noise seed of instance 0
  double noise = 0.0;                       // create: initial joint/velocity noise
  int substeps = 1;                         // step: sub-steps the action is held for
  std::string action;                       // step: comma-separated, one entry per actuator
  double rate = 10.0;                       // watch: frames per second
  int frames = 10;                          // watch: frames before it stops
  std::string state_in;                     // state: the state blob file to restore
  std::string mesh_out;                     // mesh: the file to write the mesh to
  double timeout_s = 5.0;                   // health: seconds to wait for the answer
  std::string tls_ca_file;                  // TLS: PEM CA certificates
  std::string tls_cert_file;                // mTLS: the client's PEM certificate chain
  std::string tls_key_file;                 // mTLS: its PEM private key
  std::string token;                        // bearer token; empty: $MOREAU_TOKEN
};

}  // namespace moreau::cli

#endif  // MOREAU_CLIENTS_CLI_REMOTE_FLAGS_H_
