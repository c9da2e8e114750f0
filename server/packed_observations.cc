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

void SizeObservationBatch(const ObservationShape& shape, int count, v1::ObservationBatch* batch) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  const int base_pose = shape.floating_base ? 7 : 0;
  const int base_twist = shape.floating_base ? 6 : 0;
  batch->set_count(count);
  batch->set_nq(shape.nq);
  batch->set_nv(shape.nv);
  batch->set_num_actuators(shape.num_actuators);
  batch->set_num_contacts(shape.num_contacts);
  batch->set_floating_base(shape.floating_base);
  batch->set_num_observed_links(shape.num_observed_links);
  batch->mutable_time()->Resize(count, kNaN);
  batch->mutable_steps()->Resize(count, 0);
  batch->mutable_q()->Resize(count * shape.nq, kNaN);
  batch->mutable_v()->Resize(count * shape.nv, kNaN);
  batch->mutable_joint_positions()->Resize(count * shape.num_actuators, kNaN);
  batch->mutable_joint_velocities()->Resize(count * shape.num_actuators, kNaN);
  batch->mutable_joint_torques()->Resize(count * shape.num_actuators, kNaN);
  batch->mutable_base_pose()->Resize(count * base_pose, kNaN);
  batch->mutable_base_twist()->Resize(count * base_twist, kNaN);
  batch->mutable_contact_normal_forces()->Resize(count * shape.num_contacts, kNaN);
  batch->mutable_contact_flags()->Resize(count * shape.num_contacts, false);
  batch->mutable_link_positions()->Resize(count * 3 * shape.num_observed_links, kNaN);
  batch->mutable_solver_iterations()->Resize(count, 0);
  batch->mutable_solver_converged()->Resize(count, false);
  batch->mutable_status_codes()->Resize(count, 0);
  batch->mutable_substeps_done()->Resize(count, 0);
  for (int i = 0; i < count; ++i) {
    batch->add_instance_ids();
    batch->add_status_messages();
  }
}

void FillObservationRow(const sim::Simulation& sim, ObservedLinks& observed, int row,
                        v1::ObservationBatch* batch) {
  const Model& m = sim.model();
  const int nu = m.nu();
  const int nc = sim.contacts().capacity();
  ObservationArrays out;
  out.q = batch->mutable_q()->mutable_data() + row * m.nq;
  out.v = batch->mutable_v()->mutable_data() + row * m.nv;
  out.joint_positions = batch->mutable_joint_positions()->mutable_data() + row * nu;
  out.joint_velocities = batch->mutable_joint_velocities()->mutable_data() + row * nu;
  out.joint_torques = batch->mutable_joint_torques()->mutable_data() + row * nu;
  if (m.floating_base) {
    out.base_pose = batch->mutable_base_pose()->mutable_data() + row * 7;
    out.base_twist = batch->mutable_base_twist()->mutable_data() + row * 6;
  }
  out.contact_normal_forces = batch->mutable_contact_normal_forces()->mutable_data() + row * nc;
  out.contact_flags = batch->mutable_contact_flags()->mutable_data() + row * nc;
  WriteObservationArrays(sim, out);
  observed.Write(sim.state(),
                 batch->mutable_link_positions()->mutable_data() + row * 3 * observed.size());
  batch->mutable_time()->Set(row, sim.state().time);
  batch->mutable_steps()->Set(row, static_cast<int64_t>(sim.state().steps));
  batch->mutable_solver_iterations()->Set(row, sim.last_report().solver_iterations);
  batch->mutable_solver_converged()->Set(row, sim.last_report().solver_converged);
}

void SetRowOutcome(int row, const std::string& instance_id, const absl::Status& status,
                   int substeps_done, v1::ObservationBatch* batch) {
  *batch->mutable_instance_ids(row) = instance_id;
  batch->mutable_status_codes()->Set(row, static_cast<int>(status.code()));
  *batch->mutable_status_messages(row) = std::string(status.message());
  batch->mutable_substeps_done()->Set(row, substeps_done);
}

}  // namespace moreau::server
