#include "clients/cpp/targets.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace moreau::client {
namespace {

using Addresses = std::vector<std::string>;

TEST(SpreadTest, BlocksAreContiguousAndDifferByAtMostOne) {
  for (int replicas = 1; replicas <= 5; ++replicas) {
    for (int count = 0; count <= 22; ++count) {
      const auto blocks = Spread(count, replicas);
      ASSERT_EQ(static_cast<int>(blocks.size()), replicas);
      EXPECT_EQ(blocks.front().first, 0);
      EXPECT_EQ(blocks.back().second, count);
      int smallest = count;
      int largest = 0;
      for (int k = 0; k < replicas; ++k) {
        if (k > 0) {
          EXPECT_EQ(blocks[k - 1].second, blocks[k].first);
        }
        smallest = std::min(smallest, blocks[k].second - blocks[k].first);
        largest = std::max(largest, blocks[k].second - blocks[k].first);
      }
      EXPECT_LE(largest - smallest, 1) << count << " over " << replicas;
    }
  }
  EXPECT_EQ(Spread(7, 3), (std::vector<std::pair<int, int>>{{0, 2}, {2, 4}, {4, 7}}));
}

TEST(ResolveTargetsTest, DnsTargetGivesEachDistinctAddressOnceSorted) {
  std::vector<std::pair<std::string, int>> asked;
  const Resolver resolver = [&](const std::string& name, int port) {
    asked.emplace_back(name, port);
    return absl::StatusOr<Addresses>(
        Addresses{"127.0.0.3", "::1", "127.0.0.10", "127.0.0.1", "127.0.0.3", "127.0.0.2"});
  };
  const Addresses expected = {"127.0.0.1:7000", "127.0.0.2:7000", "127.0.0.3:7000",
                              "127.0.0.10:7000", "[::1]:7000"};
  EXPECT_EQ(*ResolveTargets({"dns:///moreaud.default.svc:7000"}, resolver), expected);
  EXPECT_EQ(*ResolveTargets({"dns:moreaud.default.svc:7000"}, resolver), expected);
  EXPECT_EQ(asked, (std::vector<std::pair<std::string, int>>(2, {"moreaud.default.svc", 7000})));
  // Plain addresses are kept as given, in order, next to expanded targets.
  Addresses mixed = {"b:1", "a:2"};
  mixed.insert(mixed.end(), expected.begin(), expected.end());
  EXPECT_EQ(*ResolveTargets({"b:1", "a:2", "dns:///x:7000"}, resolver), mixed);
}

TEST(ResolveTargetsTest, NameResolvingToNothingIsUnavailableNamingTheTarget) {
  const Resolver nothing = [](const std::string&, int) { return absl::StatusOr<Addresses>(); };
  const auto empty = ResolveTargets({"dns:///nothing.test:50051"}, nothing);
  EXPECT_EQ(empty.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_NE(empty.status().message().find("dns:///nothing.test:50051"), std::string::npos)
      << empty.status();
  const Resolver unknown = [](const std::string& name, int) -> absl::StatusOr<Addresses> {
    return absl::UnavailableError("cannot resolve '" + name + "': Name or service not known");
  };
  const auto failed = ResolveTargets({"dns:///gone.test:1"}, unknown);
  EXPECT_EQ(failed.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_NE(failed.status().message().find("dns:///gone.test:1"), std::string::npos);
  EXPECT_NE(failed.status().message().find("Name or service not known"), std::string::npos);
}

TEST(ResolveTargetsTest, MalformedTargetsAreInvalid) {
  for (const char* target : {"dns:///name", "dns:///name:", "dns:///name:0", "dns:///name:99999",
                             "dns:///:50051", "dns://10.0.0.1/name:50051", "dns:///[::1"}) {
    const auto result = ResolveTargets({target});
    EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument) << target;
    EXPECT_NE(result.status().message().find(target), std::string::npos) << result.status();
  }
  EXPECT_EQ(ResolveTargets({}).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(SystemResolverTest, LocalhostThroughGetaddrinfo) {
  const auto addresses = ResolveTargets({"dns:///localhost:50051"});
  ASSERT_TRUE(addresses.ok()) << addresses.status();
  EXPECT_NE(std::find(addresses->begin(), addresses->end(), "127.0.0.1:50051"), addresses->end());
  EXPECT_EQ(std::set<std::string>(addresses->begin(), addresses->end()).size(), addresses->size());
  EXPECT_EQ(ResolveTargets({"127.0.0.1:1"}).value(), Addresses{"127.0.0.1:1"});
}

}  // namespace
}  // namespace moreau::client
