// FindLegs on the Mini Cheetah and the A1 (axis signs, link lengths, hip
// offsets), errors on robots without 3-joint legs, and the leg IK: IK ∘ FK
// round trips against the engine's ForwardKinematics for random reachable
// targets, clamping with a Status for unreachable ones.
#include "engine/control/legs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "engine/control/pd.h"
#include "engine/dynamics/data.h"
#include "engine/model/loader.h"
#include "tests/unit/control/control_test_util.h"
#include "tests/unit/dynamics/test_models.h"

namespace moreau::control {
namespace {

using testing::ContactPosition;

// The foot of `leg` in its hip frame from the engine's ForwardKinematics with
// the base at the origin, the leg's joints at `angles`, all others at 0.
Vec3 EngineFoot(const Model& model, Data& data, const Leg& leg, const Vec3& angles) {
  Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq);
  if (model.floating_base) q[3] = 1.0;
  for (int j = 0; j < 3; ++j) q[leg.q_index[j]] = angles[j];
  return ContactPosition(model, data, q, leg.foot) - leg.hip_position;
}

TEST(FindLegs, MiniCheetah) {
  auto model = testing::MiniCheetah();
  ASSERT_NE(model, nullptr);
  auto layout = FindLegs(*model);
  ASSERT_TRUE(layout.ok()) << layout.status();
  EXPECT_EQ(layout->base_body, 1);
  ASSERT_EQ(layout->legs.size(), 4u);
  const char* names[4] = {"toe_fr", "toe_fl", "toe_hr", "toe_hl"};
  for (int i = 0; i < 4; ++i) {
    const Leg& leg = layout->legs[i];
    SCOPED_TRACE(leg.foot_name);
    EXPECT_EQ(leg.foot, i);
    EXPECT_EQ(leg.foot_name, names[i]);
    // Axes (1, 0, 0), (0, −1, 0), (0, −1, 0).
    EXPECT_EQ(leg.axis_sign[0], 1.0);
    EXPECT_EQ(leg.axis_sign[1], -1.0);
    EXPECT_EQ(leg.axis_sign[2], -1.0);
    EXPECT_NEAR(leg.thigh_length, 0.209, 1e-12);
    EXPECT_NEAR(leg.shank_length, 0.18, 1e-12);
    EXPECT_NEAR(std::abs(leg.hip_offset), 0.062, 1e-12);
    EXPECT_EQ(leg.hip_offset < 0.0, !leg.left);
    EXPECT_NEAR(std::abs(leg.hip_position.x()), 0.19, 1e-12);
    EXPECT_NEAR(std::abs(leg.hip_position.y()), 0.049, 1e-12);
    EXPECT_EQ(leg.front, i < 2);
    EXPECT_EQ(leg.left, i % 2 == 1);
    EXPECT_EQ(leg.knee_bend, -1.0);
    EXPECT_EQ(leg.foot_below, -1.0);
    EXPECT_NEAR(leg.foot_radius, 0.015, 1e-12);
    for (int j = 0; j < 3; ++j) {
      EXPECT_EQ(leg.actuator[j], 3 * i + j);
      EXPECT_EQ(leg.q_index[j], 7 + 3 * i + j);
      EXPECT_EQ(leg.v_index[j], 6 + 3 * i + j);
      EXPECT_TRUE(std::isinf(leg.lower[j]) && std::isinf(leg.upper[j]));  // continuous
    }
  }
}

TEST(FindLegs, UnitreeA1) {
  auto model = testing::UnitreeA1();
  ASSERT_NE(model, nullptr);
  auto layout = FindLegs(*model);
  ASSERT_TRUE(layout.ok()) << layout.status();
  ASSERT_EQ(layout->legs.size(), 4u);
  const char* names[4] = {"FR_foot", "FL_foot", "RR_foot", "RL_foot"};
  for (int i = 0; i < 4; ++i) {
    const Leg& leg = layout->legs[i];
    SCOPED_TRACE(leg.foot_name);
    EXPECT_EQ(leg.foot_name, names[i]);
    // Axes (1, 0, 0), (0, 1, 0), (0, 1, 0).
    EXPECT_EQ(leg.axis_sign[0], 1.0);
    EXPECT_EQ(leg.axis_sign[1], 1.0);
    EXPECT_EQ(leg.axis_sign[2], 1.0);
    EXPECT_NEAR(leg.thigh_length, 0.2, 1e-12);
    EXPECT_NEAR(leg.shank_length, 0.2, 1e-12);
    EXPECT_NEAR(std::abs(leg.hip_offset), 0.0838, 1e-12);
    EXPECT_EQ(leg.hip_offset < 0.0, !leg.left);
    EXPECT_EQ(leg.front, i < 2);
    EXPECT_EQ(leg.left, i % 2 == 1);
    // The calf's range [−2.70, −0.92] about +y: knee backward.
    EXPECT_EQ(leg.knee_bend, -1.0);
    EXPECT_NEAR(leg.lower[2], -2.69653369433, 1e-9);
    EXPECT_NEAR(leg.upper[2], -0.916297857297, 1e-9);
  }
}

TEST(FindLegs, RejectsModelsWithoutThreeJointLegs) {
  int checked = 0;
  for (const auto& [label, model] : testing::AllTestModels()) {
    if (model->name == "mini_cheetah" || model->name == "a1") continue;
    SCOPED_TRACE(label);
    auto layout = FindLegs(*model);
    ASSERT_FALSE(layout.ok());
    EXPECT_EQ(layout.status().code(), absl::StatusCode::kInvalidArgument);
    const std::string message(layout.status().message());
    if (model->contact_points.empty()) {
      EXPECT_NE(message.find("no contact points"), std::string::npos) << message;
    } else {
      EXPECT_NE(message.find("foot '" + model->contact_points[0].name + "'"), std::string::npos)
          << message;
    }
    ++checked;
  }
  EXPECT_GE(checked, 10);
}

TEST(FindLegs, NamesTheFootOfTheSphere) {
  auto model = testing::Builtin("sphere");
  ASSERT_NE(model, nullptr);
  ASSERT_FALSE(model->contact_points.empty());
  auto layout = FindLegs(*model);
  ASSERT_FALSE(layout.ok());
  EXPECT_EQ(layout.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(layout.status().message().find("0 joints"), std::string::npos)
      << layout.status().message();
}

TEST(FindLegs, RejectsTheUr10Arm) {
  // The arm's wrist links as "feet": a 6-joint chain, not a leg.
  LoadOptions options;
  options.base = BaseMode::kFixed;
  auto model = LoadUrdfFile(testing::ModelPath("ur10/ur10_robot.urdf"), options);
  ASSERT_TRUE(model.ok()) << model.status();
  auto layout = FindLegs(**model);
  ASSERT_FALSE(layout.ok());
  EXPECT_EQ(layout.status().code(), absl::StatusCode::kInvalidArgument);
}

// A trot's layout (the trot and the velocity trot check it): one leg at each
// corner of the base.
TEST(CheckTrotLayout, WantsOneLegAtEachCorner) {
  auto model = testing::MiniCheetah();
  ASSERT_NE(model, nullptr);
  auto layout = FindLegs(*model);
  ASSERT_TRUE(layout.ok()) << layout.status();
  EXPECT_TRUE(CheckTrotLayout(*model, *layout).ok());
  LegLayout three = *layout;
  three.legs.pop_back();
  absl::Status status = CheckTrotLayout(*model, three);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("needs four legs"), std::string::npos) << status;
  EXPECT_NE(status.message().find("found 3 legs"), std::string::npos) << status;
  LegLayout twice = *layout;  // four legs, two of them at one corner
  for (Leg& leg : twice.legs) leg.front = true;
  status = CheckTrotLayout(*model, twice);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("found 4 legs (FL 2, FR 2, HL 0, HR 0)"), std::string::npos)
      << status;
}

