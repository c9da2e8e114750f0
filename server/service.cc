#include "server/service.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/dynamics/configuration.h"
#include "engine/model/builtin_meshes.h"
#include "engine/model/loader.h"
#include "engine/sim/inspection.h"
#include "engine/util/clip_text.h"
#include "server/auth_interceptor.h"
#include "server/checkpoint_store.h"
#include "server/convert.h"
#include "server/grpc_status.h"
#include "server/instance_list.h"
#include "server/packed_observations.h"
#include "server/step_batch.h"

namespace moreau::server {
namespace {

absl::Time DeadlineOf(const grpc::CallbackServerContext* context) {
  const auto deadline = context->deadline();
  if (deadline == std::chrono::system_clock::time_point::max()) return absl::InfiniteFuture();
  return absl::FromChrono(deadline);
}

absl::Status CheckNoise(double noise) {
  if (std::isfinite(noise) && noise >= 0.0) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("noise must be finite and ≥ 0, got ", noise));
}

// After the instance's state was replaced (reset, restore; either clears
// the simulation's diverged flag, so stepping is allowed again): the pushes
// end, watchers and listings see the new state, `obs` shows it.
void ShowNewState(Instance& inst, v1::Observation* obs) ABSL_EXCLUSIVE_LOCKS_REQUIRED(inst.mu) {
  inst.pushes.clear();  // a new start: no push goes on acting
  inst.PublishProgress(/*stepped=*/false);
  FillObservation(*inst.sim, inst.observed, obs);
  obs->set_instance_id(inst.id);
  if (inst.watchers > 0) inst.PublishSample();
}

}  // namespace

SimulatorService::SimulatorService(const ServiceOptions& options, ServerParts* parts,
                                   Metrics* metrics, CheckpointStore* checkpoints)
    : options_(options), parts_(parts), metrics_(metrics), checkpoints_(checkpoints) {
  for (const std::string& name : BuiltinModelNames()) {
    auto model = LoadBuiltin(name);
    if (model.ok()) FillModelSpec(**model, builtin_models_.add_models());
  }
}

SimulatorService::~SimulatorService() = default;

grpc::ServerUnaryReactor* SimulatorService::Finish(grpc::CallbackServerContext* context, Rpc rpc,
                                                   absl::Time start, const absl::Status& status) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  const absl::StatusOr<Tenant> caller = Caller(context);
  metrics_->ObserveRpc(rpc, static_cast<grpc::StatusCode>(status.code()),
                       absl::ToDoubleSeconds(absl::Now() - start),
                       caller.ok() ? caller->name : std::string());
  reactor->Finish(ToGrpcStatus(status));
  return reactor;
}

absl::StatusOr<Tenant> SimulatorService::Caller(const grpc::CallbackServerContext* context) const {
  if (options_.auth == nullptr) return Tenant{};
  return options_.auth->Caller(context);
}

// ------------------------------------------------------------------ models --

grpc::ServerUnaryReactor* SimulatorService::ListModels(grpc::CallbackServerContext* context,
                                                       const v1::ListModelsRequest*,
                                                       v1::ListModelsResponse* response) {
  const absl::Time start = absl::Now();
  if (auto caller = Caller(context); !caller.ok()) {
    return Finish(context, Rpc::kListModels, start, caller.status());
  }
  *response = builtin_models_;
  return Finish(context, Rpc::kListModels, start, absl::OkStatus());
}

grpc::ServerUnaryReactor* SimulatorService::GetModel(grpc::CallbackServerContext* context,
                                                     const v1::GetModelRequest* request,
                                                     v1::GetModelResponse* response) {
  const absl::Time start = absl::Now();
  if (auto caller = Caller(context); !caller.ok()) {
    return Finish(context, Rpc::kGetModel, start, caller.status());
  }
  auto model = parts_->factory.LoadModel(request->model());
  if (model.ok()) FillModelSpec(**model, response->mutable_spec());
  return Finish(context, Rpc::kGetModel, start, model.status());
}

