// moreaud: the Moreau simulation server (docs/architecture.md § The service).
//
//   moreaud [--host H] [--port 50051] [--metrics-port 9464]
//           [--tls-cert-file F --tls-key-file F [--tls-client-ca-file F]]
//           [--auth-tokens-file F] …
//
// Prints "moreaud: listening on HOST:PORT, plaintext|TLS|mTLS[, bearer
// tokens] …" once serving (port 0 picks a free port and prints it). Without
// TLS the default host is 127.0.0.1, with TLS 0.0.0.0. The metrics endpoint is
// plain HTTP on its own port, whatever the gRPC port's transport. SIGHUP:
// re-read --auth-tokens-file (a bad file keeps the tokens in force and logs
// the error).
//
// With --state-dir, every instance is checkpointed there (periodically and at
// shutdown) and restored under its id and tenant at the next start.
//
// SIGTERM (as Kubernetes stops a pod): the health service reports NOT_SERVING
// for --drain-delay-s while every call is still served (so that load
// balancers stop routing here), then the server stops accepting calls, ends
// open Session and Watch streams with UNAVAILABLE, lets in-flight calls finish
// (up to --shutdown-grace-s), checkpoints every instance and exits 0 (1 when
// some instance could not be checkpointed). SIGINT does the same without the
// delay; a second SIGTERM or SIGINT ends the delay early. Progress goes to
// stderr.
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
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "engine/util/dashed_args.h"
#include "server/auth_interceptor.h"
#include "server/authenticator.h"
#include "server/checkpoint_store.h"
#include "server/in_flight_interceptor.h"
#include "server/maintenance.h"
#include "server/metrics.h"
#include "server/server_parts.h"
#include "server/service.h"
#include "server/service_options.h"
#include "server/tls.h"

ABSL_FLAG(std::string, host, "",
          "Address to listen on (default: 127.0.0.1 in plaintext, 0.0.0.0 with TLS)");
ABSL_FLAG(int, port, 50051, "gRPC port (0: any free port, printed at start)");
ABSL_FLAG(int, metrics_port, 9464,
          "Prometheus metrics port: plain HTTP, whatever the gRPC port's TLS (0: any free port, "
          "-1: no metrics endpoint)");
ABSL_FLAG(int, max_instances, 1024, "Most instances hosted at once");
ABSL_FLAG(int, max_substeps, 10000, "Most sub-steps per instance per call");
ABSL_FLAG(int, max_batch, 4096, "Most instances per StepBatch");
ABSL_FLAG(int, max_message_bytes, 16 << 20, "Largest request or response message (bytes)");
ABSL_FLAG(double, idle_timeout_s, 600.0, "Instances unused for this long are freed (0: never)");
ABSL_FLAG(int, workers, 0, "Stepping threads (0: one per core)");
ABSL_FLAG(int, inline_substeps, 4,
          "Calls with at most this many sub-steps in all run on the receiving thread");
ABSL_FLAG(double, worker_spin_us, 500.0,
          "A worker out of tasks polls for the next one this long before it sleeps (0: sleeps "
          "at once)");
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
ABSL_FLAG(std::string, tls_cert_file, "",
          "PEM certificate chain of the server (with --tls-key-file: serve TLS)");
ABSL_FLAG(std::string, tls_key_file, "", "PEM private key of --tls-cert-file");
ABSL_FLAG(std::string, tls_client_ca_file, "",
          "PEM CA certificates: clients must present a certificate signed by one (mTLS)");
ABSL_FLAG(std::string, auth_tokens_file, "",
          "Bearer tokens: lines 'TENANT SHA256_HEX [max_instances=N]' (re-read on SIGHUP); "
          "every moreau.v1.Simulator call then needs 'authorization: Bearer TOKEN'");

// Bounds on what one client may send or hold open, each checked before the
// work it bounds (errors name the flag).
ABSL_FLAG(int, max_create, moreau::server::ServiceOptions{}.max_create,
          "Most instances per CreateInstances");
ABSL_FLAG(int, max_sessions, moreau::server::ServiceOptions{}.max_sessions,
          "Most Session streams open at once");
ABSL_FLAG(int, max_watches, moreau::server::ServiceOptions{}.max_watches,
          "Most Watch streams open at once");
ABSL_FLAG(int64_t, max_urdf_bytes, moreau::UrdfLimits{}.max_bytes, "Longest URDF text (bytes)");
ABSL_FLAG(int, max_xml_depth, moreau::UrdfLimits{}.max_depth,
          "Deepest nesting of a URDF's XML elements (<robot> is 1)");
ABSL_FLAG(int64_t, max_xml_elements, moreau::UrdfLimits{}.max_elements,
          "Most XML elements in a URDF");
ABSL_FLAG(int, max_links, moreau::UrdfLimits{}.max_links, "Most links in a URDF");
ABSL_FLAG(int, max_joints, moreau::UrdfLimits{}.max_joints, "Most joints in a URDF");
ABSL_FLAG(int, max_contact_points, moreau::UrdfLimits{}.max_contact_points,
          "Most contact points of a URDF model");
