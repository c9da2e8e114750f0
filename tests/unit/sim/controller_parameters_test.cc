// The controller parameters by name: each name sets its own field of the
// controller the kind runs under the control mode, flags take only 0 or 1,
// and an unknown name, a non-finite value or a parameter of a controller that
// takes none is refused with a message naming it (and listing the names).
#include "engine/sim/controller_parameters.h"

#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace moreau::sim {
namespace {

using ::testing::HasSubstr;

// Every field of both option structs, in declaration order.
std::vector<double> Fields(const ControllerSettings& c) {
  const control::ControllerOptions& o = c.options;
  const control::VelocityTrotOptions& v = c.velocity_trot;
  return {static_cast<double>(o.tuning),
          o.gains.kp,
          o.gains.kd,
          o.stand_height,
          o.trot_frequency_hz,
          o.duty_factor,
          o.forward_velocity,
          o.step_length,
          o.step_height,
          o.start_delay_s,
          o.start_ramp_s,
          static_cast<double>(o.velocity_feedforward),
          static_cast<double>(o.balance),
          static_cast<double>(o.swing_clearance),
          o.attitude_gain,
          o.attitude_damping_s,
          o.velocity_filter_s,
          o.line_gain,
          static_cast<double>(o.weight_feedforward),
          static_cast<double>(o.stable_pd),
          v.stand_height,
          v.frequency_hz,
          v.duty_factor,
          v.forward_velocity,
          v.step_height,
          v.start_delay_s,
          v.start_ramp_s,
          v.settle_s,
          v.height_time_constant_s,
          v.attitude_time_constant_s,
          v.yaw_time_constant_s,
          v.joint_time_constant_s,
          v.swing_time_constant_s,
          v.landing_fraction,
          v.approach_s,
          v.approach_height,
          v.approach_time_constant_s,
          v.touchdown_speed,
          v.max_joint_velocity,
          v.id_time_constant_s};
}

// The index of the one field that differs; -1 when none or several do.
int ChangedField(const ControllerSettings& before, const ControllerSettings& after) {
  const std::vector<double> a = Fields(before);
  const std::vector<double> b = Fields(after);
  int changed = -1;
  for (size_t k = 0; k < a.size(); ++k) {
    if (a[k] == b[k]) continue;
    if (changed >= 0) return -1;
    changed = static_cast<int>(k);
  }
  return changed;
}

// Each name of (kind, mode) sets one field of its own, of the struct the
// controller reads: ControllerOptions' (the first 20) or the velocity trot's.
void ExpectEachNameSetsItsOwnField(ControllerKind kind, ControlMode mode, bool velocity) {
  SCOPED_TRACE(ControllerKindName(kind));
  const std::vector<std::string> names = ControllerParameterNames(kind, mode);
  ASSERT_FALSE(names.empty());
  std::set<int> fields;
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    ControllerSettings c;
    c.kind = kind;
    const ControllerSettings before = c;
    // 0 changes a flag that is on and most numbers; 1 a flag that is off.
    ASSERT_TRUE(SetControllerParameter(c, mode, name, 0.0).ok());
    if (ChangedField(before, c) < 0) {
      ASSERT_TRUE(SetControllerParameter(c, mode, name, 1.0).ok());
    }
    const int field = ChangedField(before, c);
    ASSERT_GE(field, 0);
    EXPECT_EQ(field >= 20, velocity);
    EXPECT_TRUE(fields.insert(field).second) << "two names set field " << field;
  }
}

TEST(ControllerParametersTest, EachNameSetsItsOwnFieldOfTheControllerTheKindRuns) {
  ExpectEachNameSetsItsOwnField(ControllerKind::kStand, ControlMode::kTorque, false);
  ExpectEachNameSetsItsOwnField(ControllerKind::kPdTrot, ControlMode::kTorque, false);
  ExpectEachNameSetsItsOwnField(ControllerKind::kPdTrot, ControlMode::kIdConstraint, false);
  ExpectEachNameSetsItsOwnField(ControllerKind::kTrot, ControlMode::kPd, false);
  ExpectEachNameSetsItsOwnField(ControllerKind::kTrot, ControlMode::kIdConstraint, true);
  ExpectEachNameSetsItsOwnField(ControllerKind::kVelocityTrot, ControlMode::kId, true);
  // Every field but the velocity trot's id time constant (Settings::control's):
  // ControllerOptions' 20 (tuning among them) and the velocity trot's 19.
  EXPECT_EQ(ControllerParameterNames(ControllerKind::kPdTrot, ControlMode::kTorque).size(), 20u);
  EXPECT_EQ(ControllerParameterNames(ControllerKind::kVelocityTrot, ControlMode::kPd).size(), 19u);
}

TEST(ControllerParametersTest, SetsTheNamedValues) {
  ControllerSettings c;
  c.kind = ControllerKind::kTrot;
  ASSERT_TRUE(SetControllerParameter(c, ControlMode::kTorque, "kp", 60.0).ok());
  ASSERT_TRUE(SetControllerParameter(c, ControlMode::kTorque, "trot_frequency_hz", 2.0).ok());
  ASSERT_TRUE(SetControllerParameter(c, ControlMode::kTorque, "balance", 0.0).ok());
  ASSERT_TRUE(SetControllerParameter(c, ControlMode::kTorque, "weight_feedforward", 1.0).ok());
  EXPECT_EQ(c.options.gains.kp, 60.0);
  EXPECT_EQ(c.options.trot_frequency_hz, 2.0);
  EXPECT_FALSE(c.options.balance);
  EXPECT_TRUE(c.options.weight_feedforward);
  // Under id-constraint "trot" is the velocity trot: its own frequency.
  ASSERT_TRUE(SetControllerParameter(c, ControlMode::kIdConstraint, "frequency_hz", 3.0).ok());
  EXPECT_EQ(c.velocity_trot.frequency_hz, 3.0);
  EXPECT_EQ(c.options.trot_frequency_hz, 2.0);
}

