#include "server/registry.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/model/loader.h"
#include "engine/sim/simulation.h"

namespace moreau::server {
namespace {

std::vector<std::shared_ptr<Instance>> MakeInstances(int count, const std::string& tenant) {
  auto model = LoadBuiltin("pendulum");
  EXPECT_TRUE(model.ok()) << model.status();
  std::vector<std::shared_ptr<Instance>> instances;
  for (int k = 0; k < count; ++k) {
    auto sim = sim::Simulation::Create(*model, sim::Settings{});
    EXPECT_TRUE(sim.ok()) << sim.status();
    auto instance = std::make_shared<Instance>(Registry::NewId(), std::move(*sim));
    instance->tenant = tenant;
    instance->last_used_ns = MonotonicNowNs();
    instances.push_back(std::move(instance));
  }
  return instances;
}

TEST(Registry, AnotherTenantsInstanceIsNotFoundExactlyLikeAnUnknownId) {
  Registry registry(16);
  const Tenant alice{"alice", 0};
  auto mine = MakeInstances(1, "alice");
  ASSERT_TRUE(registry.AddAll(mine, alice).ok());
  const std::string id = mine[0]->id;
  ASSERT_TRUE(registry.Get(id, "alice").ok());

  const absl::Status theirs = registry.Get(id, "bob").status();
  const std::string never_made = Registry::NewId();
  const absl::Status unknown = registry.Get(never_made, "bob").status();
  EXPECT_EQ(theirs.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(unknown.code(), absl::StatusCode::kNotFound);
  // The same text once the ids are swapped: nothing tells them apart.
  std::string theirs_text(theirs.message());
  theirs_text.replace(theirs_text.find(id), id.size(), never_made);
  EXPECT_EQ(theirs_text, unknown.message());
  // Without tokens the caller is the tenant "": not alice either.
  EXPECT_EQ(registry.Get(id).status().code(), absl::StatusCode::kNotFound);

  EXPECT_EQ(registry.Remove(id, "bob"), nullptr);
  EXPECT_TRUE(registry.Get(id, "alice").ok());  // still there
  EXPECT_NE(registry.Remove(id, "alice"), nullptr);
  EXPECT_EQ(registry.size(), 0);
}

TEST(Registry, ATenantsQuotaBoundsItsOwnInstancesOnly) {
  Registry registry(16);
  const Tenant alice{"alice", 3};
  const Tenant bob{"bob", 0};
  ASSERT_TRUE(registry.AddAll(MakeInstances(2, "alice"), alice).ok());
  ASSERT_TRUE(registry.CheckCapacity(1, alice).ok());
  const absl::Status over = registry.CheckCapacity(2, alice);
  EXPECT_EQ(over.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(over.message().find("tenant 'alice' has 2 live of its quota of 3"), std::string::npos)
      << over;
  EXPECT_EQ(registry.AddAll(MakeInstances(2, "alice"), alice).code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(registry.size(), 2);  // all or none
  ASSERT_TRUE(registry.AddAll(MakeInstances(5, "bob"), bob).ok());
  EXPECT_EQ(registry.LiveByTenant().at("alice"), 2);
  EXPECT_EQ(registry.LiveByTenant().at("bob"), 5);

  // Freed instances (destroyed or reclaimed when idle) free quota.
  for (const auto& instance : registry.All()) {
    if (instance->tenant == "alice") instance->last_used_ns = 0;
  }
  EXPECT_EQ(registry.RemoveIdle(1).size(), 2u);
  EXPECT_FALSE(registry.LiveByTenant().contains("alice"));
  EXPECT_TRUE(registry.AddAll(MakeInstances(3, "alice"), alice).ok());
}

TEST(Registry, TheServerLimitStillApplies) {
  Registry registry(4);
  const Tenant alice{"alice", 10};
  ASSERT_TRUE(registry.AddAll(MakeInstances(3, "alice"), alice).ok());
  const absl::Status over = registry.CheckCapacity(2, alice);
  EXPECT_EQ(over.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(over.message().find("--max_instances"), std::string::npos) << over;
}

}  // namespace
}  // namespace moreau::server
