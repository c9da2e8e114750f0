#include "server/instance_stepper.h"

#include <algorithm>
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "server/convert.h"
#include "server/packed_observations.h"

namespace moreau::server {

InstanceStepper::InstanceStepper(const ServiceOptions& options, const Registry* registry,
                                 Metrics* metrics)
    : max_substeps_(options.max_substeps),
      inline_substeps_(options.inline_substeps),
      deadline_margin_(options.deadline_margin),
      registry_(registry),
      metrics_(metrics) {}

absl::StatusOr<std::shared_ptr<Instance>> InstanceStepper::Resolve(
    const v1::StepRequest& request, const std::string& tenant) const {
  if (request.substeps() < 0 || request.substeps() > max_substeps_) {
    return absl::InvalidArgumentError(absl::StrCat("substeps must be in [1, ", max_substeps_,
                                                   "] (the server's --max_substeps), got ",
                                                   request.substeps()));
  }
  return registry_->Get(request.instance_id(), tenant);
}

absl::Status InstanceStepper::StepAndObserve(
    Instance& instance, const v1::StepRequest& request, absl::Time deadline,
    absl::FunctionRef<void(const sim::Simulation&, ObservedLinks&)> observe,
    int& substeps_done) const {
  const int substeps = std::max(1, request.substeps());
  // No sub-step starts within the margin of the deadline (none at all
  // without a deadline: the infinite future stays infinite).
  const absl::Time stop_at = deadline - deadline_margin_;
  instance.Touch();
  absl::Status status;
  int done = 0;
  {
    absl::MutexLock lock(&instance.mu);
    sim::Simulation& sim = *instance.sim;
    const int64_t t0 = MonotonicNowNs();
    const uint64_t steps_before = sim.state().steps;
    if (sim.diverged()) {
      status = absl::FailedPreconditionError(
          absl::StrCat("instance ", instance.id, " diverged (", sim.diverged_message(),
                       "); Reset it or SetState before stepping"));
    } else {
      ToEigen(request.action(), instance.action);
      // A call that steps nothing (a bad action, a deadline already past)
      // leaves no push behind: the acting ones are put back as they were.
      std::vector<ActivePush> before;
      if (!request.pushes().empty()) before = instance.pushes;
      status = AddPushes(sim.model(), sim.state().steps, sim.settings().dt, request.pushes(),
                         instance.pushes);
      const uint64_t steps_at_start = sim.state().steps;
      if (status.ok()) {
        status = StepWithPushes(sim, instance.action, substeps, stop_at, instance.pushes,
                                instance.push_scratch);
      }
      if (!status.ok() && sim.state().steps == steps_at_start && !request.pushes().empty()) {
        instance.pushes = std::move(before);
      }
      // The step diverged: the last good state is kept; stepping stays
      // refused until the client resets the instance.
      if (sim.diverged()) instance.diverged_counter->Increment();
    }
    // Steps that completed (a diverged step is rolled back and not counted).
    done = static_cast<int>(sim.state().steps - steps_before);
    const int64_t t1 = MonotonicNowNs();
    if (done > 0) {
      instance.steps_counter->Increment(done);
      instance.sim_seconds_counter->Increment(done * sim.settings().dt);
      const double wall = static_cast<double>(t1 - t0) * 1e-9;
      metrics_->AddStepWallSeconds(wall);
      metrics_->ObserveStep(wall / done, sim.last_report().solver_iterations);
    }
    observe(sim, instance.observed);
    instance.PublishProgress(done > 0);
    if (instance.watchers > 0 && done > 0) instance.PublishSample();
  }
  substeps_done = done;
  instance.Touch();
  return status;
}

void InstanceStepper::Step(Instance& instance, const v1::StepRequest& request, absl::Time deadline,
                           v1::Observation* obs, ObservationFields fields) const {
  int done = 0;
  const absl::Status status = StepAndObserve(
      instance, request, deadline,
      [obs, fields](const sim::Simulation& sim, ObservedLinks& observed) {
        FillObservation(sim, observed, obs, fields);
      },
      done);
  obs->set_instance_id(instance.id);
  obs->set_substeps_done(done);
  SetStatus(status, obs->mutable_status());
}

void InstanceStepper::Step(Instance& instance, const v1::StepRequest& request, absl::Time deadline,
                           int row, ObservationFields fields, v1::ObservationBatch* batch) const {
  int done = 0;
  const absl::Status status = StepAndObserve(
      instance, request, deadline,
      [row, fields, batch](const sim::Simulation& sim, ObservedLinks& observed) {
        FillObservationRow(sim, observed, row, fields, batch);
      },
      done);
  SetRowOutcome(row, instance.id, status, done, batch);
}

}  // namespace moreau::server
