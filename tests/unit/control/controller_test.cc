// The controllers: names and option errors, "zero", the standing statics and
// the trot validated kinematically (the targets through the engine's
// ForwardKinematics): continuous foot paths, swing apex, stance speed,
// diagonal pairing, joint limits, clamped torques, the oscillator and the
// start ramp; the balance feedback's footholds, leg lengths, swing clearance
// and heading integral.
#include "engine/control/controller.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/control/gait.h"
#include "engine/control/legs.h"
#include "engine/dynamics/data.h"
#include "tests/unit/control/control_test_util.h"
#include "tests/unit/dynamics/test_models.h"

namespace moreau::control {
namespace {

using testing::ConfigurationFromTargets;
using testing::ContactPosition;

std::unique_ptr<Controller> Make(std::string_view name, const Model& model,
                                 const ControllerOptions& options = {}) {
  auto c = MakeController(name, model, options);
  EXPECT_TRUE(c.ok()) << c.status();
  return c.ok() ? std::move(*c) : nullptr;
}

// The Mini Cheetah's default stand height (m), or 0 on failure.
double MiniCheetahStandHeight() {
  auto model = testing::MiniCheetah();
  if (model == nullptr) return 0.0;
  auto layout = FindLegs(*model);
  return layout.ok() ? DefaultStandHeight(*layout) : 0.0;
}

// A fresh trot made with `options` on the Mini Cheetah, evaluated once
// (dt = 0) in `state` at a standing configuration whose base pose is `q_base`
// (x, y, z, quaternion), moving forward at `forward_velocity` (m/s; also the
// filtered velocity in `state`, as if settled): the foot of leg `leg` at the
// targets, base frame (level base at the stand height), or NaN on failure.
Vec3 TrotFootAt(const ControllerOptions& options, ControllerState state,
                const Eigen::Matrix<double, 7, 1>& q_base, int leg, double forward_velocity = 0.5) {
  const Vec3 failed = Vec3::Constant(std::numeric_limits<double>::quiet_NaN());
  auto model = testing::MiniCheetah();
  EXPECT_NE(model, nullptr);
  if (model == nullptr) return failed;
  auto layout = FindLegs(*model);
  EXPECT_TRUE(layout.ok()) << layout.status();
  if (!layout.ok()) return failed;
  auto c = Make("trot", *model, options);
  if (c == nullptr) return failed;
  const double h = DefaultStandHeight(*layout);
  Eigen::VectorXd q = ConfigurationFromTargets(*model, c->LastTargets(), h);
  q.segment<7>(0) = q_base;
  Eigen::VectorXd v = Eigen::VectorXd::Zero(model->nv);
  v[0] = forward_velocity;
  state.velocity = {forward_velocity, 0.0};
  Eigen::VectorXd tau(model->nv);
  c->Compute(*model, 0.0, 0.0, q, v, state, tau);
  Data data = MakeData(*model);
  const Eigen::VectorXd level = ConfigurationFromTargets(*model, c->LastTargets(), h);
  return ContactPosition(*model, data, level, layout->legs[static_cast<size_t>(leg)].foot);
}

// Evaluates the controller at gait phase `phase` (past the start ramp)
// without advancing it; returns the targets.
Eigen::VectorXd TargetsAt(Controller& c, const Model& model, double phase, double elapsed = 100.0) {
  ControllerState state;
  state.phase = phase;
  state.elapsed_s = elapsed;
  Eigen::VectorXd tau(model.nv);
  c.Compute(model, 0.0, 0.0, model.q_default, Eigen::VectorXd::Zero(model.nv), state, tau);
  EXPECT_EQ(state.ik_clamped, 0);
  return c.LastTargets();
}

TEST(ControllerState, TriviallyCopyable) {
  static_assert(std::is_trivially_copyable_v<ControllerState>);
  const ControllerState s;
  EXPECT_EQ(s.phase, 0.0);
  EXPECT_EQ(s.elapsed_s, 0.0);
  EXPECT_EQ(s.ik_clamped, 0);
}

TEST(MakeController, NamesAndErrors) {
  auto model = testing::MiniCheetah();
  ASSERT_NE(model, nullptr);
  for (std::string_view name : ControllerNames()) {
    auto c = MakeController(name, *model, {});
    ASSERT_TRUE(c.ok()) << name << ": " << c.status();
    EXPECT_EQ((*c)->Name(), name);
    EXPECT_EQ((*c)->LastTargets().size(), 12);
  }
  auto unknown = MakeController("dance", *model, {});
  EXPECT_EQ(unknown.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(unknown.status().message().find("dance"), std::string::npos);

  const auto bad = [&](auto mutate, const char* field) {
    ControllerOptions o;
    mutate(o);
    auto c = MakeController("trot", *model, o);
    EXPECT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument) << field;
    EXPECT_NE(c.status().message().find(field), std::string::npos) << c.status();
  };
  bad([](ControllerOptions& o) { o.gains.kp = -1; }, "kp");
  bad([](ControllerOptions& o) { o.gains.kd = NAN; }, "kd");
  bad([](ControllerOptions& o) { o.trot_frequency_hz = 0; }, "trot_frequency_hz");
  bad([](ControllerOptions& o) { o.duty_factor = 1.0; }, "duty_factor");
  bad([](ControllerOptions& o) { o.stand_height = -0.1; }, "stand_height");
  bad([](ControllerOptions& o) { o.step_height = INFINITY; }, "step_height");
  bad([](ControllerOptions& o) { o.step_length = -0.1; }, "step_length");
  bad([](ControllerOptions& o) { o.forward_velocity = NAN; }, "forward_velocity");
  bad([](ControllerOptions& o) { o.start_ramp_s = -1; }, "start_ramp_s");
  bad([](ControllerOptions& o) { o.start_delay_s = NAN; }, "start_delay_s");
  bad([](ControllerOptions& o) { o.attitude_gain = -1; }, "attitude_gain");
  bad([](ControllerOptions& o) { o.attitude_damping_s = NAN; }, "attitude_damping_s");
  bad([](ControllerOptions& o) { o.velocity_filter_s = INFINITY; }, "velocity_filter_s");
  bad([](ControllerOptions& o) { o.line_gain = -0.5; }, "line_gain");
  // Out of reach: too tall a stand, too long a step.
  bad([](ControllerOptions& o) { o.stand_height = 0.5; }, "toe_fr");
  bad([](ControllerOptions& o) { o.step_length = 0.6; }, "trot");
}

TEST(MakeController, LeggedControllersNeedLegs) {
  for (const char* name : {"cartpole", "sphere", "pendulum"}) {
    SCOPED_TRACE(name);
    auto model = testing::Builtin(name);
    ASSERT_NE(model, nullptr);
    EXPECT_TRUE(MakeController("zero", *model, {}).ok());
    for (const char* controller : {"stand", "trot"}) {
      auto c = MakeController(controller, *model, {});
      EXPECT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument) << controller;
    }
  }
}

TEST(ZeroController, ZeroTorqueAndMeasuredTargets) {
  auto model = testing::MiniCheetah();
  ASSERT_NE(model, nullptr);
  auto c = Make("zero", *model);
  ASSERT_NE(c, nullptr);
  Eigen::VectorXd q = model->q_default;
  q.tail(12).setLinSpaced(-1, 1);
  Eigen::VectorXd tau = Eigen::VectorXd::Ones(model->nv);
  ControllerState state;
  c->Compute(*model, 0.5, 1e-3, q, Eigen::VectorXd::Ones(model->nv), state, tau);
  EXPECT_TRUE(tau.isZero());
  EXPECT_TRUE(c->LastTargets().isApprox(q.tail(12)));
}

TEST(StandController, StaticsAtTheStandPose) {
  for (const auto& [label, model] : testing::Quadrupeds()) {
    SCOPED_TRACE(label);
    ASSERT_NE(model, nullptr);
    auto layout = FindLegs(*model);
    ASSERT_TRUE(layout.ok());
    for (double height : {0.0, 0.27}) {
      // 001's constants on both robots (the A1's default tuning is derived).
      ControllerOptions options;
      options.tuning = Tuning::kPaper001;
      options.stand_height = height;
      auto c = Make("stand", *model, options);
      ASSERT_NE(c, nullptr);
      const double h = height > 0 ? height : DefaultStandHeight(*layout);
      // At the targets with zero velocity the PD torques vanish.
      const Eigen::VectorXd targets = c->LastTargets();
      const Eigen::VectorXd q = ConfigurationFromTargets(*model, targets, h);
      Eigen::VectorXd tau = Eigen::VectorXd::Ones(model->nv);
      ControllerState state;
      c->Compute(*model, 0.0, 1e-3, q, Eigen::VectorXd::Zero(model->nv), state, tau);
      EXPECT_LT(tau.norm(), 1e-12);
      EXPECT_TRUE(c->LastTargets().isApprox(targets));
      // The targets put every foot on the ground (sphere touching z = 0),
      // straight under its hip joint, in the leg plane.
      Data data = MakeData(*model);
      for (const Leg& leg : layout->legs) {
        const Vec3 foot = ContactPosition(*model, data, q, leg.foot);
        EXPECT_NEAR(foot.z(), leg.foot_radius, 1e-9) << leg.foot_name;
        EXPECT_NEAR(foot.x(), leg.hip_position.x() + leg.hip_pitch.x(), 1e-9);
        EXPECT_NEAR(foot.y(), leg.hip_position.y() + leg.hip_offset, 1e-9);
        for (int j = 0; j < 3; ++j) {
          EXPECT_GE(targets[leg.actuator[j]], leg.lower[j]);
          EXPECT_LE(targets[leg.actuator[j]], leg.upper[j]);
        }
        // Knee bent about 90° at the default height (0.7 of the leg length).
        if (height == 0.0) {
          EXPECT_NEAR(std::abs(targets[leg.actuator[2]]), 1.59, 0.05) << leg.foot_name;
        }
      }
      // Away from the pose the PD pulls back: τ = k_p (q_d − q).
      Eigen::VectorXd q2 = q;
      q2.tail(12).array() += 0.01;
      c->Compute(*model, 0.0, 1e-3, q2, Eigen::VectorXd::Zero(model->nv), state, tau);
      EXPECT_NEAR(tau[6], -0.4, 1e-9);
      EXPECT_TRUE(tau.head<6>().isZero());
    }
  }
}

// The trot validated through the engine's ForwardKinematics of its targets,
// with the base level at the stand height.
class TrotTest : public ::testing::TestWithParam<int> {  // 0: Mini Cheetah, 1: A1
 protected:
  void SetUp() override {
    model_ = GetParam() == 0 ? testing::MiniCheetah() : testing::UnitreeA1();
    ASSERT_NE(model_, nullptr);
    auto layout = FindLegs(*model_);
    ASSERT_TRUE(layout.ok());
    layout_ = *layout;
    height_ = DefaultStandHeight(layout_);
    // 001's constants on both robots (the A1's default tuning is derived).
    options_.tuning = Tuning::kPaper001;
    // 001 §6.2's open-loop generator: the balance feedback (tested below)
    // moves footholds with the measured state.
    options_.balance = false;
    controller_ = Make("trot", *model_, options_);
    ASSERT_NE(controller_, nullptr);
    data_ = MakeData(*model_);
    step_length_ = options_.forward_velocity * options_.duty_factor / options_.trot_frequency_hz;
  }

