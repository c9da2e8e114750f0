// StepBatch's packed reply: the observations of many instances as one
// v1::ObservationBatch (struct of arrays, one row per instance), which costs a
// fraction of one v1::Observation message per instance to build, send and
// read. The rows are sized once per call; runners then write their own rows
// concurrently (distinct memory, no resizing).
#ifndef MOREAU_SERVER_PACKED_OBSERVATIONS_H_
#define MOREAU_SERVER_PACKED_OBSERVATIONS_H_

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "engine/model/model.h"
#include "engine/sim/simulation.h"
#include "moreau/v1/simulator.pb.h"
#include "server/observation_fields.h"
#include "server/observed_links.h"

namespace moreau::server {

namespace v1 = ::moreau::v1;

// The row widths of an observation of one model.
struct ObservationShape {
  int nq = 0;
  int nv = 0;
  int num_actuators = 0;
  int num_contacts = 0;
  bool floating_base = false;
  int num_observed_links = 0;

  // Instances of `model` observing `num_observed_links` links.
  static ObservationShape Of(const Model& model, int num_observed_links);
  bool operator==(const ObservationShape& other) const;
};

// Describes a shape for error messages: "nq 19, nv 18, 12 actuators, 4
// contact points, floating base" (then ", 1 observed link" when there are any).
std::string DescribeShape(const ObservationShape& shape);

// The one shape of `shapes` (empty entries skipped: instances that were not
// found). InvalidArgument naming steps[i] when two differ; a list without
// shapes gives the empty shape.
absl::StatusOr<ObservationShape> CommonShape(
    absl::Span<const std::optional<ObservationShape>> shapes);

// Sizes `batch` for `count` rows of `shape`, its arrays of `fields` only
// (the others empty), with the row outcomes: doubles NaN, the rest 0 / "".
void SizeObservationBatch(const ObservationShape& shape, int count, ObservationFields fields,
                          v1::ObservationBatch* batch);

// Row `row` of the arrays of `fields` from the simulation (time, steps, the
// arrays, solver report) and the positions of `observed`'s links. `batch`
// must have been sized for the simulation's model, those bodies and `fields`.
void FillObservationRow(const sim::Simulation& sim, ObservedLinks& observed, int row,
                        ObservationFields fields, v1::ObservationBatch* batch);

// Row `row`'s instance id, status and completed sub-steps.
void SetRowOutcome(int row, const std::string& instance_id, const absl::Status& status,
                   int substeps_done, v1::ObservationBatch* batch);

}  // namespace moreau::server

#endif  // MOREAU_SERVER_PACKED_OBSERVATIONS_H_
