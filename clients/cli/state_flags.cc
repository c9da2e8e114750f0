#include "clients/cli/state_flags.h"

#include <Eigen/Core>
#include <cmath>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "clients/cli/number_list.h"
#include "clients/cli/text_format.h"
#include "engine/util/status_macros.h"

ABSL_FLAG(std::string, q, "",
          "Generalized coordinates, nq comma-separated numbers; floating "
          "base: base position (world), unit quaternion w,x,y,z (base to "
          "world), then the joints. Default: the model's default "
          "configuration.");
ABSL_FLAG(std::string, v, "",
          "Generalized velocities, nv comma-separated numbers; floating "
          "base: base linear velocity (world), base angular velocity (base "
          "frame), then the joint rates. Default: zeros.");
ABSL_FLAG(std::string, tau, "",
          "Generalized forces, nv comma-separated numbers (zero on a "
          "floating base's first 6 unless you push the base). Default: zeros.");

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

absl::StatusOr<StateInput> StateFromFlags(const Model& model, std::vector<std::string>* warnings) {
  StateInput state;
  const std::string q_text = absl::GetFlag(FLAGS_q);
  const std::string v_text = absl::GetFlag(FLAGS_v);
  const std::string tau_text = absl::GetFlag(FLAGS_tau);
  if (q_text.empty()) {
    if (model.q_default.size() != model.nq) {
      return absl::InternalError(absl::StrCat("model '", model.name, "' has a default q of size ",
                                              model.q_default.size(),
                                              ", expected nq = ", model.nq));
    }
    state.q = model.q_default;
  } else {
    MOREAU_ASSIGN_OR_RETURN(state.q, ParseNumberList("--q", q_text, model.nq, "nq"));
    MOREAU_RETURN_IF_ERROR(NormalizeBaseQuaternion(model, state.q, warnings));
  }
  if (v_text.empty()) {
    state.v = Eigen::VectorXd::Zero(model.nv);
  } else {
    MOREAU_ASSIGN_OR_RETURN(state.v, ParseNumberList("--v", v_text, model.nv, "nv"));
  }
  if (tau_text.empty()) {
    state.tau = Eigen::VectorXd::Zero(model.nv);
  } else {
    MOREAU_ASSIGN_OR_RETURN(state.tau, ParseNumberList("--tau", tau_text, model.nv, "nv"));
  }
  return state;
}

}  // namespace moreau::cli