namespace {

// The most bytes of a client's name an error message quotes.
constexpr size_t kMaxQuotedName = 200;

// The mesh's bytes: NOT_FOUND naming what is missing, INVALID_ARGUMENT for an
// empty field, RESOURCE_EXHAUSTED for a reply past `max_message_bytes`.
absl::Status FindMesh(const v1::GetMeshRequest& request, int max_message_bytes,
                      v1::GetMeshResponse* response) {
  if (request.model().empty()) {
    return absl::InvalidArgumentError("model is empty: give a built-in model's name");
  }
  if (request.mesh().empty()) {
    return absl::InvalidArgumentError(
        "mesh is empty: give a mesh file name as the model's shapes name it (ShapeSpec.mesh)");
  }
  const std::string model = ClipText(request.model(), kMaxQuotedName);
  const std::vector<std::string> meshes = BuiltinMeshNames(request.model());
  if (meshes.empty()) {
    const std::vector<std::string> builtins = BuiltinModelNames();
    const bool builtin =
        std::find(builtins.begin(), builtins.end(), request.model()) != builtins.end();
    return absl::NotFoundError(absl::StrCat(
        builtin ? "built-in model '" : "model '", model,
        builtin ? "' has no compiled-in meshes"
                : "' has no compiled-in meshes: it is not a built-in model (the server serves "
                  "no mesh of a URDF-text model)",
        "; built-in models with meshes: ", absl::StrJoin(ModelsWithBuiltinMeshes(), ", ")));
  }
  const std::optional<std::string_view> bytes = BuiltinMesh(request.model(), request.mesh());
  if (!bytes.has_value()) {
    return absl::NotFoundError(absl::StrCat("model '", model, "' has no mesh '",
                                            ClipText(request.mesh(), kMaxQuotedName),
                                            "'; its meshes: ", absl::StrJoin(meshes, ", ")));
  }
  response->set_format(std::string(MeshFormat(request.mesh())));
  response->set_data(std::string(*bytes));
  const size_t size = response->ByteSizeLong();
  if (size > static_cast<size_t>(max_message_bytes)) {
    response->Clear();
    return absl::ResourceExhaustedError(absl::StrCat(
        "mesh '", request.mesh(), "' of model '", model, "' makes a reply of ", size,
        " bytes, more than the server's --max-message-bytes (", max_message_bytes, ")"));
  }
  return absl::OkStatus();
}

}  // namespace

grpc::ServerUnaryReactor* SimulatorService::GetMesh(grpc::CallbackServerContext* context,
                                                    const v1::GetMeshRequest* request,
                                                    v1::GetMeshResponse* response) {
  const absl::Time start = absl::Now();
  if (auto caller = Caller(context); !caller.ok()) {
    return Finish(context, Rpc::kGetMesh, start, caller.status());
  }
  return Finish(context, Rpc::kGetMesh, start,
                FindMesh(*request, options_.max_message_bytes, response));
}

// --------------------------------------------------------------- instances --

