// The instance registry: instances keyed by unguessable ids (128 random bits
// from the OS), bounded in number (docs/architecture.md § The service). Each
// instance belongs to the tenant that created it: for every other tenant its
// id does not exist (the same NOT_FOUND as an id never made), and a tenant's
// live instances are bounded by its quota.
#ifndef MOREAU_SERVER_REGISTRY_H_
#define MOREAU_SERVER_REGISTRY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "server/instance.h"
#include "server/tenant.h"

namespace moreau::server {

class Registry {
 public:
  explicit Registry(int max_instances) : max_instances_(max_instances) {}

  // A fresh id: 32 hex digits from std::random_device (the OS's entropy).
  static std::string NewId();

  // RESOURCE_EXHAUSTED (naming the limit: the server's or the tenant's
  // quota) unless `count` more instances of `tenant` fit now. Creation checks
  // again when it adds them.
  absl::Status CheckCapacity(int count, const Tenant& tenant = {}) const ABSL_LOCKS_EXCLUDED(mu_);

  // Adds all instances (each's `tenant` is `tenant.name`) or none
  // (RESOURCE_EXHAUSTED when they do not fit,
  // ALREADY_EXISTS when an id is taken).
  absl::Status AddAll(const std::vector<std::shared_ptr<Instance>>& instances,
                      const Tenant& tenant = {}) ABSL_LOCKS_EXCLUDED(mu_);

  // NOT_FOUND naming the id when there is no such instance of `tenant`; an
  // instance of another tenant gets the very same error.
  absl::StatusOr<std::shared_ptr<Instance>> Get(const std::string& id,
                                                const std::string& tenant = "") const
      ABSL_LOCKS_EXCLUDED(mu_);

  // Removes and returns the instance of `tenant`, or nullptr when there is
  // none (unknown, or another tenant's).
  std::shared_ptr<Instance> Remove(const std::string& id, const std::string& tenant = "")
      ABSL_LOCKS_EXCLUDED(mu_);

  // Removes every instance unused since `idle_before_ns` (MonotonicNowNs).
  std::vector<std::shared_ptr<Instance>> RemoveIdle(int64_t idle_before_ns)
      ABSL_LOCKS_EXCLUDED(mu_);

  // Every instance (for shutdown and gauges).
  std::vector<std::shared_ptr<Instance>> All() const ABSL_LOCKS_EXCLUDED(mu_);

  int size() const ABSL_LOCKS_EXCLUDED(mu_);
  int max_instances() const { return max_instances_; }
  // Live instances of each tenant that has any.
  absl::flat_hash_map<std::string, int> LiveByTenant() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  absl::Status CheckCapacityLocked(int count, const Tenant& tenant) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Every removal goes through here (keeps live_by_tenant_ in step).
  std::shared_ptr<Instance> EraseLocked(
      absl::flat_hash_map<std::string, std::shared_ptr<Instance>>::iterator it)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const int max_instances_;
  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::string, std::shared_ptr<Instance>> instances_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, int> live_by_tenant_ ABSL_GUARDED_BY(mu_);
};

}  // namespace moreau::server

#endif  // MOREAU_SERVER_REGISTRY_H_
