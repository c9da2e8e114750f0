#include "server/instance_factory.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/model/loader.h"
#include "server/convert.h"
#include "server/wire_settings.h"

namespace moreau::server {

InstanceFactory::InstanceFactory(const ServiceOptions& options, Metrics* metrics)
    : urdf_limits_(options.urdf_limits),
      heightfield_limits_(options.heightfield_limits),
      metrics_(metrics) {}

absl::StatusOr<std::shared_ptr<const Model>> InstanceFactory::LoadModel(
    const v1::ModelSource& source) const {
  auto options = LoadOptionsFromProto(source);
  if (!options.ok()) return options.status();
  switch (source.source_case()) {
    case v1::ModelSource::kBuiltin: {  // the server's own: the defaults' limits
      auto model = LoadBuiltin(source.builtin(), *options);
      if (!model.ok()) {  // a bad request, not a missing instance
        return absl::InvalidArgumentError(model.status().message());
      }
      return model;
    }
    case v1::ModelSource::kUrdf: {
      options->limits = urdf_limits_;  // the client's text: the server's
      auto model = LoadUrdfString(source.urdf(), *options);
      if (!model.ok() && IsLimitError(model.status())) return model.status();  // not malformed
      if (!model.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat("malformed URDF: ", model.status().message()));
      }
      return model;
    }
    case v1::ModelSource::SOURCE_NOT_SET:
      break;
  }
  return absl::InvalidArgumentError("model: set either builtin (a name) or urdf (URDF text)");
}

absl::StatusOr<sim::Settings> InstanceFactory::LoadSettings(const v1::Settings& settings) const {
  return SettingsFromProto(settings, heightfield_limits_);
}

absl::StatusOr<std::shared_ptr<Instance>> InstanceFactory::Wrap(
    std::string id, std::string tenant, std::unique_ptr<sim::Simulation> simulation,
    std::shared_ptr<const v1::ModelSource> source, const v1::Settings& settings) const {
  // Against the simulation's own model, which the instance keeps.
  auto observed = ObservedLinks::Make(simulation->model(), settings.observed_links());
  if (!observed.ok()) return observed.status();
  // The labels: the model's name (a copy made for other gravity or
  // transmissions keeps it) and the contact model's.
  const std::string model_name = simulation->model().name;
  const std::string contact_name =
      sim::ContactModelName(sim::ModelOf(simulation->settings().contact));
  const std::string controller_name =
      simulation->controller() != nullptr ? std::string(simulation->controller()->Name()) : "";
  auto instance = std::make_shared<Instance>(std::move(id), std::move(simulation));
  instance->tenant = std::move(tenant);
  instance->source = std::move(source);
  instance->settings = settings;
  instance->model_name = model_name;
  instance->contact_model_name = contact_name;
  instance->controller_name = controller_name;
  {
    absl::MutexLock lock(&instance->mu);
    instance->observed = std::move(*observed);
  }
  instance->steps_counter = metrics_->StepsCounter(model_name, contact_name, instance->tenant);
  instance->diverged_counter =
      metrics_->DivergedCounter(model_name, contact_name, instance->tenant);
  instance->sim_seconds_counter =
      metrics_->SimSecondsCounter(model_name, contact_name, instance->tenant);
  instance->Touch();
  return instance;
}

absl::StatusOr<std::shared_ptr<Instance>> InstanceFactory::FromCheckpoint(
    const CheckpointRecord& record) const {
  auto settings = LoadSettings(record.settings);
  if (!settings.ok()) return settings.status();
  auto model = LoadModel(record.source);
  if (!model.ok()) return model.status();
  auto simulation = sim::Simulation::Create(*model, *settings);
  if (!simulation.ok()) return simulation.status();
  // The simulation's model (its own copy when the settings change gravity or
  // the transmissions) is what the state was stepped under.
  const uint64_t fingerprint = ModelFingerprint((*simulation)->model());
  if (fingerprint != record.model_fingerprint) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "model '%s' no longer matches the checkpoint (fingerprint %016x, checkpoint %016x)",
        (*model)->name, fingerprint, record.model_fingerprint));
  }
  if (absl::Status s = (*simulation)->Restore(record.state); !s.ok()) return s;
  if (record.diverged) (*simulation)->MarkDiverged(record.diverged_message);
  return Wrap(record.id, record.tenant, std::move(*simulation),
              std::make_shared<const v1::ModelSource>(record.source), record.settings);
}

}  // namespace moreau::server
