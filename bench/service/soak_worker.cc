#include "bench/service/soak_worker.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "bench/service/soak_tally.h"
#include "clients/cpp/client.h"

namespace moreau::bench::soak {
namespace {

namespace v1 = ::moreau::v1;
using Code = absl::StatusCode;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kJoints = 12;  // mini_cheetah's actuators

// A small valid URDF, cut short or garbled by the malformed-URDF requests.
constexpr char kUrdf[] =
    R"(<?xml version="1.0"?><robot name="arm"><link name="base"><inertial><mass value="1"/>)"
    R"(<inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>)"
    R"(<link name="tip"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01")"
    R"( ixy="0" ixz="0" iyz="0"/></inertial><collision><geometry><sphere radius="0.05"/>)"
    R"(</geometry></collision></link><joint name="hinge" type="revolute"><parent link="base"/>)"
    R"(<child link="tip"/><axis xyz="0 1 0"/></joint></robot>)";

// Meshes of the built-in ur10 (GetMesh).
constexpr const char* kUr10Meshes[] = {"meshes/ur10/collision/base.stl",
                                       "meshes/ur10/collision/upperarm.stl",
                                       "meshes/ur10/collision/wrist3.stl"};

// Built-in models of the create/destroy churn.
constexpr const char* kChurnModels[] = {"pendulum", "cartpole", "acrobot",
                                        "sphere",   "box",      "double_pendulum"};

absl::Status RowStatus(const v1::StepBatchResponse& response, bool packed, int row) {
  if (packed) {
    const v1::ObservationBatch& b = response.packed();
    if (row >= b.status_codes_size()) return absl::DataLossError("packed reply has too few rows");
    return absl::Status(static_cast<Code>(b.status_codes(row)),
                        row < b.status_messages_size() ? b.status_messages(row) : "");
  }
  if (row >= response.observations_size()) return absl::DataLossError("reply has too few rows");
  return client::StatusOf(response.observations(row));
}

std::chrono::system_clock::time_point In(double seconds) {
  return std::chrono::system_clock::now() +
         std::chrono::microseconds(static_cast<int64_t>(seconds * 1e6));
}

class Worker {
 public:
  Worker(const WorkerOptions& options, const std::atomic<bool>& stop)
      : options_(options),
        stop_(stop),
        rng_(options.seed),
        client_(options.address, ClientOptions()),
        tally_(stdout) {}

  int Run() {
    if (absl::Status s = client_.WaitForServer(absl::Seconds(20)); !s.ok()) {
      tally_.Record("Connect", "startup", s, {});
      return 1;
    }
    if (!CreateOwned()) return 1;
    absl::Time next_flush = absl::Now();
    for (long op = 0; !stop_.load(); ++op) {
      if (op % 10 == 0) {
        StepBatch(/*all=*/true);  // touches every owned instance (idle reclaim)
      } else if (Chance(options_.hostile_fraction)) {
        Hostile();
      } else {
        Normal();
      }
      if (absl::Now() >= next_flush) {
        tally_.Flush();
        next_flush = absl::Now() + absl::Milliseconds(250);
      }
      if (options_.pace_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(Pace()));
    }
    auto destroyed = client_.DestroyInstances(owned_);
    tally_.Record("DestroyInstances", "shutdown", destroyed.status(), {Code::kOk});
    tally_.Flush();
    return 0;
  }

 private:
  static client::ClientOptions ClientOptions() {
    client::ClientOptions o;
    o.timeout = absl::Seconds(30);
    o.max_message_bytes = 64 << 20;  // sends past the server's limit on purpose
    return o;
  }

  // ------------------------------------------------------------ randomness --
  int Uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  double UniformReal(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng_);
  }
  bool Chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  int Pace() { return Uniform(0, 2 * options_.pace_ms); }
  const std::string& Owned() {
    return owned_[static_cast<size_t>(Uniform(0, static_cast<int>(owned_.size()) - 1))];
  }
  std::string UnknownId() { return absl::StrFormat("%016x%016x", rng_(), rng_()); }
  // The default pose's joint targets, nudged.
  Eigen::VectorXd Action() {
    Eigen::VectorXd a = target_;
    for (int k = 0; k < a.size(); ++k) a[k] += UniformReal(-0.1, 0.1);
    return a;
  }
  v1::StepRequest StepOf(const std::string& id, const Eigen::VectorXd& action, int substeps) {
    v1::StepRequest step;
    step.set_instance_id(id);
    step.mutable_action()->Assign(action.data(), action.data() + action.size());
    step.set_substeps(substeps);
    return step;
  }

