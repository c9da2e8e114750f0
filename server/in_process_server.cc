#include "server/in_process_server.h"

#include <chrono>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "moreau/v1/simulator.grpc.pb.h"
#include "server/in_flight_interceptor.h"

namespace moreau::server {

// The smallest message limit accepted, as moreaud's --max-message-bytes.
constexpr int kMinMessageBytes = 1024;

absl::StatusOr<std::unique_ptr<InProcessServer>> InProcessServer::Start(
    const ServiceOptions& options, int max_message_bytes) {
  if (options.auth != nullptr) {
    return absl::InvalidArgumentError(
        "an in-process server has no authentication (it serves only its own process)");
  }
  const std::pair<const char*, int64_t> limits[] = {
      {"max_instances", options.max_instances}, {"max_substeps", options.max_substeps},
      {"max_batch", options.max_batch},         {"max_create", options.max_create},
      {"max_sessions", options.max_sessions},   {"max_watches", options.max_watches}};
  for (const auto& [name, value] : limits) {
    if (value < 1)
      return absl::InvalidArgumentError(absl::StrCat(name, " must be ≥ 1, got ", value));
  }
  if (options.worker_threads < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("workers must be ≥ 0 (0: one per core), got ", options.worker_threads));
  }
  if (max_message_bytes < kMinMessageBytes) {
    return absl::InvalidArgumentError(absl::StrCat("max_message_bytes must be ≥ ", kMinMessageBytes,
                                                   ", got ", max_message_bytes));
  }
  std::unique_ptr<InProcessServer> server(new InProcessServer(options, max_message_bytes));
  if (server->server_ == nullptr) {
    return absl::InternalError("the in-process gRPC server did not start");
  }
  return server;
}

namespace {

ServiceOptions WithMessageLimit(ServiceOptions options, int max_message_bytes) {
  options.max_message_bytes = max_message_bytes;
  return options;
}

}  // namespace

InProcessServer::InProcessServer(const ServiceOptions& options, int max_message_bytes)
    : parts_(options, &metrics_),
      maintenance_(&parts_, &metrics_, /*checkpoints=*/nullptr, /*per_tenant_gauges=*/false),
      service_(WithMessageLimit(options, max_message_bytes), &parts_, &metrics_) {
  grpc::ServerBuilder builder;
  builder.RegisterService(&service_);
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> creators;
  creators.push_back(InFlightInterceptorFactory(&metrics_, v1::Simulator::service_full_name()));
  builder.experimental().SetInterceptorCreators(std::move(creators));
  builder.SetMaxReceiveMessageSize(max_message_bytes);
  builder.SetMaxSendMessageSize(max_message_bytes);
  server_ = builder.BuildAndStart();
  if (server_ == nullptr) return;
  grpc::ChannelArguments arguments;
  arguments.SetMaxReceiveMessageSize(max_message_bytes);
  arguments.SetMaxSendMessageSize(max_message_bytes);
  channel_ = server_->InProcessChannel(arguments);
}

InProcessServer::~InProcessServer() {
  if (server_ == nullptr) return;
  maintenance_.StopStreams();
  server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1));
  server_->Wait();
}

}  // namespace moreau::server
