#include "clients/cpp/client.h"

#include <chrono>

namespace moreau::client {

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
  channel_ = grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(), args);
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