TEST(ControllerParametersTest, RefusesUnknownNamesListingTheAcceptedOnes) {
  ControllerSettings c;
  c.kind = ControllerKind::kStand;
  absl::Status status = SetControllerParameter(c, ControlMode::kTorque, "stiffness", 1.0);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("'stiffness'"));
  EXPECT_THAT(status.message(), HasSubstr("controller 'stand'"));
  EXPECT_THAT(status.message(), HasSubstr("kp, kd, stand_height, stable_pd"));

  // 001's trot's frequency is not the velocity trot's, and the reverse.
  c.kind = ControllerKind::kTrot;
  status = SetControllerParameter(c, ControlMode::kIdConstraint, "kp", 50.0);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("'kp'"));
  EXPECT_THAT(status.message(), HasSubstr("'id-constraint' (the velocity trot)"));
  EXPECT_THAT(status.message(), HasSubstr("frequency_hz"));
  status = SetControllerParameter(c, ControlMode::kTorque, "frequency_hz", 2.0);
  EXPECT_THAT(status.message(), HasSubstr("'torque' (pd-trot)"));
  EXPECT_THAT(status.message(), HasSubstr("trot_frequency_hz"));
  EXPECT_EQ(c.options.gains.kp, control::ControllerOptions().gains.kp);
}

TEST(ControllerParametersTest, TuningTakesItsValuesByNumberAndNamesThemWhenRefused) {
  for (ControllerKind kind : {ControllerKind::kStand, ControllerKind::kTrot}) {
    ControllerSettings c;
    c.kind = kind;
    ASSERT_TRUE(SetControllerParameter(c, ControlMode::kTorque, "tuning", 2.0).ok());
    EXPECT_EQ(c.options.tuning, control::Tuning::kDerived);
    ASSERT_TRUE(SetControllerParameter(c, ControlMode::kTorque, "tuning", 1.0).ok());
    EXPECT_EQ(c.options.tuning, control::Tuning::kPaper001);
    for (double bad : {3.0, -1.0, 0.5}) {
      const absl::Status status = SetControllerParameter(c, ControlMode::kTorque, "tuning", bad);
      EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
      EXPECT_THAT(status.message(), HasSubstr("'tuning'"));
      EXPECT_THAT(status.message(), HasSubstr("0 (auto), 1 (paper-001) or 2 (derived)"));
    }
    EXPECT_EQ(c.options.tuning, control::Tuning::kPaper001);
  }
}

TEST(ControllerParametersTest, HoldTakesTheGains) {
  ExpectEachNameSetsItsOwnField(ControllerKind::kHold, ControlMode::kTorque, false);
  for (ControlMode mode : {ControlMode::kTorque, ControlMode::kIdConstraint}) {
    EXPECT_EQ(ControllerParameterNames(ControllerKind::kHold, mode),
              (std::vector<std::string>{"kp", "kd"}));
  }
  ControllerSettings c;
  c.kind = ControllerKind::kHold;
  ASSERT_TRUE(SetControllerParameter(c, ControlMode::kPd, "kd", 2.0).ok());
  EXPECT_EQ(c.options.gains.kd, 2.0);
  const absl::Status status = SetControllerParameter(c, ControlMode::kTorque, "stand_height", 0.3);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("'stand_height'"));
  EXPECT_THAT(status.message(), HasSubstr("controller 'hold'"));
  EXPECT_THAT(status.message(), HasSubstr("(expected one of kp, kd)"));
}

TEST(ControllerParametersTest, NoneAndZeroTakeNoParameters) {
  for (ControllerKind kind : {ControllerKind::kNone, ControllerKind::kZero}) {
    EXPECT_TRUE(ControllerParameterNames(kind, ControlMode::kTorque).empty());
    ControllerSettings c;
    c.kind = kind;
    const absl::Status status = SetControllerParameter(c, ControlMode::kPd, "kp", 40.0);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(status.message(), HasSubstr("takes no parameters, got 'kp'"));
    EXPECT_THAT(status.message(), HasSubstr(ControllerKindName(kind)));
  }
}

TEST(ControllerParametersTest, RefusesNonFiniteValuesAndFlagsOtherThanZeroOrOne) {
  ControllerSettings c;
  c.kind = ControllerKind::kPdTrot;
  for (double bad :
       {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    const absl::Status status = SetControllerParameter(c, ControlMode::kTorque, "kd", bad);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(status.message(), HasSubstr("'kd'"));
    EXPECT_THAT(status.message(), HasSubstr("finite"));
  }
  const absl::Status status = SetControllerParameter(c, ControlMode::kTorque, "stable_pd", 0.5);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("'stable_pd'"));
  EXPECT_THAT(status.message(), HasSubstr("0 (off) or 1 (on), got 0.5"));
  EXPECT_TRUE(c.options.stable_pd);
  EXPECT_EQ(c.options.gains.kd, control::ControllerOptions().gains.kd);
}

}  // namespace
}  // namespace moreau::sim
