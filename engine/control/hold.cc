#include "engine/control/hold.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace moreau::control {
namespace {

class HoldController final : public Controller {
 public:
  HoldController(const Model& model, const PdGains& gains) : Controller(model, gains) {}
  std::string_view Name() const override { return "hold"; }
  void Compute(const Model& model, double /*t*/, double dt, const Eigen::VectorXd& q,
               const Eigen::VectorXd& v, ControllerState& state,
               Eigen::Ref<Eigen::VectorXd> tau) override {
    const int n = model.nu();
    if (!state.leg_targets_set) {
      // The first call: its joint angles are the pose held from now on.
      ActuatorPositions(model, q, q_des_);
      for (int k = 0; k < n; ++k) state.leg_targets[k] = q_des_[k];
      state.leg_targets_set = true;
    } else {
      for (int k = 0; k < n; ++k) q_des_[k] = state.leg_targets[k];
    }
    // 001 eq. 44 to the held pose, q̇_d = 0 (qd_des_ stays zero).
    JointPd(model, q, v, q_des_, qd_des_, gains_, tau);
    state.elapsed_s += dt;
  }
};

}  // namespace

absl::StatusOr<std::unique_ptr<Controller>> MakeHoldController(const Model& model,
                                                               const PdGains& gains) {
  if (model.nu() > kMaxHeldJoints) {
    return absl::InvalidArgumentError(
        absl::StrCat("controller 'hold': model '", model.name, "' has ", model.nu(),
                     " actuators; the hold keeps at most ", kMaxHeldJoints));
  }
  return std::make_unique<HoldController>(model, gains);
}

}  // namespace moreau::control
