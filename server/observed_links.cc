#include "server/observed_links.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace moreau::server {
namespace {

// The body of link `name` and the link frame's origin in the body frame
// (zero for a body's own link); body −1 when the model has no such link.
LinkPoint FindLink(const Model& model, const std::string& name) {
  const int body = model.BodyIndex(name);
  if (body < 0 || model.body_names[static_cast<size_t>(body)] == name) return {body, Vec3::Zero()};
  // A link merged into `body` by a fixed joint: its frame's origin there.
  const auto i = static_cast<size_t>(body);
  if (i >= model.merged_link_origins.size()) return {-1, Vec3::Zero()};
  const std::vector<std::string>& links = model.merged_links[i];
  const auto& origins = model.merged_link_origins[i];
  for (size_t k = 0; k < links.size() && k < origins.size(); ++k) {
    if (links[k] == name) return {body, origins[k]};
  }
  return {-1, Vec3::Zero()};
}

}  // namespace

void LinkPositions(const std::vector<LinkPoint>& links, const std::vector<Transform>& X_0,
                   double* out) {
  for (size_t k = 0; k < links.size(); ++k) {
    // i_X_0: E = i_R_0, r = the body origin in the world; the link origin
    // is r + i_R_0ᵀ · origin.
    const Transform& X = X_0[static_cast<size_t>(links[k].body)];
    const Vec3 p = X.r + X.E.transpose() * links[k].origin;
    std::copy(p.data(), p.data() + 3, out + 3 * k);
  }
}

absl::StatusOr<ObservedLinks> ObservedLinks::Make(
    const Model& model, const google::protobuf::RepeatedPtrField<std::string>& names) {
  ObservedLinks out;
  if (names.empty()) return out;
  for (int k = 0; k < names.size(); ++k) {
    const std::string& name = names[k];
    const LinkPoint link = FindLink(model, name);
    if (link.body < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "settings.observed_links[", k, "]: model '", model.name, "' has no link '", name,
          "' (bodies: ", absl::StrJoin(model.body_names.begin() + 1, model.body_names.end(), ", "),
          ", or a link merged into one)"));
    }
    if (link.body == 0) {
      return absl::InvalidArgumentError(absl::StrCat("settings.observed_links[", k, "]: link '",
                                                     name, "' is welded to the world"));
    }
    if (std::find(out.names_.begin(), out.names_.end(), name) != out.names_.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("settings.observed_links[", k, "]: link '", name, "' is listed twice"));
    }
    out.links_.push_back(link);
    out.names_.push_back(name);
  }
  out.inspection_ = std::make_unique<sim::Inspection>(model);
  return out;
}

void ObservedLinks::Write(const sim::State& state, double* out) {
  if (links_.empty()) return;
  inspection_->Inspect(state);
  LinkPositions(links_, inspection_->BodyTransforms(), out);
}

}  // namespace moreau::server