TEST(LegForwardKinematics, AgreesWithTheEngine) {
  for (const auto& [label, model] : testing::Quadrupeds()) {
    SCOPED_TRACE(label);
    ASSERT_NE(model, nullptr);
    auto layout = FindLegs(*model);
    ASSERT_TRUE(layout.ok()) << layout.status();
    Data data = MakeData(*model);
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> u(-3.0, 3.0);
    for (const Leg& leg : layout->legs) {
      for (int trial = 0; trial < 50; ++trial) {
        const Vec3 angles(u(rng), u(rng), u(rng));
        const Vec3 engine = EngineFoot(*model, data, leg, angles);
        EXPECT_LT((LegForwardKinematics(leg, angles) - engine).norm(), 1e-12);
      }
    }
  }
}

TEST(LegJacobian, EqualsCentralDifferencesOfTheForwardKinematics) {
  for (const auto& [label, model] : testing::Quadrupeds()) {
    SCOPED_TRACE(label);
    ASSERT_NE(model, nullptr);
    auto layout = FindLegs(*model);
    ASSERT_TRUE(layout.ok()) << layout.status();
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> u(-3.0, 3.0);
    constexpr double kH = 1e-6;
    for (const Leg& leg : layout->legs) {
      for (int trial = 0; trial < 50; ++trial) {
        const Vec3 angles(u(rng), u(rng), u(rng));
        const Mat3 J = LegJacobian(leg, angles);
        for (int j = 0; j < 3; ++j) {
          Vec3 plus = angles, minus = angles;
          plus[j] += kH;
          minus[j] -= kH;
          const Vec3 fd =
              (LegForwardKinematics(leg, plus) - LegForwardKinematics(leg, minus)) / (2.0 * kH);
          EXPECT_LT((J.col(j) - fd).norm(), 1e-8) << "joint " << j;
        }
      }
    }
  }
}

