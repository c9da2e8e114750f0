#include "server/packed_observations.h"

#include <cstdint>
#include <limits>

#include "absl/strings/str_cat.h"
#include "server/convert.h"

namespace moreau::server {

ObservationShape ObservationShape::Of(const Model& model, int num_observed_links) {
  ObservationShape shape;
  shape.nq = model.nq;
  shape.nv = model.nv;
  shape.num_actuators = model.nu();
  shape.num_contacts = static_cast<int>(model.contact_points.size());
  shape.floating_base = model.floating_base;
  shape.num_observed_links = num_observed_links;
  return shape;
}

bool ObservationShape::operator==(const ObservationShape& other) const {
  return nq == other.nq && nv == other.nv && num_actuators == other.num_actuators &&
         num_contacts == other.num_contacts && floating_base == other.floating_base &&
         num_observed_links == other.num_observed_links;
}

std::string DescribeShape(const ObservationShape& shape) {
  std::string text = absl::StrCat("nq ", shape.nq, ", nv ", shape.nv, ", ", shape.num_actuators,
                                  " actuators, ", shape.num_contacts, " contact points, ",
                                  shape.floating_base ? "floating" : "fixed", " base");
  if (shape.num_observed_links > 0) {
    absl::StrAppend(&text, ", ", shape.num_observed_links, " observed ",
                    shape.num_observed_links == 1 ? "link" : "links");
  }
  return text;
}

absl::StatusOr<ObservationShape> CommonShape(
    absl::Span<const std::optional<ObservationShape>> shapes) {
  ObservationShape shape;
  int first = -1;
  for (size_t i = 0; i < shapes.size(); ++i) {
    if (!shapes[i].has_value()) continue;
    const ObservationShape& here = *shapes[i];
    if (first < 0) {
      shape = here;
      first = static_cast<int>(i);
    } else if (!(here == shape)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "packed: every instance of a packed StepBatch needs the same observation shape; steps[",
          first, "] has ", DescribeShape(shape), ", steps[", i, "] has ", DescribeShape(here),
          " (send them in separate batches, or unpacked)"));
    }
  }
  return shape;
}

void SizeObservationBatch(const ObservationShape& shape, int count, ObservationFields fields,
                          v1::ObservationBatch* batch) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  using F = ObservationField;
  // Rows of `width` values when `field` is asked for, else none.
  const auto rows = [&](F field, int width) { return fields.has(field) ? count * width : 0; };
  const int base_pose = shape.floating_base ? 7 : 0;
  const int base_twist = shape.floating_base ? 6 : 0;
  batch->set_count(count);
  batch->set_nq(shape.nq);
  batch->set_nv(shape.nv);
  batch->set_num_actuators(shape.num_actuators);
  batch->set_num_contacts(shape.num_contacts);
  batch->set_floating_base(shape.floating_base);
  batch->set_num_observed_links(shape.num_observed_links);
  batch->mutable_time()->Resize(rows(F::kTime, 1), kNaN);
  batch->mutable_steps()->Resize(rows(F::kSteps, 1), 0);
  batch->mutable_q()->Resize(rows(F::kQ, shape.nq), kNaN);
  batch->mutable_v()->Resize(rows(F::kV, shape.nv), kNaN);
  batch->mutable_joint_positions()->Resize(rows(F::kJointPositions, shape.num_actuators), kNaN);
  batch->mutable_joint_velocities()->Resize(rows(F::kJointVelocities, shape.num_actuators), kNaN);
  batch->mutable_joint_torques()->Resize(rows(F::kJointTorques, shape.num_actuators), kNaN);
  batch->mutable_base_pose()->Resize(rows(F::kBasePose, base_pose), kNaN);
  batch->mutable_base_twist()->Resize(rows(F::kBaseTwist, base_twist), kNaN);
  batch->mutable_contact_normal_forces()->Resize(rows(F::kContactNormalForces, shape.num_contacts),
                                                 kNaN);
  batch->mutable_contact_flags()->Resize(rows(F::kContactFlags, shape.num_contacts), false);
  batch->mutable_link_positions()->Resize(rows(F::kLinkPositions, 3 * shape.num_observed_links),
                                          kNaN);
  batch->mutable_solver_iterations()->Resize(rows(F::kSolverIterations, 1), 0);
  batch->mutable_solver_converged()->Resize(rows(F::kSolverConverged, 1), false);
  batch->mutable_status_codes()->Resize(count, 0);
  batch->mutable_substeps_done()->Resize(count, 0);
  for (int i = 0; i < count; ++i) {
    batch->add_instance_ids();
    batch->add_status_messages();
  }
}

void FillObservationRow(const sim::Simulation& sim, ObservedLinks& observed, int row,
                        ObservationFields fields, v1::ObservationBatch* batch) {
  using F = ObservationField;
  const Model& m = sim.model();
  const int nu = m.nu();
  const int nc = sim.contacts().capacity();
  // Row `row` of `array` (rows of `width`) when `field` is asked for, else nullptr.
  const auto at = [&](F field, auto* array, int width) {
    return fields.has(field) ? array->mutable_data() + row * width : nullptr;
  };
  ObservationArrays out;
  out.q = at(F::kQ, batch->mutable_q(), m.nq);
  out.v = at(F::kV, batch->mutable_v(), m.nv);
  out.joint_positions = at(F::kJointPositions, batch->mutable_joint_positions(), nu);
  out.joint_velocities = at(F::kJointVelocities, batch->mutable_joint_velocities(), nu);
  out.joint_torques = at(F::kJointTorques, batch->mutable_joint_torques(), nu);
  if (m.floating_base) {
    out.base_pose = at(F::kBasePose, batch->mutable_base_pose(), 7);
    out.base_twist = at(F::kBaseTwist, batch->mutable_base_twist(), 6);
  }
  out.contact_normal_forces =
      at(F::kContactNormalForces, batch->mutable_contact_normal_forces(), nc);
  out.contact_flags = at(F::kContactFlags, batch->mutable_contact_flags(), nc);
  WriteObservationArrays(sim, out);
  if (fields.has(F::kLinkPositions)) {
    observed.Write(sim.state(),
                   batch->mutable_link_positions()->mutable_data() + row * 3 * observed.size());
  }
  if (fields.has(F::kTime)) batch->mutable_time()->Set(row, sim.state().time);
  if (fields.has(F::kSteps)) {
    batch->mutable_steps()->Set(row, static_cast<int64_t>(sim.state().steps));
  }
  if (fields.has(F::kSolverIterations)) {
    batch->mutable_solver_iterations()->Set(row, sim.last_report().solver_iterations);
  }
  if (fields.has(F::kSolverConverged)) {
    batch->mutable_solver_converged()->Set(row, sim.last_report().solver_converged);
  }
}

void SetRowOutcome(int row, const std::string& instance_id, const absl::Status& status,
                   int substeps_done, v1::ObservationBatch* batch) {
  *batch->mutable_instance_ids(row) = instance_id;
  batch->mutable_status_codes()->Set(row, static_cast<int>(status.code()));
  *batch->mutable_status_messages(row) = std::string(status.message());
  batch->mutable_substeps_done()->Set(row, substeps_done);
}

}  // namespace moreau::server
