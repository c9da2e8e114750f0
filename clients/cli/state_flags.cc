#include "clients/cli/state_flags.h"

#include <Eigen/Core>
#include <cmath>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "clients/cli/number_list.h"
#include "clients/cli/text_format.h"
#include "engine/util/status_macros.h"

namespace moreau::cli {
namespace {

constexpr double kUnitTolerance = 1e-6;

// Normalizes a floating base's quaternion in q.
absl::Status NormalizeBaseQuaternion(const Model& model, Eigen::VectorXd& q,
                                     std::vector<std::string>* warnings) {
  if (!model.floating_base) return absl::OkStatus();
  const int start = model.joints.empty() ? 3 : model.joints[0].q_index + 3;
  if (start < 0 || start + 4 > q.size()) return absl::OkStatus();
  auto quaternion = q.segment<4>(start);
  const double norm = quaternion.norm();
  const std::string where = absl::StrCat("--q: base quaternion q[", start, ":", start + 4,
                                         "] (w, x, y, z) = ", FormatVector(quaternion));
  if (!(norm > 0.0) || !std::isfinite(norm)) {
    return absl::InvalidArgumentError(absl::StrCat(where, " has zero norm"));
  }
  if (std::abs(norm - 1.0) > kUnitTolerance) {
    warnings->push_back(
        absl::StrCat(where, " has norm ", FormatNumber(norm), "; normalized to unit length"));
  }
  quaternion /= norm;
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<StateInput> StateFromFlags(const Model& model, const StateFlags& flags,
                                          std::vector<std::string>* warnings) {
  StateInput state;
  if (flags.q.empty()) {
    if (model.q_default.size() != model.nq) {
      return absl::InternalError(absl::StrCat("model '", model.name, "' has a default q of size ",
                                              model.q_default.size(),
                                              ", expected nq = ", model.nq));
    }
    state.q = model.q_default;
  } else {
    MOREAU_ASSIGN_OR_RETURN(state.q, ParseNumberList("--q", flags.q, model.nq, "nq"));
    MOREAU_RETURN_IF_ERROR(NormalizeBaseQuaternion(model, state.q, warnings));
  }
  if (flags.v.empty()) {
    state.v = Eigen::VectorXd::Zero(model.nv);
  } else {
    MOREAU_ASSIGN_OR_RETURN(state.v, ParseNumberList("--v", flags.v, model.nv, "nv"));
  }
  if (flags.tau.empty()) {
    state.tau = Eigen::VectorXd::Zero(model.nv);
  } else {
    MOREAU_ASSIGN_OR_RETURN(state.tau, ParseNumberList("--tau", flags.tau, model.nv, "nv"));
  }
  return state;
}

}  // namespace moreau::cli
