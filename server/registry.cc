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

absl::Status Registry::CheckCapacity(int count) const {
  absl::MutexLock lock(&mu_);
  const int live = static_cast<int>(instances_.size());
  if (live + count > max_instances_) {
    return absl::ResourceExhaustedError(
        absl::StrCat("cannot create ", count, " instance(s): ", live, " live of at most ",
                     max_instances_, " (the server's --max_instances)"));
  }
  return absl::OkStatus();
}

absl::Status Registry::AddAll(const std::vector<std::shared_ptr<Instance>>& instances) {
  absl::MutexLock lock(&mu_);
  const int live = static_cast<int>(instances_.size());
  const int count = static_cast<int>(instances.size());
  if (live + count > max_instances_) {
    return absl::ResourceExhaustedError(
        absl::StrCat("cannot create ", count, " instance(s): ", live, " live of at most ",
                     max_instances_, " (the server's --max_instances)"));
  }
  for (const auto& instance : instances) {
    if (instances_.contains(instance->id)) {
      return absl::AlreadyExistsError(
          absl::StrCat("an instance with id '", instance->id, "' already exists"));
    }
  }
  for (const auto& instance : instances) instances_.emplace(instance->id, instance);
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<Instance>> Registry::Get(const std::string& id) const {
  absl::MutexLock lock(&mu_);
  auto it = instances_.find(id);
  if (it == instances_.end()) {
    return absl::NotFoundError(absl::StrCat("no instance with id '", id, "'"));
  }
  return it->second;
}

std::shared_ptr<Instance> Registry::Remove(const std::string& id) {
  absl::MutexLock lock(&mu_);
  auto it = instances_.find(id);
  if (it == instances_.end()) return nullptr;
  std::shared_ptr<Instance> instance = std::move(it->second);
  instances_.erase(it);
  instance->destroyed = true;
  return instance;
}

std::vector<std::shared_ptr<Instance>> Registry::RemoveIdle(int64_t idle_before_ns) {
  std::vector<std::shared_ptr<Instance>> removed;
  absl::MutexLock lock(&mu_);
  for (auto it = instances_.begin(); it != instances_.end();) {
    if (it->second->last_used_ns.load(std::memory_order_relaxed) < idle_before_ns) {
      it->second->destroyed = true;
      removed.push_back(std::move(it->second));
      instances_.erase(it++);
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

}  // namespace moreau::server