  bool CreateOwned() {
    v1::Settings settings;
    settings.set_control_mode("pd");
    auto created = client_.CreateBuiltin("mini_cheetah", options_.instances, settings);
    if (!tally_.Record("CreateInstances", "startup", created.status(), {Code::kOk})) return false;
    owned_.assign(created->instance_ids().begin(), created->instance_ids().end());
    const v1::ModelSpec& model = created->spec().model();
    target_ = Eigen::VectorXd::Zero(model.actuators_size());
    for (int a = 0; a < model.actuators_size(); ++a) {
      for (const v1::JointSpec& joint : model.joints()) {
        if (joint.name() == model.actuators(a).joint()) {
          target_[a] = model.q_default(joint.q_index());
        }
      }
    }
    return true;
  }

  // ------------------------------------------------------ well-formed calls --
  // Every one of these must succeed (OK, and OK for every row or message),
  // except the streams this worker cancels itself (CANCELLED).
  void Normal() {
    const int pick = Uniform(0, 99);
    if (pick < 25) {
      auto r = client_.Step(Owned(), Action(), Uniform(1, 4));
      tally_.Record("Step", "step", r.status(), {Code::kOk});
    } else if (pick < 40) {
      StepBatch(/*all=*/false);
    } else if (pick < 50) {
      Session();
    } else if (pick < 58) {
      const std::string id = Owned();
      auto got = client_.GetState(id);
      if (!tally_.Record("GetState", "state", got.status(), {Code::kOk})) return;
      auto set = client_.SetState(id, got->state().data());
      tally_.Record("SetState", "state", set.status(), {Code::kOk});
    } else if (pick < 66) {
      v1::QueryRequest q;
      q.set_instance_id(Owned());
      q.set_body_poses(Chance(0.5));
      q.set_contacts(Chance(0.5));
      q.set_energies(Chance(0.5));
      q.set_mass_matrix(Chance(0.3));
      q.set_bias_forces(Chance(0.3));
      q.set_contact_jacobians(Chance(0.2));
      tally_.Record("Query", "query", client_.Query(q).status(), {Code::kOk});
    } else if (pick < 72) {
      Watch(Owned());
    } else if (pick < 77) {
      v1::ResetRequest reset;
      reset.set_instance_id(Owned());
      reset.set_seed(rng_());
      reset.set_noise(Chance(0.5) ? 0.02 : 0.0);
      tally_.Record("Reset", "reset", client_.Reset(reset).status(), {Code::kOk});
    } else if (pick < 88) {
      Churn();
    } else if (pick < 91) {
      tally_.Record("ListModels", "models", client_.ListModels().status(), {Code::kOk});
    } else if (pick < 94) {
      v1::ModelSource source;
      source.set_builtin(kChurnModels[Uniform(0, std::size(kChurnModels) - 1)]);
      tally_.Record("GetModel", "models", client_.GetModel(source).status(), {Code::kOk});
    } else if (pick < 97) {
      tally_.Record("ListInstances", "list", client_.ListInstances(Uniform(0, 8)).status(),
                    {Code::kOk});
    } else {
      tally_.Record(
          "GetMesh", "mesh",
          client_.GetMesh("ur10", kUr10Meshes[Uniform(0, std::size(kUr10Meshes) - 1)]).status(),
          {Code::kOk});
    }
  }

  void StepBatch(bool all) {
    std::vector<std::string> ids = owned_;
    std::shuffle(ids.begin(), ids.end(), rng_);
    if (!all) ids.resize(static_cast<size_t>(Uniform(1, static_cast<int>(ids.size()))));
    v1::StepBatchRequest batch;
    batch.set_packed(Chance(0.5));
    for (const std::string& id : ids) *batch.add_steps() = StepOf(id, Action(), Uniform(1, 3));
    auto r = client_.StepBatch(batch);
    if (!tally_.Record("StepBatch", all ? "batch/all" : "batch", r.status(), {Code::kOk})) return;
    for (int i = 0; i < batch.steps_size(); ++i) {
      tally_.Record("StepBatch.row", "batch", RowStatus(*r, batch.packed(), i), {Code::kOk});
    }
  }

