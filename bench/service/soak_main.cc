// moreau_soak: soak and chaos test of moreaud (soak_supervisor.h).
//
//   moreau_soak [--duration-s 600] [--workers 8] [--instances 32]
//               [--kill-every-s 5] [--moreaud PATH]
//
// Starts moreaud on 127.0.0.1 (a free port), runs the workers (this program
// again, with --worker) for the duration, prints the report and exits 0 when
// every criterion held, 1 otherwise.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "bench/service/soak_supervisor.h"
#include "bench/service/soak_worker.h"
#include "engine/util/dashed_args.h"

ABSL_FLAG(double, duration_s, 600.0, "Seconds of load");
ABSL_FLAG(double, warmup_s, 0.0,
          "Seconds before the RSS reference is read (0: a quarter of the duration, in [15, 120])");
ABSL_FLAG(int, workers, 8, "Client processes");
ABSL_FLAG(int, instances, 32, "Instances per client process");
ABSL_FLAG(double, kill_every_s, 5.0, "Mean seconds between two SIGKILLs of a worker (0: none)");
ABSL_FLAG(int, pace_ms, 2, "Mean pause of a worker between two operations (ms)");
ABSL_FLAG(uint64_t, seed, 1, "Seed of the random choices");
ABSL_FLAG(double, max_rss_growth, 0.05, "Largest RSS growth after the warm-up (fraction)");
ABSL_FLAG(std::string, moreaud, MOREAUD_PATH, "The moreaud binary");
ABSL_FLAG(int, max_batch, 64, "The server's --max_batch");
ABSL_FLAG(int, server_malloc_arena_max, 1,
          "MALLOC_ARENA_MAX of the server (0: glibc's default); see soak_supervisor.h");
ABSL_FLAG(double, idle_timeout_s, 10.0,
          "The server's --idle_timeout_s (frees the instances of killed workers)");
ABSL_FLAG(int, max_message_bytes, 1 << 20, "The server's --max_message_bytes");
// A worker process (started by the supervisor).
ABSL_FLAG(bool, worker, false, "Run as one client process");
ABSL_FLAG(std::string, address, "", "Worker: the server's host:port");

namespace {

std::atomic<bool> stop_worker{false};

void OnStop(int) { stop_worker = true; }

std::string SelfPath() {
  char path[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? std::string(path, static_cast<size_t>(n)) : "";
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> storage;
  std::vector<char*> args = moreau::DashesToUnderscores(argc, argv, storage);
  absl::ParseCommandLine(static_cast<int>(args.size()), args.data());
  if (absl::GetFlag(FLAGS_worker)) {
    struct sigaction action = {};
    action.sa_handler = OnStop;
    sigaction(SIGTERM, &action, nullptr);
    moreau::bench::soak::WorkerOptions options;
    options.address = absl::GetFlag(FLAGS_address);
    options.instances = absl::GetFlag(FLAGS_instances);
    options.seed = absl::GetFlag(FLAGS_seed);
    options.pace_ms = absl::GetFlag(FLAGS_pace_ms);
    options.max_batch = absl::GetFlag(FLAGS_max_batch);
    options.max_message_bytes = absl::GetFlag(FLAGS_max_message_bytes);
    return moreau::bench::soak::RunWorker(options, stop_worker);
  }
  moreau::bench::soak::SoakOptions options;
  options.moreaud = absl::GetFlag(FLAGS_moreaud);
  options.self = SelfPath();
  options.duration_s = absl::GetFlag(FLAGS_duration_s);
  options.warmup_s = absl::GetFlag(FLAGS_warmup_s);
  options.workers = absl::GetFlag(FLAGS_workers);
  options.instances = absl::GetFlag(FLAGS_instances);
  options.kill_every_s = absl::GetFlag(FLAGS_kill_every_s);
  options.pace_ms = absl::GetFlag(FLAGS_pace_ms);
  options.seed = absl::GetFlag(FLAGS_seed);
  options.max_rss_growth = absl::GetFlag(FLAGS_max_rss_growth);
  options.max_batch = absl::GetFlag(FLAGS_max_batch);
  options.max_message_bytes = absl::GetFlag(FLAGS_max_message_bytes);
  options.idle_timeout_s = absl::GetFlag(FLAGS_idle_timeout_s);
  options.server_malloc_arena_max = absl::GetFlag(FLAGS_server_malloc_arena_max);
  if (options.workers < 1 || options.instances < 1 || !(options.duration_s > 0.0) ||
      options.self.empty()) {
    std::fprintf(stderr, "moreau_soak: --workers, --instances and --duration-s must be > 0\n");
    return 2;
  }
  return moreau::bench::soak::RunSoak(options);
}
