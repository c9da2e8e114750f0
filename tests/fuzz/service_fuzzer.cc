// Every request message of every RPC of moreau.v1.Simulator, through a real
// SimulatorService served in process (grpc::Server + InProcessChannel,
// started once). Input: byte 0 picks the RPC (service_inputs.h), the rest is
// its request message; a Session sends the steps of a StepBatchRequest down
// one stream, a Watch reads a few frames. An instance id of one character
// '0', '1' or '2' stands for one of three instances made at start (a floating
// quadruped, a box under a force law, a pendulum under PD), so inputs reach
// past NOT_FOUND; after each input they are put back in their first state, or
// made again when the input destroyed them.
#include <google/protobuf/stubs/logging.h>
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "moreau/v1/simulator.grpc.pb.h"
#include "server/metrics.h"
#include "server/server_parts.h"
#include "server/service.h"
#include "server/service_options.h"
#include "tests/fuzz/service_inputs.h"

namespace {

namespace v1 = ::moreau::v1;
using moreau::fuzz::Rpc;

struct Base {
  v1::CreateInstancesRequest request;
  std::string id;
  std::string blob;  // its first state
};

class Fixture {
 public:
  Fixture() {
    // Requests with invalid UTF-8 in a string field fail to parse, as on the
    // wire; protobuf need not log each.
    google::protobuf::SetLogHandler(nullptr);
    moreau::server::ServiceOptions options;
    options.max_instances = 64;
    options.max_substeps = 200;
    options.max_batch = 8;
    options.max_create = 4;
    options.worker_threads = 2;
    options.max_sessions = 4;
    options.max_watches = 4;
    options.urdf_limits.max_bytes = 1 << 16;
    options.urdf_limits.max_elements = 4000;
    options.urdf_limits.max_links = 64;
    options.urdf_limits.max_joints = 64;
    options.urdf_limits.max_contact_points = 32;
    options.heightfield_limits.max_nodes = 4096;
    parts_ = std::make_unique<moreau::server::ServerParts>(options, &metrics_);
    service_ = std::make_unique<moreau::server::SimulatorService>(options, parts_.get(), &metrics_);
    grpc::ServerBuilder builder;
    builder.RegisterService(service_.get());
    server_ = builder.BuildAndStart();
    if (server_ == nullptr) std::abort();
    stub_ = v1::Simulator::NewStub(server_->InProcessChannel(grpc::ChannelArguments()));
    for (const v1::CreateInstancesRequest& request : moreau::fuzz::BaseInstances()) {
      bases_.push_back({request, "", ""});
      Make(bases_.back());
    }
  }

  void Run(const uint8_t* data, size_t size) {
    if (size == 0) return;
    const auto rpc = static_cast<Rpc>(data[0] % static_cast<uint8_t>(Rpc::kCount));
    const char* body = reinterpret_cast<const char*>(data + 1);
    const int length = static_cast<int>(size - 1);
    switch (rpc) {
      case Rpc::kListModels:
        Unary<v1::ListModelsRequest, v1::ListModelsResponse>(body, length,
                                                             &v1::Simulator::Stub::ListModels);
        break;
      case Rpc::kGetModel:
        Unary<v1::GetModelRequest, v1::GetModelResponse>(body, length,
                                                         &v1::Simulator::Stub::GetModel);
        break;
      case Rpc::kCreateInstances:
        CreateInstances(body, length);
        break;
      case Rpc::kDestroyInstances:
        Unary<v1::DestroyInstancesRequest, v1::DestroyInstancesResponse>(
            body, length, &v1::Simulator::Stub::DestroyInstances,
            [this](v1::DestroyInstancesRequest& r) {
              for (std::string& id : *r.mutable_instance_ids()) Substitute(id);
            });
        break;
      case Rpc::kReset:
        Unary<v1::ResetRequest, v1::ResetResponse>(
            body, length, &v1::Simulator::Stub::Reset,
            [this](v1::ResetRequest& r) { Substitute(*r.mutable_instance_id()); });
        break;
      case Rpc::kStep:
        Unary<v1::StepRequest, v1::StepResponse>(
            body, length, &v1::Simulator::Stub::Step,
            [this](v1::StepRequest& r) { Substitute(*r.mutable_instance_id()); });
        break;
      case Rpc::kStepBatch:
        Unary<v1::StepBatchRequest, v1::StepBatchResponse>(
            body, length, &v1::Simulator::Stub::StepBatch, [this](v1::StepBatchRequest& r) {
              for (v1::StepRequest& step : *r.mutable_steps()) {
                Substitute(*step.mutable_instance_id());
              }
            });
        break;
      case Rpc::kSession:
        Session(body, length);
        break;
      case Rpc::kGetState:
        Unary<v1::GetStateRequest, v1::GetStateResponse>(
            body, length, &v1::Simulator::Stub::GetState,
            [this](v1::GetStateRequest& r) { Substitute(*r.mutable_instance_id()); });
        break;
      case Rpc::kSetState:
        Unary<v1::SetStateRequest, v1::SetStateResponse>(
            body, length, &v1::Simulator::Stub::SetState,
            [this](v1::SetStateRequest& r) { Substitute(*r.mutable_instance_id()); });
        break;
      case Rpc::kQuery:
        Unary<v1::QueryRequest, v1::QueryResponse>(
            body, length, &v1::Simulator::Stub::Query,
            [this](v1::QueryRequest& r) { Substitute(*r.mutable_instance_id()); });
        break;
      case Rpc::kWatch:
        Watch(body, length);
        break;
      case Rpc::kListInstances:
        Unary<v1::ListInstancesRequest, v1::ListInstancesResponse>(
            body, length, &v1::Simulator::Stub::ListInstances);
        break;
      case Rpc::kGetMesh:
        Unary<v1::GetMeshRequest, v1::GetMeshResponse>(body, length, &v1::Simulator::Stub::GetMesh);
        break;
      case Rpc::kCount:
        break;
    }
    RestoreBases();
  }