  std::vector<Vec3> Feet(const Eigen::VectorXd& targets) {
    const Eigen::VectorXd q = ConfigurationFromTargets(*model_, targets, height_);
    std::vector<Vec3> feet;
    for (const Leg& leg : layout_.legs)
      feet.push_back(ContactPosition(*model_, data_, q, leg.foot));
    return feet;
  }
  std::vector<Vec3> FeetAt(double phase, double elapsed = 100.0) {
    return Feet(TargetsAt(*controller_, *model_, phase, elapsed));
  }

  ControllerOptions options_;
  std::shared_ptr<const Model> model_;
  LegLayout layout_;
  double height_ = 0.0;
  double step_length_ = 0.0;
  std::unique_ptr<Controller> controller_;
  Data data_;
};

TEST_P(TrotTest, FootPathsContinuousWithApexAndGroundContact) {
  const int n = 2000;
  std::vector<Vec3> prev = FeetAt(0.0);
  std::vector<double> apex(4, -1.0), lowest(4, 1.0);
  for (int k = 1; k <= n; ++k) {
    const std::vector<Vec3> feet = FeetAt(static_cast<double>(k) / n);
    for (int i = 0; i < 4; ++i) {
      // No jump: at most ~2 mm per 1/2000 of a cycle anywhere.
      EXPECT_LT((feet[i] - prev[i]).norm(), 2e-3) << i << " at " << k;
      apex[i] = std::max(apex[i], feet[i].z() - layout_.legs[i].foot_radius);
      lowest[i] = std::min(lowest[i], feet[i].z() - layout_.legs[i].foot_radius);
    }
    prev = feet;
  }
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(apex[i], options_.step_height, 1e-6) << layout_.legs[i].foot_name;
    EXPECT_NEAR(lowest[i], 0.0, 1e-9) << layout_.legs[i].foot_name;
  }
}

