// What moreaud does to the hosted instances outside of calls: restores the
// checkpointed ones at start, frees the idle ones, samples the gauges, and
// ends the open streams at shutdown.
#ifndef MOREAU_SERVER_MAINTENANCE_H_
#define MOREAU_SERVER_MAINTENANCE_H_

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "server/checkpoint.h"
#include "server/checkpoint_store.h"
#include "server/metrics.h"
#include "server/server_parts.h"

namespace moreau::server {

class Maintenance {
 public:
  // `checkpoints` (optional): told when instances are reclaimed.
  // `per_tenant_gauges`: whether the live instances are also counted per
  // tenant (the server runs with tokens).
  Maintenance(ServerParts* parts, Metrics* metrics, CheckpointStore* checkpoints,
              bool per_tenant_gauges);

  // Rebuilds a checkpointed instance under its id and tenant
  // (InstanceFactory::FromCheckpoint) and adds it to the registry.
  absl::Status Restore(const CheckpointRecord& record);
  // Frees instances unused for longer than `timeout`; returns how many.
  int ReclaimIdle(absl::Duration timeout);
  // Refreshes the gauges that are sampled rather than counted.
  void UpdateGauges();
  // Server shutdown: ends every Session stream (after the step in progress
  // is answered) and every Watch stream with UNAVAILABLE, and refuses new ones.
  void StopStreams();

 private:
  ServerParts* const parts_;
  Metrics* const metrics_;
  CheckpointStore* const checkpoints_;  // may be null
  const bool per_tenant_gauges_;
};

}  // namespace moreau::server

#endif  // MOREAU_SERVER_MAINTENANCE_H_