grpc::ServerUnaryReactor* SimulatorService::CreateInstances(
    grpc::CallbackServerContext* context, const v1::CreateInstancesRequest* request,
    v1::CreateInstancesResponse* response) {
  const absl::Time start = absl::Now();
  const auto fail = [&](const absl::Status& s) {
    return Finish(context, Rpc::kCreateInstances, start, s);
  };
  const absl::StatusOr<Tenant> caller = Caller(context);
  if (!caller.ok()) return fail(caller.status());
  const int count = request->count();
  if (count < 1 || count > options_.max_create) {
    return fail(
        absl::InvalidArgumentError(absl::StrCat("count must be in [1, ", options_.max_create,
                                                "] per call (the server's --max-create), "
                                                "got ",
                                                count)));
  }
  if (absl::Status s = CheckNoise(request->noise()); !s.ok()) return fail(s);
  Registry& registry = parts_->registry;
  if (absl::Status s = registry.CheckCapacity(count, *caller); !s.ok()) return fail(s);
  auto settings = parts_->factory.LoadSettings(request->settings());
  if (!settings.ok()) return fail(settings.status());
  // Built once, shared by the N.
  auto model = parts_->factory.LoadModel(request->model());
  if (!model.ok()) return fail(model.status());

  const auto source = std::make_shared<const v1::ModelSource>(request->model());
  std::vector<std::shared_ptr<Instance>> instances;
  instances.reserve(static_cast<size_t>(count));
  for (int k = 0; k < count; ++k) {
    auto simulation = sim::Simulation::Create(*model, *settings);
    if (!simulation.ok()) return fail(simulation.status());
    if (request->noise() > 0.0) {
      (*simulation)->ResetWithNoise(request->seed() + static_cast<uint64_t>(k), request->noise());
    }
    auto instance = parts_->factory.Wrap(Registry::NewId(), caller->name, std::move(*simulation),
                                         source, request->settings());
    if (!instance.ok()) return fail(instance.status());
    instances.push_back(std::move(*instance));
  }
  if (absl::Status s = registry.AddAll(instances, *caller); !s.ok()) return fail(s);
  // The simulation's model: its own copy when the settings override gravity or
  // the transmissions.
  {
    Instance& first = *instances.front();
    absl::MutexLock lock(&first.mu);
    FillSpec(*first.sim, first.observed, response->mutable_spec());
  }
  for (const auto& instance : instances) {
    response->add_instance_ids(instance->id);
    v1::Observation* obs = response->add_observations();
    absl::MutexLock lock(&instance->mu);
    FillObservation(*instance->sim, instance->observed, obs);
    obs->set_instance_id(instance->id);
  }
  metrics_->SetLiveInstances(registry.size());
  return fail(absl::OkStatus());
}

grpc::ServerUnaryReactor* SimulatorService::DestroyInstances(
    grpc::CallbackServerContext* context, const v1::DestroyInstancesRequest* request,
    v1::DestroyInstancesResponse* response) {
  const absl::Time start = absl::Now();
  const absl::StatusOr<Tenant> caller = Caller(context);
  if (!caller.ok()) return Finish(context, Rpc::kDestroyInstances, start, caller.status());
  std::vector<std::string> destroyed;
  for (const std::string& id : request->instance_ids()) {
    if (parts_->registry.Remove(id, caller->name) != nullptr) {
      destroyed.push_back(id);
    } else {
      response->add_not_found(id);
    }
  }
  if (checkpoints_ != nullptr) checkpoints_->Forget(destroyed);
  response->set_destroyed(static_cast<int>(destroyed.size()));
  metrics_->SetLiveInstances(parts_->registry.size());
  return Finish(context, Rpc::kDestroyInstances, start, absl::OkStatus());
}

grpc::ServerUnaryReactor* SimulatorService::ListInstances(grpc::CallbackServerContext* context,
                                                          const v1::ListInstancesRequest* request,
                                                          v1::ListInstancesResponse* response) {
  const absl::Time start = absl::Now();
  const absl::StatusOr<Tenant> caller = Caller(context);
  if (!caller.ok()) return Finish(context, Rpc::kListInstances, start, caller.status());
  return Finish(context, Rpc::kListInstances, start,
                server::ListInstances(parts_->registry, caller->name, *request, response));
}

grpc::ServerUnaryReactor* SimulatorService::Reset(grpc::CallbackServerContext* context,
                                                  const v1::ResetRequest* request,
                                                  v1::ResetResponse* response) {
  const absl::Time start = absl::Now();
  const absl::StatusOr<Tenant> caller = Caller(context);
  if (!caller.ok()) return Finish(context, Rpc::kReset, start, caller.status());
  auto instance = parts_->registry.Get(request->instance_id(), caller->name);
  if (!instance.ok()) return Finish(context, Rpc::kReset, start, instance.status());
  if (absl::Status s = CheckNoise(request->noise()); !s.ok()) {
    return Finish(context, Rpc::kReset, start, s);
  }
  Instance& inst = **instance;
  inst.Touch();
  absl::Status status;
  {
    absl::MutexLock lock(&inst.mu);
    if (request->has_state()) {
      status = inst.sim->Restore(request->state().data());
    } else if (request->noise() > 0.0) {
      inst.sim->ResetWithNoise(request->seed(), request->noise());
    } else {
      inst.sim->Reset();
    }
    if (status.ok()) ShowNewState(inst, response->mutable_observation());
  }
  return Finish(context, Rpc::kReset, start, status);
}

