// The limits and knobs of the Simulator service, set once from moreaud's
// flags (or a test's or fuzzer's choice) and read by the service and the
// parts it is built from.
#ifndef MOREAU_SERVER_SERVICE_OPTIONS_H_
#define MOREAU_SERVER_SERVICE_OPTIONS_H_

#include "absl/time/time.h"
#include "engine/contact/terrain.h"
#include "engine/model/urdf_limits.h"

namespace moreau::server {

class CallAuthenticator;

struct ServiceOptions {
  int max_instances = 1024;
  int max_substeps = 10000;  // per instance per call
  int max_batch = 4096;      // instances per StepBatch
  int max_create = 1024;     // instances per CreateInstances
  int worker_threads = 0;    // 0: one per core
  // Calls whose total sub-steps are at most this run on the gRPC thread that
  // received them (saves a thread hop); longer ones go to the worker pool.
  int inline_substeps = 4;
  // How long a worker out of tasks polls for the next one before it sleeps
  // (the next StepBatch of a client that waits for each reply then starts
  // without a wake-up; moreaud's --worker-spin-us). 0 here: the in-process
  // server's blocking StepBatch steps on the calling thread at once, and a
  // polling worker would only take a core from it.
  absl::Duration worker_spin = absl::ZeroDuration();
  // A StepBatch stops starting sub-steps this long before its deadline, so
  // the reply (which says which instances advanced) arrives in time.
  absl::Duration deadline_margin = absl::Milliseconds(20);
  // Each call's tenant, from the authentication interceptor; nullptr: no
  // authentication, every caller is the tenant "".
  const CallAuthenticator* auth = nullptr;
  // Streams open at once (RESOURCE_EXHAUSTED past them): each Session holds a
  // reactor, each Watch also a Data and a place in the pump's loop.
  int max_sessions = 1024;
  int max_watches = 256;
  // The largest request or reply (moreaud's --max-message-bytes): a reply
  // that would exceed it is refused with RESOURCE_EXHAUSTED before it is
  // sent.
  int max_message_bytes = 16 << 20;
  // Sizes of client-sent models and terrains (INVALID_ARGUMENT past them).
  UrdfLimits urdf_limits;
  contact::HeightfieldLimits heightfield_limits;
};

}  // namespace moreau::server

#endif  // MOREAU_SERVER_SERVICE_OPTIONS_H_
