// The instance registry: instances keyed by unguessable ids (128 random bits
// from the OS), bounded in number (ARCHITECTURE.md § The service).
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

namespace moreau::server {

class Registry {
 public:
  explicit Registry(int max_instances) : max_instances_(max_instances) {}

  // A fresh id: 32 hex digits from std::random_device (the OS's entropy).
  static std::string NewId();

  // RESOURCE_EXHAUSTED (naming the limit) unless `count` more instances fit
  // now. Creation checks again when it adds them.
  absl::Status CheckCapacity(int count) const ABSL_LOCKS_EXCLUDED(mu_);

  // Adds all instances or none (RESOURCE_EXHAUSTED when they do not fit,
  // ALREADY_EXISTS when an id is taken).
  absl::Status AddAll(const std::vector<std::shared_ptr<Instance>>& instances)
      ABSL_LOCKS_EXCLUDED(mu_);

  // NOT_FOUND naming the id when there is no such instance.
  absl::StatusOr<std::shared_ptr<Instance>> Get(const std::string& id) const
      ABSL_LOCKS_EXCLUDED(mu_);

  // Removes and returns the instance, or nullptr when unknown.
  std::shared_ptr<Instance> Remove(const std::string& id) ABSL_LOCKS_EXCLUDED(mu_);

  // Removes every instance unused since `idle_before_ns` (MonotonicNowNs).
  std::vector<std::shared_ptr<Instance>> RemoveIdle(int64_t idle_before_ns)
      ABSL_LOCKS_EXCLUDED(mu_);

  // Every instance (for shutdown and gauges).
  std::vector<std::shared_ptr<Instance>> All() const ABSL_LOCKS_EXCLUDED(mu_);

  int size() const ABSL_LOCKS_EXCLUDED(mu_);
  int max_instances() const { return max_instances_; }

 private:
  const int max_instances_;
  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::string, std::shared_ptr<Instance>> instances_ ABSL_GUARDED_BY(mu_);
};

}  // namespace moreau::server

#endif  // MOREAU_SERVER_REGISTRY_H_
