// moreau_loadgen: load generator for moreaud and its in-process reference.
//
//   --mode=bare       round trips of an RPC that does nothing (DestroyInstances
//                     of no ids): the cost of a gRPC unary call on this machine
//   --mode=health     round trips of grpc.health.v1.Health/Check, answered by
//                     gRPC's own health service inside moreaud (no Moreau
//                     handler on the path): the floor of a unary call
//   --mode=floor      the bare call against an empty Simulator service started
//                     in this process: the same gRPC, no Moreau code at all
//   --mode=unary      Step round trips (one instance, --substeps each): p50/p99
//   --mode=session    Session round trips: p50/p99
//   --mode=batch      StepBatch of --instances × --substeps, back to back
//                     (--packed replies by default, of the arrays
//                     --observation_fields names): simulation steps/s and
//                     env-steps/s
//   --mode=inprocess  the same work as batch, stepped in this process by
//                     --threads threads (no gRPC): the reference; with
//                     --warmup_rounds and --rounds, over the simulated interval
//                     of a rollout (a standing robot's steps get cheaper as it
//                     settles, so a longer run is faster per step)
//
// Every mode uses the PD control mode holding the default pose (a standing
// robot after it settles), or the joint positions --targets gives (the
// Python tasks' standing pose: 0,-0.8,1.6 per leg of the Mini Cheetah), so
// server and in-process runs do the same physics.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "clients/cpp/client.h"
#include "engine/control/pd.h"
#include "engine/model/loader.h"
#include "engine/sim/simulation.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/server_builder.h"
#include "grpcpp/support/byte_buffer.h"

ABSL_FLAG(std::string, mode, "batch",
          "bare | health | floor | unary | session | batch | inprocess");
ABSL_FLAG(std::string, address, "127.0.0.1:50051", "moreaud address");
ABSL_FLAG(std::string, model, "mini_cheetah", "Built-in model");
ABSL_FLAG(std::string, contact, "moreau-sor", "Contact model");
ABSL_FLAG(int, instances, 64, "Instances (batch, inprocess)");
ABSL_FLAG(int, substeps, 10, "Sub-steps per call and instance");
ABSL_FLAG(int, threads, 0, "In-process stepping threads (0: one per core)");
ABSL_FLAG(int, inflight, 1,
          "batch: the instances split into this many StepBatch streams, each with one call "
          "in flight (a pipelined client keeps the server's workers busy while it reads replies)");
ABSL_FLAG(bool, packed, true,
          "batch: ask for the packed reply (one ObservationBatch, struct of arrays) instead of "
          "one Observation per instance");
ABSL_FLAG(std::string, observation_fields, "",
          "batch: the observation arrays to ask for, comma-separated "
          "(StepBatchRequest.observation_fields, e.g. q,v; empty: all of them)");
ABSL_FLAG(int, calls, 20000, "Round trips to time (unary, session)");
ABSL_FLAG(std::string, targets, "",
          "PD targets, one per actuator, comma-separated, or one leg's repeated over the "
          "actuators (empty: the default pose's)");
ABSL_FLAG(double, reset_noise, 0.0,
          "inprocess: instance i starts from the default pose perturbed by seeded noise of this "
          "scale (Simulation::ResetWithNoise(i, scale), as the Python tasks' episodes start)");
ABSL_FLAG(double, duration_s, 5.0, "Timed seconds (batch, inprocess)");
ABSL_FLAG(int, warmup_rounds, 0,
          "inprocess: rounds (every instance stepped once) before the clock starts");
ABSL_FLAG(int, rounds, 0,
          "inprocess: time this many rounds after the warm-up instead of --duration_s (the "
          "same simulated interval as a rollout of that many policy steps)");
ABSL_FLAG(bool, json, false, "Print one JSON object");
ABSL_FLAG(std::string, tls_ca_file, "",
          "Connect to moreaud over TLS trusting these PEM CA certificates (not --mode=health)");
ABSL_FLAG(std::string, token, "", "Bearer token of a moreaud with --auth-tokens-file");

namespace {

namespace v1 = ::moreau::v1;
using Clock = std::chrono::steady_clock;

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const size_t i = std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())));
  return v[i];
}

int Fail(const std::string& message) {
  std::fprintf(stderr, "moreau_loadgen: error: %s\n", message.c_str());
  return 1;
}

v1::Settings PdSettings() {
  v1::Settings s;
  s.set_control_mode("pd");
  s.set_contact_model(absl::GetFlag(FLAGS_contact));
  return s;
}

