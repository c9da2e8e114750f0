#include "server/service.h"

#include <algorithm>
#include <cmath>
#include <thread>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/dynamics/data.h"
#include "engine/model/loader.h"
#include "engine/sim/inspection.h"
#include "server/checkpoint_store.h"
#include "server/convert.h"
#include "server/grpc_status.h"
#include "server/packed_observations.h"
#include "server/session_reactor.h"

namespace moreau::server {
namespace {

int DefaultWorkers(int requested) {
  if (requested > 0) return requested;
  const unsigned cores = std::thread::hardware_concurrency();
  return cores == 0 ? 1 : static_cast<int>(cores);
}

absl::Time DeadlineOf(const grpc::CallbackServerContext* context) {
  const auto deadline = context->deadline();
  if (deadline == std::chrono::system_clock::time_point::max()) return absl::InfiniteFuture();
  return absl::FromChrono(deadline);
}

absl::StatusOr<std::shared_ptr<const Model>> LoadSource(const v1::ModelSource& source,
                                                        const UrdfLimits& limits) {
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
      options->limits = limits;  // the client's text: the server's
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

void Touch(Instance& instance) { instance.last_used_ns.store(MonotonicNowNs()); }

absl::Status CheckNoise(double noise) {
  if (std::isfinite(noise) && noise >= 0.0) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("noise must be finite and ≥ 0, got ", noise));
}

// After the instance's state was replaced (reset, restore): stepping is
// allowed again, watchers see the new state, `obs` shows it.
void ShowNewState(Instance& inst, v1::Observation* obs) ABSL_EXCLUSIVE_LOCKS_REQUIRED(inst.mu) {
  inst.diverged = false;
  FillObservation(*inst.sim, obs);
  obs->set_instance_id(inst.id);
  if (inst.watchers > 0) inst.PublishSample();
}

}  // namespace

SimulatorService::SimulatorService(const ServiceOptions& options, Metrics* metrics,
                                   CheckpointStore* checkpoints)
    : options_(options),
      metrics_(metrics),
      checkpoints_(checkpoints),
      registry_(options.max_instances),
      pool_(DefaultWorkers(options.worker_threads)),
      watch_hub_(metrics, options.max_watches) {
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
  auto model = LoadSource(request->model(), options_.urdf_limits);
  if (model.ok()) FillModelSpec(**model, response->mutable_spec());
  return Finish(context, Rpc::kGetModel, start, model.status());
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
  if (absl::Status s = registry_.CheckCapacity(count, *caller); !s.ok()) return fail(s);
  auto settings = SettingsFromProto(request->settings(), options_.heightfield_limits);
  if (!settings.ok()) return fail(settings.status());
  auto model = LoadSource(request->model(), options_.urdf_limits);  // built once, shared by the N
  if (!model.ok()) return fail(model.status());

  const std::string model_name = (*model)->name;
  const std::string contact_name = sim::ContactModelName(settings->contact);
  const auto source = std::make_shared<const v1::ModelSource>(request->model());
  std::vector<std::shared_ptr<Instance>> instances;
  instances.reserve(static_cast<size_t>(count));
  for (int k = 0; k < count; ++k) {
    auto simulation = sim::Simulation::Create(*model, *settings);
    if (!simulation.ok()) return fail(simulation.status());
    if (request->noise() > 0.0) {
      (*simulation)->ResetWithNoise(request->seed() + static_cast<uint64_t>(k), request->noise());
    }
    auto instance = std::make_shared<Instance>(Registry::NewId(), std::move(*simulation));
    instance->source = source;
    instance->settings = request->settings();
    instance->tenant = caller->name;
    instance->steps_counter = metrics_->StepsCounter(model_name, contact_name, caller->name);
    instance->diverged_counter = metrics_->DivergedCounter(model_name, contact_name, caller->name);
    instance->sim_seconds_counter =
        metrics_->SimSecondsCounter(model_name, contact_name, caller->name);
    Touch(*instance);
    instances.push_back(std::move(instance));
  }
  if (absl::Status s = registry_.AddAll(instances, *caller); !s.ok()) return fail(s);
  // The simulation's model: its own copy when the settings override gravity or
  // the transmissions.
  FillSpec(instances.front()->sim->model(), instances.front()->sim->settings(),
           response->mutable_spec());
  for (const auto& instance : instances) {
    response->add_instance_ids(instance->id);
    v1::Observation* obs = response->add_observations();
    absl::MutexLock lock(&instance->mu);
    FillObservation(*instance->sim, obs);
    obs->set_instance_id(instance->id);
  }
  metrics_->SetLiveInstances(registry_.size());
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
    if (registry_.Remove(id, caller->name) != nullptr) {
      destroyed.push_back(id);
    } else {
      response->add_not_found(id);
    }
  }
  if (checkpoints_ != nullptr) checkpoints_->Forget(destroyed);
  response->set_destroyed(static_cast<int>(destroyed.size()));
  metrics_->SetLiveInstances(registry_.size());
  return Finish(context, Rpc::kDestroyInstances, start, absl::OkStatus());
}

