// Server targets of a client of several moreaud replicas: a list of
// host:port addresses and/or dns:///NAME:PORT targets, each of which stands
// for every address NAME resolves to (what a Kubernetes headless Service's
// name gives: one record per pod). And how instances spread over them.
#ifndef MOREAU_CLIENTS_CPP_TARGETS_H_
#define MOREAU_CLIENTS_CPP_TARGETS_H_

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace moreau::client {

// (name, port) → the IP addresses (text) of the name.
using Resolver =
    std::function<absl::StatusOr<std::vector<std::string>>(const std::string& name, int port)>;

// The addresses getaddrinfo gives for `name` (TCP); UNAVAILABLE when it
// gives none.
absl::StatusOr<std::vector<std::string>> SystemResolver(const std::string& name, int port);

// One host:port per replica. A "dns:///NAME:PORT" (or "dns:NAME:PORT")
// target becomes one host:port per distinct address of NAME, sorted (IPv4
// before IPv6, by number; IPv6 in brackets); any other target is kept as
// given, in order. INVALID_ARGUMENT for a malformed dns target (no port, a
// DNS server authority) or an empty list; UNAVAILABLE naming the target
// when NAME resolves to nothing.
absl::StatusOr<std::vector<std::string>> ResolveTargets(const std::vector<std::string>& targets,
                                                        const Resolver& resolver = SystemResolver);

// The block [start, stop) of each of `replicas` replicas when `count`
// instances are spread over them: contiguous, sizes differing by at most
// one (replica k: [k·count/replicas, (k+1)·count/replicas)).
std::vector<std::pair<int, int>> Spread(int count, int replicas);

}  // namespace moreau::client

#endif  // MOREAU_CLIENTS_CPP_TARGETS_H_
