// The one place where absl::Status becomes a grpc::Status (docs/service.md
// § Conventions). absl's codes equal google.rpc.Code number for number.
#ifndef MOREAU_SERVER_GRPC_STATUS_H_
#define MOREAU_SERVER_GRPC_STATUS_H_

#include <grpcpp/support/status.h>

#include <string>

#include "absl/status/status.h"

namespace moreau::server {

inline grpc::Status ToGrpcStatus(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  return grpc::Status(static_cast<grpc::StatusCode>(status.code()), std::string(status.message()));
}

}  // namespace moreau::server

#endif  // MOREAU_SERVER_GRPC_STATUS_H_
