// Holding the built-in ur10 still in a bent pose under gravity: the step
// sizes at which a stiff joint PD holds it and inverse-dynamics control does.
// The explicit step keeps a joint spring stable only while k_p Δt² / I < 4,
// and the arm's smallest joint inertia (the wrist's, about 5e-4 kg m² with
// the rest of the chain free, control::JointInertias) sets I.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "engine/control/pd.h"
#include "engine/model/loader.h"
#include "engine/sim/simulation.h"

namespace moreau::sim {
namespace {

// Shoulder lifted, elbow bent, wrist turned: every joint but the base's and
// the last carries a gravity load (rad).
constexpr double kPose[6] = {0.0, -1.2, 1.4, -1.0, -1.5, 0.0};

// A stiff joint PD: the gravity sag τ_g / k_p of the shoulder (about 130 N m)
// is about 0.013 rad.
constexpr double kStiffKp = 1e4;  // N m / rad
constexpr double kStiffKd = 100;  // N m s / rad, capped at I / Δt (StableJointPd)

struct Hold {
  bool diverged = false;
  double time = 0.0;       // s, when it stopped
  double max_error = 0.0;  // rad, largest |q − pose| of any joint over the run
};

Hold HoldPose(ControlMode mode, double dt, double duration) {
  Hold r;
  auto model = LoadBuiltin("ur10");
  EXPECT_TRUE(model.ok()) << model.status();
  if (!model.ok()) return r;
  Settings settings;
  settings.dt = dt;
  settings.control.mode = mode;
  settings.control.gains = {.kp = kStiffKp, .kd = kStiffKd};
  auto sim = Simulation::Create(*model, settings);
  EXPECT_TRUE(sim.ok()) << sim.status();
  if (!sim.ok()) return r;
  Simulation& s = **sim;
  State start = s.state();
  for (int j = 0; j < 6; ++j) start.q[j] = kPose[j];
  EXPECT_TRUE(s.SetState(start).ok());
  const Eigen::VectorXd target = Eigen::Map<const Eigen::VectorXd>(kPose, 6);
  const long steps = std::lround(duration / dt);
  for (long k = 0; k < steps && !r.diverged; ++k) {
    r.diverged = !s.StepAction(target, 1).ok();
    for (int j = 0; j < 6 && !r.diverged; ++j) {
      r.max_error = std::max(r.max_error, std::abs(s.state().q[j] - kPose[j]));
    }
  }
  r.time = s.state().time;
  return r;
}

TEST(Ur10Hold, TheWristsInertiaIsTheChainsSmallest) {
  auto model = LoadBuiltin("ur10");
  ASSERT_TRUE(model.ok()) << model.status();
  const Eigen::VectorXd q = Eigen::Map<const Eigen::VectorXd>(kPose, 6);
  const Eigen::VectorXd inertia = control::JointInertias(**model, q);
  ASSERT_EQ(inertia.size(), 6);
  for (int j = 0; j < 6; ++j) {
    EXPECT_GT(inertia[j], 4e-4) << j;
    EXPECT_LT(inertia[j], 6e-4) << j;
    // k_p Δt² / I: past 4 at 1 ms, far below it at 0.1 ms.
    EXPECT_GT(kStiffKp * 1e-6 / inertia[j], 4.0);
    EXPECT_LT(kStiffKp * 1e-8 / inertia[j], 4.0);
  }
}

TEST(Ur10Hold, StiffPdDivergesAtOneMillisecond) {
  const Hold hold = HoldPose(ControlMode::kPd, 1e-3, 1.0);
  EXPECT_TRUE(hold.diverged) << "held within " << hold.max_error << " rad";
  EXPECT_LT(hold.time, 1.0);
}

TEST(Ur10Hold, StiffPdHoldsAtATenthOfAMillisecond) {
  const Hold hold = HoldPose(ControlMode::kPd, 1e-4, 1.0);
  EXPECT_FALSE(hold.diverged);
  EXPECT_LT(hold.max_error, 0.02);  // the gravity sag, about 0.013 rad
}

TEST(Ur10Hold, InverseDynamicsHoldsAtOneMillisecond) {
  const Hold hold = HoldPose(ControlMode::kId, 1e-3, 2.0);
  EXPECT_FALSE(hold.diverged);
  EXPECT_LT(hold.max_error, 1e-9);
}

}  // namespace
}  // namespace moreau::sim
