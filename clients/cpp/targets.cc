#include "clients/cpp/targets.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <set>
#include <tuple>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace moreau::client {
namespace {

// "NAME:PORT" or "[V6]:PORT" → (name, port).
absl::StatusOr<std::pair<std::string, int>> SplitHostPort(const std::string& text,
                                                          const std::string& target) {
  std::string host;
  std::string port_text;
  if (absl::StartsWith(text, "[")) {
    const size_t close = text.find(']');
    if (close != std::string::npos && text.size() > close + 1 && text[close + 1] == ':') {
      host = text.substr(1, close - 1);
      port_text = text.substr(close + 2);
    }
  } else if (const size_t colon = text.rfind(':'); colon != std::string::npos) {
    host = text.substr(0, colon);
    port_text = text.substr(colon + 1);
  }
  int port = 0;
  const bool digits =
      !port_text.empty() &&
      std::all_of(port_text.begin(), port_text.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (host.empty() || !digits || !absl::SimpleAtoi(port_text, &port) || port < 1 || port > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", target, "': expected dns:///NAME:PORT with a port in [1, 65535]"));
  }
  return std::make_pair(host, port);
}

// Sort key of an IP address text: IPv4 first, then by number (then text,
// for what is not a numeric address).
std::tuple<int, std::array<unsigned char, 16>, std::string> AddressKey(const std::string& text) {
  std::array<unsigned char, 16> bytes{};
  const std::string numeric = text.substr(0, text.find('%'));  // without an IPv6 zone
  if (inet_pton(AF_INET, numeric.c_str(), bytes.data()) == 1) return {4, bytes, text};
  if (inet_pton(AF_INET6, numeric.c_str(), bytes.data()) == 1) return {6, bytes, text};
  return {9, bytes, text};
}

// The host:port of every distinct address of a dns target, sorted.
absl::StatusOr<std::vector<std::string>> ResolveDnsTarget(const std::string& target,
                                                          const Resolver& resolver) {
  std::string rest = absl::StartsWith(target, "dns:///") ? target.substr(7) : target.substr(4);
  if (absl::StartsWith(rest, "//")) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", target,
                     "': a DNS server authority is not supported (use dns:///NAME:PORT: the "
                     "system resolver)"));
  }
  auto host_port = SplitHostPort(rest, target);
  if (!host_port.ok()) return host_port.status();
  const auto& [name, port] = *host_port;
  auto found = resolver(name, port);
  if (!found.ok()) {
    return absl::UnavailableError(absl::StrCat("resolve ", target, ": ", found.status().message()));
  }
  std::set<std::string> distinct(found->begin(), found->end());
  if (distinct.empty()) {
    return absl::UnavailableError(
        absl::StrCat("resolve ", target, ": '", name, "' resolves to no address"));
  }
  std::vector<std::string> addresses(distinct.begin(), distinct.end());
  std::sort(addresses.begin(), addresses.end(), [](const std::string& a, const std::string& b) {
    return AddressKey(a) < AddressKey(b);
  });
  for (std::string& address : addresses) {
    address = absl::StrContains(address, ':') ? absl::StrCat("[", address, "]:", port)
                                              : absl::StrCat(address, ":", port);
  }
  return addresses;
}

}  // namespace

absl::StatusOr<std::vector<std::string>> SystemResolver(const std::string& name, int port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* list = nullptr;
  const int rc = getaddrinfo(name.c_str(), std::to_string(port).c_str(), &hints, &list);
  if (rc != 0) {
    return absl::UnavailableError(absl::StrCat("cannot resolve '", name, "': ", gai_strerror(rc)));
  }
  std::vector<std::string> addresses;
  for (const addrinfo* info = list; info != nullptr; info = info->ai_next) {
    char text[INET6_ADDRSTRLEN] = {};
    const void* raw = nullptr;
    if (info->ai_family == AF_INET) {
      raw = &reinterpret_cast<const sockaddr_in*>(info->ai_addr)->sin_addr;
    } else if (info->ai_family == AF_INET6) {
      raw = &reinterpret_cast<const sockaddr_in6*>(info->ai_addr)->sin6_addr;
    }
    if (raw != nullptr && inet_ntop(info->ai_family, raw, text, sizeof(text)) != nullptr) {
      addresses.emplace_back(text);
    }
  }
  freeaddrinfo(list);
  return addresses;
}

absl::StatusOr<std::vector<std::string>> ResolveTargets(const std::vector<std::string>& targets,
                                                        const Resolver& resolver) {
  if (targets.empty()) return absl::InvalidArgumentError("give at least one server address");
  std::vector<std::string> addresses;
  for (const std::string& target : targets) {
    if (!absl::StartsWith(target, "dns:")) {
      addresses.push_back(target);
      continue;
    }
    auto resolved = ResolveDnsTarget(target, resolver);
    if (!resolved.ok()) return resolved.status();
    addresses.insert(addresses.end(), resolved->begin(), resolved->end());
  }
  return addresses;
}

std::vector<std::pair<int, int>> Spread(int count, int replicas) {
  std::vector<std::pair<int, int>> blocks;
  for (int k = 0; k < replicas; ++k) {
    blocks.emplace_back(static_cast<int>(int64_t{k} * count / replicas),
                        static_cast<int>(int64_t{k + 1} * count / replicas));
  }
  return blocks;
}

}  // namespace moreau::client
