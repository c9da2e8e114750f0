#include "clients/cli/remote_health.h"

#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "clients/cli/remote_flags.h"
#include "clients/cpp/health.h"
#include "clients/json/json_writer.h"

namespace moreau::cli {

absl::Status RemoteHealth(const std::string& address, client::ClientOptions connection,
                          const Invocation& inv) {
  if (inv.args.size() > 2) {
    return absl::InvalidArgumentError("usage: moreau remote health [SERVICE] [--timeout-s S]");
  }
  const double timeout_s = inv.flags.remote.timeout_s;
  if (!(timeout_s > 0.0) || !std::isfinite(timeout_s)) {
    return absl::InvalidArgumentError(absl::StrCat("--timeout-s must be > 0, got ", timeout_s));
  }
  const std::string service = inv.args.size() == 2 ? inv.args[1] : "";
  // "the server" or "service NAME", for the messages.
  const std::string what = service.empty() ? "the server" : absl::StrCat("service ", service);
  connection.timeout = absl::Seconds(timeout_s);
  client::Client client(address, connection);
  absl::StatusOr<client::ServingStatus> status = client.CheckHealth(service);
  if (!status.ok()) {
    switch (status.status().code()) {
      case absl::StatusCode::kUnavailable:
        return absl::UnavailableError(
            absl::StrCat("moreaud at ", address, " is unreachable: ", status.status().message()));
      case absl::StatusCode::kDeadlineExceeded:
        return absl::DeadlineExceededError(
            absl::StrCat("moreaud at ", address, ": no health answer within ", timeout_s, " s"));
      case absl::StatusCode::kNotFound:
        return absl::NotFoundError(
            absl::StrCat("moreaud at ", address, ": the health service knows no ", what));
      default:
        return absl::Status(status.status().code(),
                            absl::StrCat("moreaud at ", address,
                                         ": health check failed: ", status.status().message()));
    }
  }
  if (*status != client::ServingStatus::kServing) {
    return absl::UnavailableError(
        absl::StrCat("moreaud at ", address, ": ", what, " is ", client::ServingStatusName(*status),
                     *status == client::ServingStatus::kNotServing
                         ? " (draining or stopping: send calls to another replica)"
                         : ""));
  }
  std::ostream& out = *inv.out;
  if (inv.flags.common.json) {
    JsonWriter json(out);
    json.BeginObject();
    json.Key("address").String(address);
    json.Key("service").String(service);
    json.Key("status").String(std::string(client::ServingStatusName(*status)));
    json.EndObject();
    out << '\n';
  } else {
    out << client::ServingStatusName(*status) << '\n';
  }
  return absl::OkStatus();
}

}  // namespace moreau::cli
