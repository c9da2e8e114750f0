// `moreau remote health [SERVICE]`: asks the server's gRPC health service.
#ifndef MOREAU_CLIENTS_CLI_REMOTE_HEALTH_H_
#define MOREAU_CLIENTS_CLI_REMOTE_HEALTH_H_

#include <string>

#include "absl/status/status.h"
#include "clients/cli/command.h"
#include "clients/cpp/client.h"

namespace moreau::cli {

// OK (printing "SERVING", or a JSON object with --json) when the health
// service reports SERVING for SERVICE (default "": the server as a whole),
// within --timeout-s; else an error saying which: NOT_SERVING (the server is
// draining or stopping), an unknown service, nothing answering at `address`,
// or no answer in time.
// `connection`: TLS and token as for the other remote commands (its timeout
// is replaced by --timeout-s).
absl::Status RemoteHealth(const std::string& address, client::ClientOptions connection,
                          const Invocation& inv);

}  // namespace moreau::cli

#endif  // MOREAU_CLIENTS_CLI_REMOTE_HEALTH_H_
