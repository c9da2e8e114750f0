#include "server/server_parts.h"

#include <thread>

namespace moreau::server {
namespace {

int WorkerThreads(int requested) {
  if (requested > 0) return requested;
  const unsigned cores = std::thread::hardware_concurrency();
  return cores == 0 ? 1 : static_cast<int>(cores);
}

}  // namespace

ServerParts::ServerParts(const ServiceOptions& options, Metrics* metrics)
    : registry(options.max_instances),
      factory(options, metrics),
      stepper(options, &registry, metrics),
      // The pool is built after the hub; the hub only keeps its address.
      sessions(&stepper, &pool, metrics, options.max_sessions),
      watches(metrics, options.max_watches),
      pool(WorkerThreads(options.worker_threads), metrics, options.worker_spin) {
  metrics->SetMaxInstances(options.max_instances);
}

}  // namespace moreau::server