ABSL_FLAG(int64_t, max_heightfield_nodes, moreau::contact::HeightfieldLimits{}.max_nodes,
          "Most nodes (nx * ny) of a heightfield terrain");

namespace {

int Fail(const std::string& message) {
  std::fprintf(stderr, "moreaud: error: %s\n", message.c_str());
  return 1;
}

// The size-limit flags into `options`; an error names a flag below 1.
absl::Status ApplyLimitFlags(moreau::server::ServiceOptions& options) {
  options.max_create = absl::GetFlag(FLAGS_max_create);
  options.max_sessions = absl::GetFlag(FLAGS_max_sessions);
  options.max_watches = absl::GetFlag(FLAGS_max_watches);
  moreau::UrdfLimits& urdf = options.urdf_limits;
  urdf.max_bytes = absl::GetFlag(FLAGS_max_urdf_bytes);
  urdf.max_depth = absl::GetFlag(FLAGS_max_xml_depth);
  urdf.max_elements = absl::GetFlag(FLAGS_max_xml_elements);
  urdf.max_links = absl::GetFlag(FLAGS_max_links);
  urdf.max_joints = absl::GetFlag(FLAGS_max_joints);
  urdf.max_contact_points = absl::GetFlag(FLAGS_max_contact_points);
  options.heightfield_limits.max_nodes = absl::GetFlag(FLAGS_max_heightfield_nodes);
  const std::pair<const char*, int64_t> limits[] = {
      {"--max-create", options.max_create},
      {"--max-sessions", options.max_sessions},
      {"--max-watches", options.max_watches},
      {"--max-urdf-bytes", urdf.max_bytes},
      {"--max-xml-depth", urdf.max_depth},
      {"--max-xml-elements", urdf.max_elements},
      {"--max-links", urdf.max_links},
      {"--max-joints", urdf.max_joints},
      {"--max-contact-points", urdf.max_contact_points},
      {"--max-heightfield-nodes", options.heightfield_limits.max_nodes}};
  for (const auto& [flag, value] : limits) {
    if (value < 1)
      return absl::InvalidArgumentError(absl::StrCat(flag, " must be ≥ 1, got ", value));
  }
  return absl::OkStatus();
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
  // --help lists the flags of this file (absl's default looks for a file named
  // after the binary, moreaud.cc).
  absl::FlagsUsageConfig usage;
  usage.contains_help_flags = [](absl::string_view file) {
    return absl::EndsWith(file, "server/main.cc");
  };
  usage.contains_helpshort_flags = usage.contains_help_flags;
  absl::SetFlagsUsageConfig(usage);
  std::vector<std::string> storage;
  std::vector<char*> args = moreau::DashesToUnderscores(argc, argv, storage);
  absl::ParseCommandLine(static_cast<int>(args.size()), args.data());

  // Signals are taken by one thread with sigwait: block them everywhere first.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  moreau::server::ServiceOptions options;
  options.max_instances = absl::GetFlag(FLAGS_max_instances);
  options.max_substeps = absl::GetFlag(FLAGS_max_substeps);
  options.max_batch = absl::GetFlag(FLAGS_max_batch);
  options.worker_threads = absl::GetFlag(FLAGS_workers);
  options.inline_substeps = absl::GetFlag(FLAGS_inline_substeps);
  options.deadline_margin = absl::Milliseconds(absl::GetFlag(FLAGS_deadline_margin_ms));
  const double worker_spin_us = absl::GetFlag(FLAGS_worker_spin_us);
  if (!(worker_spin_us >= 0.0 && worker_spin_us <= 1e6)) {
    return Fail("--worker-spin-us must be in [0, 1000000]");
  }
  options.worker_spin = absl::Microseconds(worker_spin_us);
  if (absl::Status s = ApplyLimitFlags(options); !s.ok()) return Fail(std::string(s.message()));
  const int max_message = absl::GetFlag(FLAGS_max_message_bytes);
  options.max_message_bytes = max_message;
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

  const moreau::server::TlsFiles tls{absl::GetFlag(FLAGS_tls_cert_file),
                                     absl::GetFlag(FLAGS_tls_key_file),
                                     absl::GetFlag(FLAGS_tls_client_ca_file)};
  auto credentials = moreau::server::MakeServerCredentials(tls);
  if (!credentials.ok()) return Fail(std::string(credentials.status().message()));
  const bool plaintext = tls.cert_file.empty();
  std::string host = absl::GetFlag(FLAGS_host);
  if (host.empty()) host = plaintext ? "127.0.0.1" : "0.0.0.0";

  std::unique_ptr<moreau::server::Authenticator> authenticator;
  std::unique_ptr<moreau::server::CallAuthenticator> call_auth;
  if (const std::string tokens = absl::GetFlag(FLAGS_auth_tokens_file); !tokens.empty()) {
    auto loaded = moreau::server::Authenticator::FromFile(tokens);
    if (!loaded.ok()) return Fail(std::string(loaded.status().message()));
    authenticator = *std::move(loaded);
    call_auth = std::make_unique<moreau::server::CallAuthenticator>(
        authenticator.get(), moreau::v1::Simulator::service_full_name());
    options.auth = call_auth.get();
    if (plaintext && host != "127.0.0.1" && host != "localhost" && host != "::1") {
      std::fprintf(stderr,
                   "moreaud: warning: bearer tokens over plaintext on %s; serve TLS "
                   "(--tls-cert-file) or keep the port behind a TLS-terminating proxy\n",
                   host.c_str());
    }
  }

  moreau::server::Metrics metrics;
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
  moreau::server::ServerParts parts(options, &metrics);
  moreau::server::Maintenance maintenance(&parts, &metrics, checkpoints.get(),
                                          /*per_tenant_gauges=*/options.auth != nullptr);
  moreau::server::SimulatorService service(options, &parts, &metrics, checkpoints.get());
  if (checkpoints != nullptr) {
    checkpoints->RestoreAll([&maintenance](const moreau::server::CheckpointRecord& record) {
      return maintenance.Restore(record);
    });
  }
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  // A port another process holds is an error, never a port shared with it
  // (gRPC's default SO_REUSEPORT would split the connections between both).
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  int port = 0;
  builder.AddListeningPort(absl::StrCat(host, ":", absl::GetFlag(FLAGS_port)), *credentials, &port);
  builder.RegisterService(&service);
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> creators;
  if (call_auth != nullptr) creators.push_back(call_auth->InterceptorFactory());
  creators.push_back(moreau::server::InFlightInterceptorFactory(
      &metrics, moreau::v1::Simulator::service_full_name()));
  builder.experimental().SetInterceptorCreators(std::move(creators));
  builder.SetMaxReceiveMessageSize(max_message);
  builder.SetMaxSendMessageSize(max_message);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr || port == 0) {
    return Fail(absl::StrCat("cannot listen on ", host, ":", absl::GetFlag(FLAGS_port),
                             " (in use by another process, or not an address of this machine)"));
  }
  server->GetHealthCheckService()->SetServingStatus(moreau::v1::Simulator::service_full_name(),
                                                    true);
  std::printf("moreaud: listening on %s:%d, %s%s", host.c_str(), port,
              moreau::server::TransportName(tls), authenticator ? ", bearer tokens" : "");
  if (metrics_port >= 0)
    std::printf(" (metrics on http://%s:%d/metrics)", host.c_str(), metrics.port());
  std::printf(", %d workers\n", parts.pool.size());
  std::fflush(stdout);
  if (checkpoints != nullptr) checkpoints->StartPeriodic(&parts.registry);

