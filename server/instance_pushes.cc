#include "server/instance_pushes.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "engine/dynamics/kinematics.h"

namespace moreau::server {
namespace {

void DropEnded(uint64_t step, std::vector<ActivePush>& active) {
  active.erase(std::remove_if(active.begin(), active.end(),
                              [step](const ActivePush& p) { return step >= p.end_step; }),
               active.end());
}

// `values` as a Vec3 into `out` (zero when empty and `optional`), or
// INVALID_ARGUMENT naming the field.
absl::Status ReadVector(const google::protobuf::RepeatedField<double>& values, bool optional,
                        const std::string& field, Vec3& out) {
  if (values.empty() && optional) {
    out.setZero();
    return absl::OkStatus();
  }
  if (values.size() != 3) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, " has ", values.size(), " values, expected 3"));
  }
  for (int i = 0; i < 3; ++i) {
    if (!std::isfinite(values[i]) || std::abs(values[i]) > kMaxPushMagnitude) {
      return absl::InvalidArgumentError(absl::StrCat(field, "[", i, "] is ", values[i],
                                                     ", expected a finite number of magnitude ≤ ",
                                                     kMaxPushMagnitude));
    }
    out[i] = values[i];
  }
  return absl::OkStatus();
}

absl::StatusOr<int> BodyIndex(const Model& model, const std::string& name,
                              const std::string& field) {
  if (name.empty()) {
    if (model.nbodies > 1) return 1;
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": model '", model.name, "' has no body to push"));
  }
  for (int b = 1; b < model.nbodies; ++b) {
    if (model.body_names[b] == name) return b;
  }
  return absl::InvalidArgumentError(
      absl::StrCat(field, " '", name, "' is not a body of model '", model.name,
                   "' (ModelSpec.body_names, not the world ",
                   model.body_names.empty() ? "" : model.body_names[0], ")"));
}

}  // namespace

absl::Status AddPushes(const Model& model, uint64_t steps, double dt,
                       const google::protobuf::RepeatedPtrField<v1::Push>& requested,
                       std::vector<ActivePush>& active) {
  if (requested.empty()) return absl::OkStatus();
  if (requested.size() > kMaxPushesPerRequest) {
    return absl::InvalidArgumentError(
        absl::StrCat(requested.size(), " pushes in one request, at most ", kMaxPushesPerRequest));
  }
  std::vector<ActivePush> added;
  for (int k = 0; k < requested.size(); ++k) {
    const v1::Push& in = requested[k];
    const std::string field = absl::StrCat("pushes[", k, "]");
    control::Push push;
    auto body = BodyIndex(model, in.body(), absl::StrCat(field, ".body"));
    if (!body.ok()) return body.status();
    push.body = *body;
    if (absl::Status s = ReadVector(in.force(), false, field + ".force", push.force_world);
        !s.ok()) {
      return s;
    }
    if (absl::Status s = ReadVector(in.point(), true, field + ".point", push.point); !s.ok()) {
      return s;
    }
    if (absl::Status s = ReadVector(in.torque(), true, field + ".torque", push.torque_world);
        !s.ok()) {
      return s;
    }
    if (!(in.duration() > 0.0 && in.duration() <= kMaxPushDurationS)) {
      return absl::InvalidArgumentError(absl::StrCat(
          field, ".duration is ", in.duration(), " s, expected in (0, ", kMaxPushDurationS, "]"));
    }
    push.duration_s = in.duration();
    const uint64_t count = std::max<uint64_t>(1, std::llround(in.duration() / dt));
    added.push_back({push, steps + count});
  }
  DropEnded(steps, active);
  if (active.size() + added.size() > static_cast<size_t>(kMaxActivePushes)) {
    return absl::InvalidArgumentError(
        absl::StrCat(active.size(), " pushes still act on the instance and ", added.size(),
                     " more would pass the limit of ", kMaxActivePushes));
  }
  active.insert(active.end(), added.begin(), added.end());
  return absl::OkStatus();
}

absl::Status StepWithPushes(sim::Simulation& sim, const Eigen::VectorXd& action, int substeps,
                            absl::Time stop_at, std::vector<ActivePush>& active,
                            PushScratch& scratch) {
  const Model& model = sim.model();
  int done = 0;
  DropEnded(sim.state().steps, active);
  while (done < substeps && !active.empty()) {
    if (scratch.data.X_0.size() != static_cast<size_t>(model.nbodies)) {
      scratch.data = MakeData(model);  // once, at the instance's first push
    }
    // The body orientations at this sub-step's start.
    ForwardKinematics(model, scratch.data, sim.state().q);
    scratch.f_ext.assign(static_cast<size_t>(model.nbodies), Force::Zero());
    for (const ActivePush& p : active) {
      control::ApplyPushWrench(p.push, model, scratch.f_ext, scratch.data);
    }
    absl::Status status = sim.StepActionUntil(action, 1, stop_at, &scratch.f_ext);
    if (absl::IsDeadlineExceeded(status)) {
      return absl::DeadlineExceededError(absl::StrCat("stepped ", done, " of ", substeps,
                                                      " sub-steps before the call's deadline"));
    }
    if (!status.ok()) return status;
    ++done;
    DropEnded(sim.state().steps, active);
  }
  if (done == substeps) return absl::OkStatus();
  const uint64_t before = sim.state().steps;
  absl::Status status = sim.StepActionUntil(action, substeps - done, stop_at);
  if (absl::IsDeadlineExceeded(status) && done > 0) {
    // The count is the whole call's.
    const int more = static_cast<int>(sim.state().steps - before);
    return absl::DeadlineExceededError(absl::StrCat("stepped ", done + more, " of ", substeps,
                                                    " sub-steps before the call's deadline"));
  }
  return status;
}

}  // namespace moreau::server