// The PD target of every mode: --targets (its values repeated to nu when
// nu is a multiple of their count), else the default pose's actuator
// positions `default_pose`.
absl::StatusOr<Eigen::VectorXd> Targets(Eigen::VectorXd default_pose) {
  const std::string text = absl::GetFlag(FLAGS_targets);
  if (text.empty()) return default_pose;
  std::vector<double> values;
  for (absl::string_view word : absl::StrSplit(text, ',')) {
    double value = 0.0;
    if (!absl::SimpleAtod(word, &value) || !std::isfinite(value)) {
      return absl::InvalidArgumentError(absl::StrCat("--targets: '", word, "' is not a number"));
    }
    values.push_back(value);
  }
  const Eigen::Index nu = default_pose.size();
  if (nu % static_cast<Eigen::Index>(values.size()) != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--targets: ", values.size(), " values do not divide the model's ", nu, " actuators"));
  }
  Eigen::VectorXd target(nu);
  for (Eigen::Index a = 0; a < nu; ++a) target[a] = values[static_cast<size_t>(a) % values.size()];
  return target;
}

absl::StatusOr<Eigen::VectorXd> Targets(const v1::ModelSpec& spec) {
  Eigen::VectorXd pose(spec.actuators_size());
  for (int a = 0; a < spec.actuators_size(); ++a) {
    for (const v1::JointSpec& j : spec.joints()) {
      if (j.name() == spec.actuators(a).joint()) pose[a] = spec.q_default(j.q_index());
    }
  }
  return Targets(std::move(pose));
}

void PrintLatency(const char* mode, const std::vector<double>& us, double wall) {
  const double p50 = Percentile(us, 0.5), p99 = Percentile(us, 0.99);
  if (absl::GetFlag(FLAGS_json)) {
    std::printf(
        "{\"mode\": \"%s\", \"model\": \"%s\", \"substeps\": %d, \"calls\": %zu, "
        "\"p50_us\": %.1f, \"p99_us\": %.1f, \"calls_per_s\": %.0f}\n",
        mode, absl::GetFlag(FLAGS_model).c_str(), absl::GetFlag(FLAGS_substeps), us.size(), p50,
        p99, static_cast<double>(us.size()) / wall);
  } else {
    std::printf("%s: %zu round trips, p50 %.1f µs, p99 %.1f µs, %.0f calls/s\n", mode, us.size(),
                p50, p99, static_cast<double>(us.size()) / wall);
  }
}

// `reply_bytes`: the size of one StepBatch reply (0: not a batch mode).
void PrintThroughput(const char* mode, long env_steps, double wall, size_t reply_bytes = 0) {
  const int substeps = absl::GetFlag(FLAGS_substeps);
  const double env_rate = static_cast<double>(env_steps) / wall;
  if (absl::GetFlag(FLAGS_json)) {
    const std::string reply =
        reply_bytes > 0 ? absl::StrCat(", \"reply_bytes\": ", reply_bytes) : std::string();
    std::printf(
        "{\"mode\": \"%s\", \"model\": \"%s\", \"contact\": \"%s\", \"instances\": %d, "
        "\"substeps\": %d, \"wall_s\": %.3f, \"env_steps_per_s\": %.0f, \"steps_per_s\": "
        "%.0f%s}\n",
        mode, absl::GetFlag(FLAGS_model).c_str(), absl::GetFlag(FLAGS_contact).c_str(),
        absl::GetFlag(FLAGS_instances), substeps, wall, env_rate, env_rate * substeps,
        reply.c_str());
  } else {
    std::printf("%s: %d instances × %d sub-steps: %.0f env-steps/s, %.0f simulation steps/s\n",
                mode, absl::GetFlag(FLAGS_instances), substeps, env_rate, env_rate * substeps);
    if (reply_bytes > 0) std::printf("%s: %zu bytes per reply\n", mode, reply_bytes);
  }
}

// Times --calls round trips of `call` (after a warm-up of 5 %, at least 100)
// and prints their latency as `mode`; a failed call stops the run.
template <typename Call>
int TimeRoundTrips(const char* mode, Call call) {
  const int calls = absl::GetFlag(FLAGS_calls);
  std::vector<double> us;
  us.reserve(static_cast<size_t>(calls));
  Clock::time_point start;
  for (int i = -std::max(100, calls / 20); i < calls; ++i) {
    if (i == 0) start = Clock::now();
    const Clock::time_point t0 = Clock::now();
    if (absl::Status s = call(); !s.ok()) return Fail(s.ToString());
    if (i >= 0) us.push_back(Seconds(Clock::now() - t0) * 1e6);
  }
  PrintLatency(mode, us, Seconds(Clock::now() - start));
  return 0;
}