// ---------------------------------------------------------------- stepping --

grpc::ServerUnaryReactor* SimulatorService::Step(grpc::CallbackServerContext* context,
                                                 const v1::StepRequest* request,
                                                 v1::StepResponse* response) {
  const absl::Time start = absl::Now();
  absl::StatusOr<Tenant> caller = Caller(context);
  if (!caller.ok()) return Finish(context, Rpc::kStep, start, caller.status());
  const InstanceStepper& stepper = parts_->stepper;
  auto instance = stepper.Resolve(*request, caller->name);
  if (!instance.ok()) return Finish(context, Rpc::kStep, start, instance.status());
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  const absl::Time deadline = DeadlineOf(context);
  auto run = [this, reactor, request, response, start, deadline, instance = std::move(*instance),
              tenant = std::move(caller->name)] {
    v1::Observation* obs = response->mutable_observation();
    parts_->stepper.Step(*instance, *request, deadline, obs);
    // A unary Step reports its instance's failure as the call's status.
    const absl::Status status(static_cast<absl::StatusCode>(obs->status().code()),
                              obs->status().message());
    metrics_->ObserveRpc(Rpc::kStep, static_cast<grpc::StatusCode>(status.code()),
                         absl::ToDoubleSeconds(absl::Now() - start), tenant);
    reactor->Finish(ToGrpcStatus(status));
  };
  if (stepper.RunsInline(std::max(1, request->substeps()))) {
    run();
  } else {
    parts_->pool.Submit(std::move(run));
  }
  return reactor;
}

namespace {

// One StepBatch in flight on the worker pool: its runners share the run; the
// last runner to finish replies.
struct BatchCall {
  grpc::ServerUnaryReactor* reactor;
  Metrics* metrics;
  absl::Time start;
  std::string tenant;  // the caller's (metrics)
  std::unique_ptr<StepBatchRun> run;
  std::atomic<int> runners{0};

