#include "clients/cpp/client.h"

#include <grpcpp/support/client_interceptor.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <utility>

#include "absl/strings/str_cat.h"

namespace moreau::client {
namespace {

absl::StatusOr<std::string> ReadPem(const std::string& path, const char* what) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  if (file) text << file.rdbuf();
  if (!file || text.str().empty()) {
    return absl::NotFoundError(absl::StrCat("cannot read the ", what, " file '", path, "'"));
  }
  return text.str();
}

// Adds "authorization: Bearer TOKEN" (RFC 6750 § 2.1) to every call's
// initial metadata: unary calls, streams and calls made on stub() directly.
class BearerTokenInterceptor final : public grpc::experimental::Interceptor {
 public:
  explicit BearerTokenInterceptor(std::shared_ptr<const std::string> header)
      : header_(std::move(header)) {}

  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(
            grpc::experimental::InterceptionHookPoints::PRE_SEND_INITIAL_METADATA)) {
      methods->GetSendInitialMetadata()->emplace("authorization", *header_);
    }
    methods->Proceed();
  }

 private:
  const std::shared_ptr<const std::string> header_;
};

class BearerTokenInterceptorFactory final
    : public grpc::experimental::ClientInterceptorFactoryInterface {
 public:
  explicit BearerTokenInterceptorFactory(const std::string& token)
      : header_(std::make_shared<const std::string>(absl::StrCat("Bearer ", token))) {}

  grpc::experimental::Interceptor* CreateClientInterceptor(
      grpc::experimental::ClientRpcInfo*) override {
    return new BearerTokenInterceptor(header_);
  }

 private:
  const std::shared_ptr<const std::string> header_;
};

}  // namespace

absl::StatusOr<TlsOptions> LoadTlsFiles(const std::string& ca_file, const std::string& cert_file,
                                        const std::string& key_file) {
  if (cert_file.empty() != key_file.empty()) {
    return absl::InvalidArgumentError(
        "give both the client certificate and its key file, or neither");
  }
  TlsOptions tls;
  if (!ca_file.empty()) {
    auto ca = ReadPem(ca_file, "CA certificate");
    if (!ca.ok()) return ca.status();
    tls.root_certificates = *std::move(ca);
  }
  if (!cert_file.empty()) {
    auto cert = ReadPem(cert_file, "client certificate");
    if (!cert.ok()) return cert.status();
    auto key = ReadPem(key_file, "client key");
    if (!key.ok()) return key.status();
    tls.certificate_chain = *std::move(cert);
    tls.private_key = *std::move(key);
  }
  return tls;
}

absl::Status FromGrpc(const grpc::Status& status) {
  if (status.ok()) return absl::OkStatus();
  return absl::Status(static_cast<absl::StatusCode>(status.error_code()), status.error_message());
}

absl::Status StatusOf(const v1::Observation& observation) {
  return absl::Status(static_cast<absl::StatusCode>(observation.status().code()),
                      observation.status().message());
}

Client::Client(const std::string& address, const ClientOptions& options) : options_(options) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(options.max_message_bytes);
  args.SetMaxSendMessageSize(options.max_message_bytes);
  std::shared_ptr<grpc::ChannelCredentials> credentials = grpc::InsecureChannelCredentials();
  if (options.tls.has_value()) {
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = options.tls->root_certificates;
    ssl.pem_cert_chain = options.tls->certificate_chain;
    ssl.pem_private_key = options.tls->private_key;
    credentials = grpc::SslCredentials(ssl);
  }
  if (options.token.empty()) {
    channel_ = grpc::CreateCustomChannel(address, credentials, args);
  } else {
    std::vector<std::unique_ptr<grpc::experimental::ClientInterceptorFactoryInterface>> creators;
    creators.push_back(std::make_unique<BearerTokenInterceptorFactory>(options.token));
    channel_ = grpc::experimental::CreateCustomChannelWithInterceptors(address, credentials, args,
                                                                       std::move(creators));
  }
  stub_ = v1::Simulator::NewStub(channel_);
}

void Client::PrepareContext(grpc::ClientContext& context) const {
  context.set_deadline(absl::ToChronoTime(absl::Now() + options_.timeout));
}

absl::Status Client::WaitForServer(absl::Duration timeout) {
  if (channel_->WaitForConnected(absl::ToChronoTime(absl::Now() + timeout))) {
    return absl::OkStatus();
  }
  return absl::UnavailableError("the server did not answer in time");
}

absl::StatusOr<ServingStatus> Client::CheckHealth(const std::string& service) {
  return client::CheckHealth(channel_, service, options_.timeout);
}

template <typename Request, typename Response, typename Method>
absl::StatusOr<Response> Client::Call(Method method, const Request& request) {
  grpc::ClientContext context;
  PrepareContext(context);
  Response response;
  const grpc::Status status = ((*stub_).*method)(&context, request, &response);
  if (!status.ok()) return FromGrpc(status);
  return response;
}

absl::StatusOr<v1::ListModelsResponse> Client::ListModels() {
  return Call<v1::ListModelsRequest, v1::ListModelsResponse>(&v1::Simulator::Stub::ListModels,
                                                             v1::ListModelsRequest());
}

