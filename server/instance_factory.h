// Builds hosted instances: a request's model source loaded under the server's
// size limits, its wire settings as engine settings, the simulations wrapped
// as Instances with their metric counters — for CreateInstances and for the
// instances restored from checkpoints at start.
#ifndef MOREAU_SERVER_INSTANCE_FACTORY_H_
#define MOREAU_SERVER_INSTANCE_FACTORY_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "engine/contact/terrain.h"
#include "engine/model/model.h"
#include "engine/model/urdf_limits.h"
#include "engine/sim/settings.h"
#include "engine/sim/simulation.h"
#include "moreau/v1/simulator.pb.h"
#include "server/checkpoint.h"
#include "server/instance.h"
#include "server/metrics.h"
#include "server/service_options.h"

namespace moreau::server {

class InstanceFactory {
 public:
  // Reads the size limits of `options`; the instances' counters come from
  // `metrics`.
  InstanceFactory(const ServiceOptions& options, Metrics* metrics);

  // The model of `source`: a builtin by name (INVALID_ARGUMENT when there is
  // none) or URDF text within the URDF limits (the loader's limit error past
  // one, INVALID_ARGUMENT "malformed URDF: …" otherwise); INVALID_ARGUMENT
  // when neither is set.
  absl::StatusOr<std::shared_ptr<const Model>> LoadModel(const v1::ModelSource& source) const;
  // The engine settings of `settings`, heightfields within their limits;
  // INVALID_ARGUMENT naming the field.
  absl::StatusOr<sim::Settings> LoadSettings(const v1::Settings& settings) const;

  // The instance `id` of `tenant` around `simulation`, made from `source` and
  // `settings` (kept for its checkpoints), observing the bodies of
  // settings.observed_links, its counters labelled by model, contact model
  // and tenant, last used now. INVALID_ARGUMENT naming a body the model does
  // not have.
  absl::StatusOr<std::shared_ptr<Instance>> Wrap(std::string id, std::string tenant,
                                                 std::unique_ptr<sim::Simulation> simulation,
                                                 std::shared_ptr<const v1::ModelSource> source,
                                                 const v1::Settings& settings) const;

  // A checkpointed instance built again under its id and tenant: the model
  // from its source (FAILED_PRECONDITION when the model no longer has the
  // checkpoint's fingerprint), the settings, the state, the diverged flag.
  absl::StatusOr<std::shared_ptr<Instance>> FromCheckpoint(const CheckpointRecord& record) const;

 private:
  const UrdfLimits urdf_limits_;
  const contact::HeightfieldLimits heightfield_limits_;
  Metrics* const metrics_;
};

}  // namespace moreau::server

#endif  // MOREAU_SERVER_INSTANCE_FACTORY_H_
