#include "clients/cpp/replica_set.h"

#include <functional>
#include <optional>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"

namespace moreau::client {
namespace {

// Runs call(j) for j in [0, n): in the calling thread when n is 1, else one
// thread each, so that every replica works at once.
void RunAll(int n, const std::function<void(int)>& call) {
  if (n == 1) {
    call(0);
    return;
  }
  std::vector<std::thread> threads;
  threads.reserve(n);
  for (int j = 0; j < n; ++j) threads.emplace_back(call, j);
  for (std::thread& thread : threads) thread.join();
}

}  // namespace

absl::StatusOr<std::unique_ptr<ReplicaSet>> ReplicaSet::Connect(
    const std::vector<std::string>& targets, const ClientOptions& options,
    const Resolver& resolver) {
  auto addresses = ResolveTargets(targets, resolver);
  if (!addresses.ok()) return addresses.status();
  return std::unique_ptr<ReplicaSet>(new ReplicaSet(*std::move(addresses), options));
}

ReplicaSet::ReplicaSet(std::vector<std::string> addresses, const ClientOptions& options)
    : addresses_(std::move(addresses)) {
  for (const std::string& address : addresses_) {
    clients_.push_back(std::make_unique<Client>(address, options));
  }
}

absl::Status ReplicaSet::Named(const absl::Status& status, const char* method, int replica) const {
  if (status.ok()) return status;
  return absl::Status(status.code(),
                      absl::StrCat(method, " on ", addresses_[replica], ": ", status.message()));
}

absl::Status ReplicaSet::WaitForServers(absl::Duration timeout) {
  const absl::Time deadline = absl::Now() + timeout;
  for (int k = 0; k < size(); ++k) {
    absl::Status status = clients_[k]->WaitForServer(deadline - absl::Now());
    if (!status.ok()) return Named(status, "connect", k);
  }
  return absl::OkStatus();
}

absl::StatusOr<v1::CreateInstancesResponse> ReplicaSet::CreateInstances(
    const v1::CreateInstancesRequest& request) {
  if (request.count() < 1) {
    return absl::InvalidArgumentError(absl::StrCat("count must be ≥ 1, got ", request.count()));
  }
  // The replicas that get instances (all of them unless count < size()).
  std::vector<int> replicas;
  std::vector<v1::CreateInstancesRequest> parts;
  const std::vector<std::pair<int, int>> blocks = Spread(request.count(), size());
  for (int k = 0; k < size(); ++k) {
    const auto [start, stop] = blocks[k];
    if (stop == start) continue;
    v1::CreateInstancesRequest part = request;
    part.set_count(stop - start);
    part.set_seed(request.seed() + static_cast<uint64_t>(start));
    replicas.push_back(k);
    parts.push_back(std::move(part));
  }
  std::vector<std::optional<absl::StatusOr<v1::CreateInstancesResponse>>> results(replicas.size());
  RunAll(static_cast<int>(replicas.size()), [&](int j) {
    results[j] =
        Named(clients_[replicas[j]]->CreateInstances(parts[j]), "CreateInstances", replicas[j]);
  });
  for (const auto& result : results) {
    if (result->ok()) continue;
    for (size_t j = 0; j < results.size(); ++j) {  // all or nothing
      if (!results[j]->ok()) continue;
      const auto& ids = (*results[j])->instance_ids();
      (void)clients_[replicas[j]]->DestroyInstances({ids.begin(), ids.end()});
    }
    return result->status();
  }
  v1::CreateInstancesResponse merged;
  *merged.mutable_spec() = (*results.front())->spec();
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t j = 0; j < results.size(); ++j) {
    v1::CreateInstancesResponse& part = **results[j];
    for (const std::string& id : part.instance_ids()) {
      owner_[id] = replicas[j];
      merged.add_instance_ids(id);
    }
    for (v1::Observation& observation : *part.mutable_observations()) {
      *merged.add_observations() = std::move(observation);
    }
  }
  return merged;
}

absl::StatusOr<v1::CreateInstancesResponse> ReplicaSet::CreateBuiltin(
    const std::string& model, int count, const v1::Settings& settings) {
  v1::CreateInstancesRequest request;
  request.mutable_model()->set_builtin(model);
  *request.mutable_settings() = settings;
  request.set_count(count);
  return CreateInstances(request);
}

absl::StatusOr<int> ReplicaSet::Owner(const std::string& instance_id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = owner_.find(instance_id);
  if (it == owner_.end()) {
    return absl::NotFoundError(
        absl::StrCat("instance '", instance_id, "' was not created through this ReplicaSet"));
  }
  return it->second;
}

void ReplicaSet::Adopt(const std::vector<std::string>& instance_ids, int replica) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const std::string& id : instance_ids) owner_[id] = replica;
}

