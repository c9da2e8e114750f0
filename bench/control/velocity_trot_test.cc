// The Mini Cheetah trotting under `id-constraint` control at Δt = 10 ms with
// the velocity trot (engine/control/velocity_trot.h), in the setting of
// moreau_control_bench's trot scenario (BENCHMARKS.md "Paper 002's
// experiments"): the actuators' effort limits 17/17/26 N m bound the joint
// rows, hard contact moreau-sor at α = 1 with up to 1 000 sweeps, the joint
// targets q + Δt q̇_d with time constant 0. The stance-foot slip is the
// bench's measure (stance_slip.h) over the gait's stance phases after the
// start delay.
#include "engine/control/velocity_trot.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "bench/control/stance_slip.h"
#include "engine/control/gait.h"
#include "engine/model/loader.h"
#include "engine/sim/settings.h"
#include "engine/sim/simulation.h"

namespace moreau::bench {
namespace {

struct TrotRun {
  bool ok = false;
  double slip_max = 0.0;  // m, largest stance slip
  int stances = 0;
  double forward = 0.0;     // base x travel (m)
  double min_height = 1.0;  // base height after the start delay (m)
  double min_up = 1.0;      // base z axis' z component after the start delay
};

TrotRun RunVelocityTrot(double dt, double duration) {
  TrotRun r;
  auto loaded = LoadBuiltin("mini_cheetah");
  EXPECT_TRUE(loaded.ok()) << loaded.status();
  if (!loaded.ok()) return r;
  auto limited = std::make_shared<Model>(**loaded);
  for (int a = 0; a < limited->nu(); ++a) {
    limited->actuators[a].effort_limit = a % 3 == 2 ? 26.0 : 17.0;  // Katz et al. 2019
  }
  sim::Settings settings;
  settings.dt = dt;
  sim::MoreauSettings moreau;  // moreau-sor
  moreau.prox.alpha = 1.0;
  moreau.prox.max_iterations = 1000;
  settings.contact = moreau;
  settings.control.mode = sim::ControlMode::kIdConstraint;
  settings.control.id_time_constant = 0.0;
  // "trot" under id-constraint: the simulation runs the velocity trot.
  settings.controller.kind = sim::ControllerKind::kTrot;
  auto created = sim::Simulation::Create(limited, settings);
  EXPECT_TRUE(created.ok()) << created.status();
  if (!created.ok()) return r;
  sim::Simulation& simulation = **created;
  const Model& model = simulation.model();
  const auto* trot = dynamic_cast<const control::VelocityTrot*>(simulation.controller());
  EXPECT_NE(trot, nullptr);
  if (trot == nullptr) return r;
  const size_t nc = model.contact_points.size();
  control::GaitParams phases;
  phases.duty_factor = trot->options().duty_factor;
  const double delay = trot->options().start_delay_s;
  std::vector<bench::StanceTracker> trackers(nc);
  bench::StanceStats stats;
  const Eigen::VectorXd no_action = Eigen::VectorXd::Zero(model.nu());
  const double x0 = simulation.state().q[0];
  const long steps = std::lround(duration / dt);
  for (long k = 0; k < steps; ++k) {
    const absl::Status status = simulation.StepAction(no_action, 1);
    EXPECT_TRUE(status.ok()) << status;
    if (!status.ok()) return r;
    const sim::State& state = simulation.state();
    if (state.time > delay) {
      const Eigen::Quaterniond quat(state.q[3], state.q[4], state.q[5], state.q[6]);
      r.min_up = std::min(r.min_up, (quat.normalized() * Vec3::UnitZ()).z());
      r.min_height = std::min(r.min_height, state.q[2]);
    }
    const std::vector<contact::Contact>& contacts = simulation.contacts().contacts;
    for (size_t c = 0; c < nc && c < contacts.size(); ++c) {
      const double psi =
          control::WrapPhase(state.controller.phase + trot->PhaseOffset(static_cast<int>(c)));
      const bool stance_phase = state.time > delay && control::InStance(phases, psi);
      const bool now_closed = contacts[c].active && contacts[c].NormalForce() > 0.0;
      bench::TrackStance(stance_phase, now_closed, contacts[c].position.head<2>(), trackers[c],
                         stats);
    }
  }
  for (bench::StanceTracker& tracker : trackers) {
    bench::TrackStance(false, false, Eigen::Vector2d::Zero(), tracker, stats);
  }
  r.stances = static_cast<int>(stats.slip.size());
  for (double slip : stats.slip) r.slip_max = std::max(r.slip_max, slip);
  r.forward = simulation.state().q[0] - x0;
  r.ok = true;
  return r;
}

// The target: the trotting quadruped under id-constraint stable at
// ≥ 10 ms with the foot slip during stance < 5 mm.
TEST(VelocityTrot, MiniCheetahTrotsAtTenMillisecondsWithoutSlipping) {
  const TrotRun r = RunVelocityTrot(0.01, 5.0);
  ASSERT_TRUE(r.ok);
  std::printf(
      "[ measured ] velocity trot, id-constraint, 10 ms: %d stances, max slip %.2f mm, "
      "forward %.3f m, min height %.3f m, min up %.4f\n",
      r.stances, 1e3 * r.slip_max, r.forward, r.min_height, r.min_up);
  // 4 legs × ≥ 2 stances per second over the 4.5 s of gait.
  EXPECT_GT(r.stances, 30);
  EXPECT_LT(r.slip_max, 5e-3);
  // Trots forward: 0.25 m/s commanded, ramped over the first 0.8 s.
  EXPECT_GT(r.forward, 0.8);
  // Did not fall: the base stays near its stand height (0.287 m) and level.
  EXPECT_GT(r.min_height, 0.2);
  EXPECT_GT(r.min_up, std::cos(15.0 * M_PI / 180.0));
}

TEST(VelocityTrot, RejectsBadOptions) {
  auto loaded = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(loaded.ok());
  control::VelocityTrotOptions options;
  options.frequency_hz = 0.0;
  auto made = control::VelocityTrot::Create(**loaded, options);
  ASSERT_FALSE(made.ok());
  EXPECT_EQ(made.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(made.status().message().find("frequency_hz"), std::string::npos);
  options = {};
  options.landing_fraction = 0.3;
  made = control::VelocityTrot::Create(**loaded, options);
  ASSERT_FALSE(made.ok());
  EXPECT_NE(made.status().message().find("landing_fraction"), std::string::npos);
  options = {};
  options.duty_factor = 1.0;
  made = control::VelocityTrot::Create(**loaded, options);
  ASSERT_FALSE(made.ok());
  EXPECT_NE(made.status().message().find("duty_factor"), std::string::npos);
}

TEST(VelocityTrot, RejectsAModelWithoutFourLegs) {
  auto loaded = LoadBuiltin("biped");
  ASSERT_TRUE(loaded.ok());
  auto made = control::VelocityTrot::Create(**loaded);
  ASSERT_FALSE(made.ok());
  EXPECT_EQ(made.status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace moreau::bench
