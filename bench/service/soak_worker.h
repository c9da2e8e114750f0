// One soak client process: owns `instances` mini_cheetah instances on one
// moreaud and drives them with a random mix of every RPC until stopped, with
// hostile requests mixed in. Each kind of call has the exact set of gRPC codes
// it may get (soak_worker.cc, one Record per call); anything else is
// reported as unexpected (soak_tally.h).
#ifndef MOREAU_BENCH_SERVICE_SOAK_WORKER_H_
#define MOREAU_BENCH_SERVICE_SOAK_WORKER_H_

#include <atomic>
#include <cstdint>
#include <string>

namespace moreau::bench::soak {

struct WorkerOptions {
  std::string address;  // host:port of moreaud
  int instances = 32;   // owned for the worker's whole life
  uint64_t seed = 1;
  int pace_ms = 2;                  // pause between two operations
  double hostile_fraction = 0.15;   // of the operations
  int max_batch = 64;               // the server's --max_batch
  int max_message_bytes = 1 << 20;  // the server's --max_message_bytes
};

// Runs until `stop` is set, then destroys its instances. Returns the exit
// code: 0, or 1 when it could not reach the server or create its instances.
int RunWorker(const WorkerOptions& options, const std::atomic<bool>& stop);

}  // namespace moreau::bench::soak

#endif  // MOREAU_BENCH_SERVICE_SOAK_WORKER_H_
