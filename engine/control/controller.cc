#include "engine/control/controller.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "engine/control/gait.h"
#include "engine/control/legs.h"
#include "engine/util/status_macros.h"

namespace moreau {
namespace {

// Phase step of the finite difference that gives the trot's q̇_d.
constexpr double kPhaseStep = 1e-5;
// Phases sampled per cycle when MakeController checks the trot's reach.
constexpr int kReachSamples = 400;

std::string FormatVec(const Vec3& v) {
  return absl::StrFormat("(%g, %g, %g)", v.x(), v.y(), v.z());
}

// ---------------------------------------------------------------- zero ---

class ZeroController final : public Controller {
 public:
  explicit ZeroController(const Model& model) : Controller(model) {}
  std::string_view Name() const override { return "zero"; }
  void Compute(const Model& model, double /*t*/, double dt, const Eigen::VectorXd& q,
               const Eigen::VectorXd& /*v*/, ControllerState& state,
               Eigen::Ref<Eigen::VectorXd> tau) override {
    ActuatorPositions(model, q, q_des_);  // nothing is tracked: report the measurement
    tau.setZero();
    state.elapsed_s += dt;
  }
};

// --------------------------------------------------------------- stand ---

class StandController final : public Controller {
 public:
  StandController(const Model& model, const ControllerOptions& options,
                  const Eigen::VectorXd& q_stand)
      : Controller(model), gains_(options.gains) {
    q_des_ = q_stand;
  }
  std::string_view Name() const override { return "stand"; }
  void Compute(const Model& model, double /*t*/, double dt, const Eigen::VectorXd& q,
               const Eigen::VectorXd& v, ControllerState& state,
               Eigen::Ref<Eigen::VectorXd> tau) override {
    // 001 eq. 44 to the constant standing pose, q̇_d = 0.
    JointPd(model, q, v, q_des_, qd_des_, gains_, tau);
    state.elapsed_s += dt;
  }

 private:
  PdGains gains_;
};

// ---------------------------------------------------------------- trot ---

class TrotController final : public Controller {
 public:
  TrotController(const Model& model, const ControllerOptions& options, LegLayout layout,
                 const GaitParams& gait, double stand_height, const Eigen::VectorXd& q_stand)
      : Controller(model),
        gains_(options.gains),
        gait_(gait),
        delay_s_(options.start_delay_s),
        ramp_s_(options.start_ramp_s),
        velocity_feedforward_(options.velocity_feedforward),
        layout_(std::move(layout)) {
    q_des_ = q_stand;  // the initial targets: standing, what the ramp starts from
    for (const Leg& leg : layout_.legs) {
      nominal_.push_back(NominalFoot(leg, stand_height));
      offset_.push_back(TrotPhaseOffset(leg));
    }
  }
  std::string_view Name() const override { return "trot"; }

  void Compute(const Model& model, double /*t*/, double dt, const Eigen::VectorXd& q,
               const Eigen::VectorXd& v, ControllerState& state,
               Eigen::Ref<Eigen::VectorXd> tau) override {
    // Start: hold the standing pose for the delay, then grow step length and
    // height from 0 to full over the ramp.
    const double run_s = state.elapsed_s - delay_s_;
    const double ramp = run_s < 0.0 ? 0.0 : ramp_s_ > 0.0 ? std::min(run_s / ramp_s_, 1.0) : 1.0;
    GaitParams gait = gait_;
    gait.step_length *= ramp;
    gait.step_height *= ramp;
    const double f = gait.frequency_hz;
    for (int i = 0; i < static_cast<int>(layout_.legs.size()); ++i) {
      const Leg& leg = layout_.legs[i];
      // CPG → Bézier → IK (001 §6.2).
      const double psi = WrapPhase(state.phase + offset_[i]);
      Vec3 angles;
      if (LegIk(leg, FootTarget(gait, i, psi), angles) != IkResult::kOk) ++state.ik_clamped;
      Vec3 rates = Vec3::Zero();
      if (velocity_feedforward_) {
        Vec3 ahead;
        LegIk(leg, FootTarget(gait, i, psi + kPhaseStep), ahead);
        for (int j = 0; j < 3; ++j) rates[j] = WrapAngle(ahead[j] - angles[j]) * (f / kPhaseStep);
      }
      for (int j = 0; j < 3; ++j) {
        q_des_[leg.actuator[j]] = angles[j];
        qd_des_[leg.actuator[j]] = rates[j];
      }
    }
    JointPd(model, q, v, q_des_, qd_des_, gains_, tau);  // 001 eq. 44
    // The oscillator, dφ/dt = f, runs once the delay is over.
    const double run_dt = std::max(0.0, std::min(dt, state.elapsed_s + dt - delay_s_));
    state.phase = WrapPhase(state.phase + f * run_dt);
    state.elapsed_s += dt;
  }

