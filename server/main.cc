// moreaud: the Moreau simulation server (ARCHITECTURE.md § The service).
//
//   moreaud [--host 0.0.0.0] [--port 50051] [--metrics-port 9464] …
//
// Prints "moreaud: listening on HOST:PORT" once serving (port 0 picks a free
// port and prints it).
//
// With --state-dir, every instance is checkpointed there (periodically and at
// shutdown) and restored under its id at the next start.
//
// SIGTERM (as Kubernetes stops a pod): the health service reports NOT_SERVING
// for --drain-delay-s while every call is still served (so that load
// balancers stop routing here), then the server stops accepting calls, ends
// open Session and Watch streams with UNAVAILABLE, lets in-flight calls finish
// (up to --shutdown-grace-s), checkpoints every instance and exits 0 (1 when
// some instance could not be checkpointed). SIGINT does the same without the
// delay; a second signal ends the delay early. Progress goes to stderr.
#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "server/checkpoint_store.h"
#include "server/metrics.h"
#include "server/service.h"

ABSL_FLAG(std::string, host, "0.0.0.0", "Address to listen on");
ABSL_FLAG(int, port, 50051, "gRPC port (0: any free port, printed at start)");
ABSL_FLAG(int, metrics_port, 9464,
          "Prometheus metrics HTTP port (0: any free port, -1: no metrics endpoint)");
ABSL_FLAG(int, max_instances, 1024, "Most instances hosted at once");
ABSL_FLAG(int, max_substeps, 10000, "Most sub-steps per instance per call");
ABSL_FLAG(int, max_batch, 4096, "Most instances per StepBatch");
ABSL_FLAG(int, max_message_bytes, 16 << 20, "Largest request or response message (bytes)");
ABSL_FLAG(double, idle_timeout_s, 600.0, "Instances unused for this long are freed (0: never)");
ABSL_FLAG(int, workers, 0, "Stepping threads (0: one per core)");
ABSL_FLAG(int, inline_substeps, 4,
          "Calls with at most this many sub-steps in all run on the receiving thread");
ABSL_FLAG(double, deadline_margin_ms, 20.0,
          "StepBatch stops starting sub-steps this long before the call's deadline");
ABSL_FLAG(double, shutdown_grace_s, 10.0,
          "On SIGTERM, how long in-flight calls may take to finish");
ABSL_FLAG(double, drain_delay_s, 5.0,
          "On SIGTERM, how long the health service reports NOT_SERVING while every call is "
          "still served, before the server stops accepting calls");
ABSL_FLAG(std::string, state_dir, "",
          "Directory of instance checkpoints: restored at start, written every "
          "--checkpoint-interval-s and at shutdown (empty: instances end with the process)");
ABSL_FLAG(double, checkpoint_interval_s, 30.0,
          "Seconds between checkpoints of the instances changed since their last one "
          "(0: only at shutdown)");

