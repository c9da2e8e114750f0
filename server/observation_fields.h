// The observation arrays a StepBatch replies with
// (StepBatchRequest.observation_fields): a set of the per-instance arrays of
// v1::Observation and v1::ObservationBatch, named as those messages name
// them. The instance id, status and sub-steps done of each instance, and a
// packed batch's shape, are always sent.
#ifndef MOREAU_SERVER_OBSERVATION_FIELDS_H_
#define MOREAU_SERVER_OBSERVATION_FIELDS_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "google/protobuf/repeated_ptr_field.h"

namespace moreau::server {

// One selectable array; the bit of a set.
enum class ObservationField : uint32_t {
  kTime = 1u << 0,
  kSteps = 1u << 1,
  kQ = 1u << 2,
  kV = 1u << 3,
  kJointPositions = 1u << 4,
  kJointVelocities = 1u << 5,
  kJointTorques = 1u << 6,
  kBasePose = 1u << 7,
  kBaseTwist = 1u << 8,
  kContactNormalForces = 1u << 9,
  kContactFlags = 1u << 10,
  kSolverIterations = 1u << 11,
  kSolverConverged = 1u << 12,
  kLinkPositions = 1u << 13,
};

class ObservationFields {
 public:
  // Every array (the reply of a request that names none).
  static ObservationFields All();
  // The arrays `names` names; all of them when `names` is empty. A name may
  // repeat. INVALID_ARGUMENT naming the first entry that is no selectable
  // array (observation_fields[i]) and listing the names.
  static absl::StatusOr<ObservationFields> Parse(
      const google::protobuf::RepeatedPtrField<std::string>& names);

  bool has(ObservationField field) const { return (bits_ & static_cast<uint32_t>(field)) != 0; }
  bool operator==(const ObservationFields& other) const { return bits_ == other.bits_; }

 private:
  explicit ObservationFields(uint32_t bits) : bits_(bits) {}
  uint32_t bits_;
};

}  // namespace moreau::server

#endif  // MOREAU_SERVER_OBSERVATION_FIELDS_H_
