// The stand and trot controllers on any quadruped (tuning.h): the Mini
// Cheetah under its default (paper-001) and the derived tuning, the Unitree
// A1 and synthetic quadrupeds of 5, 12, 30 and 55 kg under their default
// (derived), each standing 10 s and trotting 10 s at Δt = 1 ms and 2.5 ms
// with the moreau-jor and the spring-damper contact models. None falls (the
// trunk stays above half its standing height and within 30° of upright
// once the drop from the start pose has settled) and the trot moves forward.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <numbers>
#include <ostream>
#include <string>
#include <vector>

#include "engine/control/legs.h"
#include "engine/control/tuning.h"
#include "engine/sim/simulation.h"
#include "tests/unit/control/control_test_util.h"
#include "tests/unit/control/synthetic_quadruped.h"

namespace moreau::sim {
namespace {

constexpr double kDurationS = 10.0;
// The robot starts in Model::q_default (straight legs) and drops onto its
// feet: the fall checks start after this.
constexpr double kSettleS = 1.0;

struct Case {
  std::string robot;  // mini_cheetah, unitree_a1, synthetic_<mass>kg
  control::Tuning tuning;
  std::string controller;  // stand, trot
  double dt;
  ContactModel contact;
};

std::string Name(const Case& c) {
  std::string name = c.robot + "_" + std::string(control::TuningName(c.tuning)) + "_" +
                     c.controller + "_" + (c.dt < 2e-3 ? "1ms" : "2_5ms") + "_" +
                     std::string(ContactModelName(c.contact));
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

// gtest prints a parameter by this rather than as raw bytes.
void PrintTo(const Case& c, std::ostream* os) { *os << Name(c); }

std::shared_ptr<const Model> Robot(const std::string& robot) {
  if (robot == "mini_cheetah") return testing::MiniCheetah();
  if (robot == "unitree_a1") return testing::UnitreeA1();
  for (double mass : {5.0, 12.0, 30.0, 55.0}) {
    const testing::SyntheticQuadruped spec = testing::SyntheticQuadrupedOfMass(mass);
    if (spec.name != robot) continue;
    auto model = testing::LoadSyntheticQuadruped(spec);
    EXPECT_TRUE(model.ok()) << model.status();
    return model.ok() ? *model : nullptr;
  }
  return nullptr;
}

double TiltDeg(const Eigen::VectorXd& q) {
  const double x = q[4], y = q[5];
  const double c = 1.0 - 2.0 * (x * x + y * y) / q.segment<4>(3).squaredNorm();
  return std::acos(std::clamp(c, -1.0, 1.0)) * 180.0 / std::numbers::pi;
}

class AnyQuadrupedTest : public ::testing::TestWithParam<Case> {};

TEST_P(AnyQuadrupedTest, DoesNotFallAndTrotsForward) {
  const Case& c = GetParam();
  const std::shared_ptr<const Model> model = Robot(c.robot);
  ASSERT_NE(model, nullptr);
  Settings settings;
  settings.contact = DefaultContactSettings(c.contact);
  settings.dt = c.dt;
  auto kind = ParseControllerKind(c.controller);
  ASSERT_TRUE(kind.ok()) << kind.status();
  settings.controller.kind = *kind;
  settings.controller.options.tuning = c.tuning;
  // The stand height and commanded speed the tuning chose.
  const control::LegLayout layout = *control::FindLegs(*model);
  absl::StatusOr<control::ControllerTuning> tuning =
      control::TuneController(*model, layout, settings.controller.options, c.controller == "trot");
  ASSERT_TRUE(tuning.ok()) << tuning.status();
  const double stand_height = tuning->stand_height;
  const double speed =
      tuning->gait.step_length * tuning->gait.frequency_hz / tuning->gait.duty_factor;

  auto sim = Simulation::Create(model, settings);
  ASSERT_TRUE(sim.ok()) << sim.status();
  Simulation& s = **sim;
  const Eigen::VectorXd no_action = Eigen::VectorXd::Zero(s.model().nu());
  const long steps = std::lround(kDurationS / c.dt);
  double height_min = 1e9;
  double tilt_max = 0.0;
  for (long k = 0; k < steps; ++k) {
    ASSERT_TRUE(s.StepAction(no_action, 1).ok()) << "step " << k;
    const Eigen::VectorXd& q = s.state().q;
    ASSERT_TRUE(q.allFinite() && s.state().v.allFinite()) << "step " << k;
    if (s.state().time < kSettleS) continue;
    height_min = std::min(height_min, q[2]);
    tilt_max = std::max(tilt_max, TiltDeg(q));
  }
  const Eigen::VectorXd& q = s.state().q;
  std::printf(
      "[ measured ] %s: stand height %.3f m, lowest %.3f m, largest tilt %.1f deg, final (x, y) "
      "(%.3f, %.3f) m, commanded %.3f m/s\n",
      Name(c).c_str(), stand_height, height_min, tilt_max, q[0], q[1], speed);
  EXPECT_GT(height_min, 0.5 * stand_height);
  EXPECT_LT(tilt_max, 30.0);
  if (c.controller == "trot") {
    // Forward: at least a fifth of the commanded speed over the gait's run.
    EXPECT_GT(q[0], 0.2 * speed * (kDurationS - 1.3));
  }
}

std::vector<Case> Cases() {
  struct RobotTuning {
    std::string robot;
    control::Tuning tuning;
  };
  const RobotTuning robots[] = {
      {"mini_cheetah", control::Tuning::kAuto},   {"mini_cheetah", control::Tuning::kDerived},
      {"unitree_a1", control::Tuning::kAuto},     {"synthetic_5kg", control::Tuning::kAuto},
      {"synthetic_12kg", control::Tuning::kAuto}, {"synthetic_30kg", control::Tuning::kAuto},
      {"synthetic_55kg", control::Tuning::kAuto}};
  std::vector<Case> cases;
  for (const RobotTuning& r : robots) {
    for (const char* controller : {"stand", "trot"}) {
      for (double dt : {1e-3, 2.5e-3}) {
        for (ContactModel contact : {ContactModel::kMoreauJor, ContactModel::kSpringDamper}) {
          cases.push_back({r.robot, r.tuning, controller, dt, contact});
        }
      }
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Quadrupeds, AnyQuadrupedTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return Name(info.param);
                         });

}  // namespace
}  // namespace moreau::sim