// Random joint angles within the limits (continuous joints: a working range),
// on the leg's branch: knee bent the leg's way, foot below the abduction axis.
bool SamplePrincipal(const Leg& leg, std::mt19937_64& rng, Vec3& angles) {
  const double lo[3] = {-0.8, -1.2, 0.3};  // |φ_a|, φ_h, |δ| ranges
  const double hi[3] = {0.8, 1.2, 2.6};
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const double phi_a = lo[0] + (hi[0] - lo[0]) * u(rng);
  const double phi_h = lo[1] + (hi[1] - lo[1]) * u(rng);
  const double phi_k = leg.knee_bend * (lo[2] + (hi[2] - lo[2]) * u(rng));
  const double phi[3] = {phi_a, phi_h, phi_k};
  for (int j = 0; j < 3; ++j) {
    angles[j] = leg.axis_sign[j] * phi[j];
    if (angles[j] < leg.lower[j] || angles[j] > leg.upper[j]) return false;
  }
  // Foot below the abduction axis in the abducted frame (the IK's Z branch).
  const Vec3 foot_unabducted = LegForwardKinematics(leg, Vec3(0.0, angles[1], angles[2]));
  return foot_unabducted.z() < -1e-3;
}

TEST(LegIk, RoundTripThroughEngineForwardKinematics) {
  for (const auto& [label, model] : testing::Quadrupeds()) {
    SCOPED_TRACE(label);
    ASSERT_NE(model, nullptr);
    auto layout = FindLegs(*model);
    ASSERT_TRUE(layout.ok()) << layout.status();
    Data data = MakeData(*model);
    std::mt19937_64 rng(11);
    for (const Leg& leg : layout->legs) {
      SCOPED_TRACE(leg.foot_name);
      int tested = 0;
      while (tested < 200) {
        Vec3 sampled;
        if (!SamplePrincipal(leg, rng, sampled)) continue;
        ++tested;
        // A reachable target: where the engine puts the foot.
        const Vec3 target = EngineFoot(*model, data, leg, sampled);
        Vec3 angles;
        const absl::Status status = LegInverseKinematics(leg, target, angles);
        ASSERT_TRUE(status.ok()) << status;
        // IK ∘ FK: the engine puts the foot back on the target…
        EXPECT_LT((EngineFoot(*model, data, leg, angles) - target).norm(), 1e-9);
        // …with the very angles sampled (a unique solution on the branch).
        for (int j = 0; j < 3; ++j) EXPECT_NEAR(angles[j], sampled[j], 1e-7) << j;
      }
    }
  }
}