TEST_P(TrotTest, StanceFeetMoveBackwardAtTheCommandedSpeed) {
  const double f = options_.trot_frequency_hz;
  const double dphase = 1e-4;
  int stance_samples = 0;
  for (int k = 0; k < 100; ++k) {
    const double phase = k / 100.0;
    const std::vector<Vec3> a = FeetAt(phase);
    const std::vector<Vec3> b = FeetAt(phase + dphase);
    for (int i = 0; i < 4; ++i) {
      const double psi = WrapPhase(phase + TrotPhaseOffset(layout_.legs[i]));
      if (psi > 0.01 && psi + dphase < options_.duty_factor - 0.01) {
        ++stance_samples;
        const Vec3 velocity = (b[i] - a[i]) / (dphase / f);
        EXPECT_NEAR(velocity.x(), -options_.forward_velocity, 1e-4);
        EXPECT_NEAR(velocity.y(), 0.0, 1e-6);
        EXPECT_NEAR(velocity.z(), 0.0, 1e-6);
        EXPECT_NEAR(a[i].z(), layout_.legs[i].foot_radius, 1e-9);  // on the ground
      }
    }
  }
  EXPECT_GT(stance_samples, 150);
  // The full stance stroke is the step length L = v β / f (0.2 m by
  // default), centred under the hip.
  for (int i = 0; i < 4; ++i) {
    const double offset = TrotPhaseOffset(layout_.legs[i]);
    const Vec3 touchdown = FeetAt(WrapPhase(-offset))[i];
    const Vec3 liftoff = FeetAt(WrapPhase(options_.duty_factor - offset - 1e-9))[i];
    EXPECT_NEAR(touchdown.x() - liftoff.x(), step_length_, 1e-6);
    const double hip_x = layout_.legs[i].hip_position.x() + layout_.legs[i].hip_pitch.x();
    EXPECT_NEAR(0.5 * (touchdown.x() + liftoff.x()), hip_x, 1e-6);
  }
}