grpc::ServerUnaryReactor* SimulatorService::Reset(grpc::CallbackServerContext* context,
                                                  const v1::ResetRequest* request,
                                                  v1::ResetResponse* response) {
  const absl::Time start = absl::Now();
  const absl::StatusOr<Tenant> caller = Caller(context);
  if (!caller.ok()) return Finish(context, Rpc::kReset, start, caller.status());
  auto instance = registry_.Get(request->instance_id(), caller->name);
  if (!instance.ok()) return Finish(context, Rpc::kReset, start, instance.status());
  if (absl::Status s = CheckNoise(request->noise()); !s.ok()) {
    return Finish(context, Rpc::kReset, start, s);
  }
  Instance& inst = **instance;
  Touch(inst);
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

absl::StatusOr<std::shared_ptr<Instance>> SimulatorService::ResolveStep(
    const v1::StepRequest& request, const std::string& tenant) const {
  if (request.substeps() < 0 || request.substeps() > options_.max_substeps) {
    return absl::InvalidArgumentError(
        absl::StrCat("substeps must be in [1, ", options_.max_substeps,
                     "] (the server's --max_substeps), got ", request.substeps()));
  }
  return registry_.Get(request.instance_id(), tenant);
}

absl::Status SimulatorService::StepAndObserve(
    Instance& instance, const v1::StepRequest& request, absl::Time deadline,
    absl::FunctionRef<void(const sim::Simulation&)> observe, int& substeps_done) {
  const int substeps = std::max(1, request.substeps());
  const bool has_deadline = deadline != absl::InfiniteFuture();
  const absl::Time stop_at = deadline - options_.deadline_margin;
  Touch(instance);
  absl::Status status;
  int done = 0;
  {
    absl::MutexLock lock(&instance.mu);
    sim::Simulation& sim = *instance.sim;
    const int64_t t0 = MonotonicNowNs();
    if (instance.diverged) {
      status = absl::FailedPreconditionError(
          absl::StrCat("instance ", instance.id, " diverged (", instance.diverged_message,
                       "); Reset it or SetState before stepping"));
    } else {
      ToEigen(request.action(), instance.action);
      status = sim::ValidateAction(sim.model(), instance.action);
    }
    const uint64_t steps_before = sim.state().steps;
    if (status.ok()) {
      if (!has_deadline) {
        status = sim.StepAction(instance.action, substeps);
      } else {
        for (int k = 0; k < substeps && status.ok(); ++k) {
          if (absl::Now() >= stop_at) {
            status = absl::DeadlineExceededError(absl::StrCat(
                "stepped ", k, " of ", substeps, " sub-steps before the call's deadline"));
            break;
          }
          status = sim.StepAction(instance.action, 1);
        }
      }
    }
    // Steps that completed (a diverged step is rolled back and not counted).
    done = static_cast<int>(sim.state().steps - steps_before);
    if (status.code() == absl::StatusCode::kFailedPrecondition && !instance.diverged) {
      // The step diverged: the last good state is kept; stepping stays
      // refused until the client resets the instance.
      instance.diverged = true;
      instance.diverged_message = std::string(status.message());
      instance.diverged_counter->Increment();
    }
    const int64_t t1 = MonotonicNowNs();
    if (done > 0) {
      instance.steps_counter->Increment(done);
      instance.sim_seconds_counter->Increment(done * sim.settings().dt);
      const double wall = static_cast<double>(t1 - t0) * 1e-9;
      metrics_->AddStepWallSeconds(wall);
      metrics_->ObserveStep(wall / done, sim.last_report().solver_iterations);
    }
    observe(sim);
    if (instance.watchers > 0 && done > 0) instance.PublishSample();
  }
  substeps_done = done;
  Touch(instance);
  return status;
}

void SimulatorService::StepInstance(Instance& instance, const v1::StepRequest& request,
                                    absl::Time deadline, v1::Observation* obs) {
  int done = 0;
  const absl::Status status = StepAndObserve(
      instance, request, deadline, [obs](const sim::Simulation& sim) { FillObservation(sim, obs); },
      done);
  obs->set_instance_id(instance.id);
  obs->set_substeps_done(done);
  SetStatus(status, obs->mutable_status());
}

void SimulatorService::StepInstance(Instance& instance, const v1::StepRequest& request,
                                    absl::Time deadline, int row, v1::ObservationBatch* batch) {
  int done = 0;
  const absl::Status status = StepAndObserve(
      instance, request, deadline,
      [row, batch](const sim::Simulation& sim) { FillObservationRow(sim, row, batch); }, done);
  SetRowOutcome(row, instance.id, status, done, batch);
}

grpc::ServerUnaryReactor* SimulatorService::Step(grpc::CallbackServerContext* context,
                                                 const v1::StepRequest* request,
                                                 v1::StepResponse* response) {
  const absl::Time start = absl::Now();
  absl::StatusOr<Tenant> caller = Caller(context);
  if (!caller.ok()) return Finish(context, Rpc::kStep, start, caller.status());
  auto instance = ResolveStep(*request, caller->name);
  if (!instance.ok()) return Finish(context, Rpc::kStep, start, instance.status());
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  const absl::Time deadline = DeadlineOf(context);
  auto run = [this, reactor, request, response, start, deadline, instance = std::move(*instance),
              tenant = std::move(caller->name)] {
    v1::Observation* obs = response->mutable_observation();
    StepInstance(*instance, *request, deadline, obs);
    // A unary Step reports its instance's failure as the call's status.
    const absl::Status status(static_cast<absl::StatusCode>(obs->status().code()),
                              obs->status().message());
    metrics_->ObserveRpc(Rpc::kStep, static_cast<grpc::StatusCode>(status.code()),
                         absl::ToDoubleSeconds(absl::Now() - start), tenant);
    reactor->Finish(ToGrpcStatus(status));
  };
  if (RunsInline(std::max(1, request->substeps()))) {
    run();
  } else {
    pool_.Submit(std::move(run));
  }
  return reactor;
}

namespace {

// One StepBatch in flight: its instances, claimed one at a time by the
// runners (an atomic cursor, so a few pool tasks drain the whole batch with
// no per-instance hand-off); the last runner to finish replies.
struct BatchCall {
  grpc::ServerUnaryReactor* reactor;
  Metrics* metrics;
  absl::Time start;
  absl::Time deadline;
  const v1::StepBatchRequest* request;
  v1::StepBatchResponse* response;
  // The packed reply (sized before the runners start), or nullptr.
  v1::ObservationBatch* packed = nullptr;
  std::vector<std::shared_ptr<Instance>> instances;  // nullptr: already answered
  std::string tenant;                                // the caller's (metrics)
  std::atomic<int> next{0};
  std::atomic<int> runners{0};

  void Run(SimulatorService& service) {
    const int n = static_cast<int>(instances.size());
    for (int i = next.fetch_add(1); i < n; i = next.fetch_add(1)) {
      Instance* instance = instances[static_cast<size_t>(i)].get();
      if (instance == nullptr) continue;
      if (packed != nullptr) {
        service.StepInstance(*instance, request->steps(i), deadline, i, packed);
      } else {
        service.StepInstance(*instance, request->steps(i), deadline,
                             response->mutable_observations(i));
      }
    }
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
  const int n = request->steps_size();
  if (n > options_.max_batch) {
    return Finish(context, Rpc::kStepBatch, start,
                  absl::InvalidArgumentError(
                      absl::StrCat("StepBatch has ", n, " instances, at most ", options_.max_batch,
                                   " (the server's --max-batch)")));
  }
  // Validate the whole request before stepping anything: sub-step limits and
  // duplicates fail the call; unknown ids fail only their own entry.
  absl::flat_hash_set<std::string> seen;
  long total_substeps = 0;
  for (int i = 0; i < n; ++i) {
    const v1::StepRequest& step = request->steps(i);
    if (step.substeps() < 0 || step.substeps() > options_.max_substeps) {
      return Finish(context, Rpc::kStepBatch, start,
                    absl::InvalidArgumentError(absl::StrCat(
                        "steps[", i, "]: substeps must be in [1, ", options_.max_substeps,
                        "] (the server's --max_substeps), got ", step.substeps())));
    }
    if (!seen.insert(step.instance_id()).second) {
      return Finish(
          context, Rpc::kStepBatch, start,
          absl::InvalidArgumentError(absl::StrCat("steps[", i, "]: instance '", step.instance_id(),
                                                  "' appears twice in the batch")));
    }
    total_substeps += std::max(1, step.substeps());
  }
  std::vector<std::shared_ptr<Instance>> instances(static_cast<size_t>(n));
  std::vector<absl::Status> not_found(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    auto instance = registry_.Get(request->steps(i).instance_id(), caller->name);
    if (instance.ok()) {
      instances[static_cast<size_t>(i)] = std::move(*instance);
    } else {
      not_found[static_cast<size_t>(i)] = instance.status();
    }
  }
  ObservationShape shape;
  if (request->packed()) {
    std::vector<const Model*> models(static_cast<size_t>(n), nullptr);
    for (int i = 0; i < n; ++i) {
      Instance* instance = instances[static_cast<size_t>(i)].get();
      if (instance == nullptr) continue;
      absl::MutexLock lock(&instance->mu);
      models[static_cast<size_t>(i)] = &instance->sim->model();
    }
    auto common = CommonShape(models);
    if (!common.ok()) return Finish(context, Rpc::kStepBatch, start, common.status());
    shape = *common;
  }
  auto* call = new BatchCall{context->DefaultReactor(),
                             metrics_,
                             start,
                             DeadlineOf(context),
                             request,
                             response,
                             /*packed=*/nullptr,
                             std::move(instances),
                             std::move(caller->name)};
  if (request->packed()) {
    call->packed = response->mutable_packed();
    SizeObservationBatch(shape, n, call->packed);
    for (int i = 0; i < n; ++i) {
      if (call->instances[static_cast<size_t>(i)] != nullptr) continue;
      SetRowOutcome(i, request->steps(i).instance_id(), not_found[static_cast<size_t>(i)], 0,
                    call->packed);
    }
  } else {
    for (int i = 0; i < n; ++i) response->add_observations();
    for (int i = 0; i < n; ++i) {
      if (call->instances[static_cast<size_t>(i)] != nullptr) continue;
      v1::Observation* obs = response->mutable_observations(i);
      obs->set_instance_id(request->steps(i).instance_id());
      SetStatus(not_found[static_cast<size_t>(i)], obs->mutable_status());
    }
  }
  grpc::ServerUnaryReactor* reactor = call->reactor;
  if (RunsInline(total_substeps)) {
    call->runners = 1;
    call->Run(*this);
    return reactor;
  }
  const int runners = std::min(n, pool_.size());
  call->runners = runners;
  for (int r = 0; r < runners; ++r) pool_.Submit([this, call] { call->Run(*this); });
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
  return session_hub_.Start(this, std::move(caller->name), options_.max_sessions);
}

// ------------------------------------------------------------------- state --

grpc::ServerUnaryReactor* SimulatorService::GetState(grpc::CallbackServerContext* context,
                                                     const v1::GetStateRequest* request,
                                                     v1::GetStateResponse* response) {
  const absl::Time start = absl::Now();
  const absl::StatusOr<Tenant> caller = Caller(context);
  if (!caller.ok()) return Finish(context, Rpc::kGetState, start, caller.status());
  auto instance = registry_.Get(request->instance_id(), caller->name);
  if (!instance.ok()) return Finish(context, Rpc::kGetState, start, instance.status());
  Instance& inst = **instance;
  Touch(inst);
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
  auto instance = registry_.Get(request->instance_id(), caller->name);
  if (!instance.ok()) return Finish(context, Rpc::kSetState, start, instance.status());
  Instance& inst = **instance;
  Touch(inst);
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
  auto instance = registry_.Get(request->instance_id(), caller->name);
  if (!instance.ok()) return Finish(context, Rpc::kQuery, start, instance.status());
  Instance& inst = **instance;
  Touch(inst);
  sim::State state;
  std::vector<contact::Contact> contacts;
  {
    absl::MutexLock lock(&inst.mu);
    state = inst.sim->state();
    if (request->contacts()) contacts = inst.sim->contacts().contacts;
  }
  // Everything else is computed here, by an Inspection of the copied state:
  // the instance is free to step meanwhile.
  const Model& model = inst.sim->model();
  sim::Inspection inspection(model, state);
  response->set_time(state.time);
  response->set_nv(model.nv);
  if (request->body_poses()) {
    FillBodyPoses(model, inspection.BodyTransforms(), response->mutable_body_poses());
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
    for (const Matrix3Xd& J : inspection.ContactJacobians()) {
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
    auto found = registry_.Get(request->instance_id(), caller->name);
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
  return watch_hub_.Start(std::move(instance), rate);
}

// ------------------------------------------------------------- maintenance --

int SimulatorService::ReclaimIdle(absl::Duration timeout) {
  const int64_t before = MonotonicNowNs() - absl::ToInt64Nanoseconds(timeout);
  const std::vector<std::shared_ptr<Instance>> removed = registry_.RemoveIdle(before);
  const int reclaimed = static_cast<int>(removed.size());
  if (reclaimed > 0) metrics_->InstancesReclaimed(reclaimed);
  if (checkpoints_ != nullptr && reclaimed > 0) {
    std::vector<std::string> ids;
    for (const auto& instance : removed) ids.push_back(instance->id);
    checkpoints_->Forget(ids);
  }
  return reclaimed;
}

absl::Status SimulatorService::RestoreInstance(const CheckpointRecord& record) {
  auto settings = SettingsFromProto(record.settings, options_.heightfield_limits);
  if (!settings.ok()) return settings.status();
  auto model = LoadSource(record.source, options_.urdf_limits);
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
  const std::string contact_name = sim::ContactModelName(settings->contact);
  auto instance = std::make_shared<Instance>(record.id, std::move(*simulation));
  instance->tenant = record.tenant;
  instance->source = std::make_shared<const v1::ModelSource>(record.source);
  instance->settings = record.settings;
  instance->steps_counter = metrics_->StepsCounter((*model)->name, contact_name, record.tenant);
  instance->diverged_counter =
      metrics_->DivergedCounter((*model)->name, contact_name, record.tenant);
  instance->sim_seconds_counter =
      metrics_->SimSecondsCounter((*model)->name, contact_name, record.tenant);
  {
    absl::MutexLock lock(&instance->mu);
    instance->diverged = record.diverged;
    instance->diverged_message = record.diverged_message;
  }
  Touch(*instance);
  if (absl::Status s = registry_.AddAll({instance}); !s.ok()) return s;
  metrics_->SetLiveInstances(registry_.size());
  return absl::OkStatus();
}

void SimulatorService::UpdateGauges() {
  metrics_->SetLiveInstances(registry_.size());
  if (options_.auth != nullptr) metrics_->SetTenantInstances(registry_.LiveByTenant());
  metrics_->UpdateRealtimeFactor();
}

}  // namespace moreau::server
