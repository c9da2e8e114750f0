// Authentication of moreau.v1.Simulator calls in a gRPC server interceptor.
//
// A gRPC 1.51 server interceptor cannot end a call with a status of its own,
// so the work is split: the interceptor authenticates each Simulator call once
// its client metadata has arrived (POST_RECV_INITIAL_METADATA, which gRPC runs
// before the method handler starts) and records the verdict — the caller's
// tenant or UNAUTHENTICATED — under the call's server context; the handler
// fetches the verdict first (Caller) and fails the call with it. The verdict
// lives as long as the interceptor, i.e. until the call's context is
// destroyed. Calls of other services (health checking, reflection) are not
// intercepted. Works on plaintext and TLS ports alike (e.g. behind a
// TLS-terminating proxy): only the metadata is read.
#ifndef MOREAU_SERVER_AUTH_INTERCEPTOR_H_
#define MOREAU_SERVER_AUTH_INTERCEPTOR_H_

#include <grpcpp/support/server_interceptor.h>

#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "server/authenticator.h"
#include "server/tenant.h"

namespace moreau::server {

class CallAuthenticator {
 public:
  // Checks calls of the service named `service_full_name` (e.g.
  // "moreau.v1.Simulator") with `authenticator`, which must outlive this.
  CallAuthenticator(const Authenticator* authenticator, const std::string& service_full_name);
  CallAuthenticator(const CallAuthenticator&) = delete;
  CallAuthenticator& operator=(const CallAuthenticator&) = delete;

  // For ServerBuilder::experimental().SetInterceptorCreators; the factory
  // refers to this object, which must outlive the server.
  std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> InterceptorFactory();

  // The verdict of the call whose handler got `context`: its tenant, or
  // UNAUTHENTICATED (also when the call was never seen: fail closed).
  absl::StatusOr<Tenant> Caller(const grpc::ServerContextBase* context) const
      ABSL_LOCKS_EXCLUDED(mu_);

 private:
  class Interceptor;
  class Factory;
  void Record(const grpc::ServerContextBase* context, const Interceptor* owner,
              absl::StatusOr<Tenant> verdict) ABSL_LOCKS_EXCLUDED(mu_);
  // Drops the verdict `owner` recorded (a later call's is left alone).
  void Forget(const grpc::ServerContextBase* context, const Interceptor* owner)
      ABSL_LOCKS_EXCLUDED(mu_);

  struct Verdict {
    const Interceptor* owner;
    absl::StatusOr<Tenant> tenant;
  };

  const Authenticator* const authenticator_;
  const std::string method_prefix_;  // "/moreau.v1.Simulator/"
  mutable absl::Mutex mu_;
  absl::flat_hash_map<const grpc::ServerContextBase*, Verdict> verdicts_ ABSL_GUARDED_BY(mu_);
};

}  // namespace moreau::server

#endif  // MOREAU_SERVER_AUTH_INTERCEPTOR_H_