TEST_P(TrotTest, DiagonalPairsMoveTogetherHalfAPeriodApart) {
  auto index = [&](bool front, bool left) {
    for (int i = 0; i < 4; ++i) {
      if (layout_.legs[i].front == front && layout_.legs[i].left == left) return i;
    }
    return -1;
  };
  const int fr = index(true, false), fl = index(true, true);
  const int hr = index(false, false), hl = index(false, true);
  ASSERT_TRUE(fr >= 0 && fl >= 0 && hr >= 0 && hl >= 0);
  for (int k = 0; k < 40; ++k) {
    const double phase = k / 40.0;
    const std::vector<Vec3> now = FeetAt(phase);
    const std::vector<Vec3> later = FeetAt(phase + 0.5);
    auto rel = [&](const std::vector<Vec3>& feet, int i) {
      return Vec3(feet[i] - layout_.legs[i].hip_position);
    };
    // Pair members share the trajectory relative to their hips (x, z)…
    EXPECT_NEAR(rel(now, fr).x(), rel(now, hl).x(), 1e-9);
    EXPECT_NEAR(rel(now, fr).z(), rel(now, hl).z(), 1e-9);
    EXPECT_NEAR(rel(now, fl).x(), rel(now, hr).x(), 1e-9);
    EXPECT_NEAR(rel(now, fl).z(), rel(now, hr).z(), 1e-9);
    // …and the other pair does the same half a period later.
    EXPECT_NEAR(rel(later, fl).x(), rel(now, fr).x(), 1e-9);
    EXPECT_NEAR(rel(later, fl).z(), rel(now, fr).z(), 1e-9);
    // In a trot one pair is always in stance (β = ½): one of the two is on the ground.
    const bool a_down = now[fr].z() - layout_.legs[fr].foot_radius < 1e-9;
    const bool b_down = now[fl].z() - layout_.legs[fl].foot_radius < 1e-9;
    EXPECT_TRUE(a_down || b_down) << phase;
  }
}

TEST_P(TrotTest, TargetsWithinJointLimitsAndTorquesClamped) {
  for (int k = 0; k < 500; ++k) {
    const Eigen::VectorXd targets = TargetsAt(*controller_, *model_, k / 500.0);
    for (const Leg& leg : layout_.legs) {
      for (int j = 0; j < 3; ++j) {
        EXPECT_GE(targets[leg.actuator[j]], leg.lower[j]);
        EXPECT_LE(targets[leg.actuator[j]], leg.upper[j]);
      }
    }
  }
  // Far from the targets with stiff gains: every |τ| ≤ its effort limit.
  ControllerOptions stiff = options_;
  stiff.gains = {5000.0, 50.0};
  auto c = Make("trot", *model_, stiff);
  ASSERT_NE(c, nullptr);
  ControllerState state;
  Eigen::VectorXd tau(model_->nv);
  Eigen::VectorXd v = Eigen::VectorXd::Constant(model_->nv, 3.0);
  c->Compute(*model_, 0.0, 1e-3, model_->q_default, v, state, tau);
  EXPECT_TRUE(tau.head<6>().isZero());
  for (const Actuator& a : model_->actuators) {
    EXPECT_LE(std::abs(tau[model_->joints[a.joint].v_index]), a.effort_limit) << a.name;
  }
}

