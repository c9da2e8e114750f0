// Calls in flight by method (moreau_rpcs_in_flight), counted by a gRPC server
// interceptor: one more when a moreau.v1.Simulator call arrives, one fewer
// when gRPC destroys the call's context (after the reply or, for a stream,
// after its last reaction). Every path a call can take — refused, failed,
// cancelled, drained at shutdown — ends the same way, so the gauge cannot
// drift. Calls of other services (health checking, reflection) are not
// counted.
#ifndef MOREAU_SERVER_IN_FLIGHT_INTERCEPTOR_H_
#define MOREAU_SERVER_IN_FLIGHT_INTERCEPTOR_H_

#include <grpcpp/support/server_interceptor.h>

#include <memory>
#include <string>

#include "server/metrics.h"

namespace moreau::server {

// For ServerBuilder::experimental().SetInterceptorCreators: counts the calls
// of the service named `service_full_name` (e.g. "moreau.v1.Simulator") into
// `metrics`, which must outlive the server.
std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> InFlightInterceptorFactory(
    Metrics* metrics, const std::string& service_full_name);

}  // namespace moreau::server

#endif  // MOREAU_SERVER_IN_FLIGHT_INTERCEPTOR_H_