  // A Session of a few messages; 30 % are cancelled part-way (some with a
  // message in flight), which must end them with CANCELLED.
  void Session() {
    grpc::ClientContext context;
    context.set_deadline(In(20.0));
    auto stream = client_.stub().Session(&context);
    const int messages = Uniform(1, 8);
    const bool cancel = Chance(0.3);
    const int answered = cancel ? Uniform(0, messages - 1) : messages;
    for (int m = 0; m < answered; ++m) {
      v1::SessionRequest request;
      *request.mutable_step() = StepOf(Owned(), Action(), Uniform(1, 3));
      v1::SessionResponse response;
      if (!stream->Write(request) || !stream->Read(&response)) break;
      tally_.Record("Session.message", "session", client::StatusOf(response.observation()),
                    {Code::kOk});
    }
    if (cancel) {
      if (Chance(0.5)) {  // one more message, its answer never read
        v1::SessionRequest request;
        *request.mutable_step() = StepOf(Owned(), Action(), 1);
        stream->Write(request);
      }
      context.TryCancel();
      tally_.Record("Session", "session/cancelled", client::FromGrpc(stream->Finish()),
                    {Code::kCancelled});
      return;
    }
    stream->WritesDone();
    tally_.Record("Session", "session", client::FromGrpc(stream->Finish()), {Code::kOk});
  }

  // A Watch of a few frames, then cancelled (CANCELLED).
  void Watch(const std::string& id) {
    grpc::ClientContext context;
    context.set_deadline(In(10.0));
    v1::WatchRequest request;
    request.set_instance_id(id);
    request.set_rate_hz(UniformReal(20.0, 200.0));
    auto reader = client_.stub().Watch(&context, request);
    const int frames = Uniform(1, 4);
    v1::WatchFrame frame;
    int read = 0;
    while (read < frames && reader->Read(&frame)) ++read;
    if (read < frames) {  // the stream ended by itself: never, for a live instance
      tally_.Record("Watch", "watch/ended-early", client::FromGrpc(reader->Finish()), {});
      return;
    }
    context.TryCancel();
    tally_.Record("Watch", "watch/cancelled", client::FromGrpc(reader->Finish()),
                  {Code::kCancelled});
  }

  // Short-lived instances of another model: created, stepped, sometimes
  // watched while destroyed (the Watch then ends with OK), destroyed.
  void Churn() {
    const char* model = kChurnModels[Uniform(0, std::size(kChurnModels) - 1)];
    auto created = client_.CreateBuiltin(model, Uniform(1, 3));
    if (!tally_.Record("CreateInstances", "churn", created.status(), {Code::kOk})) return;
    std::vector<std::string> ids(created->instance_ids().begin(), created->instance_ids().end());
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(created->spec().action().size());
    for (const std::string& id : ids) {
      tally_.Record("Step", "churn", client_.Step(id, zero, Uniform(1, 3)).status(), {Code::kOk});
    }
    if (Chance(0.3)) {
      WatchWhileDestroyed(ids.back());
      ids.pop_back();
    }
    if (ids.empty()) return;
    auto destroyed = client_.DestroyInstances(ids);
    if (tally_.Record("DestroyInstances", "churn", destroyed.status(), {Code::kOk}) &&
        (destroyed->destroyed() != static_cast<int>(ids.size()) ||
         destroyed->not_found_size() != 0)) {
      tally_.Unexpected("DestroyInstances", "churn",
                        absl::StrCat("destroyed ", destroyed->destroyed(), " of ", ids.size()));
    }
  }

  void WatchWhileDestroyed(const std::string& id) {
    grpc::ClientContext context;
    context.set_deadline(In(10.0));
    v1::WatchRequest request;
    request.set_instance_id(id);
    request.set_rate_hz(100.0);
    auto reader = client_.stub().Watch(&context, request);
    v1::WatchFrame frame;
    const bool first = reader->Read(&frame);
    auto destroyed = client_.DestroyInstances({id});
    tally_.Record("DestroyInstances", "churn/watched", destroyed.status(), {Code::kOk});
    int frames = 0;
    while (frames < 10000 && reader->Read(&frame)) ++frames;  // until the server ends it
    const absl::Status end = client::FromGrpc(reader->Finish());
    if (first) {
      tally_.Record("Watch", "watch/destroyed", end, {Code::kOk});
    } else {  // a live instance's first frame comes at once
      tally_.Record("Watch", "watch/no-first-frame", end, {});
    }
  }