TEST_P(TrotTest, DelayThenRampFromTheStandPoseWhileTheOscillatorRuns) {
  auto stand = Make("stand", *model_, options_);
  ASSERT_NE(stand, nullptr);
  // Before the first Compute the trot's targets are the stand pose.
  EXPECT_LT((controller_->LastTargets() - stand->LastTargets()).norm(), 1e-12);
  ControllerState state;
  Eigen::VectorXd tau(model_->nv);
  const Eigen::VectorXd v0 = Eigen::VectorXd::Zero(model_->nv);
  const double dt = 1e-3;
  const double delay = options_.start_delay_s;
  const int delay_steps = static_cast<int>(std::lround(delay / dt));
  // The delay: standing, oscillator still.
  for (int k = 0; k < delay_steps; ++k) {
    controller_->Compute(*model_, k * dt, dt, model_->q_default, v0, state, tau);
    ASSERT_LT((controller_->LastTargets() - stand->LastTargets()).norm(), 1e-9) << k;
  }
  EXPECT_NEAR(state.phase, 0.0, 1e-12);
  EXPECT_NEAR(state.elapsed_s, delay, 1e-12);
  // Then 2 s of 1 ms steps: targets change continuously through the ramp and
  // the oscillator completes f · 2 s = 2.5 cycles.
  Eigen::VectorXd prev = controller_->LastTargets();
  double max_step = 0.0;
  for (int k = delay_steps; k < delay_steps + 2000; ++k) {
    controller_->Compute(*model_, k * dt, dt, model_->q_default, v0, state, tau);
    max_step = std::max(max_step, (controller_->LastTargets() - prev).cwiseAbs().maxCoeff());
    prev = controller_->LastTargets();
  }
  EXPECT_LT(max_step, 0.03);  // rad per ms
  EXPECT_NEAR(state.phase, WrapPhase(2.5), 1e-9);
  EXPECT_NEAR(state.elapsed_s, delay + 2.0, 1e-9);
  EXPECT_EQ(state.ik_clamped, 0);

  // Without delay and ramp the gait starts at once.
  ControllerOptions immediate = options_;
  immediate.start_delay_s = 0.0;
  immediate.start_ramp_s = 0.0;
  auto c = Make("trot", *model_, immediate);
  ASSERT_NE(c, nullptr);
  ControllerState s0;
  c->Compute(*model_, 0.0, dt, model_->q_default, v0, s0, tau);
  EXPECT_NEAR(s0.phase, options_.trot_frequency_hz * dt, 1e-15);
  EXPECT_GT((c->LastTargets() - stand->LastTargets()).norm(), 0.05);
}

TEST_P(TrotTest, VelocityFeedforwardIsTheTargetRate) {
  const double f = options_.trot_frequency_hz;
  for (double phase : {0.1, 0.3, 0.6, 0.85}) {
    ControllerState state;
    state.phase = phase;
    state.elapsed_s = 100.0;
    Eigen::VectorXd tau(model_->nv);
    controller_->Compute(*model_, 0.0, 0.0, model_->q_default, Eigen::VectorXd::Zero(model_->nv),
                         state, tau);
    const Eigen::VectorXd rate = controller_->LastTargetVelocities();
    const double h = 1e-5;
    const Eigen::VectorXd a = TargetsAt(*controller_, *model_, phase - h);
    const Eigen::VectorXd b = TargetsAt(*controller_, *model_, phase + h);
    const Eigen::VectorXd numeric = (b - a) / (2 * h / f);
    EXPECT_LT((rate - numeric).cwiseAbs().maxCoeff(), 1e-3 * (1.0 + numeric.norm())) << phase;
  }
  // Off: q̇_d = 0 (001 eq. 44 as printed).
  ControllerOptions off = options_;
  off.velocity_feedforward = false;
  auto c = Make("trot", *model_, off);
  ASSERT_NE(c, nullptr);
  TargetsAt(*c, *model_, 0.3);
  EXPECT_TRUE(c->LastTargetVelocities().isZero());
}

INSTANTIATE_TEST_SUITE_P(Robots, TrotTest, ::testing::Values(0, 1),
                         [](const auto& info) { return info.param == 0 ? "MiniCheetah" : "A1"; });

