// A sphere dropped from 1 m: hard contact
// with ε = 0 comes to rest without penetrating and never gains energy; with
// ε = 0.5 it rebounds to ε² h; a linear spring-damper rests at m g / k.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/dynamics/energy.h"
#include "engine/dynamics/kinematics.h"
#include "engine/model/loader.h"
#include "engine/sim/simulation.h"

namespace moreau::sim {
namespace {

struct Drop {
  std::unique_ptr<Simulation> sim;
  double radius = 0.0;
  double mass = 0.0;
};

Drop MakeDrop(const Settings& settings, double height) {
  auto model = LoadBuiltin("sphere");
  EXPECT_TRUE(model.ok()) << model.status();
  Drop d;
  d.radius = (*model)->contact_points.at(0).radius;
  d.mass = (*model)->TotalMass();
  auto sim = Simulation::Create(*model, settings);
  EXPECT_TRUE(sim.ok()) << sim.status();
  d.sim = std::move(*sim);
  State s = d.sim->state();
  s.q[2] = height + d.radius;  // bottom of the sphere at `height`
  EXPECT_TRUE(d.sim->SetState(s).ok());
  return d;
}

double Energy(const Simulation& sim, Data& data) {
  ForwardKinematics(sim.model(), data, sim.state().q, sim.state().v);
  return KineticEnergy(sim.model(), data) + PotentialEnergy(sim.model(), data);
}

// Also 004's least-constraint model, whose impact is inelastic by
// construction (004 eq. 7–8).
TEST(SphereDrop, HardContactInelasticRestsWithoutEnergyGain) {
  for (ContactModel cm :
       {ContactModel::kMoreauJor, ContactModel::kMoreauSor, ContactModel::kLeastConstraint}) {
    SCOPED_TRACE(ContactModelName(cm));
    Settings settings;
    settings.contact = DefaultContactSettings(cm);
    settings.dt = 1e-3;
    if (auto* moreau = std::get_if<MoreauSettings>(&settings.contact)) moreau->law.eps_N = 0.0;
    Drop d = MakeDrop(settings, 1.0);
    Data data = MakeData(d.sim->model());
    const Eigen::VectorXd tau = Eigen::VectorXd::Zero(d.sim->model().nv);
    double E_prev = Energy(*d.sim, data);
    double max_penetration = 0.0;
    for (int k = 0; k < 2000; ++k) {
      ASSERT_TRUE(d.sim->Step(tau, 1).ok());
      const double E = Energy(*d.sim, data);
      // Never rises beyond the prox solver's tolerance (T_rel = T_abs = 1e-6).
      EXPECT_LE(E, E_prev + 1e-6) << "energy rose at step " << k;
      E_prev = E;
      max_penetration = std::max(max_penetration, d.radius - d.sim->state().q[2]);
    }
    EXPECT_LT(max_penetration, 1e-3);
    EXPECT_NEAR(d.sim->state().q[2], d.radius, 1e-3);
    EXPECT_LT(d.sim->state().v.norm(), 1e-6);
  }
}

// 003's micro-macro floor with rebound coefficient 0 (§IV-C): the macro layer
// stops the sphere where it reaches the rigid floor under the membrane
// without a bounce, and the balanced membrane then carries the weight, so it
// rests at m g / k deep like a spring (restitution tests are Moreau-specific:
// 004 has no restitution and 003's e acts only in the macro layer).
TEST(SphereDrop, MicroMacroLandsWithoutReboundAndRestsOnTheMembrane) {
  Settings settings;
  settings.contact = DefaultContactSettings(ContactModel::kMicroMacro);
  settings.dt = 1e-3;
  Drop d = MakeDrop(settings, 1.0);
  const double k = std::get<MicroMacroSettings>(settings.contact).params.membrane.stiffness;
  const Eigen::VectorXd tau = Eigen::VectorXd::Zero(d.sim->model().nv);
  bool landed = false;
  double rebound = 0.0;
  for (int step = 0; step < 3000; ++step) {
    ASSERT_TRUE(d.sim->Step(tau, 1).ok());
    const double z = d.sim->state().q[2] - d.radius;
    if (z <= 0.0) landed = true;
    if (landed) rebound = std::max(rebound, z);
  }
  ASSERT_TRUE(landed);
  EXPECT_LT(rebound, 1e-4);  // no bounce off the floor
  const double depth = d.radius - d.sim->state().q[2];
  EXPECT_NEAR(depth, d.mass * 9.81 / k, 0.05 * d.mass * 9.81 / k);
  EXPECT_LT(d.sim->state().v.norm(), 1e-3);
}

TEST(SphereDrop, HardContactNewtonRestitutionRebound) {
  Settings settings;
  settings.contact = DefaultContactSettings(ContactModel::kMoreauSor);
  settings.dt = 1e-4;
  std::get<MoreauSettings>(settings.contact).law.eps_N = 0.5;
  Drop d = MakeDrop(settings, 1.0);
  const Eigen::VectorXd tau = Eigen::VectorXd::Zero(d.sim->model().nv);
  bool bounced = false;
  double apex = 0.0;
  for (int k = 0; k < 30000; ++k) {
    ASSERT_TRUE(d.sim->Step(tau, 1).ok());
    const double vz = d.sim->state().v[2];
    if (!bounced && vz > 0.0) bounced = true;
    if (bounced) {
      apex = std::max(apex, d.sim->state().q[2] - d.radius);
      if (vz < 0.0) break;  // past the apex
    }
  }
  ASSERT_TRUE(bounced);
  EXPECT_NEAR(apex, 0.25, 0.25 * 0.02);
}

TEST(SphereDrop, LinearSpringDamperRestsAtWeightOverStiffness) {
  Settings settings;
  settings.contact = DefaultContactSettings(ContactModel::kSpringDamper);
  settings.dt = 1e-4;
  Drop d = MakeDrop(settings, 0.2);
  const double k = std::get<SpringDamperSettings>(settings.contact).law.normal_stiffness;
  const Eigen::VectorXd tau = Eigen::VectorXd::Zero(d.sim->model().nv);
  ASSERT_TRUE(d.sim->Step(tau, 30000).ok());
  const double depth = d.radius - d.sim->state().q[2];
  EXPECT_NEAR(depth, d.mass * 9.81 / k, 0.05 * d.mass * 9.81 / k);
}

}  // namespace
}  // namespace moreau::sim