 private:
  static void SetDeadline(grpc::ClientContext& context, int ms) {
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(ms));
  }

  template <typename Request, typename Response, typename Method>
  void Unary(
      const char* body, int length, Method method,
      const std::function<void(Request&)>& substitute = [](Request&) {}) {
    Request request;
    if (!request.ParseFromArray(body, length)) return;
    substitute(request);
    Response response;
    grpc::ClientContext context;
    SetDeadline(context, 2000);
    (stub_.get()->*method)(&context, request, &response);
  }

  void CreateInstances(const char* body, int length) {
    v1::CreateInstancesRequest request;
    if (!request.ParseFromArray(body, length)) return;
    v1::CreateInstancesResponse response;
    grpc::ClientContext context;
    SetDeadline(context, 2000);
    if (!stub_->CreateInstances(&context, request, &response).ok()) return;
    Destroy(response.instance_ids());
  }

  void Session(const char* body, int length) {
    v1::StepBatchRequest steps;
    if (!steps.ParseFromArray(body, length)) return;
    grpc::ClientContext context;
    SetDeadline(context, 2000);
    auto stream = stub_->Session(&context);
    int sent = 0;
    for (v1::StepRequest& step : *steps.mutable_steps()) {
      if (sent++ == 8) break;
      Substitute(*step.mutable_instance_id());
      v1::SessionRequest request;
      *request.mutable_step() = step;
      v1::SessionResponse response;
      if (!stream->Write(request) || !stream->Read(&response)) break;
    }
    stream->WritesDone();
    stream->Finish().ok();
  }

  void Watch(const char* body, int length) {
    v1::WatchRequest request;
    if (!request.ParseFromArray(body, length)) return;
    Substitute(*request.mutable_instance_id());
    grpc::ClientContext context;
    SetDeadline(context, 100);
    auto reader = stub_->Watch(&context, request);
    v1::WatchFrame frame;
    for (int k = 0; k < 2 && reader->Read(&frame); ++k) {
    }
    context.TryCancel();
    while (reader->Read(&frame)) {
    }
    reader->Finish().ok();
  }

  void Substitute(std::string& id) const {
    if (id.size() == 1 && id[0] >= '0' && id[0] < '0' + static_cast<char>(bases_.size())) {
      id = bases_[static_cast<size_t>(id[0] - '0')].id;
    }
  }

  void Destroy(const google::protobuf::RepeatedPtrField<std::string>& ids) {
    v1::DestroyInstancesRequest request;
    *request.mutable_instance_ids() = ids;
    v1::DestroyInstancesResponse response;
    grpc::ClientContext context;
    stub_->DestroyInstances(&context, request, &response).ok();
  }

  void Make(Base& base) {
    v1::CreateInstancesResponse created;
    grpc::ClientContext context;
    if (!stub_->CreateInstances(&context, base.request, &created).ok()) std::abort();
    base.id = created.instance_ids(0);
    v1::GetStateRequest request;
    request.set_instance_id(base.id);
    v1::GetStateResponse state;
    grpc::ClientContext get_context;
    if (!stub_->GetState(&get_context, request, &state).ok()) std::abort();
    base.blob = state.state().data();
  }

  // Back to the first state (which also clears a divergence), or made again.
  void RestoreBases() {
    for (Base& base : bases_) {
      v1::SetStateRequest request;
      request.set_instance_id(base.id);
      request.mutable_state()->set_data(base.blob);
      v1::SetStateResponse response;
      grpc::ClientContext context;
      const grpc::Status status = stub_->SetState(&context, request, &response);
      if (status.error_code() == grpc::StatusCode::NOT_FOUND) {
        Make(base);
      } else if (!status.ok()) {
        std::abort();  // the instance's own blob must always restore
      }
    }
  }

  moreau::server::Metrics metrics_;
  std::unique_ptr<moreau::server::ServerParts> parts_;
  std::unique_ptr<moreau::server::SimulatorService> service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::Simulator::Stub> stub_;
  std::vector<Base> bases_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Fixture* fixture = new Fixture;  // one server for the whole run
  fixture->Run(data, size);
  return 0;
}