absl::StatusOr<v1::ModelSpec> Client::GetModel(const v1::ModelSource& model) {
  v1::GetModelRequest request;
  *request.mutable_model() = model;
  auto response =
      Call<v1::GetModelRequest, v1::GetModelResponse>(&v1::Simulator::Stub::GetModel, request);
  if (!response.ok()) return response.status();
  return response->spec();
}

absl::StatusOr<v1::GetMeshResponse> Client::GetMesh(const std::string& model,
                                                    const std::string& mesh) {
  v1::GetMeshRequest request;
  request.set_model(model);
  request.set_mesh(mesh);
  return Call<v1::GetMeshRequest, v1::GetMeshResponse>(&v1::Simulator::Stub::GetMesh, request);
}

absl::StatusOr<v1::CreateInstancesResponse> Client::CreateInstances(
    const v1::CreateInstancesRequest& request) {
  return Call<v1::CreateInstancesRequest, v1::CreateInstancesResponse>(
      &v1::Simulator::Stub::CreateInstances, request);
}

absl::StatusOr<v1::CreateInstancesResponse> Client::CreateBuiltin(const std::string& model,
                                                                  int count,
                                                                  const v1::Settings& settings) {
  v1::CreateInstancesRequest request;
  request.mutable_model()->set_builtin(model);
  *request.mutable_settings() = settings;
  request.set_count(count);
  return CreateInstances(request);
}

absl::StatusOr<v1::ListInstancesResponse> Client::ListInstances(int page_size,
                                                                const std::string& page_token) {
  v1::ListInstancesRequest request;
  request.set_page_size(page_size);
  request.set_page_token(page_token);
  return Call<v1::ListInstancesRequest, v1::ListInstancesResponse>(
      &v1::Simulator::Stub::ListInstances, request);
}

absl::StatusOr<v1::DestroyInstancesResponse> Client::DestroyInstances(
    const std::vector<std::string>& ids) {
  v1::DestroyInstancesRequest request;
  for (const std::string& id : ids) request.add_instance_ids(id);
  return Call<v1::DestroyInstancesRequest, v1::DestroyInstancesResponse>(
      &v1::Simulator::Stub::DestroyInstances, request);
}

absl::StatusOr<v1::Observation> Client::Reset(const v1::ResetRequest& request) {
  auto response = Call<v1::ResetRequest, v1::ResetResponse>(&v1::Simulator::Stub::Reset, request);
  if (!response.ok()) return response.status();
  return response->observation();
}

absl::StatusOr<v1::Observation> Client::Step(const std::string& id, const Eigen::VectorXd& action,
                                             int substeps) {
  v1::StepRequest request;
  request.set_instance_id(id);
  request.mutable_action()->Assign(action.data(), action.data() + action.size());
  request.set_substeps(substeps);
  return Step(request);
}

absl::StatusOr<v1::Observation> Client::Step(const v1::StepRequest& request) {
  auto response = Call<v1::StepRequest, v1::StepResponse>(&v1::Simulator::Stub::Step, request);
  if (!response.ok()) return response.status();
  return response->observation();
}

absl::StatusOr<v1::StepBatchResponse> Client::StepBatch(const v1::StepBatchRequest& request) {
  return Call<v1::StepBatchRequest, v1::StepBatchResponse>(&v1::Simulator::Stub::StepBatch,
                                                           request);
}

absl::StatusOr<v1::GetStateResponse> Client::GetState(const std::string& id) {
  v1::GetStateRequest request;
  request.set_instance_id(id);
  return Call<v1::GetStateRequest, v1::GetStateResponse>(&v1::Simulator::Stub::GetState, request);
}

absl::StatusOr<v1::Observation> Client::SetState(const std::string& id, const std::string& blob) {
  v1::SetStateRequest request;
  request.set_instance_id(id);
  request.mutable_state()->set_data(blob);
  auto response =
      Call<v1::SetStateRequest, v1::SetStateResponse>(&v1::Simulator::Stub::SetState, request);
  if (!response.ok()) return response.status();
  return response->observation();
}

absl::StatusOr<v1::QueryResponse> Client::Query(const v1::QueryRequest& request) {
  return Call<v1::QueryRequest, v1::QueryResponse>(&v1::Simulator::Stub::Query, request);
}

std::unique_ptr<Client::Session> Client::OpenSession() {
  auto session = std::make_unique<Session>();
  session->stream_ = stub_->Session(&session->context_);
  return session;
}

bool Client::Session::Send(const v1::StepRequest& step) {
  v1::SessionRequest request;
  *request.mutable_step() = step;
  return stream_->Write(request);
}

bool Client::Session::Receive(v1::Observation* observation) {
  v1::SessionResponse response;
  if (!stream_->Read(&response)) return false;
  *observation = std::move(*response.mutable_observation());
  return true;
}

absl::Status Client::Session::Close() {
  stream_->WritesDone();
  return FromGrpc(stream_->Finish());
}

std::unique_ptr<Client::WatchStream> Client::Watch(const std::string& id, double rate_hz) {
  auto watch = std::make_unique<WatchStream>();
  v1::WatchRequest request;
  request.set_instance_id(id);
  request.set_rate_hz(rate_hz);
  watch->reader_ = stub_->Watch(&watch->context_, request);
  return watch;
}

}  // namespace moreau::client