  void Run(const InstanceStepper& stepper) {
    run->Run(stepper);
    if (runners.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    metrics->ObserveRpc(Rpc::kStepBatch, grpc::StatusCode::OK,
                        absl::ToDoubleSeconds(absl::Now() - start), tenant);
    reactor->Finish(grpc::Status::OK);
    delete this;
  }
};

}  // namespace

grpc::ServerUnaryReactor* SimulatorService::StepBatch(grpc::CallbackServerContext* context,
                                                      const v1::StepBatchRequest* request,
                                                      v1::StepBatchResponse* response) {
  const absl::Time start = absl::Now();
  absl::StatusOr<Tenant> caller = Caller(context);
  if (!caller.ok()) return Finish(context, Rpc::kStepBatch, start, caller.status());
  absl::StatusOr<std::unique_ptr<StepBatchRun>> run = StepBatchRun::Prepare(
      options_, parts_->registry, caller->name, *request, DeadlineOf(context), response);
  if (!run.ok()) return Finish(context, Rpc::kStepBatch, start, run.status());
  const InstanceStepper& stepper = parts_->stepper;
  WorkerPool& pool = parts_->pool;
  const bool inline_run = stepper.RunsInline((*run)->total_substeps());
  const int runners = inline_run ? 1 : std::min((*run)->size(), pool.size());
  auto* call = new BatchCall{context->DefaultReactor(), metrics_, start, std::move(caller->name),
                             *std::move(run)};
  grpc::ServerUnaryReactor* reactor = call->reactor;
  call->runners = std::max(1, runners);
  if (inline_run || runners < 1) {
    call->Run(stepper);
    return reactor;
  }
  for (int r = 0; r < runners; ++r) pool.Submit([this, call] { call->Run(parts_->stepper); });
  return reactor;
}

grpc::ServerBidiReactor<v1::SessionRequest, v1::SessionResponse>* SimulatorService::Session(
    grpc::CallbackServerContext* context) {
  absl::StatusOr<Tenant> caller = Caller(context);
  if (!caller.ok()) {
    metrics_->ObserveRpc(Rpc::kSession, static_cast<grpc::StatusCode>(caller.status().code()), 0.0);
    return new FailedBidiReactor<v1::SessionRequest, v1::SessionResponse>(
        ToGrpcStatus(caller.status()));
  }
  return parts_->sessions.Start(std::move(caller->name));
}

// ------------------------------------------------------------------- state --

grpc::ServerUnaryReactor* SimulatorService::GetState(grpc::CallbackServerContext* context,
                                                     const v1::GetStateRequest* request,
                                                     v1::GetStateResponse* response) {
  const absl::Time start = absl::Now();
  const absl::StatusOr<Tenant> caller = Caller(context);
  if (!caller.ok()) return Finish(context, Rpc::kGetState, start, caller.status());
  auto instance = parts_->registry.Get(request->instance_id(), caller->name);
  if (!instance.ok()) return Finish(context, Rpc::kGetState, start, instance.status());
  Instance& inst = **instance;
  inst.Touch();
  {
    absl::MutexLock lock(&inst.mu);
    const sim::State& s = inst.sim->state();
    response->mutable_state()->set_data(inst.sim->Snapshot());
    response->mutable_q()->Assign(s.q.data(), s.q.data() + s.q.size());
    response->mutable_v()->Assign(s.v.data(), s.v.data() + s.v.size());
    response->set_time(s.time);
  }
  return Finish(context, Rpc::kGetState, start, absl::OkStatus());
}

grpc::ServerUnaryReactor* SimulatorService::SetState(grpc::CallbackServerContext* context,
                                                     const v1::SetStateRequest* request,
                                                     v1::SetStateResponse* response) {
  const absl::Time start = absl::Now();
  const absl::StatusOr<Tenant> caller = Caller(context);
  if (!caller.ok()) return Finish(context, Rpc::kSetState, start, caller.status());
  auto instance = parts_->registry.Get(request->instance_id(), caller->name);
  if (!instance.ok()) return Finish(context, Rpc::kSetState, start, instance.status());
  Instance& inst = **instance;
  inst.Touch();
  absl::Status status;
  {
    absl::MutexLock lock(&inst.mu);
    status = inst.sim->Restore(request->state().data());  // all-or-nothing
    if (status.ok()) ShowNewState(inst, response->mutable_observation());
  }
  return Finish(context, Rpc::kSetState, start, status);
}

// ------------------------------------------------------------------- query --

grpc::ServerUnaryReactor* SimulatorService::Query(grpc::CallbackServerContext* context,
                                                  const v1::QueryRequest* request,
                                                  v1::QueryResponse* response) {
  const absl::Time start = absl::Now();
  const absl::StatusOr<Tenant> caller = Caller(context);
  if (!caller.ok()) return Finish(context, Rpc::kQuery, start, caller.status());
  auto instance = parts_->registry.Get(request->instance_id(), caller->name);
  if (!instance.ok()) return Finish(context, Rpc::kQuery, start, instance.status());
  Instance& inst = **instance;
  inst.Touch();
  const Model& model = inst.sim->model();
  const bool at_q = request->q_size() > 0;
  if (at_q && request->contacts()) {
    return Finish(context, Rpc::kQuery, start,
                  absl::InvalidArgumentError(
                      "q and contacts: the contacts are the instance's last step's, not q's"));
  }
  if (at_q && request->q_size() != model.nq) {
    return Finish(context, Rpc::kQuery, start,
                  absl::InvalidArgumentError(absl::StrCat("q has ", request->q_size(),
                                                          " values, the model has nq ", model.nq)));
  }
  sim::State state;
  std::vector<contact::Contact> contacts;
  std::vector<LinkPoint> links;
  contact::Terrain terrain;  // the witness points' (Jacobians)
  {
    absl::MutexLock lock(&inst.mu);
    state = inst.sim->state();
    if (request->contact_jacobians()) terrain = inst.sim->settings().terrain;
    if (request->contacts()) contacts = inst.sim->contacts().contacts;
    if (request->link_positions()) links = inst.observed.links();
  }
  if (at_q) {  // the configuration q at rest
    ToEigen(request->q(), state.q);
    state.v.setZero();
    if (!state.q.allFinite() || !NormalizeConfiguration(model, state.q)) {
      return Finish(context, Rpc::kQuery, start,
                    absl::InvalidArgumentError(
                        "q must be finite, with a non-zero base quaternion (floating base)"));
    }
  }
  // Everything else is computed here, by an Inspection of the copied state:
  // the instance is free to step meanwhile.
  sim::Inspection inspection(model, state);
  response->set_time(state.time);
  response->set_nv(model.nv);
  if (request->body_poses()) {
    FillBodyPoses(model, inspection.BodyTransforms(), response->mutable_body_poses());
  }
  if (!links.empty()) {
    response->mutable_link_positions()->Resize(3 * static_cast<int>(links.size()), 0.0);
    LinkPositions(links, inspection.BodyTransforms(),
                  response->mutable_link_positions()->mutable_data());
  }
  for (size_t k = 0; k < contacts.size(); ++k) {
    const contact::Contact& c = contacts[k];
    v1::ContactInfo* info = response->add_contacts();
    info->set_index(static_cast<int>(k));
    info->set_active(c.active);
    info->set_gap(c.gap);
    info->mutable_position()->Add(c.position.data(), c.position.data() + 3);
    info->mutable_normal()->Add(c.normal.data(), c.normal.data() + 3);
    const Vec3 force = c.active ? c.force : Vec3::Zero();
    info->mutable_force()->Add(force.data(), force.data() + 3);
  }
  if (request->energies()) {
    response->set_kinetic_energy(inspection.KineticEnergy());
    response->set_potential_energy(inspection.PotentialEnergy());
  }
  if (request->mass_matrix()) {
    const Eigen::MatrixXd& M = inspection.MassMatrix();
    for (int r = 0; r < model.nv; ++r) {
      for (int c = 0; c < model.nv; ++c) response->add_mass_matrix(M(r, c));
    }
  }
  if (request->bias_forces()) {
    const Eigen::VectorXd& h = inspection.BiasForces();
    response->mutable_bias_forces()->Assign(h.data(), h.data() + model.nv);
  }
  if (request->contact_jacobians()) {
    for (const Matrix3Xd& J : inspection.ContactJacobians(terrain)) {
      for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < model.nv; ++c) response->add_contact_jacobians(J(r, c));
      }
    }
  }
  return Finish(context, Rpc::kQuery, start, absl::OkStatus());
}

grpc::ServerWriteReactor<v1::WatchFrame>* SimulatorService::Watch(
    grpc::CallbackServerContext* context, const v1::WatchRequest* request) {
  const double rate = request->rate_hz() == 0.0 ? 30.0 : request->rate_hz();
  const absl::StatusOr<Tenant> caller = Caller(context);
  absl::Status status;
  std::shared_ptr<Instance> instance;
  if (!caller.ok()) {
    status = caller.status();
  } else if (!(std::isfinite(rate) && rate > 0.0 && rate <= 1000.0)) {
    status = absl::InvalidArgumentError(
        absl::StrCat("rate_hz must be in (0, 1000], got ", request->rate_hz()));
  } else {
    auto found = parts_->registry.Get(request->instance_id(), caller->name);
    if (found.ok()) {
      instance = std::move(*found);
    } else {
      status = found.status();
    }
  }
  if (!status.ok()) {
    metrics_->ObserveRpc(Rpc::kWatch, static_cast<grpc::StatusCode>(status.code()), 0.0,
                         caller.ok() ? caller->name : std::string());
    return new FailedWriteReactor<v1::WatchFrame>(ToGrpcStatus(status));
  }
  return parts_->watches.Start(std::move(instance), rate);
}

}  // namespace moreau::server
