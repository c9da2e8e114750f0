#include "server/observation_fields.h"

#include "absl/strings/str_cat.h"
#include "engine/util/clip_text.h"
#include "engine/util/enum_table.h"

namespace moreau::server {
namespace {

// Each array by its name in v1::ObservationBatch and v1::Observation.
constexpr EnumEntry<ObservationField> kFields[] = {
    {ObservationField::kTime, "time"},
    {ObservationField::kSteps, "steps"},
    {ObservationField::kQ, "q"},
    {ObservationField::kV, "v"},
    {ObservationField::kJointPositions, "joint_positions"},
    {ObservationField::kJointVelocities, "joint_velocities"},
    {ObservationField::kJointTorques, "joint_torques"},
    {ObservationField::kBasePose, "base_pose"},
    {ObservationField::kBaseTwist, "base_twist"},
    {ObservationField::kContactNormalForces, "contact_normal_forces"},
    {ObservationField::kContactFlags, "contact_flags"},
    {ObservationField::kSolverIterations, "solver_iterations"},
    {ObservationField::kSolverConverged, "solver_converged"},
    {ObservationField::kLinkPositions, "link_positions"},
};

// The longest name an error message quotes.
constexpr size_t kMaxQuotedName = 64;

}  // namespace

ObservationFields ObservationFields::All() {
  uint32_t bits = 0;
  for (const EnumEntry<ObservationField>& f : kFields) bits |= static_cast<uint32_t>(f.value);
  return ObservationFields(bits);
}

absl::StatusOr<ObservationFields> ObservationFields::Parse(
    const google::protobuf::RepeatedPtrField<std::string>& names) {
  if (names.empty()) return All();
  uint32_t bits = 0;
  for (int i = 0; i < names.size(); ++i) {
    const std::string& name = names.Get(i);
    const absl::StatusOr<ObservationField> field =
        ParseEnum<ObservationField>("observation array", kFields, name);
    if (!field.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("observation_fields[", i, "]: '", ClipText(name, kMaxQuotedName),
                       "' is no observation array; the arrays: ", EnumNameList(kFields),
                       " (instance ids, statuses and substeps_done are always sent)"));
    }
    bits |= static_cast<uint32_t>(*field);
  }
  return ObservationFields(bits);
}

}  // namespace moreau::server
