// Settings::transmission (settings.h): the gear / rotor-inertia override of a
// simulation's own Model copy, its validation, and the physics it adds — the
// reflected inertia N²·I_rotor (002 §IV-C) slows a pendulum exactly as the
// added inertia predicts.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <vector>

#include "engine/dynamics/crba.h"
#include "engine/dynamics/data.h"
#include "engine/model/loader.h"
#include "engine/sim/settings.h"
#include "engine/sim/simulation.h"

namespace moreau::sim {
namespace {

std::shared_ptr<const Model> Load(const char* name) {
  auto model = LoadBuiltin(name);
  EXPECT_TRUE(model.ok()) << model.status();
  return *model;
}

TEST(TransmissionSettings, ValidateNamesTheField) {
  Settings s;
  s.transmission.gear = -1.0;
  absl::Status status = Validate(s);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("transmission gear"), std::string_view::npos) << status;
  s.transmission.gear = std::nan("");
  EXPECT_FALSE(Validate(s).ok());
  s.transmission.gear = 0.0;
  s.transmission.rotor_inertia = -1e-5;
  status = Validate(s);
  EXPECT_NE(status.message().find("rotor_inertia"), std::string_view::npos) << status;
  s.transmission.rotor_inertia = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(Validate(s).ok());
  s.transmission = {};
  EXPECT_TRUE(Validate(s).ok());
  Settings bad;
  bad.transmission = {-2.0, 0.0};
  EXPECT_FALSE(Simulation::Create(Load("pendulum"), bad).ok());
}

TEST(TransmissionSettings, OverrideCopiesTheModelAndSetsArmature) {
  const auto model = Load("mini_cheetah");
  Settings s;
  s.transmission = {9.0, 2e-4};
  auto sim = Simulation::Create(model, s);
  ASSERT_TRUE(sim.ok()) << sim.status();
  const Model& m = (*sim)->model();
  EXPECT_NE(&m, model.get());  // its own copy; the shared model is untouched
  EXPECT_TRUE(model->armature.isZero());
  for (const Actuator& a : m.actuators) {
    EXPECT_EQ(a.gear, 9.0);
    EXPECT_EQ(a.rotor_inertia, 2e-4);
    EXPECT_EQ(m.armature[m.joints[a.joint].v_index], 81.0 * 2e-4);
  }
  EXPECT_TRUE(m.armature.head<6>().isZero());  // the floating base has no rotor
  // M of the copy = M of the shared model + diag(N² I_rotor), exactly.
  Data d0 = MakeData(*model);
  Data d1 = MakeData(m);
  const Eigen::MatrixXd M0 = Crba(*model, d0, model->q_default);
  const Eigen::MatrixXd M1 = Crba(m, d1, model->q_default);
  for (int i = 0; i < m.nv; ++i) EXPECT_EQ(M1(i, i), M0(i, i) + m.armature[i]);

  // Only the gear: the rotor inertia stays the model's (0), so no armature.
  s.transmission = {50.0, 0.0};
  auto gear_only = Simulation::Create(model, s);
  ASSERT_TRUE(gear_only.ok());
  EXPECT_EQ((*gear_only)->model().actuators[0].gear, 50.0);
  EXPECT_TRUE((*gear_only)->model().armature.isZero());
}

TEST(TransmissionSettings, NoOverrideIsBitIdentical) {
  // The default settings share the model and step exactly as before.
  const auto model = Load("mini_cheetah");
  Settings s;
  s.control.mode = ControlMode::kPd;
  auto sim = Simulation::Create(model, s);
  ASSERT_TRUE(sim.ok());
  EXPECT_EQ(&(*sim)->model(), model.get());
  // The loaded model carries a zero armature (N = 1, I_rotor = 0); a copy
  // without any (empty: the armature terms are skipped, the code path before
  // transmissions) steps to the same bits.
  ASSERT_EQ(model->armature.size(), model->nv);
  EXPECT_TRUE(model->armature.isZero());
  auto zero = std::make_shared<Model>(*model);
  zero->armature.resize(0);
  auto sim_zero = Simulation::Create(zero, s);
  ASSERT_TRUE(sim_zero.ok());
  Eigen::VectorXd action(model->nu());
  action.setConstant(0.2);
  ASSERT_TRUE((*sim)->StepAction(action, 200).ok());
  ASSERT_TRUE((*sim_zero)->StepAction(action, 200).ok());
  EXPECT_EQ((*sim)->state().q, (*sim_zero)->state().q);
  EXPECT_EQ((*sim)->state().v, (*sim_zero)->state().v);
}

// Period of small oscillations of the built-in pendulum (1 kg bob, 1 m, bob
// inertia 0.001 kg m²) geared N = 10 with I_rotor = 0.01 kg m²:
//   T = 2π √((m l² + I_bob + N² I_rotor) / (m g l)),
// 2.838 s against 2.007 s without the rotor.
double MeasuredPeriod(const Settings& settings, int steps) {
  auto sim = Simulation::Create(Load("pendulum"), settings);
  EXPECT_TRUE(sim.ok()) << sim.status();
  State start = (*sim)->state();
  start.q[0] = 0.02;  // rad: amplitude correction (1 + θ²/16) ≈ 3e-5
  EXPECT_TRUE((*sim)->SetState(start).ok());
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(1);
  std::vector<double> crossings;  // upward zero crossings, interpolated
  double prev = start.q[0];
  for (int k = 0; k < steps; ++k) {
    EXPECT_TRUE((*sim)->Step(zero, 1).ok());
    const double q = (*sim)->state().q[0];
    if (prev < 0.0 && q >= 0.0) {
      const double t = (*sim)->state().time - settings.dt * q / (q - prev);
      crossings.push_back(t);
    }
    prev = q;
  }
  EXPECT_GE(crossings.size(), 3u);
  if (crossings.size() < 2) return 0.0;
  return (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
}

TEST(TransmissionSettings, GearedPendulumPeriodMatchesTheAddedInertia) {
  Settings s;
  SpringDamperSettings plain;  // no contact points: plain ABA + RK4
  plain.integrator = step::Integrator::kRk4;
  s.contact = plain;
  s.dt = 1e-3;
  const double mgl = 9.81;
  const double I_link = 1.0 + 0.001;
  const double T_plain = 2.0 * std::numbers::pi * std::sqrt(I_link / mgl);
  EXPECT_NEAR(MeasuredPeriod(s, 9000), T_plain, 1e-3 * T_plain);

  s.transmission = {10.0, 0.01};  // armature 1 kg m²
  const double T_geared = 2.0 * std::numbers::pi * std::sqrt((I_link + 1.0) / mgl);
  EXPECT_NEAR(MeasuredPeriod(s, 12000), T_geared, 1e-3 * T_geared);
  EXPECT_GT(T_geared / T_plain, 1.4);

  // The same with hard contact's Moreau step (M and its factor, not ABA).
  s.contact = DefaultContactSettings(ContactModel::kMoreauSor);
  EXPECT_NEAR(MeasuredPeriod(s, 12000), T_geared, 2e-3 * T_geared);
}

}  // namespace
}  // namespace moreau::sim
