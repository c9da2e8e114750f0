// StepBatch's packed reply: the observations of many instances as one
// v1::ObservationBatch (struct of arrays, one row per instance), which costs a
// fraction of one v1::Observation message per instance to build, send and
// read. The rows are sized once per call; runners then write their own rows
// concurrently (distinct memory, no resizing).
#ifndef MOREAU_SERVER_PACKED_OBSERVATIONS_H_
#define MOREAU_SERVER_PACKED_OBSERVATIONS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "engine/model/model.h"
#include "engine/sim/simulation.h"
#include "moreau/v1/simulator.pb.h"

namespace moreau::server {

namespace v1 = ::moreau::v1;

// The row widths of an observation of one model.
struct ObservationShape {
  int nq = 0;
  int nv = 0;
  int num_actuators = 0;
  int num_contacts = 0;
  bool floating_base = false;

  static ObservationShape Of(const Model& model);
  bool operator==(const ObservationShape& other) const;
};

// Describes a shape for error messages: "nq 19, nv 18, 12 actuators, 4
// contact points, floating base".
std::string DescribeShape(const ObservationShape& shape);

// The one shape of `models` (nullptr entries skipped: instances that were not
// found). InvalidArgument naming steps[i] when two differ; an all-null list
// gives the empty shape.
absl::StatusOr<ObservationShape> CommonShape(absl::Span<const Model* const> models);

// Sizes `batch` for `count` rows of `shape`: doubles NaN, the rest 0 / "".
void SizeObservationBatch(const ObservationShape& shape, int count, v1::ObservationBatch* batch);

// Row `row` from the simulation (time, steps, the arrays, solver report).
// `batch` must have been sized for the simulation's model.
void FillObservationRow(const sim::Simulation& sim, int row, v1::ObservationBatch* batch);

// Row `row`'s instance id, status and completed sub-steps.
void SetRowOutcome(int row, const std::string& instance_id, const absl::Status& status,
                   int substeps_done, v1::ObservationBatch* batch);

}  // namespace moreau::server

#endif  // MOREAU_SERVER_PACKED_OBSERVATIONS_H_
