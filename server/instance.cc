#include "server/instance.h"

#include <chrono>

namespace moreau::server {

void Instance::PublishSample() {
  const sim::State& s = sim->state();
  const contact::ContactSet& contacts = sim->contacts();
  absl::MutexLock lock(&sample_mu);
  ++sample.version;
  sample.state = s;  // equal sizes after the first publish: no allocation
  sample.normal_forces.resize(contacts.contacts.size());
  sample.contact_flags.resize(contacts.contacts.size());
  for (size_t k = 0; k < contacts.contacts.size(); ++k) {
    const contact::Contact& c = contacts.contacts[k];
    sample.normal_forces[k] = c.NormalForce();
    sample.contact_flags[k] = c.active ? 1 : 0;
  }
}

void Instance::PublishProgress(bool stepped) {
  const sim::State& s = sim->state();
  published_time.store(s.time, std::memory_order_relaxed);
  published_steps.store(static_cast<int64_t>(s.steps), std::memory_order_relaxed);
  published_diverged.store(sim->diverged(), std::memory_order_relaxed);
  if (stepped)
    last_stepped_unix_ns.store(absl::ToUnixNanos(absl::Now()), std::memory_order_relaxed);
}

void Instance::Touch() { last_used_ns.store(MonotonicNowNs()); }

int64_t MonotonicNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace moreau::server