  // -------------------------------------------------------- hostile calls --
  // Each must get exactly its documented code (simulator.proto's header) and
  // leave the server and the worker's instances usable.
  void Hostile() {
    const Code kInvalid = Code::kInvalidArgument;
    const int pick = Uniform(0, 16);
    switch (pick) {
      case 0: {  // a URDF cut short, or bytes that are no XML
        v1::CreateInstancesRequest request;
        request.set_count(1);
        std::string urdf(kUrdf);
        if (Chance(0.5)) {
          urdf.resize(static_cast<size_t>(Uniform(0, static_cast<int>(urdf.size()) - 1)));
        } else {
          // ASCII, control bytes included: proto3 strings are UTF-8.
          for (char& c : urdf) c = static_cast<char>(Uniform(0, 127));
        }
        request.mutable_model()->set_urdf(urdf);
        tally_.Record("CreateInstances", "hostile/malformed-urdf",
                      client_.CreateInstances(request).status(), {kInvalid});
        break;
      }
      case 1: {
        Eigen::VectorXd action = Action();
        action[Uniform(0, kJoints - 1)] = Chance(0.5) ? kNaN : -kInf;
        tally_.Record("Step", "hostile/nan-action", client_.Step(Owned(), action, 1).status(),
                      {kInvalid});
        break;
      }
      case 2: {  // one bad row fails alone
        std::vector<std::string> ids = owned_;
        std::shuffle(ids.begin(), ids.end(), rng_);
        ids.resize(static_cast<size_t>(Uniform(2, 6)));
        const int bad = Uniform(0, static_cast<int>(ids.size()) - 1);
        v1::StepBatchRequest batch;
        batch.set_packed(Chance(0.5));
        for (int i = 0; i < static_cast<int>(ids.size()); ++i) {
          Eigen::VectorXd action = Action();
          if (i == bad) action[0] = kNaN;
          *batch.add_steps() = StepOf(ids[static_cast<size_t>(i)], action, 1);
        }
        auto r = client_.StepBatch(batch);
        if (!tally_.Record("StepBatch", "hostile/nan-row", r.status(), {Code::kOk})) break;
        for (int i = 0; i < batch.steps_size(); ++i) {
          tally_.Record("StepBatch.row", i == bad ? "hostile/nan-row" : "batch",
                        RowStatus(*r, batch.packed(), i), {i == bad ? kInvalid : Code::kOk});
        }
        break;
      }
      case 3: {
        v1::CreateInstancesRequest request;
        request.mutable_model()->set_builtin("pendulum");
        const int counts[] = {0, -5, 1000000, std::numeric_limits<int>::max()};
        request.set_count(counts[Uniform(0, 3)]);
        tally_.Record("CreateInstances", "hostile/count", client_.CreateInstances(request).status(),
                      {kInvalid});
        break;
      }
      case 4: {
        const int substeps = Chance(0.5) ? 1000000000 : -1;
        tally_.Record("Step", "hostile/substeps",
                      client_.Step(Owned(), Action(), substeps).status(), {kInvalid});
        break;
      }
      case 5: {
        v1::StepBatchRequest batch;
        for (int i = 0; i <= options_.max_batch; ++i) {
          *batch.add_steps() = StepOf(UnknownId(), target_, 1);
        }
        tally_.Record("StepBatch", "hostile/batch-size", client_.StepBatch(batch).status(),
                      {kInvalid});
        break;
      }
      case 6:
        UnknownIds();
        break;
      case 7:
        BadSettings();
        break;
      case 8:
        GarbageState();
        break;
      case 9: {
        v1::CreateInstancesRequest request;
        request.set_count(1);
        request.mutable_model()->set_builtin(absl::StrCat("robot_", rng_() % 1000));
        tally_.Record("CreateInstances", "hostile/unknown-model",
                      client_.CreateInstances(request).status(), {kInvalid});
        tally_.Record("GetModel", "hostile/unknown-model",
                      client_.GetModel(request.model()).status(), {kInvalid});
        break;
      }
      case 10: {
        v1::StepBatchRequest batch;
        const std::string id = Owned();
        *batch.add_steps() = StepOf(id, Action(), 1);
        *batch.add_steps() = StepOf(id, Action(), 1);
        tally_.Record("StepBatch", "hostile/duplicate", client_.StepBatch(batch).status(),
                      {kInvalid});
        break;
      }
      case 11: {
        grpc::ClientContext context;
        context.set_deadline(In(10.0));
        v1::WatchRequest request;
        request.set_instance_id(Owned());
        request.set_rate_hz(Chance(0.5) ? 5000.0 : -1.0);
        auto reader = client_.stub().Watch(&context, request);
        v1::WatchFrame frame;
        while (reader->Read(&frame)) {
        }
        tally_.Record("Watch", "hostile/rate", client::FromGrpc(reader->Finish()), {kInvalid});
        break;
      }
      case 12: {
        int size = Uniform(0, 2 * kJoints);
        if (size == kJoints) ++size;
        const Eigen::VectorXd action = Eigen::VectorXd::Zero(size);
        tally_.Record("Step", "hostile/action-size", client_.Step(Owned(), action, 1).status(),
                      {kInvalid});
        break;
      }
      case 13: {  // a packed batch of two models
        auto other = client_.CreateBuiltin("pendulum", 1);
        if (!tally_.Record("CreateInstances", "churn", other.status(), {Code::kOk})) break;
        v1::StepBatchRequest batch;
        batch.set_packed(true);
        *batch.add_steps() = StepOf(Owned(), Action(), 1);
        *batch.add_steps() = StepOf(other->instance_ids(0), Eigen::VectorXd::Zero(1), 1);
        tally_.Record("StepBatch", "hostile/packed-shapes", client_.StepBatch(batch).status(),
                      {kInvalid});
        tally_.Record("DestroyInstances", "churn",
                      client_.DestroyInstances({other->instance_ids(0)}).status(), {Code::kOk});
        break;
      }
      case 14: {  // past the server's message limit (rare: a megabyte each)
        if (!Chance(0.1)) break;
        v1::CreateInstancesRequest request;
        request.set_count(1);
        request.mutable_model()->set_urdf(
            std::string(static_cast<size_t>(options_.max_message_bytes) + 1, ' '));
        tally_.Record("CreateInstances", "hostile/oversized",
                      client_.CreateInstances(request).status(), {Code::kResourceExhausted});
        break;
      }
      case 15: {  // a mesh the server does not hold, or no name at all
        switch (Uniform(0, 2)) {
          case 0:
            tally_.Record(
                "GetMesh", "hostile/unknown-mesh",
                client_.GetMesh("ur10", absl::StrCat("meshes/", rng_() % 1000, ".stl")).status(),
                {Code::kNotFound});
            break;
          case 1:
            tally_.Record("GetMesh", "hostile/no-meshes",
                          client_.GetMesh("mini_cheetah", "meshes/mini_body.obj").status(),
                          {Code::kNotFound});
            break;
          default:
            tally_.Record("GetMesh", "hostile/empty",
                          client_.GetMesh(Chance(0.5) ? "" : "ur10", "").status(), {kInvalid});
            break;
        }
        break;
      }
      default: {  // a Session message for an unknown id fails alone
        grpc::ClientContext context;
        context.set_deadline(In(20.0));
        auto stream = client_.stub().Session(&context);
        v1::SessionRequest request;
        *request.mutable_step() = StepOf(UnknownId(), target_, 1);
        v1::SessionResponse response;
        if (stream->Write(request) && stream->Read(&response)) {
          tally_.Record("Session.message", "hostile/unknown-id",
                        client::StatusOf(response.observation()), {Code::kNotFound});
        }
        stream->WritesDone();
        tally_.Record("Session", "hostile/unknown-id", client::FromGrpc(stream->Finish()),
                      {Code::kOk});
        break;
      }
    }
  }