absl::StatusOr<std::vector<std::vector<int>>> ReplicaSet::ByOwner(
    const std::vector<std::string>& ids) const {
  std::vector<std::vector<int>> rows(size());
  for (int i = 0; i < static_cast<int>(ids.size()); ++i) {
    auto owner = Owner(ids[i]);
    if (!owner.ok()) return owner.status();
    rows[*owner].push_back(i);
  }
  return rows;
}

absl::StatusOr<v1::DestroyInstancesResponse> ReplicaSet::DestroyInstances(
    const std::vector<std::string>& ids) {
  auto rows = ByOwner(ids);
  if (!rows.ok()) return rows.status();
  std::vector<int> replicas;
  for (int k = 0; k < size(); ++k) {
    if (!(*rows)[k].empty()) replicas.push_back(k);
  }
  std::vector<std::optional<absl::StatusOr<v1::DestroyInstancesResponse>>> results(replicas.size());
  RunAll(static_cast<int>(replicas.size()), [&](int j) {
    std::vector<std::string> own;
    for (int i : (*rows)[replicas[j]]) own.push_back(ids[i]);
    results[j] =
        Named(clients_[replicas[j]]->DestroyInstances(own), "DestroyInstances", replicas[j]);
  });
  v1::DestroyInstancesResponse merged;
  for (const auto& result : results) {
    if (!result->ok()) return result->status();
    merged.set_destroyed(merged.destroyed() + (*result)->destroyed());
    for (const std::string& id : (*result)->not_found()) merged.add_not_found(id);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  for (const std::string& id : ids) owner_.erase(id);
  return merged;
}

absl::StatusOr<v1::StepBatchResponse> ReplicaSet::StepBatch(const v1::StepBatchRequest& request) {
  std::vector<std::string> ids;
  for (const v1::StepRequest& step : request.steps()) ids.push_back(step.instance_id());
  auto rows = ByOwner(ids);
  if (!rows.ok()) return rows.status();
  std::vector<int> replicas;
  for (int k = 0; k < size(); ++k) {
    if (!(*rows)[k].empty()) replicas.push_back(k);
  }
  if (replicas.size() == 1) {  // one owner: the request as it is
    return Named(clients_[replicas[0]]->StepBatch(request), "StepBatch", replicas[0]);
  }
  if (request.packed()) {
    return absl::InvalidArgumentError(
        "a packed StepBatch over several replicas: step each replica's instances with its "
        "client(k)");
  }
  std::vector<std::optional<absl::StatusOr<v1::StepBatchResponse>>> results(replicas.size());
  RunAll(static_cast<int>(replicas.size()), [&](int j) {
    v1::StepBatchRequest part;
    for (int i : (*rows)[replicas[j]]) *part.add_steps() = request.steps(i);
    results[j] = Named(clients_[replicas[j]]->StepBatch(part), "StepBatch", replicas[j]);
  });
  for (const auto& result : results) {
    if (!result->ok()) return result->status();
  }
  v1::StepBatchResponse merged;
  for (int i = 0; i < request.steps_size(); ++i) merged.add_observations();
  for (size_t j = 0; j < replicas.size(); ++j) {
    const std::vector<int>& own = (*rows)[replicas[j]];
    v1::StepBatchResponse& part = **results[j];
    for (size_t r = 0; r < own.size() && static_cast<int>(r) < part.observations_size(); ++r) {
      *merged.mutable_observations(own[r]) = std::move(*part.mutable_observations(r));
    }
  }
  return merged;
}

absl::StatusOr<v1::Observation> ReplicaSet::Reset(const v1::ResetRequest& request) {
  auto owner = Owner(request.instance_id());
  if (!owner.ok()) return owner.status();
  return Named(clients_[*owner]->Reset(request), "Reset", *owner);
}

absl::StatusOr<v1::Observation> ReplicaSet::Step(const std::string& id,
                                                 const Eigen::VectorXd& action, int substeps) {
  auto owner = Owner(id);
  if (!owner.ok()) return owner.status();
  return Named(clients_[*owner]->Step(id, action, substeps), "Step", *owner);
}

absl::StatusOr<v1::GetStateResponse> ReplicaSet::GetState(const std::string& id) {
  auto owner = Owner(id);
  if (!owner.ok()) return owner.status();
  return Named(clients_[*owner]->GetState(id), "GetState", *owner);
}

absl::StatusOr<v1::Observation> ReplicaSet::SetState(const std::string& id,
                                                     const std::string& blob) {
  auto owner = Owner(id);
  if (!owner.ok()) return owner.status();
  return Named(clients_[*owner]->SetState(id, blob), "SetState", *owner);
}

absl::StatusOr<v1::QueryResponse> ReplicaSet::Query(const v1::QueryRequest& request) {
  auto owner = Owner(request.instance_id());
  if (!owner.ok()) return owner.status();
  return Named(clients_[*owner]->Query(request), "Query", *owner);
}

}  // namespace moreau::client
