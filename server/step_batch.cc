#include "server/step_batch.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "server/convert.h"
#include "server/packed_observations.h"

namespace moreau::server {

absl::StatusOr<std::unique_ptr<StepBatchRun>> StepBatchRun::Prepare(
    const ServiceOptions& options, const Registry& registry, const std::string& tenant,
    const v1::StepBatchRequest& request, absl::Time deadline, v1::StepBatchResponse* response) {
  const int n = request.steps_size();
  if (n > options.max_batch) {
    return absl::InvalidArgumentError(absl::StrCat("StepBatch has ", n, " instances, at most ",
                                                   options.max_batch,
                                                   " (the server's --max-batch)"));
  }
  absl::StatusOr<ObservationFields> fields = ObservationFields::Parse(request.observation_fields());
  if (!fields.ok()) return fields.status();
  std::unique_ptr<StepBatchRun> run(new StepBatchRun(request, response, deadline, *fields));
  // Validate the whole request before stepping anything: sub-step limits and
  // duplicates fail the call; unknown ids fail only their own entry.
  absl::flat_hash_set<std::string_view> seen;
  seen.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const v1::StepRequest& step = request.steps(i);
    if (step.substeps() < 0 || step.substeps() > options.max_substeps) {
      return absl::InvalidArgumentError(
          absl::StrCat("steps[", i, "]: substeps must be in [1, ", options.max_substeps,
                       "] (the server's --max_substeps), got ", step.substeps()));
    }
    if (!seen.insert(step.instance_id()).second) {
      return absl::InvalidArgumentError(absl::StrCat(
          "steps[", i, "]: instance '", step.instance_id(), "' appears twice in the batch"));
    }
    run->total_substeps_ += std::max(1, step.substeps());
  }
  run->instances_.resize(static_cast<size_t>(n));
  std::vector<absl::Status> not_found(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    auto instance = registry.Get(request.steps(i).instance_id(), tenant);
    if (instance.ok()) {
      run->instances_[static_cast<size_t>(i)] = std::move(*instance);
    } else {
      not_found[static_cast<size_t>(i)] = instance.status();
    }
  }
  if (request.packed()) {
    std::vector<std::optional<ObservationShape>> shapes(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      Instance* instance = run->instances_[static_cast<size_t>(i)].get();
      if (instance == nullptr) continue;
      absl::MutexLock lock(&instance->mu);
      shapes[static_cast<size_t>(i)] =
          ObservationShape::Of(instance->sim->model(), instance->observed.size());
    }
    auto common = CommonShape(shapes);
    if (!common.ok()) return common.status();
    run->packed_ = response->mutable_packed();
    SizeObservationBatch(*common, n, *fields, run->packed_);
    for (int i = 0; i < n; ++i) {
      if (run->instances_[static_cast<size_t>(i)] != nullptr) continue;
      SetRowOutcome(i, request.steps(i).instance_id(), not_found[static_cast<size_t>(i)], 0,
                    run->packed_);
    }
  } else {
    for (int i = 0; i < n; ++i) response->add_observations();
    for (int i = 0; i < n; ++i) {
      if (run->instances_[static_cast<size_t>(i)] != nullptr) continue;
      v1::Observation* obs = response->mutable_observations(i);
      obs->set_instance_id(request.steps(i).instance_id());
      SetStatus(not_found[static_cast<size_t>(i)], obs->mutable_status());
    }
  }
  return run;
}

void StepBatchRun::Run(const InstanceStepper& stepper, absl::Time until) {
  const int n = size();
  const bool timed = until != absl::InfiniteFuture();
  for (int i = next_.fetch_add(1); i < n; i = next_.fetch_add(1)) {
    Instance* instance = instances_[static_cast<size_t>(i)].get();
    if (instance != nullptr) {
      if (packed_ != nullptr) {
        stepper.Step(*instance, request_.steps(i), deadline_, i, fields_, packed_);
      } else {
        stepper.Step(*instance, request_.steps(i), deadline_, response_->mutable_observations(i),
                     fields_);
      }
    }
    if (timed && absl::Now() >= until) return;
  }
}

}  // namespace moreau::server