  void UnknownIds() {
    const std::string id = UnknownId();
    const Code kNotFound = Code::kNotFound;
    switch (Uniform(0, 6)) {
      case 0:
        tally_.Record("Step", "hostile/unknown-id", client_.Step(id, target_, 1).status(),
                      {kNotFound});
        break;
      case 1:
        tally_.Record("GetState", "hostile/unknown-id", client_.GetState(id).status(), {kNotFound});
        break;
      case 2:
        tally_.Record("SetState", "hostile/unknown-id", client_.SetState(id, "MRST").status(),
                      {kNotFound});
        break;
      case 3: {
        v1::QueryRequest q;
        q.set_instance_id(id);
        tally_.Record("Query", "hostile/unknown-id", client_.Query(q).status(), {kNotFound});
        break;
      }
      case 4: {
        v1::ResetRequest reset;
        reset.set_instance_id(id);
        tally_.Record("Reset", "hostile/unknown-id", client_.Reset(reset).status(), {kNotFound});
        break;
      }
      case 5: {  // reported, not failed
        auto r = client_.DestroyInstances({id});
        if (tally_.Record("DestroyInstances", "hostile/unknown-id", r.status(), {Code::kOk}) &&
            (r->not_found_size() != 1 || r->not_found(0) != id || r->destroyed() != 0)) {
          tally_.Unexpected("DestroyInstances", "hostile/unknown-id", "unknown id not reported");
        }
        break;
      }
      default: {
        grpc::ClientContext context;
        context.set_deadline(In(10.0));
        v1::WatchRequest request;
        request.set_instance_id(id);
        auto reader = client_.stub().Watch(&context, request);
        v1::WatchFrame frame;
        while (reader->Read(&frame)) {
        }
        tally_.Record("Watch", "hostile/unknown-id", client::FromGrpc(reader->Finish()),
                      {kNotFound});
        break;
      }
    }
  }

