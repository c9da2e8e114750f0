// The links whose world positions every observation of an instance carries
// (Settings.observed_links): each resolved once against the model to its body
// and the link frame's origin in that body's frame (a link merged into its
// parent by a fixed joint, e.g. an end effector, sits off its body's origin),
// and an Inspection that runs the forward kinematics of the instance's state
// when an observation is written. A policy then reads, e.g., its end effector
// from each step's reply instead of by a Query per step.
#ifndef MOREAU_SERVER_OBSERVED_LINKS_H_
#define MOREAU_SERVER_OBSERVED_LINKS_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/model/model.h"
#include "engine/sim/inspection.h"
#include "engine/sim/state.h"
#include "engine/spatial/transform.h"
#include "google/protobuf/repeated_ptr_field.h"

namespace moreau::server {

// One observed link: its body and its frame's origin in the body frame.
struct LinkPoint {
  int body = 0;
  Vec3 origin = Vec3::Zero();
};

// The world positions (3 per link, x y z) of `links` from the bodies' i_X_0.
void LinkPositions(const std::vector<LinkPoint>& links, const std::vector<Transform>& X_0,
                   double* out);

class ObservedLinks {
 public:
  // No links: observations carry no link positions.
  ObservedLinks() = default;

  // The links named in `names`, in that order. INVALID_ARGUMENT naming an
  // unknown link (with the model's bodies), a link welded to the world, or a
  // repeated one. `model` must outlive the result.
  static absl::StatusOr<ObservedLinks> Make(
      const Model& model, const google::protobuf::RepeatedPtrField<std::string>& names);

  int size() const { return static_cast<int>(links_.size()); }
  const std::vector<LinkPoint>& links() const { return links_; }
  // The links' names, in observation order.
  const std::vector<std::string>& names() const { return names_; }

  // The world position of each link (3 per link) at `state`, into `out`.
  // Allocates nothing.
  void Write(const sim::State& state, double* out);

 private:
  std::vector<LinkPoint> links_;
  std::vector<std::string> names_;
  std::unique_ptr<sim::Inspection> inspection_;  // null without links
};

}  // namespace moreau::server

#endif  // MOREAU_SERVER_OBSERVED_LINKS_H_