// The balance feedback (controller.cc): a base moving faster than commanded
// lands its swing feet further ahead (Raibert), and a base rolled to the
// right lengthens its right legs and shortens its left ones.
TEST(TrotController, BalanceFeedbackMovesFootholdsAndLegLengths) {
  auto model = testing::MiniCheetah();
  ASSERT_NE(model, nullptr);
  auto layout = FindLegs(*model);
  ASSERT_TRUE(layout.ok());
  const double h = DefaultStandHeight(*layout);
  ControllerState late_swing;  // leg phase of leg 0 (FR, offset 0) at 0.9
  late_swing.phase = 0.9;
  late_swing.elapsed_s = 100.0;
  Eigen::Matrix<double, 7, 1> level;
  level << 0, 0, h, 1, 0, 0, 0;
  const Vec3 nominal = TrotFootAt({}, late_swing, level, 0, 0.5);  // as commanded
  // 0.3 m/s too fast: lands √(h/g) · 0.3 ≈ 5 cm further ahead.
  const Vec3 fast = TrotFootAt({}, late_swing, level, 0, 0.8);
  EXPECT_GT(fast.x() - nominal.x(), 0.02);
  EXPECT_LT(fast.x() - nominal.x(), 0.06);
  // Rolled 5° to the right (right side down): right legs (y < 0) longer,
  // left legs shorter, in the base frame.
  const double a = 5.0 * std::numbers::pi / 180.0;
  Eigen::Matrix<double, 7, 1> rolled;
  rolled << 0, 0, h, std::cos(a / 2), std::sin(a / 2), 0, 0;  // about +x: left up
  for (int leg = 0; leg < 4; ++leg) {
    const Vec3 at_level = TrotFootAt({}, late_swing, level, leg);
    const Vec3 at_roll = TrotFootAt({}, late_swing, rolled, leg);
    if (layout->legs[leg].left) {
      EXPECT_GT(at_roll.z(), at_level.z() + 1e-3) << leg;
    } else {
      EXPECT_LT(at_roll.z(), at_level.z() - 1e-3) << leg;
    }
  }
}

// ControllerOptions::line_gain: a base 5 cm left of its start line commands
// a sideways velocity v_y = −k e. Like the forward command it enters the
// step vector, T_stance v_y, along which a swing foot travels (d_x(ψ) of it
// at phase ψ), and foot placement, which with the robot not moving sideways
// lands the foot √(h/g) k e further left (Raibert: stepping out on the left
// pushes the body right). Without the line hold the offset changes nothing.
TEST(TrotController, LineHoldStepsBackTowardTheStartLine) {
  const double h = MiniCheetahStandHeight();
  ASSERT_GT(h, 0.0);
  const double offset = 0.05;
  const auto landing_y = [&](double line_gain, double base_y) {
    ControllerOptions options;
    options.line_gain = line_gain;
    ControllerState state;
    state.phase = 0.9;  // leg 0 (FR) late in its swing
    state.elapsed_s = 100.0;
    state.heading_set = true;  // heading 0, line through the origin along +x
    Eigen::Matrix<double, 7, 1> q_base;
    q_base << 0, base_y, h, 1, 0, 0, 0;
    return TrotFootAt(options, state, q_base, 0).y();
  };
  const double gain = 1.0;
  const GaitParams unit{1.25, 0.5, 1.0, 0.06};  // the default trot, unit step
  const double stance_s = 0.5 / 1.25;
  const double v_y = -gain * offset;
  // The swing blends from the lift-off foothold to the new one by the
  // smoothstep of its progress s = (0.9 − 0.5) / 0.5.
  const double s = 0.8, blend = s * s * (3.0 - 2.0 * s);
  const double expected =
      blend * std::sqrt(h / 9.81) * -v_y + stance_s * v_y * FootTrajectory(unit, 0.9).x();
  EXPECT_GT(std::abs(expected), 1e-3);
  EXPECT_NEAR(landing_y(gain, offset) - landing_y(gain, 0.0), expected, 0.2 * std::abs(expected));
  EXPECT_NEAR(landing_y(0.0, offset) - landing_y(0.0, 0.0), 0.0, 1e-9);
}