// A client of --address with the --tls-ca-file and --token flags.
std::unique_ptr<moreau::client::Client> Connect() {
  moreau::client::ClientOptions options;
  if (const std::string ca = absl::GetFlag(FLAGS_tls_ca_file); !ca.empty()) {
    auto tls = moreau::client::LoadTlsFiles(ca, "", "");
    if (!tls.ok()) std::exit(Fail(tls.status().ToString()));
    options.tls = *std::move(tls);
  }
  options.token = absl::GetFlag(FLAGS_token);
  return std::make_unique<moreau::client::Client>(absl::GetFlag(FLAGS_address), options);
}

int RunBare() {
  std::unique_ptr<moreau::client::Client> connected = Connect();
  moreau::client::Client& client = *connected;
  if (auto s = client.WaitForServer(absl::Seconds(10)); !s.ok()) return Fail(s.ToString());
  return TimeRoundTrips("bare", [&client] { return client.DestroyInstances({}).status(); });
}

// An empty Simulator service in this process: DestroyInstances answers OK at
// once, every other method is unimplemented. The same gRPC library, callback
// API and loopback as moreaud, and no Moreau code at all.
class EmptySimulator final : public v1::Simulator::CallbackService {
  grpc::ServerUnaryReactor* DestroyInstances(grpc::CallbackServerContext* context,
                                             const v1::DestroyInstancesRequest* /*request*/,
                                             v1::DestroyInstancesResponse* /*response*/) override {
    grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
    reactor->Finish(grpc::Status::OK);
    return reactor;
  }
};

// The `bare` call against EmptySimulator on a free loopback port: the floor
// of a unary gRPC round trip on this machine (--address is not used).
int RunFloor() {
  EmptySimulator service;
  int port = 0;
  grpc::ServerBuilder builder;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr || port == 0) return Fail("could not start the in-process gRPC server");
  moreau::client::Client client(absl::StrCat("127.0.0.1:", port));
  if (auto s = client.WaitForServer(absl::Seconds(10)); !s.ok()) return Fail(s.ToString());
  const int result =
      TimeRoundTrips("floor", [&client] { return client.DestroyInstances({}).status(); });
  server->Shutdown();
  return result;
}

// grpc.health.v1.Health/Check with an empty HealthCheckRequest (the server's
// overall status), sent as raw bytes through a generic stub: no generated
// health stubs needed, and the same channel arguments as the Moreau client.
int RunHealth() {
  std::unique_ptr<moreau::client::Client> connected = Connect();
  moreau::client::Client& client = *connected;
  if (auto s = client.WaitForServer(absl::Seconds(10)); !s.ok()) return Fail(s.ToString());
  auto channel =
      grpc::CreateChannel(absl::GetFlag(FLAGS_address), grpc::InsecureChannelCredentials());
  grpc::GenericStub stub(channel);
  grpc::CompletionQueue cq;
  grpc::Slice empty_message(std::string{});  // HealthCheckRequest{service: ""}
  const grpc::ByteBuffer request(&empty_message, 1);
  const int result = TimeRoundTrips("health", [&]() -> absl::Status {
    grpc::ClientContext context;
    grpc::ByteBuffer response;
    grpc::Status status;
    auto call = stub.PrepareUnaryCall(&context, "/grpc.health.v1.Health/Check", request, &cq);
    call->StartCall();
    call->Finish(&response, &status, nullptr);
    void* tag = nullptr;
    bool ok = false;
    if (!cq.Next(&tag, &ok) || !ok || !status.ok()) {
      return absl::UnavailableError(absl::StrCat("health check failed: ", status.error_message()));
    }
    return absl::OkStatus();
  });
  cq.Shutdown();
  return result;
}

