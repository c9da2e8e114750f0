// grpc.health.v1.Health/Check (the standard gRPC health service) over any
// channel, without generated health stubs: the request
// HealthCheckRequest{string service = 1} and the response
// HealthCheckResponse{ServingStatus status = 1} are encoded and decoded here.
#ifndef MOREAU_CLIENTS_CPP_HEALTH_H_
#define MOREAU_CLIENTS_CPP_HEALTH_H_

#include <grpcpp/grpcpp.h>

#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace moreau::client {

// HealthCheckResponse.ServingStatus, same numbers.
enum class ServingStatus {
  kUnknown = 0,
  kServing = 1,
  kNotServing = 2,
  kServiceUnknown = 3,
};

// "UNKNOWN", "SERVING", "NOT_SERVING", "SERVICE_UNKNOWN" (the proto's names).
absl::string_view ServingStatusName(ServingStatus status);

// The request's bytes for `service` ("" asks for the server as a whole).
std::string EncodeHealthCheckRequest(absl::string_view service);

// The status a HealthCheckResponse's bytes carry; nullopt when the bytes are
// not one (unknown fields are skipped).
std::optional<ServingStatus> DecodeHealthCheckResponse(absl::string_view bytes);

// One Check call on `channel` with a deadline `timeout` from now. The call's
// failure is the returned status (UNAVAILABLE: nothing answers at the
// address; DEADLINE_EXCEEDED: no answer in time; NOT_FOUND: the server knows
// no such service, as the health service reports it).
absl::StatusOr<ServingStatus> CheckHealth(std::shared_ptr<grpc::Channel> channel,
                                          absl::string_view service, absl::Duration timeout);

}  // namespace moreau::client

#endif  // MOREAU_CLIENTS_CPP_HEALTH_H_
