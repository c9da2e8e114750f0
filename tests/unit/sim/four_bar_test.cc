// Closed kinematic chains (000 eq. 19–20, 004 §3.1): the built-in four_bar
// (a parallelogram linkage with one revolute cut joint) under gravity, with
// the cut joint solved by prox iteration and directly
// (MoreauSettings::loop_solver).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "engine/dynamics/data.h"
#include "engine/dynamics/energy.h"
#include "engine/dynamics/kinematics.h"
#include "engine/dynamics/loop_closure.h"
#include "engine/model/loader.h"
#include "engine/model/loop_closures.h"
#include "engine/sim/simulation.h"

namespace moreau::sim {
namespace {

// The linkage of engine/model/builtin.cc: crank a, coupler b, rocker c,
// ground d; masses of the crank, coupler and rocker (uniform rods).
constexpr double kA = 0.3, kB = 0.5, kC = 0.3, kD = 0.5;
constexpr double kMassCrank = 1.0, kMassCoupler = 2.0, kMassRocker = 0.5;

std::shared_ptr<const Model> FourBar() {
  auto model = LoadBuiltin("four_bar");
  EXPECT_TRUE(model.ok()) << model.status();
  return model.ok() ? *model : nullptr;
}

// The closed loop has one DOF: q = (θ, −θ, θ), the coupler translating on a
// circle of radius a. Reduced system (Lagrange): I θ̈ = −K sin θ with
//   I = (m_c a²/3) + (m_r c²/3) + m_k a²   (crank, rocker about their pivots;
//                                           the coupler's translation)
//   K = g (m_c a/2 + m_r c/2 + m_k a).
double ReducedInertia() {
  return kMassCrank * kA * kA / 3.0 + kMassRocker * kC * kC / 3.0 + kMassCoupler * kA * kA;
}
double ReducedGravity(double g) {
  return g * (kMassCrank * kA / 2.0 + kMassRocker * kC / 2.0 + kMassCoupler * kA);
}

// θ(t) of the reduced pendulum by RK4 with a step far below the simulation's.
class ReducedPendulum {
 public:
  ReducedPendulum(double theta, double omega, double g)
      : theta_(theta), omega_(omega), k_(ReducedGravity(g) / ReducedInertia()) {}
  void Advance(double dt) {
    const int n = 100;
    const double h = dt / n;
    for (int i = 0; i < n; ++i) {
      const auto f = [&](double th) { return -k_ * std::sin(th); };
      const double k1t = omega_, k1w = f(theta_);
      const double k2t = omega_ + 0.5 * h * k1w, k2w = f(theta_ + 0.5 * h * k1t);
      const double k3t = omega_ + 0.5 * h * k2w, k3w = f(theta_ + 0.5 * h * k2t);
      const double k4t = omega_ + h * k3w, k4w = f(theta_ + h * k3t);
      theta_ += h / 6.0 * (k1t + 2 * k2t + 2 * k3t + k4t);
      omega_ += h / 6.0 * (k1w + 2 * k2w + 2 * k3w + k4w);
    }
  }
  double theta() const { return theta_; }