int RunRoundTrips(bool session_mode) {
  std::unique_ptr<moreau::client::Client> connected = Connect();
  moreau::client::Client& client = *connected;
  if (auto s = client.WaitForServer(absl::Seconds(10)); !s.ok()) return Fail(s.ToString());
  auto created = client.CreateBuiltin(absl::GetFlag(FLAGS_model), 1, PdSettings());
  if (!created.ok()) return Fail(created.status().ToString());
  const std::string id = created->instance_ids(0);
  const absl::StatusOr<Eigen::VectorXd> targets = Targets(created->spec().model());
  if (!targets.ok()) return Fail(targets.status().ToString());
  const Eigen::VectorXd& target = *targets;
  const int substeps = absl::GetFlag(FLAGS_substeps);
  const int calls = absl::GetFlag(FLAGS_calls);
  std::vector<double> us;
  us.reserve(static_cast<size_t>(calls));
  std::unique_ptr<moreau::client::Client::Session> session;
  if (session_mode) session = client.OpenSession();
  const v1::StepRequest request = [&] {
    v1::StepRequest r;
    r.set_instance_id(id);
    r.mutable_action()->Assign(target.data(), target.data() + target.size());
    r.set_substeps(substeps);
    return r;
  }();
  v1::Observation obs;
  const int warmup = std::max(100, calls / 20);
  Clock::time_point start;
  for (int i = -warmup; i < calls; ++i) {
    if (i == 0) start = Clock::now();
    const Clock::time_point t0 = Clock::now();
    if (session_mode) {
      if (!session->Send(request) || !session->Receive(&obs)) return Fail("session stream broke");
    } else {
      auto r = client.Step(id, target, substeps);
      if (!r.ok()) return Fail(r.status().ToString());
    }
    if (i >= 0) us.push_back(Seconds(Clock::now() - t0) * 1e6);
  }
  const double wall = Seconds(Clock::now() - start);
  if (session_mode) session->Close().IgnoreError();
  client.DestroyInstances({id}).IgnoreError();
  PrintLatency(session_mode ? "session" : "unary", us, wall);
  return 0;
}

