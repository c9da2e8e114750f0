// Conservation laws under RK4 (the integrator here is the test's own; the
// engine's integrators are tested in step/): momentum of a free-floating robot
// without gravity, energy of the double pendulum, the pendulum's small-angle
// period.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "engine/dynamics/aba.h"
#include "engine/dynamics/configuration.h"
#include "engine/dynamics/data.h"
#include "engine/dynamics/energy.h"
#include "engine/dynamics/kinematics.h"
#include "tests/unit/dynamics/test_models.h"

namespace moreau {
namespace {

// One classical RK4 step of (q, v) with q̇ = v on the manifold (the base
// quaternion advanced by the exponential map) and v̇ = ABA(q, v, 0).
void Rk4Step(const Model& model, Data& data, Eigen::VectorXd& q, Eigen::VectorXd& v, double dt) {
  const Eigen::VectorXd tau = Eigen::VectorXd::Zero(model.nv);
  auto accel = [&](const Eigen::VectorXd& qq, const Eigen::VectorXd& vv) {
    return Eigen::VectorXd(Aba(model, data, qq, vv, tau));
  };
  const Eigen::VectorXd k1v = v;
  const Eigen::VectorXd k1a = accel(q, v);
  Eigen::VectorXd q2 = q;
  IntegrateConfiguration(model, q2, k1v, dt / 2);
  const Eigen::VectorXd k2v = v + dt / 2 * k1a;
  const Eigen::VectorXd k2a = accel(q2, k2v);
  Eigen::VectorXd q3 = q;
  IntegrateConfiguration(model, q3, k2v, dt / 2);
  const Eigen::VectorXd k3v = v + dt / 2 * k2a;
  const Eigen::VectorXd k3a = accel(q3, k3v);
  Eigen::VectorXd q4 = q;
  IntegrateConfiguration(model, q4, k3v, dt);
  const Eigen::VectorXd k4v = v + dt * k3a;
  const Eigen::VectorXd k4a = accel(q4, k4v);
  IntegrateConfiguration(model, q, (k1v + 2 * k2v + 2 * k3v + k4v) / 6, dt);
  v += dt / 6 * (k1a + 2 * k2a + 2 * k3a + k4a);
}

TEST(Conservation, FreeFloatingMomentumWithoutGravity) {
  for (const char* name : {"mini_cheetah", "box", "sphere"}) {
    SCOPED_TRACE(name);
    auto loaded = testing::Builtin(name);
    ASSERT_NE(loaded, nullptr);
    Model model = *loaded;
    model.gravity.setZero();
    Data data = MakeData(model);
    std::mt19937_64 rng(13);
    std::normal_distribution<double> normal(0.0, 1.0);
    Eigen::VectorXd q = RandomConfiguration(model, rng);
    Eigen::VectorXd v(model.nv);
    for (int i = 0; i < model.nv; ++i) v[i] = normal(rng);
    ForwardKinematics(model, data, q, v);
    const Force h0 = SpatialMomentum(model, data);
    const double scale = std::max(1.0, h0.ToVector().norm());
    for (int step = 0; step < 1000; ++step) Rk4Step(model, data, q, v, 1e-3);
    ForwardKinematics(model, data, q, v);
    const Force h1 = SpatialMomentum(model, data);
    EXPECT_LT((h1 - h0).ToVector().norm() / scale, 1e-8);
  }
}

TEST(Conservation, DoublePendulumEnergyDrift) {
  auto model = testing::Builtin("double_pendulum");
  ASSERT_NE(model, nullptr);
  Data data = MakeData(*model);
  Eigen::VectorXd q = Eigen::VectorXd::Zero(model->nv);
  q << 1.0, -0.5;
  Eigen::VectorXd v = Eigen::VectorXd::Zero(model->nv);
  auto energy = [&] {
    ForwardKinematics(*model, data, q, v);
    return KineticEnergy(*model, data) + PotentialEnergy(*model, data);
  };
  // Energy scale: the potential-energy swing m g L of the whole chain.
  const double scale = model->TotalMass() * 9.81 * 2.0;
  const double E0 = energy();
  double worst = 0.0;
  for (int step = 0; step < 10000; ++step) {
    Rk4Step(*model, data, q, v, 1e-3);
    if (step % 100 == 99) worst = std::max(worst, std::abs(energy() - E0));
  }
  EXPECT_LT(worst / scale, 1e-6);
}

TEST(Conservation, PendulumSmallAnglePeriod) {
  auto model = testing::Builtin("pendulum");
  ASSERT_NE(model, nullptr);
  ASSERT_EQ(model->nv, 1);
  // T = 2π √(I_O / (m g d)) about the pivot, from the model's own inertia.
  const Inertia& I = model->inertia[1];
  const Vec3 axis = model->joint_axis[1];
  const double I_pivot = axis.dot(I.Ibar * axis);
  const Vec3 com = I.CenterOfMass();
  const double d = (com - com.dot(axis) * axis).norm();
  const double T_expected = 2 * M_PI * std::sqrt(I_pivot / (I.mass * 9.81 * d));
  Data data = MakeData(*model);
  Eigen::VectorXd q(1), v(1);
  q << 1e-3;
  v << 0.0;
  const double dt = 1e-4;
  std::vector<double> crossings;  // times of downward zero crossings of q
  double t = 0.0;
  while (crossings.size() < 3 && t < 20.0) {
    const double q_prev = q[0];
    Rk4Step(*model, data, q, v, dt);
    t += dt;
    if (q_prev > 0.0 && q[0] <= 0.0) crossings.push_back(t - dt + dt * q_prev / (q_prev - q[0]));
  }
  ASSERT_EQ(crossings.size(), 3u);
  const double T = (crossings[2] - crossings[0]) / 2.0;
  EXPECT_NEAR(T / T_expected, 1.0, 1e-4);
}

}  // namespace
}  // namespace moreau