// Balance feedback 1 scales with ControllerOptions::attitude_gain: at rest
// (no rotation rate) a rolled base shortens and lengthens the legs by k_att
// times the hips' height error, so halving k_att halves the change.
TEST(TrotController, AttitudeFeedbackScalesWithItsGain) {
  const double h = MiniCheetahStandHeight();
  ASSERT_GT(h, 0.0);
  const double a = 5.0 * std::numbers::pi / 180.0;
  const auto leg_change = [&](double gain, int leg) {
    ControllerOptions options;
    options.attitude_gain = gain;
    ControllerState state;
    state.phase = 0.25;  // leg 0 (FR) and leg 3 mid-stance
    state.elapsed_s = 100.0;
    Eigen::Matrix<double, 7, 1> level, rolled;
    level << 0, 0, h, 1, 0, 0, 0;
    rolled << 0, 0, h, std::cos(a / 2), std::sin(a / 2), 0, 0;
    return TrotFootAt(options, state, rolled, leg).z() - TrotFootAt(options, state, level, leg).z();
  };
  for (int leg = 0; leg < 4; ++leg) {
    const double full = leg_change(1.5, leg);
    const double half = leg_change(0.75, leg);
    EXPECT_GT(std::abs(full), 1e-3) << leg;
    EXPECT_NEAR(half / full, 0.5, 0.05) << leg;
    EXPECT_NEAR(leg_change(0.0, leg), 0.0, 1e-9) << leg;
  }
}

// Balance feedback 4 (controller.cc): a swing foot's target rises by the
// stance legs' mean compression c (their feet above their targets, hip
// frames), by c (1 − S(s)) at swing phase s; stance targets do not change.
TEST(TrotController, SwingFeetLiftedByTheStanceLegsSag) {
  auto model = testing::MiniCheetah();
  ASSERT_NE(model, nullptr);
  auto layout = FindLegs(*model);
  ASSERT_TRUE(layout.ok());
  auto c = Make("trot", *model, ControllerOptions{});
  ASSERT_NE(c, nullptr);
  const double h = DefaultStandHeight(*layout);
  const double phase = 0.6;  // FR and HL (offset 0) in swing at s = 0.2, FL and HR in stance
  auto feet = [&](const Eigen::VectorXd& q) {
    ControllerState state;
    state.phase = phase;
    state.elapsed_s = 100.0;
    Eigen::VectorXd tau(model->nv);
    c->Compute(*model, 0.0, 0.0, q, Eigen::VectorXd::Zero(model->nv), state, tau);
    std::vector<Vec3> out;
    for (const Leg& leg : layout->legs) {
      const Vec3 angles(c->LastTargets()[leg.actuator[0]], c->LastTargets()[leg.actuator[1]],
                        c->LastTargets()[leg.actuator[2]]);
      out.push_back(LegForwardKinematics(leg, angles));
    }
    return out;
  };
  // Measured joints at the targets: no compression.
  Eigen::VectorXd q = ConfigurationFromTargets(*model, c->LastTargets(), h);
  const std::vector<Vec3> tracked = feet(q);
  q = ConfigurationFromTargets(*model, c->LastTargets(), h);
  const std::vector<Vec3> again = feet(q);  // same measured state, same targets
  // The stance legs' feet 2 and 4 cm above their targets: c = 3 cm.
  const double rise[2] = {0.02, 0.04};
  int k = 0;
  for (const Leg& leg : layout->legs) {
    if (leg.front == leg.left) {  // FL, HR (offset ½): stance at phase 0.6
      Vec3 angles;
      ASSERT_EQ(LegIk(leg, again[&leg - &layout->legs[0]] + Vec3(0, 0, rise[k++]), angles),
                IkResult::kOk);
      for (int j = 0; j < 3; ++j) q[leg.q_index[j]] = angles[j];
    }
  }
  const std::vector<Vec3> sagging = feet(q);
  const double s = 0.2;
  const double expected = 0.03 * (1.0 - s * s * (3.0 - 2.0 * s));
  for (size_t i = 0; i < layout->legs.size(); ++i) {
    const Leg& leg = layout->legs[i];
    EXPECT_LT((again[i] - tracked[i]).norm(), 1e-9) << i;
    if (leg.front == leg.left) {
      EXPECT_LT((sagging[i] - again[i]).norm(), 1e-9) << i;  // stance: unchanged
    } else {
      EXPECT_NEAR(sagging[i].z() - again[i].z(), expected, 1e-6) << i;
      EXPECT_NEAR(sagging[i].x(), again[i].x(), 1e-8) << i;
    }
  }
  // Without the balance feedback (001's open-loop trot), or with it but
  // without the swing clearance (the id mode's setting): no lift.
  ControllerOptions open_loop;
  open_loop.balance = false;
  ControllerOptions no_clearance;
  no_clearance.swing_clearance = false;
  for (const ControllerOptions& options : {open_loop, no_clearance}) {
    c = Make("trot", *model, options);
    ASSERT_NE(c, nullptr);
    const std::vector<Vec3> open_again =
        feet(ConfigurationFromTargets(*model, c->LastTargets(), h));
    const std::vector<Vec3> open_sagging = feet(q);
    for (size_t i = 0; i < layout->legs.size(); ++i) {
      EXPECT_LT((open_sagging[i] - open_again[i]).norm(), 1e-9) << i;
    }
  }
}

