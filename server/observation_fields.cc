#include "server/observation_fields.h"

#include <string_view>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/util/clip_text.h"

namespace moreau::server {
namespace {

struct NamedField {
  std::string_view name;  // the field's name in v1::ObservationBatch and v1::Observation
  ObservationField field;
};

constexpr NamedField kFields[] = {
    {"time", ObservationField::kTime},
    {"steps", ObservationField::kSteps},
    {"q", ObservationField::kQ},
    {"v", ObservationField::kV},
    {"joint_positions", ObservationField::kJointPositions},
    {"joint_velocities", ObservationField::kJointVelocities},
    {"joint_torques", ObservationField::kJointTorques},
    {"base_pose", ObservationField::kBasePose},
    {"base_twist", ObservationField::kBaseTwist},
    {"contact_normal_forces", ObservationField::kContactNormalForces},
    {"contact_flags", ObservationField::kContactFlags},
    {"solver_iterations", ObservationField::kSolverIterations},
    {"solver_converged", ObservationField::kSolverConverged},
    {"link_positions", ObservationField::kLinkPositions},
};

// The longest name an error message quotes.
constexpr size_t kMaxQuotedName = 64;

}  // namespace

ObservationFields ObservationFields::All() {
  uint32_t bits = 0;
  for (const NamedField& f : kFields) bits |= static_cast<uint32_t>(f.field);
  return ObservationFields(bits);
}

absl::StatusOr<ObservationFields> ObservationFields::Parse(
    const google::protobuf::RepeatedPtrField<std::string>& names) {
  if (names.empty()) return All();
  uint32_t bits = 0;
  for (int i = 0; i < names.size(); ++i) {
    const std::string& name = names.Get(i);
    uint32_t bit = 0;
    for (const NamedField& f : kFields) {
      if (f.name == name) bit = static_cast<uint32_t>(f.field);
    }
    if (bit == 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "observation_fields[", i, "]: '", ClipText(name, kMaxQuotedName),
          "' is no observation array; the arrays: ",
          absl::StrJoin(kFields, ", ",
                        [](std::string* out, const NamedField& f) { out->append(f.name); }),
          " (instance ids, statuses and substeps_done are always sent)"));
    }
    bits |= bit;
  }
  return ObservationFields(bits);
}

}  // namespace moreau::server
