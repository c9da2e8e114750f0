#include "server/in_process_server.h"

#include <algorithm>
#include <chrono>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "moreau/v1/simulator.grpc.pb.h"
#include "server/in_flight_interceptor.h"
#include "server/step_batch.h"

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
    : options_(WithMessageLimit(options, max_message_bytes)),
      parts_(options_, &metrics_),
      maintenance_(&parts_, &metrics_, /*checkpoints=*/nullptr, /*per_tenant_gauges=*/false),
      service_(options_, &parts_, &metrics_) {
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

namespace {

// gRPC's error for a message over the limit, as the RPC would end.
absl::Status TooLarge(size_t bytes, int max_message_bytes) {
  return absl::ResourceExhaustedError(
      absl::StrCat("Sent message larger than max (", bytes, " vs. ", max_message_bytes, ")"));
}

}  // namespace

std::shared_ptr<DirectStepBatch> InProcessServer::StartStepBatch(std::string_view request,
                                                                 std::optional<double> timeout_s,
                                                                 bool caller_helps) {
  std::shared_ptr<DirectStepBatch> call(new DirectStepBatch());
  call->server_ = this;
  call->start_ = absl::Now();
  const absl::Time deadline =
      timeout_s.has_value() ? call->start_ + absl::Seconds(*timeout_s) : absl::InfiniteFuture();
  auto fail = [&](absl::Status status) {
    metrics_.ObserveRpc(Rpc::kStepBatch, static_cast<grpc::StatusCode>(status.code()),
                        absl::ToDoubleSeconds(absl::Now() - call->start_));
    call->status_ = std::move(status);
    call->helper_left_ = true;
    call->done_.Notify();
    return call;
  };
  if (request.size() > static_cast<size_t>(options_.max_message_bytes)) {
    return fail(TooLarge(request.size(), options_.max_message_bytes));
  }
  if (!call->request_.ParseFromArray(request.data(), static_cast<int>(request.size()))) {
    return fail(absl::InternalError("the StepBatch request could not be parsed"));
  }
  absl::StatusOr<std::unique_ptr<StepBatchRun>> run = StepBatchRun::Prepare(
      options_, parts_.registry, /*tenant=*/"", call->request_, deadline, &call->response_);
  if (!run.ok()) return fail(run.status());
  call->run_ = *std::move(run);
  const InstanceStepper& stepper = parts_.stepper;
  if (stepper.RunsInline(call->run_->total_substeps())) {
    call->runners_ = 1;
    call->helper_left_ = true;
    call->run_->Run(stepper);
    call->Leave();
    return call;
  }
  const int wanted = std::min(call->run_->size(), parts_.pool.size());
  const int pool_runners = caller_helps ? wanted - 1 : std::max(1, wanted);
  call->helper_left_ = !caller_helps;
  call->runners_ = pool_runners + (caller_helps ? 1 : 0);
  for (int r = 0; r < pool_runners; ++r) SubmitRunner(call);
  return call;
}

void InProcessServer::SubmitRunner(std::shared_ptr<DirectStepBatch> call) {
  parts_.pool.Submit([call = std::move(call)] {
    call->run_->Run(call->server_->parts_.stepper);
    call->Leave();
  });
}

DirectStepBatch::~DirectStepBatch() = default;

void DirectStepBatch::Help(absl::Time until) {
  if (helper_left_) return;
  helper_left_ = true;
  run_->Run(server_->parts_.stepper, until);
  if (!run_->claimed_all()) {
    // Out of time: a pool runner takes the caller's place.
    runners_.fetch_add(1, std::memory_order_relaxed);
    server_->SubmitRunner(shared_from_this());
  }
  Leave();
}

bool DirectStepBatch::Wait(absl::Duration timeout) {
  return done_.WaitForNotificationWithTimeout(timeout);
}

void DirectStepBatch::Leave() {
  if (runners_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  if (absl::Now() > run_->deadline()) {
    status_ = absl::DeadlineExceededError("Deadline Exceeded");
  } else {
    reply_bytes_ = response_.ByteSizeLong();
    const int max_message_bytes = server_->options_.max_message_bytes;
    if (reply_bytes_ > static_cast<size_t>(max_message_bytes)) {
      status_ = TooLarge(reply_bytes_, max_message_bytes);
    }
  }
  server_->metrics_.ObserveRpc(Rpc::kStepBatch, static_cast<grpc::StatusCode>(status_.code()),
                               absl::ToDoubleSeconds(absl::Now() - start_));
  done_.Notify();
}

}  // namespace moreau::server