 private:
  Vec3 FootTarget(const GaitParams& gait, int leg, double psi) const {
    const Eigen::Vector2d d = FootTrajectory(gait, psi);
    return nominal_[leg] + Vec3(d.x(), 0.0, d.y());
  }

  PdGains gains_;
  GaitParams gait_;  // at full amplitude
  double delay_s_;
  double ramp_s_;
  bool velocity_feedforward_;
  LegLayout layout_;
  std::vector<Vec3> nominal_;   // per leg: standing foot in the hip frame
  std::vector<double> offset_;  // per leg: phase offset (0 or ½)
};

// ------------------------------------------------------------- helpers ---

absl::Status ValidateOptions(const ControllerOptions& o) {
  auto bad = [](const char* field, double value, const char* want) {
    return absl::InvalidArgumentError(
        absl::StrFormat("controller option %s = %g: must be %s", field, value, want));
  };
  if (!std::isfinite(o.gains.kp) || o.gains.kp < 0.0) return bad("kp", o.gains.kp, "finite, ≥ 0");
  if (!std::isfinite(o.gains.kd) || o.gains.kd < 0.0) return bad("kd", o.gains.kd, "finite, ≥ 0");
  if (!std::isfinite(o.stand_height) || o.stand_height < 0.0) {
    return bad("stand_height", o.stand_height, "finite, ≥ 0 (0: model default)");
  }
  if (!std::isfinite(o.trot_frequency_hz) || o.trot_frequency_hz <= 0.0) {
    return bad("trot_frequency_hz", o.trot_frequency_hz, "finite, > 0");
  }
  if (!(o.duty_factor > 0.0 && o.duty_factor < 1.0)) {
    return bad("duty_factor", o.duty_factor, "in (0, 1)");
  }
  if (!std::isfinite(o.forward_velocity))
    return bad("forward_velocity", o.forward_velocity, "finite");
  if (!std::isfinite(o.step_length) || o.step_length < 0.0) {
    return bad("step_length", o.step_length, "finite, ≥ 0 (0: from forward_velocity)");
  }
  if (!std::isfinite(o.step_height) || o.step_height < 0.0) {
    return bad("step_height", o.step_height, "finite, ≥ 0");
  }
  if (!std::isfinite(o.start_delay_s) || o.start_delay_s < 0.0) {
    return bad("start_delay_s", o.start_delay_s, "finite, ≥ 0");
  }
  if (!std::isfinite(o.start_ramp_s) || o.start_ramp_s < 0.0) {
    return bad("start_ramp_s", o.start_ramp_s, "finite, ≥ 0");
  }
  return absl::OkStatus();
}

// The standing joint targets (actuator-shaped; non-leg actuators at 0).
absl::StatusOr<Eigen::VectorXd> StandPose(const Model& model, const LegLayout& layout,
                                          double stand_height) {
  Eigen::VectorXd q_des = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(model.actuators.size()));
  for (const Leg& leg : layout.legs) {
    const Vec3 foot = NominalFoot(leg, stand_height);
    Vec3 angles;
    const IkResult result = LegIk(leg, foot, angles);
    if (result != IkResult::kOk) {
      return absl::InvalidArgumentError(
          absl::StrFormat("stand height %g m: foot '%s' target %s m (hip frame) is %s",
                          stand_height, leg.foot_name, FormatVec(foot), IkResultName(result)));
    }
    for (int j = 0; j < 3; ++j) q_des[leg.actuator[j]] = angles[j];
  }
  return q_des;
}

absl::Status CheckTrotLayout(const Model& model, const LegLayout& layout) {
  int corners[2][2] = {{0, 0}, {0, 0}};  // [front][left]
  for (const Leg& leg : layout.legs) ++corners[leg.front][leg.left];
  if (layout.legs.size() != 4 || corners[0][0] != 1 || corners[0][1] != 1 || corners[1][0] != 1 ||
      corners[1][1] != 1) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "trot: model '%s' needs four legs, one at each corner of the base (front/hind × "
        "left/right); found %d legs (FL %d, FR %d, HL %d, HR %d)",
        model.name, layout.legs.size(), corners[1][1], corners[1][0], corners[0][1],
        corners[0][0]));
  }
  return absl::OkStatus();
}

