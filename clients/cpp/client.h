// C++ client of moreau.v1.Simulator: one method per RPC, absl::Status errors
// carrying the server's code and message, a default deadline per call;
// plaintext or TLS (with a client certificate for mTLS), and a bearer token
// sent with every call when the server requires one.
#ifndef MOREAU_CLIENTS_CPP_CLIENT_H_
#define MOREAU_CLIENTS_CPP_CLIENT_H_

#include <grpcpp/grpcpp.h>

#include <Eigen/Core>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "clients/cpp/health.h"
#include "moreau/v1/simulator.grpc.pb.h"

namespace moreau::client {

namespace v1 = ::moreau::v1;

// grpc::Status → absl::Status (same code numbers), keeping the message.
absl::Status FromGrpc(const grpc::Status& status);

// An Observation's status field as an absl::Status.
absl::Status StatusOf(const v1::Observation& observation);

// TLS of the channel, as PEM text (LoadTlsFiles reads it from files).
struct TlsOptions {
  // CA certificates the server's certificate must chain to ("": the
  // system's trusted roots).
  std::string root_certificates;
  // The client's certificate chain and its private key, for servers that
  // require client certificates (mTLS); both or neither.
  std::string certificate_chain;
  std::string private_key;
};

// TLS options from PEM files; "" skips a file (no CA file: the system's
// roots). NOT_FOUND naming the file that cannot be read; INVALID_ARGUMENT
// when only one of the certificate and key files is given.
absl::StatusOr<TlsOptions> LoadTlsFiles(const std::string& ca_file, const std::string& cert_file,
                                        const std::string& key_file);

struct ClientOptions {
  absl::Duration timeout = absl::Seconds(30);  // per call
  int max_message_bytes = 64 << 20;
  std::optional<TlsOptions> tls;  // unset: plaintext
  // Sent as "authorization: Bearer TOKEN" metadata on every call, streams
  // included ("": no token).
  std::string token;
};

class Client {
 public:
  // A client of the server at `address` (host:port). Does not connect yet.
  explicit Client(const std::string& address, const ClientOptions& options = {});

  // Waits until the channel is connected; UNAVAILABLE after `timeout`.
  absl::Status WaitForServer(absl::Duration timeout);

  // The health service's status of `service` ("": the server as a whole),
  // with the client's deadline (health.h: CheckHealth).
  absl::StatusOr<ServingStatus> CheckHealth(const std::string& service);

  absl::StatusOr<v1::ListModelsResponse> ListModels();
  absl::StatusOr<v1::ModelSpec> GetModel(const v1::ModelSource& model);
  // The bytes and format ("stl" or "obj") of mesh `mesh` (as a ShapeSpec
  // names it) of built-in model `model`, compiled into the server; NOT_FOUND
  // for a mesh or model it does not hold.
  absl::StatusOr<v1::GetMeshResponse> GetMesh(const std::string& model, const std::string& mesh);
  absl::StatusOr<v1::CreateInstancesResponse> CreateInstances(
      const v1::CreateInstancesRequest& request);
  // `count` instances of a built-in model with `settings`.
  absl::StatusOr<v1::CreateInstancesResponse> CreateBuiltin(const std::string& model, int count,
                                                            const v1::Settings& settings = {});
  absl::StatusOr<v1::DestroyInstancesResponse> DestroyInstances(
      const std::vector<std::string>& ids);
  // One page of the caller's instances (page_size 0: the server's default;
  // page_token "" for the first page, then the previous next_page_token).
  absl::StatusOr<v1::ListInstancesResponse> ListInstances(int page_size = 0,
                                                          const std::string& page_token = "");
  absl::StatusOr<v1::Observation> Reset(const v1::ResetRequest& request);
  // One instance, `action` held for `substeps` steps. The instance's failure
  // (bad action, divergence) is the returned status.
  absl::StatusOr<v1::Observation> Step(const std::string& id, const Eigen::VectorXd& action,
                                       int substeps);
  // A StepRequest as given (pushes included).
  absl::StatusOr<v1::Observation> Step(const v1::StepRequest& request);
  absl::StatusOr<v1::StepBatchResponse> StepBatch(const v1::StepBatchRequest& request);
  absl::StatusOr<v1::GetStateResponse> GetState(const std::string& id);
  absl::StatusOr<v1::Observation> SetState(const std::string& id, const std::string& blob);
  absl::StatusOr<v1::QueryResponse> Query(const v1::QueryRequest& request);

  // A closed-loop session: Send a step, Receive its observation.
  class Session {
   public:
    bool Send(const v1::StepRequest& step);
    bool Receive(v1::Observation* observation);
    // Closes the client's side and returns the stream's final status.
    absl::Status Close();

   private:
    friend class Client;
    grpc::ClientContext context_;
    std::unique_ptr<grpc::ClientReaderWriter<v1::SessionRequest, v1::SessionResponse>> stream_;
  };
  std::unique_ptr<Session> OpenSession();

  // A Watch stream; Read frames until it returns false, then Finish.
  class WatchStream {
   public:
    bool Read(v1::WatchFrame* frame) { return reader_->Read(frame); }
    void Cancel() { context_.TryCancel(); }
    absl::Status Finish() { return FromGrpc(reader_->Finish()); }

   private:
    friend class Client;
    grpc::ClientContext context_;
    std::unique_ptr<grpc::ClientReader<v1::WatchFrame>> reader_;
  };
  std::unique_ptr<WatchStream> Watch(const std::string& id, double rate_hz);

  v1::Simulator::Stub& stub() { return *stub_; }
  const ClientOptions& options() const { return options_; }
  // A context with the client's deadline.
  void PrepareContext(grpc::ClientContext& context) const;

 private:
  template <typename Request, typename Response, typename Method>
  absl::StatusOr<Response> Call(Method method, const Request& request);

  ClientOptions options_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Simulator::Stub> stub_;
};

}  // namespace moreau::client

#endif  // MOREAU_CLIENTS_CPP_CLIENT_H_
