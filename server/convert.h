// Conversions between the wire messages (proto/moreau/v1) and the engine:
// settings, model specs, observations, actions. Validation happens here, with
// messages naming the field, before anything is created or changed.
#ifndef MOREAU_SERVER_CONVERT_H_
#define MOREAU_SERVER_CONVERT_H_

#include <Eigen/Core>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/model/loader.h"
#include "engine/model/model.h"
#include "engine/sim/settings.h"
#include "engine/sim/simulation.h"
#include "moreau/v1/simulator.pb.h"
#include "server/observation_fields.h"
#include "server/observed_links.h"
#include "server/wire_settings.h"

namespace moreau::server {

namespace v1 = ::moreau::v1;

// LoadOptions (base mode, contact links) of a model source.
absl::StatusOr<LoadOptions> LoadOptionsFromProto(const v1::ModelSource& source);

// The model's spec (simulator.proto's ModelSpec): sizes, joints, actuators,
// contacts, and for drawing it every collision shape (`shapes`, role
// "collision"), visual shape (`visual_shapes`, role "visual", with its
// colour) and body.
void FillModelSpec(const Model& model, v1::ModelSpec* spec);

// Observation and action layout of instances like `simulation` (its model,
// settings and controller: under the "command" control mode the action is
// the controller's command) observing the positions of `observed`'s links.
void FillSpec(const sim::Simulation& simulation, const ObservedLinks& observed, v1::Spec* spec);

// Everything but instance_id, status and substeps_done, or of that only the
// arrays of `fields` (the others left empty); link_positions of `observed`'s
// links.
void FillObservation(const sim::Simulation& sim, ObservedLinks& observed, v1::Observation* obs,
                     ObservationFields fields = ObservationFields::All());

// Where the per-instance arrays of an observation go (an Observation's
// fields or a row of a packed ObservationBatch), each sized for the model:
// nq, nv, actuators ×3, 7 and 6 (floating base only: else unused), contacts ×2.
// A nullptr array is not written.
struct ObservationArrays {
  double* q = nullptr;
  double* v = nullptr;
  double* joint_positions = nullptr;
  double* joint_velocities = nullptr;
  double* joint_torques = nullptr;
  double* base_pose = nullptr;
  double* base_twist = nullptr;
  double* contact_normal_forces = nullptr;
  bool* contact_flags = nullptr;
};
void WriteObservationArrays(const sim::Simulation& sim, const ObservationArrays& out);

// Body poses (world) of bodies 1 … nbodies − 1 from their i_X_0.
void FillBodyPoses(const Model& model, const std::vector<Transform>& X_0,
                   google::protobuf::RepeatedPtrField<v1::BodyPose>* poses);

// Copies a packed repeated double into an Eigen vector of the same size
// (no allocation when `out` already has that size).
void ToEigen(const google::protobuf::RepeatedField<double>& in, Eigen::VectorXd& out);

// A status message for the wire.
void SetStatus(const absl::Status& status, v1::Status* out);

}  // namespace moreau::server

#endif  // MOREAU_SERVER_CONVERT_H_