// Balance feedback 3: the heading hold integrates the heading error
// (ControllerState::heading_integral), so a constant error turns the stance
// feet's sweep harder over time; the integral is clamped (anti-windup).
TEST(TrotController, HeadingHoldIntegratesTheError) {
  auto model = testing::MiniCheetah();
  ASSERT_NE(model, nullptr);
  auto layout = FindLegs(*model);
  ASSERT_TRUE(layout.ok());
  auto c = Make("trot", *model, ControllerOptions{});
  ASSERT_NE(c, nullptr);
  const double h = DefaultStandHeight(*layout);
  Eigen::VectorXd q = ConfigurationFromTargets(*model, c->LastTargets(), h);
  const double error = 0.1;  // rad: the base yawed 0.1 left of the held heading 0
  q.segment<4>(3) << std::cos(error / 2), 0.0, 0.0, std::sin(error / 2);
  Eigen::VectorXd tau(model->nv);
  ControllerState state;
  state.elapsed_s = 100.0;
  state.heading_set = true;  // holds heading 0
  const double dt = 1e-3;
  for (int k = 0; k < 500; ++k) {
    c->Compute(*model, 0.0, dt, q, Eigen::VectorXd::Zero(model->nv), state, tau);
  }
  EXPECT_NEAR(state.heading_integral, 500 * dt * error, 1e-6);
  // The stance foot of FR (offset 0) at phase 0.1, early stance: the sweep
  // ω × r turns the robot back, more so with the integral.
  auto fr_y = [&](double integral) {
    ControllerState s;
    s.phase = 0.1;
    s.elapsed_s = 100.0;
    s.heading_set = true;
    s.heading_integral = integral;
    c->Compute(*model, 0.0, 0.0, q, Eigen::VectorXd::Zero(model->nv), s, tau);
    const Leg& leg = layout->legs[0];
    const Vec3 angles(c->LastTargets()[leg.actuator[0]], c->LastTargets()[leg.actuator[1]],
                      c->LastTargets()[leg.actuator[2]]);
    return LegForwardKinematics(leg, angles).y();
  };
  const double at_start = fr_y(0.0);
  const double later = fr_y(0.5);
  ControllerState level;
  level.phase = 0.1;
  level.elapsed_s = 100.0;
  level.heading_set = true;
  level.heading = error;  // no heading error
  c->Compute(*model, 0.0, 0.0, q, Eigen::VectorXd::Zero(model->nv), level, tau);
  const Leg& fr = layout->legs[0];
  const double none = LegForwardKinematics(fr, Vec3(c->LastTargets()[fr.actuator[0]],
                                                    c->LastTargets()[fr.actuator[1]],
                                                    c->LastTargets()[fr.actuator[2]]))
                          .y();
  EXPECT_GT(std::abs(at_start - none), 1e-4);
  EXPECT_GT(std::abs(later - none), 2.0 * std::abs(at_start - none));
  EXPECT_GT((later - none) * (at_start - none), 0.0);  // the same direction
  // Anti-windup: 100 s of a 0.1 rad error saturate the integral at the value
  // that alone saturates the yaw rate (0.5 rad/s · 1 s / 0.5 /s = 1 rad s).
  for (int k = 0; k < 1000; ++k) {
    c->Compute(*model, 0.0, 0.1, q, Eigen::VectorXd::Zero(model->nv), state, tau);
  }
  EXPECT_NEAR(state.heading_integral, 1.0, 1e-12);
}

TEST(TrotController, BackwardAndInPlace) {
  auto model = testing::MiniCheetah();
  ASSERT_NE(model, nullptr);
  for (double v : {-0.2, 0.0}) {
    ControllerOptions o;
    o.forward_velocity = v;
    auto c = Make("trot", *model, o);
    ASSERT_NE(c, nullptr);
    Data data = MakeData(*model);
    const Eigen::VectorXd a = TargetsAt(*c, *model, 0.1);
    const Eigen::VectorXd b = TargetsAt(*c, *model, 0.1 + 1e-4);
    // Leg 0 (FR, offset 0) is in stance at 0.1.
    const Vec3 pa = ContactPosition(*model, data, ConfigurationFromTargets(*model, a, 0.28), 0);
    const Vec3 pb = ContactPosition(*model, data, ConfigurationFromTargets(*model, b, 0.28), 0);
    EXPECT_NEAR((pb.x() - pa.x()) / (1e-4 / o.trot_frequency_hz), -v, 1e-4);
  }
}

}  // namespace
}  // namespace moreau::control