 private:
  double theta_, omega_, k_;
};

TEST(FourBar, BuiltinIsATreeOfThreeRevoluteJointsPlusOneCutJoint) {
  auto model = FourBar();
  ASSERT_NE(model, nullptr);
  EXPECT_FALSE(model->floating_base);
  EXPECT_EQ(model->nv, 3);
  ASSERT_EQ(model->loop_closures.size(), 1u);
  EXPECT_EQ(model->loop_closures[0].body_a, model->BodyIndex("rocker"));
  EXPECT_EQ(model->loop_closures[0].body_b, 0);
  EXPECT_NEAR(model->TotalMass(), kMassCrank + kMassCoupler + kMassRocker, 1e-12);
  // Closed at the default pose.
  Data data = MakeData(*model);
  ForwardKinematics(*model, data, model->q_default);
  Eigen::VectorXd phi(5);
  LoopClosureError(*model, data, model->loop_closures[0], phi);
  EXPECT_LT(phi.norm(), 1e-12);
}

TEST(FourBar, LoopClosureValidationNamesTheField) {
  auto base = FourBar();
  ASSERT_NE(base, nullptr);
  const auto expect_error = [&](auto mutate, const std::string& field) {
    Model m = *base;
    mutate(m.loop_closures[0]);
    const absl::Status status = ValidateLoopClosures(m);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << field;
    EXPECT_NE(status.message().find(field), std::string_view::npos) << status.message();
    EXPECT_NE(status.message().find("rocker_ground"), std::string_view::npos) << status.message();
  };
  expect_error([](LoopClosure& l) { l.body_a = 9; }, "body_a");
  expect_error([](LoopClosure& l) { l.body_b = -1; }, "body_b");
  expect_error([](LoopClosure& l) { l.body_b = l.body_a; }, "body_b");
  expect_error([](LoopClosure& l) { l.axis_a = Vec3(0.0, 2.0, 0.0); }, "axis_a");
  expect_error([](LoopClosure& l) { l.point_b = Vec3(NAN, 0.0, 0.0); }, "point_b");
  // And Simulation::Create refuses such a model.
  auto bad = std::make_shared<Model>(*base);
  bad->loop_closures[0].axis_b = Vec3::Zero();
  const auto sim = Simulation::Create(bad, Settings{});
  ASSERT_FALSE(sim.ok());
  EXPECT_NE(sim.status().message().find("axis_b"), std::string_view::npos);
}

TEST(FourBar, ForceLawContactModelIsRefusedNamingBoth) {
  auto model = FourBar();
  ASSERT_NE(model, nullptr);
  Settings settings;
  settings.contact = DefaultContactSettings(ContactModel::kHertz);
  const auto sim = Simulation::Create(model, settings);
  ASSERT_FALSE(sim.ok());
  EXPECT_EQ(sim.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(sim.status().message().find("loop closure"), std::string_view::npos);
  EXPECT_NE(sim.status().message().find("hertz"), std::string_view::npos);
}

TEST(FourBar, ParseLoopSolver) {
  EXPECT_EQ(*ParseLoopSolver("prox"), step::LoopSolver::kProx);
  EXPECT_EQ(*ParseLoopSolver("direct"), step::LoopSolver::kDirect);
  const auto bad = ParseLoopSolver("lu");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("lu"), std::string_view::npos);
}

struct SwingResult {
  bool ok = false;
  double max_drift = INFINITY;        // m, ‖x_A − x_B‖ of the cut joint
  double max_theta_error = INFINITY;  // rad, against the reduced pendulum
  double max_coupler_angle = INFINITY;
  double max_freudenstein = INFINITY;
  double max_energy_gain = INFINITY;  // J, max over t of E(t) − E(0)
  double energy_loss = 0.0;           // J, E(0) − E(end)
};

SwingResult Swing(step::LoopSolver solver, double dt, double duration, bool tight) {
  SwingResult r;
  auto model = FourBar();
  if (model == nullptr) return r;
  Settings settings;
  settings.dt = dt;
  MoreauSettings moreau;  // moreau-sor
  moreau.loop_solver = solver;
  if (tight) {
    moreau.prox.max_iterations = 1000;
    moreau.prox.alpha = 1.0;
    moreau.prox.T_abs = moreau.prox.T_rel = 1e-10;
  }
  settings.contact = moreau;
  auto sim = Simulation::Create(model, settings);
  EXPECT_TRUE(sim.ok()) << sim.status();
  if (!sim.ok()) return r;
  Simulation& s = **sim;
  const Model& m = s.model();
  const double theta0 = 0.6;
  State start = s.state();
  start.q << theta0, -theta0, theta0;
  EXPECT_TRUE(s.SetState(start).ok());
  ReducedPendulum reference(theta0, 0.0, 9.81);
  Data data = MakeData(m);
  Eigen::VectorXd phi(5);
  const auto energy = [&] {
    ForwardKinematics(m, data, s.state().q, s.state().v);
    return KineticEnergy(m, data) + PotentialEnergy(m, data);
  };
  const double e0 = energy();
  r.max_drift = r.max_theta_error = r.max_coupler_angle = r.max_freudenstein = 0.0;
  r.max_energy_gain = 0.0;
  const Eigen::VectorXd tau = Eigen::VectorXd::Zero(m.nv);
  const int crank = m.BodyIndex("crank"), coupler = m.BodyIndex("coupler"),
            rocker = m.BodyIndex("rocker");
  // Freudenstein: K1 cos θ4 − K2 cos θ2 + K3 = cos(θ2 − θ4), θ2 the crank's
  // and θ4 the rocker's angle from the ground line A→D.
  const double K1 = kD / kA, K2 = kD / kC,
               K3 = (kA * kA - kB * kB + kC * kC + kD * kD) / (2 * kA * kC);
  const long steps = std::lround(duration / dt);
  for (long k = 0; k < steps; ++k) {
    if (!s.Step(tau, 1).ok()) return r;
    reference.Advance(dt);
    const double e = energy();  // also runs ForwardKinematics
    LoopClosureError(m, data, m.loop_closures[0], phi);
    r.max_drift = std::max(r.max_drift, phi.head<3>().norm());
    const Eigen::VectorXd& q = s.state().q;
    r.max_theta_error = std::max(r.max_theta_error, std::abs(q[0] - reference.theta()));
    r.max_coupler_angle = std::max(r.max_coupler_angle, std::abs(q[0] + q[1]));
    const Vec3 A = BodyPosition(data, crank), B = BodyPosition(data, coupler),
               C = BodyPosition(data, rocker), D(kD, 0.0, 0.0);
    const double theta2 = std::atan2((B - A).z(), (B - A).x());
    const double theta4 = std::atan2((C - D).z(), (C - D).x());
    r.max_freudenstein = std::max(
        r.max_freudenstein,
        std::abs(K1 * std::cos(theta4) - K2 * std::cos(theta2) + K3 - std::cos(theta2 - theta4)));
    r.max_energy_gain = std::max(r.max_energy_gain, e - e0);
    r.energy_loss = e0 - e;
  }
  r.ok = true;
  return r;
}

TEST(FourBar, LoopStaysClosedAndFollowsTheReducedPendulumWithBothSolvers) {
  for (step::LoopSolver solver : {step::LoopSolver::kProx, step::LoopSolver::kDirect}) {
    for (bool tight : {true, false}) {
      SCOPED_TRACE(std::string(LoopSolverName(solver)) + (tight ? " tight" : " default prox"));
      const SwingResult r = Swing(solver, 1e-3, 10.0, tight);
      ASSERT_TRUE(r.ok);
      EXPECT_LT(r.max_drift, 1e-6);
      EXPECT_LT(r.max_coupler_angle, 1e-6);  // the coupler translates
      EXPECT_LT(r.max_freudenstein, 1e-6);
      EXPECT_LT(r.max_theta_error, 1e-3);
      EXPECT_LT(r.max_energy_gain, 1e-4);  // of E ≈ −K cos 0.6 + const: 1.4 J of swing
      std::printf(
          "four_bar, %s%s, dt 1 ms, 10 s: drift %.3g m, coupler angle %.3g rad, Freudenstein "
          "%.3g, θ error %.3g rad, energy gain %.3g J, loss %.3g J\n",
          LoopSolverName(solver), tight ? " (tight prox)" : "", r.max_drift, r.max_coupler_angle,
          r.max_freudenstein, r.max_theta_error, r.max_energy_gain, r.energy_loss);
    }
  }
}

TEST(FourBar, StaysClosedAtTenMillisecondSteps) {
  for (step::LoopSolver solver : {step::LoopSolver::kProx, step::LoopSolver::kDirect}) {
    const SwingResult r = Swing(solver, 1e-2, 10.0, false);
    ASSERT_TRUE(r.ok) << LoopSolverName(solver);
    EXPECT_LT(r.max_drift, 1e-6) << LoopSolverName(solver);
    EXPECT_LT(r.max_theta_error, 0.05) << LoopSolverName(solver);
    EXPECT_LT(r.max_energy_gain, 1e-2) << LoopSolverName(solver);
    std::printf(
        "four_bar, %s, dt 10 ms, 10 s: drift %.3g m, θ error %.3g rad, energy gain %.3g J\n",
        LoopSolverName(solver), r.max_drift, r.max_theta_error, r.max_energy_gain);
  }
}

}  // namespace
}  // namespace moreau::sim
