#include "server/auth_interceptor.h"

#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace moreau::server {

// One per intercepted call; gRPC deletes it with the call's context.
class CallAuthenticator::Interceptor final : public grpc::experimental::Interceptor {
 public:
  Interceptor(CallAuthenticator* owner, const grpc::ServerContextBase* context)
      : owner_(owner), context_(context) {}
  ~Interceptor() override {
    if (recorded_) owner_->Forget(context_, this);
  }

  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(
            grpc::experimental::InterceptionHookPoints::POST_RECV_INITIAL_METADATA)) {
      owner_->Record(context_, this,
                     owner_->authenticator_->Authenticate(*methods->GetRecvInitialMetadata()));
      recorded_ = true;
    }
    methods->Proceed();
  }

 private:
  CallAuthenticator* const owner_;
  const grpc::ServerContextBase* const context_;
  bool recorded_ = false;
};

class CallAuthenticator::Factory final
    : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  explicit Factory(CallAuthenticator* owner) : owner_(owner) {}

  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override {
    // Only the guarded service; nullptr leaves a call unintercepted.
    if (info->method() == nullptr || !absl::StartsWith(info->method(), owner_->method_prefix_)) {
      return nullptr;
    }
    return new Interceptor(owner_, info->server_context());
  }

 private:
  CallAuthenticator* const owner_;
};

CallAuthenticator::CallAuthenticator(const Authenticator* authenticator,
                                     const std::string& service_full_name)
    : authenticator_(authenticator), method_prefix_(absl::StrCat("/", service_full_name, "/")) {}

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
CallAuthenticator::InterceptorFactory() {
  return std::make_unique<Factory>(this);
}

absl::StatusOr<Tenant> CallAuthenticator::Caller(const grpc::ServerContextBase* context) const {
  absl::MutexLock lock(&mu_);
  auto it = verdicts_.find(context);
  if (it == verdicts_.end()) return absl::UnauthenticatedError("the call was not authenticated");
  return it->second.tenant;
}

void CallAuthenticator::Record(const grpc::ServerContextBase* context, const Interceptor* owner,
                               absl::StatusOr<Tenant> verdict) {
  absl::MutexLock lock(&mu_);
  verdicts_.insert_or_assign(context, Verdict{owner, std::move(verdict)});
}

void CallAuthenticator::Forget(const grpc::ServerContextBase* context, const Interceptor* owner) {
  absl::MutexLock lock(&mu_);
  auto it = verdicts_.find(context);
  if (it != verdicts_.end() && it->second.owner == owner) verdicts_.erase(it);
}

}  // namespace moreau::server