  void BadSettings() {
    v1::Settings s;
    switch (Uniform(0, 7)) {
      case 0:
        s.set_dt(-1e-3);
        break;
      case 1:
        s.set_dt(kNaN);
        break;
      case 2:
        for (double g : {0.0, 0.0, -9.81, 0.0}) s.add_gravity(g);
        break;
      case 3:
        s.set_contact_model("jelly");
        break;
      case 4:
        (*s.mutable_contact_parameters())["mu"] = kNaN;
        break;
      case 5:
        (*s.mutable_contact_parameters())["stiffness"] = 1.0;  // not a moreau-sor parameter
        break;
      case 6:
        s.mutable_terrain()->mutable_heightfield()->set_nx(1);
        break;
      default:
        s.set_kp(-40.0);
        break;
    }
    tally_.Record("CreateInstances", "hostile/bad-settings",
                  client_.CreateBuiltin("mini_cheetah", 1, s).status(), {Code::kInvalidArgument});
  }

  // A blob of random bytes, a real one cut short, or one with a bad version:
  // rejected whole, by SetState and by Reset.
  void GarbageState() {
    const std::string id = Owned();
    std::string blob;
    const int kind = Uniform(0, 2);
    if (kind == 0) {
      blob.resize(static_cast<size_t>(Uniform(0, 600)));
      for (char& c : blob) c = static_cast<char>(Uniform(0, 255));
    } else {
      auto state = client_.GetState(id);
      if (!tally_.Record("GetState", "state", state.status(), {Code::kOk})) return;
      blob = state->state().data();
      if (kind == 1) {
        blob.resize(static_cast<size_t>(Uniform(0, static_cast<int>(blob.size()) - 1)));
      } else {
        blob[4] = static_cast<char>(99);  // the version
      }
    }
    if (Chance(0.5)) {
      tally_.Record("SetState", "hostile/garbage-state", client_.SetState(id, blob).status(),
                    {Code::kInvalidArgument});
    } else {
      v1::ResetRequest reset;
      reset.set_instance_id(id);
      reset.mutable_state()->set_data(blob);
      tally_.Record("Reset", "hostile/garbage-state", client_.Reset(reset).status(),
                    {Code::kInvalidArgument});
    }
  }

  const WorkerOptions options_;
  const std::atomic<bool>& stop_;
  std::mt19937_64 rng_;
  client::Client client_;
  Tally tally_;
  std::vector<std::string> owned_;
  Eigen::VectorXd target_;
};

}  // namespace

int RunWorker(const WorkerOptions& options, const std::atomic<bool>& stop) {
  return Worker(options, stop).Run();
}

}  // namespace moreau::bench::soak