TEST(LegIk, RandomTargetsInsideTheWorkspaceAreReached) {
  // Targets drawn in Cartesian space (not from angles): every one inside the
  // reach annulus and below the hip is solved exactly (Mini Cheetah: no limits).
  auto model = testing::MiniCheetah();
  ASSERT_NE(model, nullptr);
  auto layout = FindLegs(*model);
  ASSERT_TRUE(layout.ok());
  Data data = MakeData(*model);
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> ux(-0.25, 0.25), uy(-0.25, 0.25), uz(-0.39, -0.05);
  int solved = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Leg& leg = layout->legs[trial % 4];
    const Vec3 target(ux(rng), uy(rng), uz(rng));
    Vec3 angles;
    if (LegIk(leg, target, angles) != IkResult::kOk) continue;
    ++solved;
    EXPECT_LT((EngineFoot(*model, data, leg, angles) - target).norm(), 1e-9);
  }
  EXPECT_GT(solved, 1000);
}

TEST(LegIk, UnreachableTargetsAreClampedAndReported) {
  for (const auto& [label, model] : testing::Quadrupeds()) {
    SCOPED_TRACE(label);
    ASSERT_NE(model, nullptr);
    auto layout = FindLegs(*model);
    ASSERT_TRUE(layout.ok());
    const Leg& leg = layout->legs[0];
    const double reach = leg.thigh_length + leg.shank_length;
    Vec3 angles;
    // Far below: the leg is stretched straight toward the target (as far as
    // the knee's limits allow).
    const Vec3 far(0.0, leg.hip_offset, -2.0 * reach);
    const absl::Status status = LegInverseKinematics(leg, far, angles);
    EXPECT_EQ(status.code(), absl::StatusCode::kOutOfRange);
    EXPECT_NE(status.message().find(leg.foot_name), std::string::npos) << status;
    EXPECT_NE(status.message().find("reach"), std::string::npos) << status;
    const Vec3 clamped = LegForwardKinematics(leg, angles);
    EXPECT_NEAR(clamped.y(), leg.hip_offset, 1e-9);
    if (label == "a1") {
      // The A1's knee cannot straighten: the calf stops at its limit −0.92 rad.
      EXPECT_DOUBLE_EQ(angles[2], leg.upper[2]);
      EXPECT_NEAR(clamped.x(), 0.0, 1e-9);  // the hip still aims it at the target
    } else {
      EXPECT_NEAR(clamped.z(), -reach, 1e-6);
      EXPECT_NEAR(clamped.x(), 0.0, 1e-6);
    }
    // On the abduction axis, inside the hip offset.
    EXPECT_EQ(LegIk(leg, Vec3(0.0, 0.0, 0.0), angles), IkResult::kInsideOffset);
    // Folded: just outside the inner radius ||l₁| − |l₂|| the Mini Cheetah
    // reaches; the A1 (equal links, inner radius 0) runs into its calf limit.
    const double inner = std::abs(leg.thigh_length - leg.shank_length);
    const Vec3 folded(leg.hip_pitch.x() + inner + 0.001, leg.hip_offset, leg.hip_pitch.z());
    EXPECT_EQ(LegIk(leg, folded, angles), label == "a1" ? IkResult::kJointLimit : IkResult::kOk);
    if (label == "mini_cheetah") {
      const Vec3 inside(leg.hip_pitch.x() + 0.5 * inner, leg.hip_offset, leg.hip_pitch.z());
      EXPECT_EQ(LegIk(leg, inside, angles), IkResult::kTooClose);
      EXPECT_NEAR((LegForwardKinematics(leg, angles) - leg.hip_pitch).norm(), inner, 1e-9);
    }
  }
}

