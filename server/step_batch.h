// One StepBatch call between its validation and its reply, shared by the
// service's RPC and the in-process server's direct call: the whole request
// validated first (sizes, sub-step limits, duplicates, the observation
// fields asked for, one observation shape when packed), each instance resolved (an unknown id fails
// only its own entry, answered at once), the reply sized, then the instances stepped by any number
// of runners, each claiming one instance at a time (an atomic cursor: the runners finish within one
// instance of each other).
#ifndef MOREAU_SERVER_STEP_BATCH_H_
#define MOREAU_SERVER_STEP_BATCH_H_

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "moreau/v1/simulator.pb.h"
#include "server/instance.h"
#include "server/instance_stepper.h"
#include "server/observation_fields.h"
#include "server/registry.h"
#include "server/service_options.h"

namespace moreau::server {

class StepBatchRun {
 public:
  // Validates `request` of `tenant` against `options` and resolves its
  // instances in `registry`: the call's error (INVALID_ARGUMENT naming the
  // entry) or a run whose reply is `response`, sized, with the unknown
  // entries already answered. `request` and `response` must outlive the
  // run; sub-steps stop before `deadline`.
  static absl::StatusOr<std::unique_ptr<StepBatchRun>> Prepare(
      const ServiceOptions& options, const Registry& registry, const std::string& tenant,
      const v1::StepBatchRequest& request, absl::Time deadline, v1::StepBatchResponse* response);

  // The entries of the batch and their sub-steps in all (0 counted as 1).
  int size() const { return static_cast<int>(instances_.size()); }
  long total_substeps() const { return total_substeps_; }
  absl::Time deadline() const { return deadline_; }

  // Steps unclaimed entries one at a time until none is left, or until
  // `until` (then some may be left for other runners; see claimed_all()). Safe
  // from several threads at once.
  void Run(const InstanceStepper& stepper, absl::Time until = absl::InfiniteFuture());
  // Every entry has been claimed (not necessarily finished stepping).
  bool claimed_all() const { return next_.load(std::memory_order_relaxed) >= size(); }

 private:
  StepBatchRun(const v1::StepBatchRequest& request, v1::StepBatchResponse* response,
               absl::Time deadline, ObservationFields fields)
      : request_(request), response_(response), deadline_(deadline), fields_(fields) {}

  const v1::StepBatchRequest& request_;
  v1::StepBatchResponse* const response_;
  const absl::Time deadline_;
  const ObservationFields fields_;  // the arrays the reply carries
  // The packed reply, or nullptr for one Observation per entry.
  v1::ObservationBatch* packed_ = nullptr;
  std::vector<std::shared_ptr<Instance>> instances_;  // nullptr: already answered
  long total_substeps_ = 0;
  std::atomic<int> next_{0};
};

}  // namespace moreau::server

#endif  // MOREAU_SERVER_STEP_BATCH_H_
