// Hertz friction stepped by backward Euler (engine/step/implicit_friction.h),
// checked through a different path than the one that solved it: after one
// stage on the Mini Cheetah with its feet 1.5 mm in the ground and slipping,
// the contacts' tangential velocities at the end of the step, Wᵀ (v + Δt q̈)
// with q̈ from ABA, must be the v⁺ at which each contact's friction force is
// eq. 38's −μ(‖v⁺‖) f_n v̂⁺ — which holds only if the Delassus blocks, their
// indices and M⁻¹ W λ are right. In sliding (0.3 m/s) that is μ f_n against
// the end slip; in the stick regime (20 µm/s) the feet end below v_s.
#include "engine/step/implicit_friction.h"

#include <gtest/gtest.h>

#include <span>
#include <vector>

#include "engine/contact/contact_set.h"
#include "engine/contact/hertz.h"
#include "engine/dynamics/jacobians.h"
#include "engine/dynamics/kinematics.h"
#include "engine/model/loader.h"
#include "engine/sim/simulation.h"
#include "engine/step/delassus.h"
#include "engine/step/explicit_step.h"
#include "engine/step/workspace.h"

namespace moreau::step {
namespace {

struct Stage {
  Eigen::VectorXd v_end;         // v + Δt q̈
  std::vector<int> active;       // slots of the active contacts
  Eigen::VectorXd end_velocity;  // 3 per active contact: Wᵀ v_end in [n t1 t2]
};

// One force-law stage of the Mini Cheetah standing 1.5 mm deep on flat ground
// with base velocity (vx, vy, 0), PD-free (τ = 0).
Stage RunStage(const contact::ContactForceParams& params, double vx, double vy, StepWorkspace& w) {
  Stage out;
  auto model = LoadBuiltin("mini_cheetah");
  EXPECT_TRUE(model.ok()) << model.status();
  const Model& m = **model;
  const contact::Terrain terrain;
  Eigen::VectorXd q = m.q_default;
  // Lower the base until the lowest foot is 1.5 mm deep.
  ForwardKinematics(m, w.data, q);
  ContactPositions(m, w.data);
  contact::DetectContacts(m, w.data, terrain, w.contacts);
  double lowest = 1e9;
  for (const contact::Contact& c : w.contacts.contacts) lowest = std::min(lowest, c.gap);
  q[2] -= lowest + 1.5e-3;
  Eigen::VectorXd v = Eigen::VectorXd::Zero(m.nv);
  v[0] = vx;
  v[1] = vy;
  const double dt = 1e-4;
  const Eigen::VectorXd tau = Eigen::VectorXd::Zero(m.nv);
  std::vector<contact::ContactState> states = contact::MakeContactStates(m);
  ForceLawAcceleration(m, terrain, params, dt, StepInputs{&tau, nullptr}, q, v, states, w);
  out.v_end = v + dt * w.data.qacc;
  for (int k = 0; k < w.contacts.capacity(); ++k) {
    if (w.contacts.contacts[k].active) out.active.push_back(k);
  }
  const int nc = static_cast<int>(out.active.size());
  out.end_velocity = Eigen::VectorXd::Zero(3 * nc);
  // W at the stage's q from the world joint axes (an explicit stage has not
  // computed them).
  ComputeJointAxesWorld(m, w.data);
  std::vector<int> support(static_cast<size_t>(nc) * m.nv), support_len(nc);
  for (int a = 0; a < nc; ++a) {
    support_len[a] =
        SupportDofs(m, w.data, m.contact_points[out.active[a]].body, support.data() + a * m.nv);
  }
  ContactSpaceVelocity(w.data, w.contacts, out.active, support, support_len, out.v_end,
                       out.end_velocity);
  return out;
}

contact::ContactForceParams ImplicitHertz() {
  contact::ContactForceParams params;
  params.law = contact::ContactForceLaw::kHertz;
  params.hertz.implicit_friction = true;
  return params;
}

// Every active contact's friction is −φ(v⁺) at its end-of-step slip v⁺.
void ExpectFrictionAtEndVelocity(const contact::HertzParams& hertz, const Stage& stage,
                                 const StepWorkspace& w) {
  ASSERT_EQ(stage.active.size(), 4u);  // four feet down
  for (size_t a = 0; a < stage.active.size(); ++a) {
    const contact::Contact& c = w.contacts.contacts[stage.active[a]];
    const double f_n = c.force.dot(c.normal);
    ASSERT_GT(f_n, 0.0);
    const Eigen::Vector2d lambda_T(c.t1.dot(c.force), c.t2.dot(c.force));
    const Eigen::Vector2d v_plus = stage.end_velocity.segment<2>(3 * a + 1);
    Eigen::Vector2d phi;
    Eigen::Matrix2d H;
    contact::HertzFrictionAndJacobian(hertz, f_n, v_plus, phi, H);
    EXPECT_LT((lambda_T + phi).norm(), 1e-6 * hertz.mu_static * f_n)
        << "contact " << a << ": λ_T " << lambda_T.transpose() << ", −φ(v⁺) " << -phi.transpose()
        << ", v⁺ " << v_plus.transpose();
  }
}

TEST(ImplicitFriction, SlidingFeetCarryMuFnAgainstTheirEndSlip) {
  auto model = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(model.ok());
  StepWorkspace w = MakeStepWorkspace(**model);
  const contact::ContactForceParams params = ImplicitHertz();
  const Stage stage = RunStage(params, 0.3, 0.1, w);
  ExpectFrictionAtEndVelocity(params.hertz, stage, w);
  EXPECT_TRUE(w.friction.last_converged);
  EXPECT_GT(w.friction.last_iterations, 0);
  for (size_t a = 0; a < stage.active.size(); ++a) {
    const contact::Contact& c = w.contacts.contacts[stage.active[a]];
    const Eigen::Vector2d lambda_T(c.t1.dot(c.force), c.t2.dot(c.force));
    // Sliding well past v_d: the full μ_d f_n.
    EXPECT_GT(stage.end_velocity.segment<2>(3 * a + 1).norm(), params.hertz.sliding_velocity);
    EXPECT_NEAR(lambda_T.norm(), params.hertz.mu_dynamic * c.force.dot(c.normal), 1e-9);
  }
}

TEST(ImplicitFriction, SlowFeetEndTheStepInTheStickRegime) {
  auto model = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(model.ok());
  StepWorkspace w = MakeStepWorkspace(**model);
  const contact::ContactForceParams params = ImplicitHertz();
  const Stage stage = RunStage(params, 2e-5, -1e-5, w);
  ExpectFrictionAtEndVelocity(params.hertz, stage, w);
  EXPECT_TRUE(w.friction.last_converged);
  for (size_t a = 0; a < stage.active.size(); ++a) {
    EXPECT_LT(stage.end_velocity.segment<2>(3 * a + 1).norm(), params.hertz.stiction_velocity);
  }
  // Explicitly stepped, the same feet leave the step slipping far faster
  // than v_s: the stick regime's slope overshoots (the creep of 001's
  // explicit scheme).
  contact::ContactForceParams explicit_params = params;
  explicit_params.hertz.implicit_friction = false;
  StepWorkspace w_explicit = MakeStepWorkspace(**model);
  const Stage overshoot = RunStage(explicit_params, 2e-5, -1e-5, w_explicit);
  double fastest = 0.0;
  for (size_t a = 0; a < overshoot.active.size(); ++a) {
    fastest = std::max(fastest, overshoot.end_velocity.segment<2>(3 * a + 1).norm());
  }
  EXPECT_GT(fastest, 10 * params.hertz.stiction_velocity);
}

// A falling friction curve (μ_d < μ_s) is allowed; the solve still ends at a
// root of λ = −φ(v⁺).
TEST(ImplicitFriction, FallingFrictionCurveStillSolves) {
  auto model = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(model.ok());
  for (double speed : {2e-5, 1.5e-4, 0.3}) {
    SCOPED_TRACE(speed);
    StepWorkspace w = MakeStepWorkspace(**model);
    contact::ContactForceParams params = ImplicitHertz();
    params.hertz.mu_static = 1.0;
    params.hertz.mu_dynamic = 0.6;
    const Stage stage = RunStage(params, speed, 0.0, w);
    ExpectFrictionAtEndVelocity(params.hertz, stage, w);
    EXPECT_TRUE(w.friction.last_converged);
  }
}

// The step reports the Newton solve as its solver iterations (0 and
// converged for the explicit law, which solves nothing).
TEST(ImplicitFriction, StepReportsTheNewtonIterations) {
  auto model = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(model.ok());
  for (bool implicit : {true, false}) {
    SCOPED_TRACE(implicit);
    sim::Settings settings;
    sim::HertzSettings hertz;
    hertz.law.implicit_friction = implicit;
    settings.contact = hertz;
    settings.dt = 1e-3;
    settings.control.mode = sim::ControlMode::kPd;
    auto simulation = sim::Simulation::Create(*model, settings);
    ASSERT_TRUE(simulation.ok()) << simulation.status();
    const Eigen::VectorXd targets = (*model)->q_default.tail((*model)->nu());
    ASSERT_TRUE((*simulation)->StepAction(targets, 600).ok());  // standing on its feet
    const sim::StepReport& report = (*simulation)->last_report();
    EXPECT_GT(report.active_contacts, 0);
    EXPECT_EQ(report.solver_iterations > 0, implicit);
    EXPECT_TRUE(report.solver_converged);
  }
}

}  // namespace
}  // namespace moreau::step