namespace {

// absl flags are spelled with underscores; accept --metrics-port too.
std::vector<char*> NormalizeDashes(int argc, char** argv, std::vector<std::string>& storage) {
  storage.assign(argv, argv + argc);
  for (std::string& arg : storage) {
    if (arg.rfind("--", 0) != 0) continue;
    const size_t end = std::min(arg.find('='), arg.size());
    for (size_t i = 2; i < end; ++i) {
      if (arg[i] == '-') arg[i] = '_';
    }
  }
  std::vector<char*> out;
  for (std::string& arg : storage) out.push_back(arg.data());
  return out;
}

int Fail(const std::string& message) {
  std::fprintf(stderr, "moreaud: error: %s\n", message.c_str());
  return 1;
}

// Waits up to `seconds` for one of `signals`; returns early when one comes.
void WaitForSignalOrTimeout(const sigset_t& signals, double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  for (;;) {
    const double left =
        std::chrono::duration<double>(until - std::chrono::steady_clock::now()).count();
    if (left <= 0.0) return;
    timespec timeout;
    timeout.tv_sec = static_cast<time_t>(left);
    timeout.tv_nsec = static_cast<long>((left - std::floor(left)) * 1e9);
    if (sigtimedwait(&signals, nullptr, &timeout) >= 0 || errno != EINTR) return;
  }
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage("moreaud [--host H] [--port P] [--metrics-port M] [flags]");
  std::vector<std::string> storage;
  std::vector<char*> args = NormalizeDashes(argc, argv, storage);
  absl::ParseCommandLine(static_cast<int>(args.size()), args.data());

  // Signals are taken by one thread with sigwait: block them everywhere first.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  moreau::server::ServiceOptions options;
  options.max_instances = absl::GetFlag(FLAGS_max_instances);
  options.max_substeps = absl::GetFlag(FLAGS_max_substeps);
  options.max_batch = absl::GetFlag(FLAGS_max_batch);
  options.worker_threads = absl::GetFlag(FLAGS_workers);
  options.inline_substeps = absl::GetFlag(FLAGS_inline_substeps);
  options.deadline_margin = absl::Milliseconds(absl::GetFlag(FLAGS_deadline_margin_ms));
  const int max_message = absl::GetFlag(FLAGS_max_message_bytes);
  const double idle_timeout_s = absl::GetFlag(FLAGS_idle_timeout_s);
  if (options.max_instances < 1 || options.max_substeps < 1 || options.max_batch < 1 ||
      max_message < 1024 || idle_timeout_s < 0.0) {
    return Fail(
        "--max-instances, --max-substeps, --max-batch must be ≥ 1, --max-message-bytes ≥ 1024, "
        "--idle-timeout-s ≥ 0");
  }
  const double drain_delay_s = absl::GetFlag(FLAGS_drain_delay_s);
  const double grace_s = absl::GetFlag(FLAGS_shutdown_grace_s);
  const double checkpoint_interval_s = absl::GetFlag(FLAGS_checkpoint_interval_s);
  if (!(drain_delay_s >= 0.0) || !(grace_s >= 0.0) || !(checkpoint_interval_s >= 0.0)) {
    return Fail(absl::StrCat("--drain-delay-s (", drain_delay_s, "), --shutdown-grace-s (", grace_s,
                             ") and --checkpoint-interval-s (", checkpoint_interval_s,
                             ") must be ≥ 0"));
  }

  moreau::server::Metrics metrics;
  const std::string host = absl::GetFlag(FLAGS_host);
  const int metrics_port = absl::GetFlag(FLAGS_metrics_port);
  if (metrics_port >= 0) {
    if (absl::Status s = metrics.Serve(absl::StrCat(host, ":", metrics_port)); !s.ok()) {
      return Fail(std::string(s.message()));
    }
  }

  // The state directory: locked, then read back before the server listens.
  std::unique_ptr<moreau::server::CheckpointStore> checkpoints;
  const std::string state_dir = absl::GetFlag(FLAGS_state_dir);
  if (!state_dir.empty()) {
    checkpoints = std::make_unique<moreau::server::CheckpointStore>(
        moreau::server::CheckpointStoreOptions{state_dir, absl::Seconds(checkpoint_interval_s)},
        &metrics);
    if (absl::Status s = checkpoints->Open(); !s.ok()) {
      if (s.code() == absl::StatusCode::kFailedPrecondition) return Fail(std::string(s.message()));
      // An unwritable directory: serve anyway; every checkpoint that fails is
      // logged and counted.
      std::fprintf(stderr, "moreaud: error: %s; serving on without it\n",
                   std::string(s.message()).c_str());
    }
  }
  moreau::server::SimulatorService service(options, &metrics, checkpoints.get());
  if (checkpoints != nullptr) {
    checkpoints->RestoreAll([&service](const moreau::server::CheckpointRecord& record) {
      return service.RestoreInstance(record);
    });
  }
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(absl::StrCat(host, ":", absl::GetFlag(FLAGS_port)),
                           grpc::InsecureServerCredentials(), &port);
  builder.RegisterService(&service);
  builder.SetMaxReceiveMessageSize(max_message);
  builder.SetMaxSendMessageSize(max_message);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr || port == 0) {
    return Fail(absl::StrCat("cannot listen on ", host, ":", absl::GetFlag(FLAGS_port)));
  }
  server->GetHealthCheckService()->SetServingStatus(moreau::v1::Simulator::service_full_name(),
                                                    true);
  std::printf("moreaud: listening on %s:%d", host.c_str(), port);
  if (metrics_port >= 0)
    std::printf(" (metrics on http://%s:%d/metrics)", host.c_str(), metrics.port());
  std::printf(", %d workers\n", service.pool().size());
  std::fflush(stdout);
  if (checkpoints != nullptr) checkpoints->StartPeriodic(&service.registry());

  // Housekeeping: idle instances, sampled gauges.
  absl::Notification stop;
  std::thread housekeeper([&] {
    while (!stop.WaitForNotificationWithTimeout(absl::Milliseconds(500))) {
      if (idle_timeout_s > 0.0) service.ReclaimIdle(absl::Seconds(idle_timeout_s));
      service.UpdateGauges();
    }
  });

  std::thread signal_waiter([&] {
    int signal_number = 0;
    sigwait(&signals, &signal_number);
    const char* name = signal_number == SIGTERM ? "SIGTERM" : "SIGINT";
    // Every service NOT_SERVING (readiness probes fail, balancers drain) ...
    server->GetHealthCheckService()->Shutdown();
    const double delay = signal_number == SIGTERM ? drain_delay_s : 0.0;
    std::fprintf(stderr, "moreaud: %s: draining: health NOT_SERVING, still serving for %g s\n",
                 name, delay);
    // ... while calls are still served, so that none is refused before the
    // clients have moved to another replica.
    if (delay > 0.0) WaitForSignalOrTimeout(signals, delay);
    service.StopStreams();
    std::fprintf(stderr,
                 "moreaud: stopped accepting calls; in-flight calls have up to %g s, open "
                 "Session and Watch streams end with UNAVAILABLE\n",
                 grace_s);
    server->Shutdown(std::chrono::system_clock::now() +
                     std::chrono::milliseconds(static_cast<int64_t>(grace_s * 1000)));
  });

  server->Wait();
  stop.Notify();
  housekeeper.join();
  signal_waiter.join();
  std::fprintf(stderr, "moreaud: in-flight calls done\n");
  int exit_code = 0;
  if (checkpoints != nullptr) {
    // Every call is done: the states written now are the final ones.
    checkpoints->StopPeriodic();
    const moreau::server::CheckpointPass pass = checkpoints->CheckpointChanged(service.registry());
    std::fprintf(stderr, "moreaud: %d instance(s) checkpointed to %s (%d written, %d unchanged)\n",
                 pass.written + pass.unchanged, state_dir.c_str(), pass.written, pass.unchanged);
    if (pass.failed > 0) {
      std::fprintf(stderr, "moreaud: error: %d instance(s) not checkpointed: %s\n", pass.failed,
                   pass.first_error.c_str());
      exit_code = 1;
    }
  }
  std::fprintf(stderr, "moreaud: stopped\n");
  std::fflush(nullptr);
  // Every call is drained; skip the destructors (the metrics HTTP server's
  // takes seconds to stop its listener) and exit now.
  std::_Exit(exit_code);
}
