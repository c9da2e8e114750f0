// ListInstances: a tenant's instances, a page at a time in id order.
#ifndef MOREAU_SERVER_INSTANCE_LIST_H_
#define MOREAU_SERVER_INSTANCE_LIST_H_

#include <string>

#include "absl/status/status.h"
#include "moreau/v1/simulator.pb.h"
#include "server/registry.h"

namespace moreau::server {

inline constexpr int kDefaultListPageSize = 100;
inline constexpr int kMaxListPageSize = 1000;

// The instances of `tenant` ("" without tokens: every instance) with ids
// after request.page_token, at most page_size of them (0: the default), and
// the token of the next page. An instance being stepped is not waited for:
// it shows the time and steps its last stepping call published.
// INVALID_ARGUMENT, naming the field, for a page_size outside
// [0, kMaxListPageSize] or a page_token that is not an instance id.
absl::Status ListInstances(const Registry& registry, const std::string& tenant,
                           const v1::ListInstancesRequest& request,
                           v1::ListInstancesResponse* response);

}  // namespace moreau::server

#endif  // MOREAU_SERVER_INSTANCE_LIST_H_