TEST(LegIk, A1JointLimitsClampAndReport) {
  auto model = testing::UnitreeA1();
  ASSERT_NE(model, nullptr);
  auto layout = FindLegs(*model);
  ASSERT_TRUE(layout.ok());
  const Leg& leg = layout->legs[0];
  // Abduction beyond ±0.80 rad: the foot swung far outward and up.
  const double phi = 1.2;
  const Vec3 target(0.0, std::cos(phi) * leg.hip_offset + std::sin(phi) * 0.3,
                    std::sin(phi) * leg.hip_offset - std::cos(phi) * 0.3);
  Vec3 angles;
  const absl::Status status = LegInverseKinematics(leg, target, angles);
  EXPECT_EQ(status.code(), absl::StatusCode::kOutOfRange) << status;
  EXPECT_NE(status.message().find("joint limits"), std::string::npos) << status;
  for (int j = 0; j < 3; ++j) {
    EXPECT_GE(angles[j], leg.lower[j]);
    EXPECT_LE(angles[j], leg.upper[j]);
  }
  EXPECT_DOUBLE_EQ(std::abs(angles[0]), leg.upper[0]);
}

// LegIkPair's second solution (the first's angles plus small differences)
// equals a second LegIk up to rounding: for nearby targets (the trot's
// finite-difference step, and farther), reachable or not, within the joint
// limits or clamped to them (the A1's), on every leg.
TEST(LegIkPair, MatchesTwoLegIkCalls) {
  for (const auto& [label, model] : testing::Quadrupeds()) {
    SCOPED_TRACE(label);
    ASSERT_NE(model, nullptr);
    auto layout = FindLegs(*model);
    ASSERT_TRUE(layout.ok());
    std::mt19937_64 rng(9);
    std::uniform_real_distribution<double> ux(-0.4, 0.4), uy(-0.4, 0.4), uz(-0.6, 0.1);
    std::uniform_real_distribution<double> step(-1.0, 1.0);
    int clamped = 0;
    for (int trial = 0; trial < 4000; ++trial) {
      const Leg& leg = layout->legs[trial % 4];
      const Vec3 target(ux(rng), uy(rng), uz(rng));
      const double size = trial % 3 == 0 ? 1e-6 : (trial % 3 == 1 ? 1e-3 : 0.05);
      const Vec3 near = target + size * Vec3(step(rng), step(rng), step(rng));
      Vec3 angles, angles_near, expected, expected_near;
      const IkResult result = LegIkPair(leg, target, near, angles, angles_near);
      EXPECT_EQ(result, LegIk(leg, target, expected));
      const IkResult result_near = LegIk(leg, near, expected_near);
      clamped += result_near != IkResult::kOk;
      EXPECT_EQ(angles, expected);
      for (int j = 0; j < 3; ++j) {
        // Up to rounding, or a whole turn apart (equal as joint angles).
        EXPECT_NEAR(WrapAngle(angles_near[j] - expected_near[j]), 0.0, 1e-12)
            << "joint " << j << " target " << target.transpose() << " near " << near.transpose();
      }
    }
    EXPECT_GT(clamped, 100);  // the clamped branches were exercised
  }
}

TEST(FindLegs, LinkAnglesAboutY) {
  for (const auto& [label, model] : testing::Quadrupeds()) {
    SCOPED_TRACE(label);
    ASSERT_NE(model, nullptr);
    auto layout = FindLegs(*model);
    ASSERT_TRUE(layout.ok());
    for (const Leg& leg : layout->legs) {
      // ang(w) = atan2(x, z): the unit vectors at these angles are l₁/|l₁|, l₂/|l₂|.
      EXPECT_NEAR(std::sin(leg.thigh_angle) * leg.thigh_length, leg.thigh.x(), 1e-12);
      EXPECT_NEAR(std::cos(leg.thigh_angle) * leg.thigh_length, leg.thigh.y(), 1e-12);
      EXPECT_NEAR(std::sin(leg.shank_angle) * leg.shank_length, leg.shank.x(), 1e-12);
      EXPECT_NEAR(std::cos(leg.shank_angle) * leg.shank_length, leg.shank.y(), 1e-12);
    }
  }
}

TEST(IkResultName, EveryValueNamed) {
  for (IkResult r : {IkResult::kOk, IkResult::kTooFar, IkResult::kTooClose, IkResult::kInsideOffset,
                     IkResult::kJointLimit}) {
    EXPECT_STRNE(IkResultName(r), "unknown");
  }
}

}  // namespace
}  // namespace moreau::control
