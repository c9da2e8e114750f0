#include "server/registry.h"

#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace moreau::server {

std::string Registry::NewId() {
  static absl::Mutex device_mu(absl::kConstInit);
  static std::random_device* device = new std::random_device();
  uint64_t hi = 0, lo = 0;
  {
    absl::MutexLock lock(&device_mu);
    hi = (static_cast<uint64_t>((*device)()) << 32) | (*device)();
    lo = (static_cast<uint64_t>((*device)()) << 32) | (*device)();
  }
  return absl::StrFormat("%016x%016x", hi, lo);
}

absl::Status Registry::CheckCapacityLocked(int count, const Tenant& tenant) const {
  const int live = static_cast<int>(instances_.size());
  if (live + count > max_instances_) {
    return absl::ResourceExhaustedError(
        absl::StrCat("cannot create ", count, " instance(s): ", live, " live of at most ",
                     max_instances_, " (the server's --max_instances)"));
  }
  if (tenant.max_instances > 0) {
    auto it = live_by_tenant_.find(tenant.name);
    const int mine = it == live_by_tenant_.end() ? 0 : it->second;
    if (mine + count > tenant.max_instances) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "cannot create ", count, " instance(s): tenant '", tenant.name, "' has ", mine,
          " live of its quota of ", tenant.max_instances, " (max_instances in the tokens file)"));
    }
  }
  return absl::OkStatus();
}

absl::Status Registry::CheckCapacity(int count, const Tenant& tenant) const {
  absl::MutexLock lock(&mu_);
  return CheckCapacityLocked(count, tenant);
}

absl::Status Registry::AddAll(const std::vector<std::shared_ptr<Instance>>& instances,
                              const Tenant& tenant) {
  absl::MutexLock lock(&mu_);
  const int count = static_cast<int>(instances.size());
  if (absl::Status s = CheckCapacityLocked(count, tenant); !s.ok()) return s;
  for (const auto& instance : instances) {
    if (instances_.contains(instance->id)) {
      return absl::AlreadyExistsError(
          absl::StrCat("an instance with id '", instance->id, "' already exists"));
    }
  }
  for (const auto& instance : instances) {
    instances_.emplace(instance->id, instance);
    ++live_by_tenant_[instance->tenant];
  }
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<Instance>> Registry::Get(const std::string& id,
                                                        const std::string& tenant) const {
  absl::MutexLock lock(&mu_);
  auto it = instances_.find(id);
  // Another tenant's instance: the same answer as for an id never made.
  if (it == instances_.end() || it->second->tenant != tenant) {
    return absl::NotFoundError(absl::StrCat("no instance with id '", id, "'"));
  }
  return it->second;
}

std::shared_ptr<Instance> Registry::EraseLocked(
    absl::flat_hash_map<std::string, std::shared_ptr<Instance>>::iterator it) {
  std::shared_ptr<Instance> instance = std::move(it->second);
  instances_.erase(it);
  auto count = live_by_tenant_.find(instance->tenant);
  if (count != live_by_tenant_.end() && --count->second <= 0) live_by_tenant_.erase(count);
  instance->destroyed = true;
  return instance;
}

std::shared_ptr<Instance> Registry::Remove(const std::string& id, const std::string& tenant) {
  absl::MutexLock lock(&mu_);
  auto it = instances_.find(id);
  if (it == instances_.end() || it->second->tenant != tenant) return nullptr;
  return EraseLocked(it);
}

std::vector<std::shared_ptr<Instance>> Registry::RemoveIdle(int64_t idle_before_ns) {
  std::vector<std::shared_ptr<Instance>> removed;
  absl::MutexLock lock(&mu_);
  for (auto it = instances_.begin(); it != instances_.end();) {
    if (it->second->last_used_ns.load(std::memory_order_relaxed) < idle_before_ns) {
      removed.push_back(EraseLocked(it++));
    } else {
      ++it;
    }
  }
  return removed;
}

std::vector<std::shared_ptr<Instance>> Registry::All() const {
  absl::MutexLock lock(&mu_);
  std::vector<std::shared_ptr<Instance>> all;
  all.reserve(instances_.size());
  for (const auto& [id, instance] : instances_) all.push_back(instance);
  return all;
}

int Registry::size() const {
  absl::MutexLock lock(&mu_);
  return static_cast<int>(instances_.size());
}

absl::flat_hash_map<std::string, int> Registry::LiveByTenant() const {
  absl::MutexLock lock(&mu_);
  return live_by_tenant_;
}

}  // namespace moreau::server