  // Housekeeping: idle instances, sampled gauges.
  absl::Notification stop;
  std::thread housekeeper([&] {
    while (!stop.WaitForNotificationWithTimeout(absl::Milliseconds(500))) {
      if (idle_timeout_s > 0.0) maintenance.ReclaimIdle(absl::Seconds(idle_timeout_s));
      maintenance.UpdateGauges();
    }
  });

  std::thread signal_waiter([&] {
    int signal_number = 0;
    while (sigwait(&signals, &signal_number) == 0 && signal_number == SIGHUP) {
      if (authenticator == nullptr) {
        std::fprintf(stderr, "moreaud: SIGHUP: no --auth-tokens-file to reload\n");
      } else if (absl::Status s = authenticator->Reload(); !s.ok()) {
        std::fprintf(stderr, "moreaud: error: SIGHUP: kept the tokens in force: %s\n",
                     std::string(s.message()).c_str());
      } else {
        const auto table = authenticator->table();
        std::fprintf(stderr, "moreaud: SIGHUP: reloaded %d token(s) of %d tenant(s) from %s\n",
                     table->tokens(), table->tenants(), authenticator->path().c_str());
      }
    }
    const char* name = signal_number == SIGTERM ? "SIGTERM" : "SIGINT";
    // Every service NOT_SERVING (readiness probes fail, balancers drain) ...
    server->GetHealthCheckService()->Shutdown();
    const double delay = signal_number == SIGTERM ? drain_delay_s : 0.0;
    std::fprintf(stderr, "moreaud: %s: draining: health NOT_SERVING, still serving for %g s\n",
                 name, delay);
    // ... while calls are still served, so that none is refused before the
    // clients have moved to another replica.
    // A second SIGTERM or SIGINT ends the delay (a SIGHUP stays pending).
    if (delay > 0.0) {
      sigset_t stop_signals;
      sigemptyset(&stop_signals);
      sigaddset(&stop_signals, SIGTERM);
      sigaddset(&stop_signals, SIGINT);
      WaitForSignalOrTimeout(stop_signals, delay);
    }
    maintenance.StopStreams();
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
    const moreau::server::CheckpointPass pass = checkpoints->CheckpointChanged(parts.registry);
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
