// What the Simulator service's RPCs share with the rest of moreaud: the
// hosted instances, what builds and steps them, the threads that run long
// steps and the open streams, each part with one job. Built from the
// service's options before the service, and outliving it: moreaud restores
// checkpoints into the registry, reclaims idle instances and ends the streams
// at shutdown through these parts (server/maintenance.h).
#ifndef MOREAU_SERVER_SERVER_PARTS_H_
#define MOREAU_SERVER_SERVER_PARTS_H_

#include "server/instance_factory.h"
#include "server/instance_stepper.h"
#include "server/metrics.h"
#include "server/registry.h"
#include "server/service_options.h"
#include "server/session_reactor.h"
#include "server/watch_hub.h"
#include "server/worker_pool.h"

namespace moreau::server {

struct ServerParts {
  ServerParts(const ServiceOptions& options, Metrics* metrics);
  ServerParts(const ServerParts&) = delete;
  ServerParts& operator=(const ServerParts&) = delete;

  Registry registry;        // the instances by id
  InstanceFactory factory;  // instances from requests and from checkpoints
  InstanceStepper stepper;  // step requests through sim::Simulation to observations
  SessionHub sessions;      // the open Session streams
  WatchHub watches;         // the open Watch streams and their pump
  // Steps longer than ServiceOptions::inline_substeps. Declared last, so
  // destroyed first: the tasks it still runs use the other parts.
  WorkerPool pool;
};

}  // namespace moreau::server

#endif  // MOREAU_SERVER_SERVER_PARTS_H_
