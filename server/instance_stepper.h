// Steps hosted instances for step requests (the Step and StepBatch RPCs and
// Session streams): resolves the request's instance, holds its action for
// the requested sub-steps through sim::Simulation::StepActionUntil (which
// stops before the call's deadline), counts the steps in the metrics,
// publishes the sample of a watched instance and fills the observation.
#ifndef MOREAU_SERVER_INSTANCE_STEPPER_H_
#define MOREAU_SERVER_INSTANCE_STEPPER_H_

#include <memory>
#include <string>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "engine/sim/simulation.h"
#include "moreau/v1/simulator.pb.h"
#include "server/instance.h"
#include "server/metrics.h"
#include "server/observation_fields.h"
#include "server/registry.h"
#include "server/service_options.h"

namespace moreau::server {

class InstanceStepper {
 public:
  // Reads the sub-step limits and the deadline margin of `options`; finds
  // instances in `registry`.
  InstanceStepper(const ServiceOptions& options, const Registry* registry, Metrics* metrics);

  // The instance of a step request of `tenant`; NOT_FOUND, or
  // INVALID_ARGUMENT for sub-steps over the limit, naming the problem.
  absl::StatusOr<std::shared_ptr<Instance>> Resolve(const v1::StepRequest& request,
                                                    const std::string& tenant) const;

  // Steps `instance` request.substeps() times (0 means 1) holding the
  // request's action, or fewer when `deadline` comes; fills the arrays of
  // `fields` of `obs`, its status and sub-steps done. A diverged instance is
  // refused with FAILED_PRECONDITION.
  void Step(Instance& instance, const v1::StepRequest& request, absl::Time deadline,
            v1::Observation* obs, ObservationFields fields = ObservationFields::All()) const;
  // The same into row `row` of a packed batch sized for the instance's model
  // and `fields`.
  void Step(Instance& instance, const v1::StepRequest& request, absl::Time deadline, int row,
            ObservationFields fields, v1::ObservationBatch* batch) const;

  // Whether a call with this many sub-steps in all runs on the thread that
  // received it rather than on the worker pool.
  bool RunsInline(long total_substeps) const { return total_substeps <= inline_substeps_; }

 private:
  // The stepping shared by both Step forms: `observe` reads the simulation
  // and the instance's observed links while the instance is still locked. Returns the step's
  // status and sets `substeps_done`.
  absl::Status StepAndObserve(
      Instance& instance, const v1::StepRequest& request, absl::Time deadline,
      absl::FunctionRef<void(const sim::Simulation&, ObservedLinks&)> observe,
      int& substeps_done) const;

  const int max_substeps_;
  const int inline_substeps_;
  const absl::Duration deadline_margin_;
  const Registry* const registry_;
  Metrics* const metrics_;
};

}  // namespace moreau::server

#endif  // MOREAU_SERVER_INSTANCE_STEPPER_H_
