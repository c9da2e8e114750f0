// The soak and chaos run: one moreaud on 127.0.0.1, `workers` client
// processes (soak_worker.h) of `instances` instances each, a random worker
// SIGKILLed and restarted every few seconds, for `duration_s`. Reports calls
// by RPC and code, unexpected codes, crashes, and the server's memory,
// threads and file descriptors read from /proc/PID.
//
// It passes when: no call got an unexpected code; the server neither crashed
// nor failed to stop cleanly on SIGTERM; no worker failed (other than those
// killed on purpose); the server's RSS at the end is below (1 +
// max_rss_growth) times its RSS after the warm-up; and once the workers are
// gone its threads and open file descriptors are no more than they were
// after the warm-up (threads) and at the start, before any client (fds).
#ifndef MOREAU_BENCH_SERVICE_SOAK_SUPERVISOR_H_
#define MOREAU_BENCH_SERVICE_SOAK_SUPERVISOR_H_

#include <cstdint>
#include <string>

namespace moreau::bench::soak {

struct SoakOptions {
  std::string moreaud;  // the server binary
  std::string self;     // this program, started with --worker for each client
  double duration_s = 600.0;
  double warmup_s = 0.0;  // 0: a quarter of the duration, within [15, 120] s
  int workers = 8;
  int instances = 32;         // per worker
  double kill_every_s = 5.0;  // mean time between two SIGKILLs (0: none)
  int pace_ms = 2;
  uint64_t seed = 1;
  double max_rss_growth = 0.05;
  // Server flags: small limits so that the hostile requests reach them.
  int max_batch = 64;
  int max_message_bytes = 1 << 20;
  double idle_timeout_s = 10.0;  // frees the instances of killed workers
  // The server's MALLOC_ARENA_MAX (0: glibc's default, 8 per core). With
  // many arenas each grows to the peak population of the threads allocating
  // in it, so RSS creeps up through a minute or two of SIGKILL churn before
  // it levels off; with one, freed memory is reused at once and RSS levels
  // off within the warm-up, so that growth after it measures leaks.
  int server_malloc_arena_max = 1;
};

// Runs the soak, prints the report to stdout; 0 when it passed, else 1.
int RunSoak(const SoakOptions& options);

}  // namespace moreau::bench::soak

#endif  // MOREAU_BENCH_SERVICE_SOAK_SUPERVISOR_H_
