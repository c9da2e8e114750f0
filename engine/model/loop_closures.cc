#include "engine/model/loop_closures.h"

#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"

namespace moreau {
namespace {

std::string Describe(size_t i, const LoopClosure& loop) {
  return absl::StrCat("loop_closures[", i, "] ('", loop.name, "')");
}

std::string Format(const Vec3& x) { return absl::StrCat("(", x[0], ", ", x[1], ", ", x[2], ")"); }

}  // namespace

absl::Status ValidateLoopClosures(const Model& model) {
  for (size_t i = 0; i < model.loop_closures.size(); ++i) {
    const LoopClosure& loop = model.loop_closures[i];
    if (loop.type != LoopClosureType::kRevolute) {
      return absl::InvalidArgumentError(
          absl::StrCat(Describe(i, loop), ": unknown type ", static_cast<int>(loop.type)));
    }
    for (const auto& [field, body] : {std::pair{"body_a", loop.body_a}, {"body_b", loop.body_b}}) {
      if (body < 0 || body >= model.nbodies) {
        return absl::InvalidArgumentError(absl::StrCat(Describe(i, loop), ".", field, " is ", body,
                                                       ", expected a body index in [0, ",
                                                       model.nbodies, ")"));
      }
    }
    if (loop.body_a == loop.body_b) {
      return absl::InvalidArgumentError(
          absl::StrCat(Describe(i, loop), ": body_a and body_b are both ", loop.body_a,
                       " (a cut joint connects two different bodies)"));
    }
    for (const auto& [field, p] :
         {std::pair{"point_a", &loop.point_a}, {"point_b", &loop.point_b}}) {
      if (!p->allFinite()) {
        return absl::InvalidArgumentError(
            absl::StrCat(Describe(i, loop), ".", field, " is ", Format(*p), ", expected finite"));
      }
    }
    for (const auto& [field, a] : {std::pair{"axis_a", &loop.axis_a}, {"axis_b", &loop.axis_b}}) {
      if (!a->allFinite() || !(std::abs(a->norm() - 1.0) <= 1e-9)) {
        return absl::InvalidArgumentError(absl::StrCat(Describe(i, loop), ".", field, " is ",
                                                       Format(*a), ", expected a unit vector"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace moreau
