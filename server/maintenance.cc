#include "server/maintenance.h"

#include <memory>
#include <string>
#include <vector>

namespace moreau::server {

Maintenance::Maintenance(ServerParts* parts, Metrics* metrics, CheckpointStore* checkpoints,
                         bool per_tenant_gauges)
    : parts_(parts),
      metrics_(metrics),
      checkpoints_(checkpoints),
      per_tenant_gauges_(per_tenant_gauges) {}

absl::Status Maintenance::Restore(const CheckpointRecord& record) {
  auto instance = parts_->factory.FromCheckpoint(record);
  if (!instance.ok()) return instance.status();
  if (absl::Status s = parts_->registry.AddAll({*instance}); !s.ok()) return s;
  metrics_->SetLiveInstances(parts_->registry.size());
  return absl::OkStatus();
}

int Maintenance::ReclaimIdle(absl::Duration timeout) {
  const int64_t before = MonotonicNowNs() - absl::ToInt64Nanoseconds(timeout);
  const std::vector<std::shared_ptr<Instance>> removed = parts_->registry.RemoveIdle(before);
  const int reclaimed = static_cast<int>(removed.size());
  if (reclaimed > 0) metrics_->InstancesReclaimed(reclaimed);
  if (checkpoints_ != nullptr && reclaimed > 0) {
    std::vector<std::string> ids;
    for (const auto& instance : removed) ids.push_back(instance->id);
    checkpoints_->Forget(ids);
  }
  return reclaimed;
}

void Maintenance::UpdateGauges() {
  metrics_->SetLiveInstances(parts_->registry.size());
  if (per_tenant_gauges_) metrics_->SetTenantInstances(parts_->registry.LiveByTenant());
  metrics_->UpdateRealtimeFactor();
}

void Maintenance::StopStreams() {
  parts_->sessions.Stop();
  parts_->watches.Stop();
}

}  // namespace moreau::server