absl::Status CheckTrotReach(const LegLayout& layout, const GaitParams& gait, double stand_height) {
  for (const Leg& leg : layout.legs) {
    const Vec3 nominal = NominalFoot(leg, stand_height);
    for (int k = 0; k < kReachSamples; ++k) {
      const double psi = static_cast<double>(k) / kReachSamples;
      const Eigen::Vector2d d = FootTrajectory(gait, psi);
      const Vec3 foot = nominal + Vec3(d.x(), 0.0, d.y());
      Vec3 angles;
      const IkResult result = LegIk(leg, foot, angles);
      if (result != IkResult::kOk) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "trot (step length %g m, step height %g m, stand height %g m): foot '%s' target "
            "%s m (hip frame) at leg phase %.3f is %s",
            gait.step_length, gait.step_height, stand_height, leg.foot_name, FormatVec(foot), psi,
            IkResultName(result)));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

std::vector<std::string_view> ControllerNames() { return {"zero", "stand", "trot"}; }

absl::StatusOr<std::unique_ptr<Controller>> MakeController(std::string_view name,
                                                           const Model& model,
                                                           const ControllerOptions& options) {
  MOREAU_RETURN_IF_ERROR(ValidateOptions(options));
  if (name == "zero") return std::make_unique<ZeroController>(model);
  if (name != "stand" && name != "trot") {
    return absl::InvalidArgumentError(
        absl::StrFormat("unknown controller '%s' (expected one of: zero, stand, trot)", name));
  }
  absl::StatusOr<LegLayout> layout = FindLegs(model);
  if (!layout.ok()) {
    return absl::InvalidArgumentError(
        absl::StrFormat("controller '%s': %s", name, layout.status().message()));
  }
  const double stand_height =
      options.stand_height > 0.0 ? options.stand_height : DefaultStandHeight(*layout);
  MOREAU_ASSIGN_OR_RETURN(Eigen::VectorXd q_stand, StandPose(model, *layout, stand_height));
  if (name == "stand") return std::make_unique<StandController>(model, options, q_stand);

  MOREAU_RETURN_IF_ERROR(CheckTrotLayout(model, *layout));
  GaitParams gait;
  gait.frequency_hz = options.trot_frequency_hz;
  gait.duty_factor = options.duty_factor;
  // L = v β / f: the stance foot then moves back at v relative to the hip.
  gait.step_length = options.step_length > 0.0 ? options.step_length
                                               : options.forward_velocity * options.duty_factor /
                                                     options.trot_frequency_hz;
  gait.step_height = options.step_height;
  MOREAU_RETURN_IF_ERROR(CheckTrotReach(*layout, gait, stand_height));
  return std::make_unique<TrotController>(model, options, *std::move(layout), gait, stand_height,
                                          q_stand);
}

}  // namespace moreau