int RunBatch() {
  std::unique_ptr<moreau::client::Client> connected = Connect();
  moreau::client::Client& client = *connected;
  if (auto s = client.WaitForServer(absl::Seconds(10)); !s.ok()) return Fail(s.ToString());
  const int n = absl::GetFlag(FLAGS_instances);
  const int inflight = std::clamp(absl::GetFlag(FLAGS_inflight), 1, n);
  auto created = client.CreateBuiltin(absl::GetFlag(FLAGS_model), n, PdSettings());
  if (!created.ok()) return Fail(created.status().ToString());
  const absl::StatusOr<Eigen::VectorXd> targets = Targets(created->spec().model());
  if (!targets.ok()) return Fail(targets.status().ToString());
  const Eigen::VectorXd& target = *targets;
  // Stream k steps instances k, k + inflight, …: one StepBatch in flight each.
  std::vector<v1::StepBatchRequest> batches(static_cast<size_t>(inflight));
  const std::string fields = absl::GetFlag(FLAGS_observation_fields);
  for (v1::StepBatchRequest& batch : batches) {
    batch.set_packed(absl::GetFlag(FLAGS_packed));
    for (absl::string_view field : absl::StrSplit(fields, ',', absl::SkipEmpty())) {
      batch.add_observation_fields(std::string(field));
    }
  }
  for (int i = 0; i < n; ++i) {
    v1::StepRequest* step = batches[static_cast<size_t>(i % inflight)].add_steps();
    step->set_instance_id(created->instance_ids(i));
    step->mutable_action()->Assign(target.data(), target.data() + target.size());
    step->set_substeps(absl::GetFlag(FLAGS_substeps));
  }
  const double duration = absl::GetFlag(FLAGS_duration_s);
  std::atomic<long> env_steps{0};
  std::atomic<bool> failed{false};
  std::atomic<size_t> reply_bytes{0};  // of a reply of stream 0 in its warm-up
  std::string error;
  absl::Mutex error_mu;
  Clock::time_point start;
  absl::Notification go;
  std::vector<std::thread> streams;
  for (int k = 0; k < inflight; ++k) {
    streams.emplace_back([&, k] {
      std::unique_ptr<moreau::client::Client> own_client = Connect();
      moreau::client::Client& own = *own_client;
      const v1::StepBatchRequest& batch = batches[static_cast<size_t>(k)];
      bool warming = true;
      const auto step = [&]() -> bool {
        auto r = own.StepBatch(batch);
        std::string problem = r.ok() ? "" : r.status().ToString();
        if (r.ok()) {
          if (warming && k == 0) reply_bytes = r->ByteSizeLong();
          for (const v1::Observation& obs : r->observations()) {
            if (obs.status().code() != 0) problem = obs.status().message();
          }
          const v1::ObservationBatch& packed = r->packed();
          for (int i = 0; i < packed.status_codes_size(); ++i) {
            if (packed.status_codes(i) != 0) problem = packed.status_messages(i);
          }
        }
        if (problem.empty()) return true;
        absl::MutexLock lock(&error_mu);
        error = problem;
        failed = true;
        return false;
      };
      for (int i = 0; i < 5; ++i) step();  // warm up
      warming = false;
      go.WaitForNotification();
      long local = 0;
      while (!failed && Seconds(Clock::now() - start) < duration) {
        if (!step()) break;
        local += batch.steps_size();
      }
      env_steps += local;
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  start = Clock::now();
  go.Notify();
  for (std::thread& t : streams) t.join();
  const double wall = Seconds(Clock::now() - start);
  std::vector<std::string> ids(created->instance_ids().begin(), created->instance_ids().end());
  client.DestroyInstances(ids).IgnoreError();
  if (failed) return Fail(error);
  PrintThroughput("batch", env_steps.load(), wall, reply_bytes.load());
  return 0;
}

int RunInProcess() {
  auto model = moreau::LoadBuiltin(absl::GetFlag(FLAGS_model));
  if (!model.ok()) return Fail(model.status().ToString());
  moreau::sim::Settings settings;
  auto contact = moreau::sim::ParseContactModel(absl::GetFlag(FLAGS_contact));
  if (!contact.ok()) return Fail(contact.status().ToString());
  settings.contact = moreau::sim::DefaultContactSettings(*contact);
  settings.control.mode = moreau::sim::ControlMode::kPd;
  const int n = absl::GetFlag(FLAGS_instances);
  std::vector<std::unique_ptr<moreau::sim::Simulation>> sims;
  for (int i = 0; i < n; ++i) {
    auto sim = moreau::sim::Simulation::Create(*model, settings);
    if (!sim.ok()) return Fail(sim.status().ToString());
    if (const double noise = absl::GetFlag(FLAGS_reset_noise); noise > 0.0) {
      (*sim)->ResetWithNoise(static_cast<uint64_t>(i), noise);
    }
    sims.push_back(std::move(*sim));
  }
  Eigen::VectorXd pose((*model)->nu());
  moreau::control::ActuatorPositions(**model, (*model)->q_default, pose);
  const absl::StatusOr<Eigen::VectorXd> targets = Targets(std::move(pose));
  if (!targets.ok()) return Fail(targets.status().ToString());
  const Eigen::VectorXd& target = *targets;
  int threads = absl::GetFlag(FLAGS_threads);
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int substeps = absl::GetFlag(FLAGS_substeps);
  const double duration = absl::GetFlag(FLAGS_duration_s);
  // Thread w owns the interleaved slice w, w + threads, … and steps it round
  // after round, every instance once per round as a StepBatch does, with no
  // barrier between rounds: the service's per-call hand-offs are what the
  // ratio measures, so the reference has none.
  const int warmup_rounds = absl::GetFlag(FLAGS_warmup_rounds);
  const int rounds = absl::GetFlag(FLAGS_rounds);
  std::atomic<bool> stop{false};
  for (int r = 0; r < warmup_rounds && !stop; ++r) {
    std::vector<std::thread> warm;
    for (int w = 0; w < threads; ++w) {
      warm.emplace_back([&, w] {
        for (int i = w; i < n; i += threads) {
          if (!sims[static_cast<size_t>(i)]->StepAction(target, substeps).ok()) stop = true;
        }
      });
    }
    for (std::thread& t : warm) t.join();
  }
  std::atomic<long> env_steps{0};
  const Clock::time_point start = Clock::now();
  std::vector<std::thread> workers;
  for (int w = 0; w < threads; ++w) {
    workers.emplace_back([&, w] {
      long local = 0;
      for (int round = 0; !stop; ++round) {
        if (rounds > 0 && round >= rounds) break;
        for (int i = w; i < n; i += threads) {
          if (!sims[static_cast<size_t>(i)]->StepAction(target, substeps).ok()) stop = true;
          ++local;
        }
        if (rounds == 0 && Seconds(Clock::now() - start) >= duration) break;
      }
      env_steps += local;
    });
  }
  for (std::thread& t : workers) t.join();
  const double wall = Seconds(Clock::now() - start);
  PrintThroughput("inprocess", env_steps.load(), wall);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  const std::string mode = absl::GetFlag(FLAGS_mode);
  if (absl::GetFlag(FLAGS_instances) < 1 || absl::GetFlag(FLAGS_substeps) < 1 ||
      absl::GetFlag(FLAGS_calls) < 1) {
    return Fail("--instances, --substeps and --calls must be ≥ 1");
  }
  if (mode == "bare") return RunBare();
  if (mode == "health") return RunHealth();
  if (mode == "floor") return RunFloor();
  if (mode == "unary") return RunRoundTrips(false);
  if (mode == "session") return RunRoundTrips(true);
  if (mode == "batch") return RunBatch();
  if (mode == "inprocess") return RunInProcess();
  return Fail(absl::StrFormat(
      "unknown --mode '%s' (expected bare, health, floor, unary, session, batch, inprocess)",
      mode));
}
