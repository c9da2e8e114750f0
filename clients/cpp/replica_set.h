// A client of several moreaud replicas: one Client (one channel) per
// replica, instances spread evenly over them, and each call sent to the
// replica that owns its instance. An instance lives on the server that
// created it, so this is how a rollout uses many servers (e.g. the pods of a
// Kubernetes StatefulSet behind a headless Service).
//
// Every error of a replica's call names the method and the replica:
// "StepBatch on 127.0.0.2:50051: <the call's message>", with the call's code
// (UNAVAILABLE when the replica is down, DEADLINE_EXCEEDED when it stopped
// answering).
#ifndef MOREAU_CLIENTS_CPP_REPLICA_SET_H_
#define MOREAU_CLIENTS_CPP_REPLICA_SET_H_

#include <Eigen/Core>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "clients/cpp/client.h"
#include "clients/cpp/targets.h"

namespace moreau::client {

class ReplicaSet {
 public:
  // One client per replica of `targets` (addresses and/or dns:///NAME:PORT
  // targets, see ResolveTargets). Does not connect yet.
  static absl::StatusOr<std::unique_ptr<ReplicaSet>> Connect(
      const std::vector<std::string>& targets, const ClientOptions& options = {},
      const Resolver& resolver = SystemResolver);

  int size() const { return static_cast<int>(clients_.size()); }
  const std::string& address(int replica) const { return addresses_[replica]; }
  Client& client(int replica) { return *clients_[replica]; }

  // Waits until every replica is connected; UNAVAILABLE naming the first
  // that is not within `timeout`.
  absl::Status WaitForServers(absl::Duration timeout);

  // `request.count` instances spread over the replicas (Spread), created on
  // all of them at once; ids and observations in replica order. Instance
  // k's noise seed is request.seed + k wherever it lives. All or nothing:
  // when a replica fails, those made on the others are destroyed.
  absl::StatusOr<v1::CreateInstancesResponse> CreateInstances(
      const v1::CreateInstancesRequest& request);
  // `count` instances of a built-in model with `settings`, spread.
  absl::StatusOr<v1::CreateInstancesResponse> CreateBuiltin(const std::string& model, int count,
                                                            const v1::Settings& settings = {});

  // The replica that owns `instance_id`; NOT_FOUND for an instance not
  // created (or adopted) through this set.
  absl::StatusOr<int> Owner(const std::string& instance_id) const;
  // Records instances made on `replica` by other means.
  void Adopt(const std::vector<std::string>& instance_ids, int replica);

  // One DestroyInstances per owner; destroyed counts added up, not_found
  // joined.
  absl::StatusOr<v1::DestroyInstancesResponse> DestroyInstances(
      const std::vector<std::string>& ids);
  // One StepBatch per owner, all at once; the observations in request
  // order. Not for packed requests spanning several replicas (step each
  // replica's instances on client(k) instead): INVALID_ARGUMENT.
  absl::StatusOr<v1::StepBatchResponse> StepBatch(const v1::StepBatchRequest& request);

  // Per-instance calls, on the owner.
  absl::StatusOr<v1::Observation> Reset(const v1::ResetRequest& request);
  absl::StatusOr<v1::Observation> Step(const std::string& id, const Eigen::VectorXd& action,
                                       int substeps);
  absl::StatusOr<v1::GetStateResponse> GetState(const std::string& id);
  absl::StatusOr<v1::Observation> SetState(const std::string& id, const std::string& blob);
  absl::StatusOr<v1::QueryResponse> Query(const v1::QueryRequest& request);

 private:
  ReplicaSet(std::vector<std::string> addresses, const ClientOptions& options);

  // `status` of `method` on replica `replica`, its message prefixed with both.
  absl::Status Named(const absl::Status& status, const char* method, int replica) const;
  template <typename T>
  absl::StatusOr<T> Named(absl::StatusOr<T> result, const char* method, int replica) const {
    if (!result.ok()) return Named(result.status(), method, replica);
    return result;
  }
  // Replica → positions in `ids` of the instances it owns, by replica.
  absl::StatusOr<std::vector<std::vector<int>>> ByOwner(const std::vector<std::string>& ids) const;

  std::vector<std::string> addresses_;
  std::vector<std::unique_ptr<Client>> clients_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, int> owner_;  // guarded by mutex_
};

}  // namespace moreau::client

#endif  // MOREAU_CLIENTS_CPP_REPLICA_SET_H_
