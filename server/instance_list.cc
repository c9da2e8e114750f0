#include "server/instance_list.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "server/instance.h"

namespace moreau::server {
namespace {

constexpr size_t kMaxTokenLength = 128;

bool LooksLikeInstanceId(const std::string& token) {
  return !token.empty() && token.size() <= kMaxTokenLength &&
         std::all_of(token.begin(), token.end(), [](char c) {
           return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
         });
}

void FillInstanceInfo(Instance& instance, v1::InstanceInfo* info) {
  info->set_instance_id(instance.id);
  info->set_model(instance.model_name);
  info->set_tenant(instance.tenant);
  info->set_contact_model(instance.contact_model_name);
  info->set_controller(instance.controller_name);
  // The simulation itself when no call holds it, else what the last
  // stepping call published: a listing never waits for a step.
  if (instance.mu.TryLock()) {
    instance.PublishProgress(/*stepped=*/false);
    instance.mu.Unlock();
  }
  info->set_time(instance.published_time.load(std::memory_order_relaxed));
  info->set_steps(instance.published_steps.load(std::memory_order_relaxed));
  info->mutable_status()->set_code(0);  // present when OK too
  if (instance.published_diverged.load(std::memory_order_relaxed)) {
    info->mutable_status()->set_code(static_cast<int>(absl::StatusCode::kFailedPrecondition));
    info->mutable_status()->set_message(
        absl::StrCat("instance ", instance.id, " diverged; Reset it or SetState before stepping"));
  }
  info->set_watchers(instance.watchers.load());
  info->set_created_unix_s(static_cast<double>(instance.created_unix_ns) * 1e-9);
  info->set_last_stepped_unix_s(
      static_cast<double>(instance.last_stepped_unix_ns.load(std::memory_order_relaxed)) * 1e-9);
}

}  // namespace

absl::Status ListInstances(const Registry& registry, const std::string& tenant,
                           const v1::ListInstancesRequest& request,
                           v1::ListInstancesResponse* response) {
  if (request.page_size() < 0 || request.page_size() > kMaxListPageSize) {
    return absl::InvalidArgumentError(absl::StrCat("page_size must be in [0, ", kMaxListPageSize,
                                                   "] (0: ", kDefaultListPageSize, "), got ",
                                                   request.page_size()));
  }
  const std::string& after = request.page_token();
  if (!after.empty() && !LooksLikeInstanceId(after)) {
    return absl::InvalidArgumentError(
        "page_token is not a next_page_token of an earlier ListInstances response");
  }
  const int page_size = request.page_size() > 0 ? request.page_size() : kDefaultListPageSize;
  std::vector<std::shared_ptr<Instance>> mine;
  for (std::shared_ptr<Instance>& instance : registry.All()) {
    if (instance->tenant == tenant) mine.push_back(std::move(instance));
  }
  std::sort(mine.begin(), mine.end(), [](const auto& a, const auto& b) { return a->id < b->id; });
  response->set_total(static_cast<int>(mine.size()));
  auto it = std::upper_bound(mine.begin(), mine.end(), after,
                             [](const std::string& id, const auto& b) { return id < b->id; });
  for (; it != mine.end() && response->instances_size() < page_size; ++it) {
    FillInstanceInfo(**it, response->add_instances());
  }
  if (it != mine.end())
    response->set_next_page_token(response->instances().rbegin()->instance_id());
  return absl::OkStatus();
}

}  // namespace moreau::server
