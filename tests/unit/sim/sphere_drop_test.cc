// A sphere dropped from 1 m (issue "contact and time stepping"): hard contact
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

TEST(SphereDrop, HardContactInelasticRestsWithoutEnergyGain) {
  for (ContactModel cm : {ContactModel::kMoreauJor, ContactModel::kMoreauSor}) {
    SCOPED_TRACE(ContactModelName(cm));
    Settings settings;
    settings.contact = cm;
    settings.dt = 1e-3;
    settings.hard_contact.eps_N = 0.0;
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

TEST(SphereDrop, HardContactNewtonRestitutionRebound) {
  Settings settings;
  settings.contact = ContactModel::kMoreauSor;
  settings.dt = 1e-4;
  settings.hard_contact.eps_N = 0.5;
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
  settings.contact = ContactModel::kSpringDamper;
  settings.dt = 1e-4;
  Drop d = MakeDrop(settings, 0.2);
  const double k = settings.force_law.spring_damper.normal_stiffness;
  const Eigen::VectorXd tau = Eigen::VectorXd::Zero(d.sim->model().nv);
  ASSERT_TRUE(d.sim->Step(tau, 30000).ok());
  const double depth = d.radius - d.sim->state().q[2];
  EXPECT_NEAR(depth, d.mass * 9.81 / k, 0.05 * d.mass * 9.81 / k);
}

}  // namespace
}  // namespace moreau::sim
