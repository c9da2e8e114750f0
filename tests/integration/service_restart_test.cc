// Restarts and shutdown of a real moreaud: instances checkpointed to
// --state-dir continue bit for bit after SIGTERM and a restart, come back at
// their last periodic checkpoint after kill -9, bad checkpoint files are
// skipped and named, an unwritable directory is logged and counted; SIGTERM
// drains (health NOT_SERVING while calls are still served) and ends open
// streams with UNAVAILABLE.
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "server/checkpoint.h"
#include "tests/integration/security_test_util.h"
#include "tests/integration/service_test_util.h"

namespace moreau::testing {
namespace {

using ::absl::StatusCode;

constexpr char kOk[] = R"(moreau_checkpoints_total{outcome="ok"})";
constexpr char kError[] = R"(moreau_checkpoints_total{outcome="error"})";

// A fresh, empty directory under the test's temporary directory, named by
// the test process too: two test runs on one machine never share one.
std::string FreshDir(const std::string& name) {
  const std::string dir =
      absl::StrCat(::testing::TempDir(), "/moreau_restart_", name, "_", getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

double Metric(const ServerProcess& process, const std::string& series) {
  auto page = HttpGet(process.metrics_port(), "/metrics");
  return page.ok() ? MetricValue(*page, series) : -1.0;
}

// Polls the metric until it reaches `value` (bounded: 20 s).
bool WaitForMetric(const ServerProcess& process, const std::string& series, double value) {
  for (int i = 0; i < 400; ++i) {
    if (Metric(process, series) >= value) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

// The status grpc.health.v1.Health/Check reports for `service` ("" for the
// server): 1 SERVING, 2 NOT_SERVING; -1 when the call fails. Raw bytes: the
// request is HealthCheckRequest{service}, the response field 1 (a varint).
int HealthStatus(const std::string& address, const std::string& service) {
  grpc::GenericStub stub(grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
  std::string request_bytes;
  if (!service.empty()) {
    request_bytes.push_back(0x0a);
    request_bytes.push_back(static_cast<char>(service.size()));
    request_bytes += service;
  }
  grpc::Slice slice(request_bytes);
  grpc::ByteBuffer request(&slice, 1), response;
  grpc::Status status;
  absl::Notification done;
  stub.UnaryCall(&context, "/grpc.health.v1.Health/Check", grpc::StubOptions(), &request, &response,
                 [&](grpc::Status s) {
                   status = std::move(s);
                   done.Notify();
                 });
  done.WaitForNotification();
  if (!status.ok()) return -1;
  std::vector<grpc::Slice> slices;
  if (!response.Dump(&slices).ok()) return -1;
  std::string bytes;
  for (const grpc::Slice& s : slices)
    bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
  if (bytes.empty()) return 0;  // UNKNOWN, the default, is not sent
  if (bytes.size() != 2 || bytes[0] != 0x08) return -1;
  return bytes[1];
}

// PD targets: each actuated joint's default position plus a varied offset.
Eigen::VectorXd PdAction(const v1::ModelSpec& spec, int t) {
  Eigen::VectorXd action(spec.actuators_size());
  const Eigen::VectorXd offset = TestAction(spec.actuators_size(), t, 0.3);
  for (int a = 0; a < spec.actuators_size(); ++a) {
    int q_index = -1;
    for (const v1::JointSpec& joint : spec.joints()) {
      if (joint.name() == spec.actuators(a).joint()) q_index = joint.q_index();
    }
    action[a] = (q_index >= 0 ? spec.q_default(q_index) : 0.0) + offset[a];
  }
  return action;
}

// Instance `id` of the restarted server is where `twin_id` of the reference
// (never restarted) is, bit for bit: the same state blob and time.
void ExpectSameState(client::Client& restarted, const std::string& id, client::Client& reference,
                     const std::string& twin_id) {
  auto restarted_state = restarted.GetState(id);
  auto uninterrupted = reference.GetState(twin_id);
  ASSERT_TRUE(restarted_state.ok()) << restarted_state.status();
  ASSERT_TRUE(uninterrupted.ok()) << uninterrupted.status();
  EXPECT_EQ(restarted_state->state().data(), uninterrupted->state().data());
  EXPECT_EQ(restarted_state->time(), uninterrupted->time());
}

std::string CheckpointPath(const std::string& dir, const std::string& id) {
  return absl::StrCat(dir, "/", id, ".ckpt");
}

void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

struct Case {
  const char* name;
  v1::CreateInstancesRequest request;
};

std::vector<Case> Cases() {
  std::vector<Case> cases;
  {
    Case c{"hard contact (moreau-sor), pd", {}};
    c.request.mutable_model()->set_builtin("mini_cheetah");
    c.request.mutable_settings()->set_contact_model("moreau-sor");
    c.request.mutable_settings()->set_control_mode("pd");
    cases.push_back(c);
  }
  {
    Case c{"compliant contact (hertz, dt 1e-4), pd", {}};
    c.request.mutable_model()->set_builtin("mini_cheetah");
    c.request.mutable_settings()->set_contact_model("hertz");
    c.request.mutable_settings()->set_dt(1e-4);
    c.request.mutable_settings()->set_control_mode("pd");
    cases.push_back(c);
  }
  {
    Case c{"URDF text (moreau-jor), pd", {}};
    c.request.mutable_model()->set_urdf(
        ReadTextFile(absl::StrCat(MOREAU_ROBOTS_DIR, "/mini_cheetah.urdf")));
    c.request.mutable_settings()->set_contact_model("moreau-jor");
    c.request.mutable_settings()->set_control_mode("pd");
    cases.push_back(c);
  }
  {
    Case c{"gravity (0.5, 0, -3.71), biped, pd", {}};
    c.request.mutable_model()->set_builtin("biped");
    c.request.mutable_settings()->set_control_mode("pd");
    for (double g : {0.5, 0.0, -3.71}) c.request.mutable_settings()->add_gravity(g);
    cases.push_back(c);
  }
  for (Case& c : cases) c.request.set_count(1);
  return cases;
}

TEST(ServiceRestart, SigtermThenRestartContinuesBitForBit) {
  const std::string dir = FreshDir("sigterm");
  const std::string log = dir + ".log";
  std::filesystem::remove(log);
  const std::vector<std::string> flags = {"--state-dir", dir};
  LiveServer server = StartServer(flags, log);
  LiveServer reference = StartServer();  // never restarted
  ASSERT_NE(server.client, nullptr);
  ASSERT_NE(reference.client, nullptr);

  const std::vector<Case> cases = Cases();
  std::vector<std::string> ids, reference_ids;
  std::vector<v1::ModelSpec> specs;
  for (const Case& c : cases) {
    auto created = server.client->CreateInstances(c.request);
    auto twin = reference.client->CreateInstances(c.request);
    ASSERT_TRUE(created.ok()) << c.name << ": " << created.status();
    ASSERT_TRUE(twin.ok()) << c.name << ": " << twin.status();
    ids.push_back(created->instance_ids(0));
    reference_ids.push_back(twin->instance_ids(0));
    specs.push_back(created->spec().model());
  }
  // 1000 steps (50 calls of 20), SIGTERM, restart, 1000 more.
  const auto step_both = [&](LiveServer& live, int from) {
    for (size_t k = 0; k < cases.size(); ++k) {
      SCOPED_TRACE(cases[k].name);
      for (int t = from; t < from + 50; ++t) {
        const Eigen::VectorXd action = PdAction(specs[k], t);
        ASSERT_TRUE(live.client->Step(ids[k], action, 20).ok());
        ASSERT_TRUE(reference.client->Step(reference_ids[k], action, 20).ok());
      }
    }
  };
  step_both(server, 0);
  server.client.reset();  // hang up first: shutdown waits for idle connections to close
  EXPECT_EQ(server.process->Terminate(), 0);
  const std::string first_log = ReadTextFile(log);
  EXPECT_TRUE(absl::StrContains(first_log, "draining")) << first_log;
  EXPECT_TRUE(absl::StrContains(first_log, "stopped accepting calls")) << first_log;
  EXPECT_TRUE(absl::StrContains(first_log, "4 instance(s) checkpointed")) << first_log;
  for (const std::string& id : ids) EXPECT_TRUE(std::filesystem::exists(CheckpointPath(dir, id)));

  server = StartServer(flags, log);
  ASSERT_NE(server.client, nullptr);
  EXPECT_TRUE(absl::StrContains(ReadTextFile(log), "restored 4 instance(s)"));
  step_both(server, 50);
  for (size_t k = 0; k < cases.size(); ++k) {
    SCOPED_TRACE(cases[k].name);
    ExpectSameState(*server.client, ids[k], *reference.client, reference_ids[k]);
  }
}

// An instance running a controller (Settings.controller) comes back from its
// checkpoint with the controller and its state (gait phase, held command):
// it steps on, bit for bit, as one never restarted.
TEST(ServiceRestart, ControllerContinuesBitForBitAfterARestart) {
  const std::string dir = FreshDir("controller");
  const std::vector<std::string> flags = {"--state-dir", dir};
  LiveServer server = StartServer(flags);
  LiveServer reference = StartServer();  // never restarted
  ASSERT_NE(server.client, nullptr);
  ASSERT_NE(reference.client, nullptr);
  v1::Settings settings;
  settings.mutable_controller()->set_kind("trot");
  settings.mutable_controller()->set_period_steps(3);
  (*settings.mutable_controller()->mutable_parameters())["start_delay_s"] = 0.1;
  auto created = server.client->CreateBuiltin("mini_cheetah", 1, settings);
  auto twin = reference.client->CreateBuiltin("mini_cheetah", 1, settings);
  ASSERT_TRUE(created.ok()) << created.status();
  ASSERT_TRUE(twin.ok()) << twin.status();
  const std::string id = created->instance_ids(0), twin_id = twin->instance_ids(0);
  // A zero action: the trot alone drives the joints. 400 steps, mid-period
  // (400 = 3 · 133 + 1), a restart, 400 more.
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(12);
  const auto step_both = [&](LiveServer& live) {
    for (int t = 0; t < 20; ++t) {
      ASSERT_TRUE(live.client->Step(id, zero, 20).ok());
      ASSERT_TRUE(reference.client->Step(twin_id, zero, 20).ok());
    }
  };
  step_both(server);
  server.client.reset();
  EXPECT_EQ(server.process->Terminate(), 0);
  ASSERT_TRUE(std::filesystem::exists(CheckpointPath(dir, id)));
  server = StartServer(flags);
  ASSERT_NE(server.client, nullptr);
  step_both(server);
  ExpectSameState(*server.client, id, *reference.client, twin_id);
}

TEST(ServiceRestart, RestoredInstancesKeepTheirTenant) {
  const std::string dir = FreshDir("tenant");
  const std::string tokens = dir + ".tokens";
  std::ofstream(tokens) << TokenLine("alice", "alice-token") << "\n"
                        << TokenLine("bob", "bob-token") << "\n";
  const std::vector<std::string> flags = {"--state-dir", dir, "--auth-tokens-file", tokens};
  client::ClientOptions alice_options, bob_options;
  alice_options.token = "alice-token";
  bob_options.token = "bob-token";
  auto server = ServerProcess::Start(flags);
  ASSERT_TRUE(server.ok()) << server.status();
  std::string id;
  {
    client::Client alice((*server)->address(), alice_options);
    auto created = alice.CreateBuiltin("box", 1);
    ASSERT_TRUE(created.ok()) << created.status();
    id = created->instance_ids(0);
    ASSERT_TRUE(alice.Step(id, Eigen::VectorXd::Zero(0), 7).ok());
  }
  ASSERT_EQ((*server)->Terminate(), 0);
  auto record = server::DecodeCheckpoint(ReadTextFile(CheckpointPath(dir, id)));
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(record->tenant, "alice");

  server = ServerProcess::Start(flags);
  ASSERT_TRUE(server.ok()) << server.status();
  client::Client alice((*server)->address(), alice_options);
  client::Client bob((*server)->address(), bob_options);
  auto state = alice.GetState(id);
  ASSERT_TRUE(state.ok()) << state.status();
  EXPECT_EQ(state->state().data(), record->state);
  EXPECT_EQ(bob.GetState(id).status().code(), StatusCode::kNotFound);
}

TEST(ServiceRestart, KillNineRestoresTheLastPeriodicCheckpoint) {
  const std::string dir = FreshDir("kill9");
  const std::vector<std::string> flags = {"--state-dir", dir, "--checkpoint-interval-s", "1"};
  LiveServer server = StartServer(flags);
  ASSERT_NE(server.client, nullptr);
  v1::Settings settings;
  settings.set_control_mode("pd");
  auto cheetahs = server.client->CreateBuiltin("mini_cheetah", 2, settings);
  auto box = server.client->CreateBuiltin("box", 1);
  ASSERT_TRUE(cheetahs.ok() && box.ok());
  const v1::ModelSpec& spec = cheetahs->spec().model();
  const std::string a = cheetahs->instance_ids(0), b = cheetahs->instance_ids(1);
  const std::string c = box->instance_ids(0);
  for (int t = 0; t < 10; ++t) {
    ASSERT_TRUE(server.client->Step(a, PdAction(spec, t), 20).ok());
    ASSERT_TRUE(server.client->Step(b, PdAction(spec, t + 7), 10).ok());
  }
  ASSERT_TRUE(server.client->Step(c, Eigen::VectorXd::Zero(0), 30).ok());
  // A periodic pass has written all three.
  ASSERT_TRUE(WaitForMetric(*server.process, kOk, 3.0));
  EXPECT_TRUE(std::filesystem::exists(CheckpointPath(dir, c)));
  // A destroyed instance's checkpoint goes with it, at once.
  ASSERT_TRUE(server.client->DestroyInstances({c}).ok());
  EXPECT_FALSE(std::filesystem::exists(CheckpointPath(dir, c)));

  // Right after a pass has saved a's newest state (the next pass is about a
  // second away): what it saved, then steps that no pass saves before the
  // crash. Tried again in the unlikely case a pass comes in between.
  std::string saved_a, saved_b, unsaved_a;
  bool crashed = false;
  for (int attempt = 0; attempt < 5 && !crashed; ++attempt) {
    const double passes = Metric(*server.process, kOk);
    ASSERT_TRUE(server.client->Step(a, PdAction(spec, 50 + attempt), 5).ok());
    ASSERT_TRUE(WaitForMetric(*server.process, kOk, passes + 1.0));
    const double saved_passes = Metric(*server.process, kOk);
    auto state_a = server.client->GetState(a);
    auto state_b = server.client->GetState(b);
    ASSERT_TRUE(state_a.ok() && state_b.ok());
    ASSERT_TRUE(server.client->Step(a, PdAction(spec, 99), 5).ok());
    auto after = server.client->GetState(a);
    ASSERT_TRUE(after.ok());
    if (Metric(*server.process, kOk) != saved_passes) continue;
    EXPECT_EQ(server.process->Kill(), 128 + SIGKILL);
    saved_a = state_a->state().data();
    saved_b = state_b->state().data();
    unsaved_a = after->state().data();
    crashed = true;
  }
  ASSERT_TRUE(crashed);
  ASSERT_NE(saved_a, unsaved_a);

  server = StartServer(flags);
  ASSERT_NE(server.client, nullptr);
  auto restored_a = server.client->GetState(a);
  auto restored_b = server.client->GetState(b);
  ASSERT_TRUE(restored_a.ok()) << restored_a.status();
  ASSERT_TRUE(restored_b.ok()) << restored_b.status();
  EXPECT_EQ(restored_a->state().data(), saved_a);
  EXPECT_EQ(restored_b->state().data(), saved_b);
  EXPECT_EQ(server.client->GetState(c).status().code(), StatusCode::kNotFound);
}

TEST(ServiceRestart, CorruptTruncatedForeignAndMismatchedCheckpointsAreSkippedAndNamed) {
  const std::string dir = FreshDir("bad_files");
  const std::string log = dir + ".log";
  std::filesystem::remove(log);
  const std::vector<std::string> flags = {"--state-dir", dir};
  LiveServer server = StartServer(flags);
  ASSERT_NE(server.client, nullptr);
  auto created = server.client->CreateBuiltin("box", 5);
  ASSERT_TRUE(created.ok());
  std::vector<std::string> ids(created->instance_ids().begin(), created->instance_ids().end());
  std::vector<std::string> states;
  for (int k = 0; k < 5; ++k) {
    ASSERT_TRUE(server.client->Step(ids[k], Eigen::VectorXd::Zero(0), 10 * (k + 1)).ok());
    auto state = server.client->GetState(ids[k]);
    ASSERT_TRUE(state.ok());
    states.push_back(state->state().data());
  }
  server.client.reset();  // hang up first: shutdown waits for idle connections to close
  ASSERT_EQ(server.process->Terminate(), 0);

  // ids[0] and ids[4] stay good; ids[1] gets a flipped byte, ids[2] loses its
  // second half, ids[3] claims another model; a foreign file sits beside them.
  const std::string corrupt = CheckpointPath(dir, ids[1]);
  std::string bytes = ReadTextFile(corrupt);
  ASSERT_GT(bytes.size(), 100u);
  bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x10);
  WriteBytes(corrupt, bytes);
  const std::string truncated = CheckpointPath(dir, ids[2]);
  bytes = ReadTextFile(truncated);
  WriteBytes(truncated, bytes.substr(0, bytes.size() / 2));
  const std::string mismatched = CheckpointPath(dir, ids[3]);
  auto record = server::DecodeCheckpoint(ReadTextFile(mismatched));
  ASSERT_TRUE(record.ok()) << record.status();
  record->model_fingerprint ^= 1;
  WriteBytes(mismatched, server::EncodeCheckpoint(*record));
  const std::string foreign = dir + "/notes.txt";
  WriteBytes(foreign, "not a checkpoint\n");

  server = StartServer(flags, log);
  ASSERT_NE(server.client, nullptr);
  for (int k : {0, 4}) {
    auto state = server.client->GetState(ids[k]);
    ASSERT_TRUE(state.ok()) << state.status();
    EXPECT_EQ(state->state().data(), states[k]);
  }
  for (int k : {1, 2, 3}) {
    EXPECT_EQ(server.client->GetState(ids[k]).status().code(), StatusCode::kNotFound);
  }
  const std::string text = ReadTextFile(log);
  EXPECT_TRUE(absl::StrContains(text, absl::StrCat(corrupt, ": checksum mismatch"))) << text;
  EXPECT_TRUE(absl::StrContains(text, absl::StrCat(truncated, ": truncated"))) << text;
  EXPECT_TRUE(absl::StrContains(text, absl::StrCat(mismatched, ": model 'box' no longer matches")))
      << text;
  EXPECT_TRUE(absl::StrContains(text, absl::StrCat(foreign, ": not a moreaud checkpoint"))) << text;
  EXPECT_TRUE(absl::StrContains(text, "restored 2 instance(s)")) << text;
  // The skipped files are left for the operator.
  EXPECT_TRUE(std::filesystem::exists(corrupt));
  server.client.reset();  // hang up first: shutdown waits for idle connections to close
  EXPECT_EQ(server.process->Terminate(), 0);
}

TEST(ServiceRestart, UnwritableStateDirIsLoggedAndCountedWhileServingGoesOn) {
  const std::string dir = FreshDir("unwritable");
  const std::string log = dir + ".log";
  std::filesystem::remove(log);
  std::filesystem::remove_all(dir + ".moved");
  LiveServer server = StartServer({"--state-dir", dir, "--checkpoint-interval-s", "0.5"}, log);
  ASSERT_NE(server.client, nullptr);
  // Both series exist from the start.
  EXPECT_EQ(Metric(*server.process, kOk), 0.0);
  EXPECT_EQ(Metric(*server.process, kError), 0.0);
  auto created = server.client->CreateBuiltin("box", 1);
  ASSERT_TRUE(created.ok());
  const std::string id = created->instance_ids(0);
  // The directory goes away and a plain file takes its name (permissions
  // would not stop a test running as root).
  std::filesystem::rename(dir, dir + ".moved");
  WriteBytes(dir, "in the way\n");
  ASSERT_TRUE(server.client->Step(id, Eigen::VectorXd::Zero(0), 10).ok());
  ASSERT_TRUE(WaitForMetric(*server.process, kError, 1.0));
  EXPECT_TRUE(server.client->Step(id, Eigen::VectorXd::Zero(0), 10).ok());
  EXPECT_TRUE(server.client->GetState(id).ok());
  EXPECT_TRUE(server.client->CreateBuiltin("box", 1).ok());
  // Shutdown still drains; the checkpoint it cannot write shows in the exit code.
  server.client.reset();  // hang up first: shutdown waits for idle connections to close
  EXPECT_EQ(server.process->Terminate(), 1);
  const std::string text = ReadTextFile(log);
  EXPECT_TRUE(absl::StrContains(text, absl::StrCat("not saved to ", dir, ": "))) << text;
  EXPECT_TRUE(absl::StrContains(text, "not checkpointed")) << text;
  std::filesystem::remove(dir);
}

TEST(ServiceRestart, StateDirThatCannotBeCreatedIsLoggedAndServingStarts) {
  const std::string file = FreshDir("blocked") + "/file";
  WriteBytes(file, "a file, not a directory\n");
  const std::string log = file + ".log";
  LiveServer server = StartServer({"--state-dir", file + "/state"}, log);
  ASSERT_NE(server.client, nullptr);
  EXPECT_TRUE(server.client->CreateBuiltin("box", 1).ok());
  EXPECT_TRUE(absl::StrContains(ReadTextFile(log), "cannot create")) << ReadTextFile(log);
}

TEST(ServiceRestart, SecondServerOnTheSameStateDirIsRefused) {
  const std::string dir = FreshDir("locked");
  LiveServer first = StartServer({"--state-dir", dir});
  ASSERT_NE(first.client, nullptr);
  auto second = ServerProcess::Start({"--state-dir", dir});
  EXPECT_FALSE(second.ok());
}

TEST(ServiceShutdown, DrainDelayReportsNotServingWhileStepsSucceed) {
  const std::string dir = FreshDir("drain");
  const std::string log = dir + "/stderr.log";
  LiveServer server = StartServer({"--drain-delay-s", "3"}, log);
  ASSERT_NE(server.client, nullptr);
  auto created = server.client->CreateBuiltin("box", 1);
  ASSERT_TRUE(created.ok());
  const std::string address = server.process->address();
  EXPECT_EQ(HealthStatus(address, ""), 1);
  server.process->Signal(SIGTERM);
  int health = -1;
  for (int i = 0; i < 200 && health != 2; ++i) {
    health = HealthStatus(address, "");
    if (health != 2) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(health, 2);  // NOT_SERVING
  EXPECT_EQ(HealthStatus(address, "moreau.v1.Simulator"), 2);
  // Every call is still served meanwhile, new ones included.
  EXPECT_TRUE(server.client->Step(created->instance_ids(0), Eigen::VectorXd::Zero(0), 5).ok());
  EXPECT_TRUE(server.client->CreateBuiltin("box", 1).ok());
  // A SIGHUP (token reload) does not cut the delay short.
  server.process->Signal(SIGHUP);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_TRUE(server.client->Step(created->instance_ids(0), Eigen::VectorXd::Zero(0), 5).ok());
  server.client.reset();  // hang up first: shutdown waits for idle connections to close
  EXPECT_EQ(server.process->Wait(), 0);
  const std::string text = ReadTextFile(log);
  EXPECT_TRUE(absl::StrContains(text, "SIGTERM: draining: health NOT_SERVING")) << text;
  EXPECT_TRUE(absl::StrContains(text, "stopped accepting calls")) << text;
  EXPECT_TRUE(absl::StrContains(text, "moreaud: stopped")) << text;
}

TEST(ServiceShutdown, SigtermEndsOpenSessionAndWatchStreamsWithUnavailable) {
  // A long grace: only the server's own ending of the streams can end them.
  LiveServer server = StartServer({"--shutdown-grace-s", "60"});
  ASSERT_NE(server.client, nullptr);
  auto created = server.client->CreateBuiltin("box", 1);
  ASSERT_TRUE(created.ok());
  const std::string id = created->instance_ids(0);
  auto session = server.client->OpenSession();
  ASSERT_TRUE(session->Send(MakeStep(id, Eigen::VectorXd::Zero(0), 2)));
  v1::Observation observation;
  ASSERT_TRUE(session->Receive(&observation));
  EXPECT_EQ(observation.status().code(), 0);
  auto watch = server.client->Watch(id, 50.0);
  v1::WatchFrame frame;
  ASSERT_TRUE(watch->Read(&frame));

  server.process->Signal(SIGTERM);
  EXPECT_FALSE(session->Receive(&observation));
  const absl::Status session_status = session->Close();
  EXPECT_EQ(session_status.code(), StatusCode::kUnavailable) << session_status;
  EXPECT_TRUE(absl::StrContains(session_status.message(), "shutting down")) << session_status;
  int frames = 0;
  while (watch->Read(&frame) && frames < 10000) ++frames;
  const absl::Status watch_status = watch->Finish();
  EXPECT_EQ(watch_status.code(), StatusCode::kUnavailable) << watch_status;
  EXPECT_TRUE(absl::StrContains(watch_status.message(), "shutting down")) << watch_status;
  session.reset();
  watch.reset();
  server.client.reset();  // hang up first: shutdown waits for idle connections to close
  EXPECT_EQ(server.process->Wait(), 0);
}

}  // namespace
}  // namespace moreau::testing
