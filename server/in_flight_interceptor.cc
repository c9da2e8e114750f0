#include "server/in_flight_interceptor.h"

#include <optional>
#include <string_view>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace moreau::server {
namespace {

// One per counted call; gRPC deletes it with the call's context.
class InFlightInterceptor final : public grpc::experimental::Interceptor {
 public:
  InFlightInterceptor(Metrics* metrics, Rpc rpc) : metrics_(metrics), rpc_(rpc) {
    metrics_->RpcStarted(rpc_);
  }
  ~InFlightInterceptor() override { metrics_->RpcEnded(rpc_); }

  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    methods->Proceed();
  }

 private:
  Metrics* const metrics_;
  const Rpc rpc_;
};

class InFlightFactory final : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  InFlightFactory(Metrics* metrics, const std::string& service_full_name)
      : metrics_(metrics), method_prefix_(absl::StrCat("/", service_full_name, "/")) {}

  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override {
    // nullptr leaves a call of another service (or an unknown method) alone.
    if (info->method() == nullptr || !absl::StartsWith(info->method(), method_prefix_)) {
      return nullptr;
    }
    const std::optional<Rpc> rpc =
        RpcByName(std::string_view(info->method()).substr(method_prefix_.size()));
    if (!rpc.has_value()) return nullptr;
    return new InFlightInterceptor(metrics_, *rpc);
  }

 private:
  Metrics* const metrics_;
  const std::string method_prefix_;  // "/moreau.v1.Simulator/"
};

}  // namespace

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> InFlightInterceptorFactory(
    Metrics* metrics, const std::string& service_full_name) {
  return std::make_unique<InFlightFactory>(metrics, service_full_name);
}

}  // namespace moreau::server
