// Joint PD (001 eq. 44): the law, the clamp to effort limits, the zeroed base
// and the wrapped error of continuous joints.
#include "engine/control/pd.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <cmath>
#include <numbers>
#include <random>
#include <string>

#include "engine/dynamics/crba.h"
#include "engine/dynamics/data.h"
#include "engine/model/loader.h"
#include "tests/unit/control/control_test_util.h"

namespace moreau::control {
namespace {

constexpr double kPi = std::numbers::pi;

TEST(PdGains, DefaultsAre001TableI) {
  const PdGains gains;
  EXPECT_EQ(gains.kp, 40.0);
  EXPECT_EQ(gains.kd, 1.0);
}

TEST(JointPd, MatchesEq44AndZeroesTheBase) {
  auto model = testing::MiniCheetah();
  ASSERT_NE(model, nullptr);
  const int na = model->nu();
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::VectorXd q = model->q_default;
  Eigen::VectorXd v(model->nv);
  for (int i = 7; i < model->nq; ++i) q[i] = u(rng);
  for (int i = 0; i < model->nv; ++i) v[i] = u(rng);
  Eigen::VectorXd q_des(na), qd_des(na);
  for (int k = 0; k < na; ++k) {
    q_des[k] = u(rng);
    qd_des[k] = u(rng);
  }
  const PdGains gains{40.0, 1.0};
  Eigen::VectorXd tau = Eigen::VectorXd::Constant(model->nv, 123.0);
  JointPd(*model, q, v, q_des, qd_des, gains, tau);
  EXPECT_TRUE(tau.head<6>().isZero());
  for (int k = 0; k < na; ++k) {
    const Joint& j = model->joints[model->actuators[k].joint];
    const double expected = 40.0 * (q_des[k] - q[j.q_index]) + 1.0 * (qd_des[k] - v[j.v_index]);
    EXPECT_NEAR(tau[j.v_index], expected, 1e-12) << j.name;
  }
}

TEST(JointPd, EqualTargetsAndZeroRatesGiveZeroTorque) {
  auto model = testing::UnitreeA1();
  ASSERT_NE(model, nullptr);
  const int na = model->nu();
  Eigen::VectorXd q = model->q_default;
  q.tail(na).setLinSpaced(-0.5, 0.5);
  Eigen::VectorXd q_des(na);
  ActuatorPositions(*model, q, q_des);
  EXPECT_TRUE(q_des.isApprox(q.tail(na)));
  Eigen::VectorXd tau(model->nv);
  JointPd(*model, q, Eigen::VectorXd::Zero(model->nv), q_des, Eigen::VectorXd::Zero(na), PdGains{},
          tau);
  EXPECT_TRUE(tau.isZero());
}

TEST(JointPd, ClampsToEffortLimits) {
  auto model = testing::UnitreeA1();  // 33.5 N m on every joint
  ASSERT_NE(model, nullptr);
  const int na = model->nu();
  Eigen::VectorXd q = model->q_default;
  Eigen::VectorXd v = Eigen::VectorXd::Zero(model->nv);
  Eigen::VectorXd q_des = Eigen::VectorXd::Constant(na, 2.0);
  q_des.tail(na / 2).setConstant(-2.0);
  Eigen::VectorXd tau(model->nv);
  JointPd(*model, q, v, q_des, Eigen::VectorXd::Zero(na), PdGains{1000.0, 10.0}, tau);
  for (int k = 0; k < na; ++k) {
    const Actuator& a = model->actuators[k];
    const double t = tau[model->joints[a.joint].v_index];
    EXPECT_EQ(std::abs(t), a.effort_limit) << a.name;
    EXPECT_EQ(std::signbit(t), q_des[k] < 0.0) << a.name;
  }
}

TEST(JointPd, WrapsTheErrorOfContinuousJoints) {
  auto model = testing::MiniCheetah();  // continuous joints
  ASSERT_NE(model, nullptr);
  const int na = model->nu();
  Eigen::VectorXd q = model->q_default;
  q.tail(na).setConstant(kPi - 0.1);
  const Eigen::VectorXd q_des = Eigen::VectorXd::Constant(na, -kPi + 0.1);  // 0.2 rad ahead
  Eigen::VectorXd tau(model->nv);
  JointPd(*model, q, Eigen::VectorXd::Zero(model->nv), q_des, Eigen::VectorXd::Zero(na), PdGains{},
          tau);
  for (int i = 6; i < model->nv; ++i) EXPECT_NEAR(tau[i], 40.0 * 0.2, 1e-9);
}

TEST(JointPd, LimitedJointsAreNotWrapped) {
  auto model = testing::UnitreeA1();
  ASSERT_NE(model, nullptr);
  const int na = model->nu();
  Eigen::VectorXd q = model->q_default;
  const Eigen::VectorXd q_des = Eigen::VectorXd::Constant(na, 0.1);
  Eigen::VectorXd tau(model->nv);
  JointPd(*model, q, Eigen::VectorXd::Zero(model->nv), q_des, Eigen::VectorXd::Zero(na),
          PdGains{1.0, 0.0}, tau);
  for (int i = 6; i < model->nv; ++i) EXPECT_NEAR(tau[i], 0.1, 1e-12);
}

// The legs' inertia seen with the rest of the tree free depends on the pose
// and is least with straight legs (q = 0), where the links line up.
TEST(JointInertias, LeastWithStraightLegs) {
  auto model = testing::MiniCheetah();
  ASSERT_NE(model, nullptr);
  const Eigen::VectorXd straight = JointInertias(*model, model->q_default);
  ASSERT_EQ(straight.size(), 12);
  Eigen::VectorXd bent_q = model->q_default;
  for (const Actuator& a : model->actuators) {
    const Joint& j = model->joints[a.joint];
    bent_q[j.q_index] = j.name.find("knee") != std::string::npos ? 1.5 : -0.75;
  }
  const Eigen::VectorXd bent = JointInertias(*model, bent_q);
  for (int k = 0; k < 12; ++k) {
    EXPECT_GT(straight[k], 1e-5) << k;
    EXPECT_LT(straight[k], bent[k]) << k;
  }
}

// A chain of 40 revolute joints: one branch of 40 joints, longer than the
// exact eigensolve takes, so every joint gets Gershgorin's inertia, which is
// positive and at most the exact 1 / λ_max (never a less stable damping cap).
TEST(JointInertias, LongChainTakesGershgorinsSaferBound) {
  std::string xml = "<robot name=\"chain\">";
  constexpr int kLinks = 41;
  for (int i = 0; i < kLinks; ++i) {
    xml += "<link name=\"l" + std::to_string(i) +
           "\"><inertial><mass value=\"1\"/><inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" "
           "iyy=\"0.1\" iyz=\"0\" izz=\"0.1\"/></inertial></link>";
  }
  for (int i = 1; i < kLinks; ++i) {
    xml += "<joint name=\"j" + std::to_string(i) + "\" type=\"revolute\"><parent link=\"l" +
           std::to_string(i - 1) + "\"/><child link=\"l" + std::to_string(i) +
           "\"/><origin xyz=\"0 0 0.1\"/><axis xyz=\"0 1 0\"/></joint>";
  }
  xml += "</robot>";
  LoadOptions options;
  options.base = BaseMode::kFixed;
  auto model = LoadUrdfString(xml, options);
  ASSERT_TRUE(model.ok()) << model.status();
  const Eigen::VectorXd inertia = JointInertias(**model, (*model)->q_default);
  ASSERT_EQ(inertia.size(), 40);
  Data data = MakeData(**model);
  const Eigen::MatrixXd M_inv = Crba(**model, data, (*model)->q_default).inverse();
  const double exact =
      1.0 / Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(M_inv, Eigen::EigenvaluesOnly)
                .eigenvalues()
                .maxCoeff();
  for (int k = 0; k < 40; ++k) {
    EXPECT_GT(inertia[k], 0.0) << k;
    EXPECT_LE(inertia[k], exact * (1 + 1e-12)) << k;
    EXPECT_EQ(inertia[k], inertia[0]) << k;
  }
}

// Where k_d Δt / I ≤ 1 StableJointPd is JointPd; beyond, the damping is the
// deadbeat I/Δt, so one explicit step of I q̈ = τ stops a joint moving with
// no position error instead of reversing it.
TEST(StableJointPd, JointPdUnlessTheExplicitDamperWouldOvershoot) {
  auto model = testing::MiniCheetah();
  ASSERT_NE(model, nullptr);
  const PdGains gains;
  const Eigen::VectorXd inertia = JointInertias(*model, model->q_default);
  Eigen::VectorXd q = model->q_default;
  Eigen::VectorXd v = Eigen::VectorXd::Zero(model->nv);
  Eigen::VectorXd q_des(12), qd_des = Eigen::VectorXd::Zero(12);
  for (int k = 0; k < 12; ++k) {
    q_des[k] = 0.1 * (k + 1);
    v[model->joints[model->actuators[k].joint].v_index] = 2.0 - 0.3 * k;
  }
  Eigen::VectorXd plain(model->nv), stable(model->nv);
  JointPd(*model, q, v, q_des, qd_des, gains, plain);
  const double small_dt = 0.5 * inertia.minCoeff() / gains.kd;
  StableJointPd(*model, q, v, q_des, qd_des, gains, inertia, small_dt, stable);
  EXPECT_TRUE(stable.isApprox(plain, 1e-14));
  StableJointPd(*model, q, v, q_des, qd_des, gains, inertia, 0.0, stable);  // dt = 0
  EXPECT_TRUE(stable.isApprox(plain, 1e-14));
  const double dt = 2.5e-3;  // 000's step: k_d Δt / I ≈ 5 for these legs
  ASSERT_GT(gains.kd * dt / inertia.minCoeff(), 1.0);
  StableJointPd(*model, q, v, q_des, qd_des, gains, inertia, dt, stable);
  for (int k = 0; k < 12; ++k) {
    const int i = model->joints[model->actuators[k].joint].v_index;
    const double kd = std::min(gains.kd, inertia[k] / dt);
    EXPECT_NEAR(stable[i], gains.kp * q_des[k] - kd * v[i], 1e-12) << k;
    if (gains.kd * dt > inertia[k]) {
      // The damping alone would take I q̇ / Δt out: q̇ + Δt τ_d / I = 0.
      EXPECT_NEAR(v[i] + dt * (-kd * v[i]) / inertia[k], 0.0, 1e-12);
    }
  }
}

// StablePd (fields gathered once, gains capped once per Δt) gives the same τ,
// bit for bit, on continuous joints (Mini Cheetah: errors wrapped) and
// limited ones (A1), with clamping, capped damping, dt = 0 and Δt changing
// from call to call (the capped gains remade).
TEST(StablePd, EqualsStableJointPd) {
  std::mt19937_64 rng(13);
  std::normal_distribution<double> g(0.0, 1.0);
  for (auto model : {testing::MiniCheetah(), testing::UnitreeA1()}) {
    ASSERT_NE(model, nullptr);
    const int na = model->nu();
    const Eigen::VectorXd inertia = JointInertias(*model, model->q_default);
    const PdGains gains{60.0, 3.0};
    StablePd pd(*model, gains, inertia);
    for (int trial = 0; trial < 100; ++trial) {
      Eigen::VectorXd q = model->q_default, v(model->nv);
      for (int i = 7; i < model->nq; ++i) q[i] = 4.0 * g(rng);  // some beyond ±π
      for (int i = 0; i < model->nv; ++i) v[i] = 5.0 * g(rng);
      Eigen::VectorXd q_des(na), qd_des(na);
      for (int k = 0; k < na; ++k) {
        q_des[k] = 4.0 * g(rng);
        qd_des[k] = 5.0 * g(rng);
      }
      const double dt = trial % 3 == 0 ? 0.0 : 1e-3 * (trial % 5);
      Eigen::VectorXd by_model(model->nv), by_plan(model->nv);
      StableJointPd(*model, q, v, q_des, qd_des, gains, inertia, dt, by_model);
      pd.Torques(q, v, q_des, qd_des, dt, by_plan);
      EXPECT_EQ(by_plan, by_model) << trial;
    }
  }
}

// Gains per actuator: the damping capped at I_j/Δt and the stiffness at
// 0.5 I_j/Δt², each joint by its own gains, and the caps follow Δt; no
// inertias: no caps.
TEST(StablePd, PerActuatorGainsCappedForEachStep) {
  auto model = testing::MiniCheetah();
  ASSERT_NE(model, nullptr);
  const int na = model->nu();
  const Eigen::VectorXd inertia = JointInertias(*model, model->q_default);
  Eigen::VectorXd kp(na), kd(na);
  for (int k = 0; k < na; ++k) {
    kp[k] = 20.0 + 40.0 * k;
    kd[k] = 0.5 + 0.3 * k;
  }
  Eigen::VectorXd q = model->q_default, v = Eigen::VectorXd::Zero(model->nv);
  Eigen::VectorXd q_des(na), qd_des = Eigen::VectorXd::Zero(na);
  for (int k = 0; k < na; ++k) {
    q_des[k] = q[model->joints[model->actuators[k].joint].q_index] + 0.01 * (k + 1);
    v[model->joints[model->actuators[k].joint].v_index] = 0.2 - 0.05 * k;
  }
  StablePd pd(*model, kp, kd, inertia);
  StablePd uncapped(*model, kp, kd, Eigen::VectorXd());
  Eigen::VectorXd tau(model->nv), plain(model->nv);
  for (double dt : {1e-4, 2.5e-3, 1e-2, 1e-4}) {
    pd.Torques(q, v, q_des, qd_des, dt, tau);
    uncapped.Torques(q, v, q_des, qd_des, dt, plain);
    int capped = 0;
    for (int k = 0; k < na; ++k) {
      const Joint& joint = model->joints[model->actuators[k].joint];
      const double error = q_des[k] - q[joint.q_index];
      const double rate = -v[joint.v_index];
      const double kp_cap = std::min(kp[k], 0.5 * inertia[k] / (dt * dt));
      const double kd_cap = std::min(kd[k], inertia[k] / dt);
      if (kp_cap < kp[k] || kd_cap < kd[k]) ++capped;
      const double limit = model->actuators[k].effort_limit;
      EXPECT_NEAR(tau[joint.v_index], std::clamp(kp_cap * error + kd_cap * rate, -limit, limit),
                  1e-12)
          << "dt " << dt << " actuator " << k;
      EXPECT_NEAR(plain[joint.v_index], std::clamp(kp[k] * error + kd[k] * rate, -limit, limit),
                  1e-12)
          << "dt " << dt << " actuator " << k;
    }
    if (dt >= 2.5e-3) {
      EXPECT_GT(capped, 0) << dt;
    } else {
      EXPECT_EQ(capped, 0) << dt;
    }
  }
}

TEST(WrapAngle, IntoMinusPiPi) {
  EXPECT_DOUBLE_EQ(WrapAngle(0.5), 0.5);
  EXPECT_DOUBLE_EQ(WrapAngle(kPi), kPi);
  EXPECT_NEAR(WrapAngle(-kPi), kPi, 1e-15);
  EXPECT_NEAR(WrapAngle(3 * kPi / 2), -kPi / 2, 1e-12);
  EXPECT_NEAR(WrapAngle(-7.0), -7.0 + 2 * kPi, 1e-12);
  EXPECT_NEAR(WrapAngle(100.0), std::remainder(100.0, 2 * kPi), 1e-12);
}

TEST(ActuatorVelocities, GathersJointRates) {
  auto model = testing::MiniCheetah();
  ASSERT_NE(model, nullptr);
  Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(model->nv, 0.0, 1.0);
  Eigen::VectorXd out(model->nu());
  ActuatorVelocities(*model, v, out);
  EXPECT_TRUE(out.isApprox(v.tail(12)));
}

}  // namespace
}  // namespace moreau::control
