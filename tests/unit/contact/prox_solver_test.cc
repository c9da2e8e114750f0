// 000 eq. 12–18: the JOR/SOR prox impulse solver on contact-space problems
// built here from a point mass, a floating box on its four bottom corners and
// an 18-DOF quadruped-like system, with answers computed by hand.
#include "engine/contact/prox_solver.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <new>
#include <numbers>
#include <random>
#include <vector>

#include "tests/unit/testing/allocation_counter.h"

namespace moreau::contact {
namespace {

using Eigen::Matrix3d;
using Eigen::MatrixXd;
using Eigen::Vector2d;
using Eigen::Vector3d;
using Eigen::VectorXd;
using ::testing::HasSubstr;

constexpr double kG = 9.81;     // m/s²
constexpr double kDt = 2.5e-3;  // s, 000's step
constexpr double kPi = std::numbers::pi;

// Tight tolerances for checking solutions (the defaults, 1e-6 N s on the
// increment, leave an error of ~1e-6/(1 − rate) on Λ).
ProxParams Tight(ProxMethod method) {
  ProxParams p;
  p.method = method;
  p.T_rel = 1e-13;
  p.T_abs = 1e-14;
  p.max_iterations = 100000;
  p.warm_start = false;
  return p;
}

Matrix3d Skew(const Vector3d& r) {
  Matrix3d S;
  S << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0;
  return S;
}

// Rows n, t1, t2: contact coordinates of a world vector.
Matrix3d Frame(const Vector3d& n, const Vector3d& t1) {
  Matrix3d P;
  P.row(0) = n.normalized().transpose();
  P.row(1) = t1.normalized().transpose();
  P.row(2) = n.normalized().cross(t1.normalized()).transpose();
  return P;
}

// The contact-space problem of 000 eq. 7/12 from W (n_u × 3n_c), M, h, u_S.
struct Problem {
  MatrixXd W, Minv;
  VectorXd h, u_S;
  MatrixXd G;
  VectorXd c, gamma_S;
  std::vector<ContactLaw> laws;

  int nc() const { return static_cast<int>(laws.size()); }
  // u_E = u_S + M⁻¹ (h Δt + W Λ) (000 eq. 17).
  VectorXd uE(const VectorXd& Lambda) const { return u_S + Minv * (h * kDt + W * Lambda); }
};

Problem MakeProblem(const MatrixXd& W, const MatrixXd& M, const VectorXd& h, const VectorXd& u_S,
                    const ContactLaw& law) {
  Problem p;
  p.W = W;
  p.Minv = M.llt().solve(MatrixXd::Identity(M.rows(), M.cols()));
  p.h = h;
  p.u_S = u_S;
  p.G = W.transpose() * p.Minv * W;                // 000 eq. 12
  p.c = W.transpose() * (u_S + p.Minv * h * kDt);  // γ_E = c + G Λ
  p.gamma_S = W.transpose() * u_S;
  p.laws.assign(W.cols() / 3, law);
  return p;
}

// A point mass m in gravity with one contact of frame P; u = velocity.
Problem PointMass(double m, const Matrix3d& P, const Vector3d& u_S, const ContactLaw& law = {}) {
  return MakeProblem(P.transpose(), m * Matrix3d::Identity(), Vector3d(0, 0, -m * kG), u_S, law);
}

// A box (mass m, half extents a, b, c) at identity orientation touching the
// ground z = 0 with its four bottom corners; u = [v; ω] in world, about the
// centre of mass. Corner velocity v + ω × r = [I, −r×] u; contact frame
// (z, x, y).
constexpr double kBoxMass = 2.0;
const Vector3d kHalf(0.2, 0.15, 0.1);

std::vector<Vector3d> BoxCorners() {
  std::vector<Vector3d> r;
  for (double sx : {1.0, -1.0}) {
    for (double sy : {1.0, -1.0}) r.emplace_back(sx * kHalf.x(), sy * kHalf.y(), -kHalf.z());
  }
  return r;
}

Problem Box(const Vector3d& v, const Vector3d& w, const ContactLaw& law = {}) {
  const double m = kBoxMass;
  const Vector3d I_c = m / 3.0 *
                       Vector3d(kHalf.y() * kHalf.y() + kHalf.z() * kHalf.z(),
                                kHalf.x() * kHalf.x() + kHalf.z() * kHalf.z(),
                                kHalf.x() * kHalf.x() + kHalf.y() * kHalf.y());
  MatrixXd M = MatrixXd::Zero(6, 6);
  M.topLeftCorner<3, 3>() = m * Matrix3d::Identity();
  M.bottomRightCorner<3, 3>() = I_c.asDiagonal();
  const std::vector<Vector3d> corners = BoxCorners();
  const Matrix3d P = Frame(Vector3d::UnitZ(), Vector3d::UnitX());
  MatrixXd W(6, 3 * corners.size());
  for (size_t i = 0; i < corners.size(); ++i) {
    Eigen::Matrix<double, 3, 6> Wt;  // W_iᵀ
    Wt << P, -P * Skew(corners[i]);
    W.middleCols<3>(3 * i) = Wt.transpose();
  }
  VectorXd h(6), u(6);
  h << 0, 0, -m * kG, -w.cross(I_c.asDiagonal() * w);  // gravity, gyroscopic
  u << v, w;
  return MakeProblem(W, M, h, u, law);
}

// An 18-DOF quadruped-like system (floating trunk, 4 legs of 3 joints, feet
// on the ground): foot velocity v + ω × r_i + J_i q̇_i. Minimal coordinates
// give a regular G (each foot has its own 3 joints), so Λ is unique.
Problem Quadruped(std::mt19937_64& rng, const VectorXd& u_S, const ContactLaw& law = {}) {
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  const int nu = 18;
  MatrixXd A(nu, nu);
  for (int i = 0; i < nu; ++i) {
    for (int j = 0; j < nu; ++j) A(i, j) = 0.1 * U(rng);
  }
  VectorXd d(nu);
  d << 20, 20, 20, 0.4, 0.8, 0.9, VectorXd::Constant(12, 0.05);
  const MatrixXd M = A * A.transpose() + MatrixXd(d.asDiagonal());
  MatrixXd W = MatrixXd::Zero(nu, 12);
  const Matrix3d P = Frame(Vector3d::UnitZ(), Vector3d::UnitX());
  for (int i = 0; i < 4; ++i) {
    const Vector3d r(i < 2 ? 0.3 : -0.3, i % 2 == 0 ? 0.2 : -0.2, -0.45);
    Matrix3d J = 0.3 * Matrix3d::Identity();  // bent knee: well-conditioned
    for (int a = 0; a < 3; ++a) {
      for (int b = 0; b < 3; ++b) J(a, b) += 0.1 * U(rng);
    }
    Eigen::Matrix<double, 3, 18> Wt = Eigen::Matrix<double, 3, 18>::Zero();
    Wt.leftCols<3>() = P;
    Wt.middleCols<3>(3) = -P * Skew(r);
    Wt.middleCols<3>(6 + 3 * i) = P * J;
    W.middleCols<3>(3 * i) = Wt.transpose();
  }
  VectorXd h = VectorXd::Zero(nu);
  h.head<3>() = Vector3d(0, 0, -(20.0 + 12 * 0.05) * kG);
  return MakeProblem(W, M, h, u_S, law);
}

ProxResult SolveProblem(ProxSolver& solver, const ProxParams& params, const Problem& p,
                        VectorXd& Lambda) {
  return solver.Solve(params, p.laws, p.G, p.c, p.gamma_S, Lambda);
}

// The prox equations of 000 eq. 13 as the complementarity conditions they
// encode: 0 ≤ Λ_N ⊥ ξ_N ≥ 0; ‖Λ_T‖ ≤ μ Λ_N, Λ_T = −μ Λ_N ξ_T/‖ξ_T‖ when
// ξ_T ≠ 0.
void ExpectSolves(const Problem& p, const VectorXd& Lambda, double tol) {
  const VectorXd gamma_E = p.c + p.G * Lambda;
  for (int i = 0; i < p.nc(); ++i) {
    SCOPED_TRACE(::testing::Message() << "contact " << i);
    const ContactLaw& law = p.laws[i];
    const double L_N = Lambda[3 * i];
    const Vector2d L_T = Lambda.segment<2>(3 * i + 1);
    const double xi_N = gamma_E[3 * i] + law.eps_N * p.gamma_S[3 * i];
    const Vector2d xi_T =
        gamma_E.segment<2>(3 * i + 1) + law.eps_T * p.gamma_S.segment<2>(3 * i + 1);
    EXPECT_GE(L_N, 0.0);
    EXPECT_GE(xi_N, -tol);
    EXPECT_NEAR(L_N * xi_N, 0.0, tol);
    EXPECT_LE(L_T.norm(), law.mu * L_N * (1.0 + 1e-12) + 1e-300);
    if (xi_T.norm() > tol) {
      EXPECT_NEAR((L_T + law.mu * L_N * xi_T.normalized()).norm(), 0.0, tol);
    }
  }
}

bool Admissible(const Problem& p, const VectorXd& Lambda) {
  for (int i = 0; i < p.nc(); ++i) {
    if (!(Lambda[3 * i] >= 0.0)) return false;
    if (!(Lambda.segment<2>(3 * i + 1).norm() <= p.laws[i].mu * Lambda[3 * i] * (1 + 1e-12))) {
      return false;
    }
  }
  return true;
}

//--- parameters ---

TEST(ProxParams, DefaultsAreThePapers) {
  const ProxParams p;
  EXPECT_EQ(p.method, ProxMethod::kSor);
  EXPECT_EQ(p.alpha, 0.6);   // 000 Table 1, HmJ/HmS
  EXPECT_EQ(p.T_rel, 1e-6);  // 000 § Accuracy
  EXPECT_EQ(p.T_abs, 1e-6);
  EXPECT_EQ(p.max_iterations, 200);
  EXPECT_TRUE(p.warm_start);
  EXPECT_TRUE(Validate(p).ok());
  const ContactLaw law;  // 000 § Evaluation
  EXPECT_EQ(law.mu, 0.8);
  EXPECT_EQ(law.eps_N, 0.0);
  EXPECT_EQ(law.eps_T, 0.0);
  EXPECT_TRUE(Validate(law).ok());
}

TEST(ProxParams, ValidateNamesTheField) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (double alpha : {0.0, 2.0, -0.5, nan, inf}) {
    ProxParams p;
    p.alpha = alpha;
    const absl::Status s = Validate(p);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << alpha;
    EXPECT_THAT(s.message(), HasSubstr("alpha"));
  }
  ProxParams p;
  p.alpha = 1.99;
  EXPECT_TRUE(Validate(p).ok());
  p = ProxParams();
  p.T_rel = -1e-6;
  EXPECT_THAT(Validate(p).message(), HasSubstr("T_rel"));
  p = ProxParams();
  p.T_abs = nan;
  EXPECT_THAT(Validate(p).message(), HasSubstr("T_abs"));
  p = ProxParams();
  p.max_iterations = 0;
  EXPECT_THAT(Validate(p).message(), HasSubstr("max_iterations"));
  p = ProxParams();
  p.method = static_cast<ProxMethod>(7);
  EXPECT_THAT(Validate(p).message(), HasSubstr("method"));

  ContactLaw law;
  law.mu = -0.1;
  EXPECT_THAT(Validate(law).message(), HasSubstr("mu"));
  law = ContactLaw();
  law.mu = inf;
  EXPECT_EQ(Validate(law).code(), absl::StatusCode::kInvalidArgument);
  law = ContactLaw();
  law.eps_N = 1.5;
  EXPECT_THAT(Validate(law).message(), HasSubstr("eps_N"));
  law = ContactLaw();
  law.eps_T = nan;
  EXPECT_THAT(Validate(law).message(), HasSubstr("eps_T"));
}

//--- the iteration itself, one sweep by hand ---

// Two contacts. G = I except G_N1N2 = 0.5 (coupled normals), G_N1T1 = 0.2
// and G_T2T2 = 2 at contact 1; c_N = −1 at both, c_T1 = −0.1, c_T2 of
// contact 2 = −10 (slides). One sweep from Λ = 0 with α = 0.6:
//   r_N = 0.6, r_T(1) = 0.6 / max(1, 2) = 0.3 (000: the larger diagonal).
//   JOR (all from Λ⁰ = 0): Λ_N1 = Λ_N2 = 0.6; Λ_T1 = −0.3·(−0.1) = 0.03;
//       contact 2: −0.6·(−10) = 6 onto the disc μ Λ_N2 = 0.5·0.6 → 0.3.
//   SOR: Λ_N1 = 0.6; then γ_T1 = −0.1 + 0.2·0.6 = 0.02 → Λ_T1 = −0.006;
//       γ_N2 = −1 + 0.5·0.6 = −0.7 → Λ_N2 = 0.42; disc 0.5·0.42 = 0.21.
// Many contacts coupled through one rigid body (whole-body collision): n
// contacts at one point of a point mass m share every row, G = (1/m) blocks
// of the identity, so the diagonal JOR step α / G_ll overshoots by n α and
// diverges for n α ≥ 2; the row-sum step (ProxParams::row_sum_step)
// converges to Σ Λ_N = m g Δt.
TEST(ProxIteration, RowSumStepMakesJorConvergeOnManyCoupledContacts) {
  constexpr int n = 12;
  const double m = 2.0, g = 9.81, dt = 1e-3;
  MatrixXd G = MatrixXd::Zero(3 * n, 3 * n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) G.block<3, 3>(3 * i, 3 * j) = Matrix3d::Identity() / m;
  }
  VectorXd c = VectorXd::Zero(3 * n);
  for (int i = 0; i < n; ++i) c[3 * i] = -g * dt;  // free fall over the step
  const VectorXd gamma_S = VectorXd::Zero(3 * n);
  const std::vector<ContactLaw> laws(n);
  ProxSolver solver(n);
  ProxParams params;
  params.method = ProxMethod::kJor;
  params.max_iterations = 2000;
  VectorXd Lambda = VectorXd::Zero(3 * n);
  const ProxResult diagonal = solver.Solve(params, laws, G, c, gamma_S, Lambda);
  EXPECT_FALSE(diagonal.converged);
  params.row_sum_step = true;
  params.T_rel = params.T_abs = 1e-12;
  Lambda.setZero();
  const ProxResult row_sum = solver.Solve(params, laws, G, c, gamma_S, Lambda);
  EXPECT_TRUE(row_sum.converged);
  double total = 0.0;
  for (int i = 0; i < n; ++i) total += Lambda[3 * i];
  EXPECT_NEAR(total, m * g * dt, 1e-9);
  // SOR ignores the flag and converges either way.
  params.method = ProxMethod::kSor;
  Lambda.setZero();
  EXPECT_TRUE(solver.Solve(params, laws, G, c, gamma_S, Lambda).converged);
}

TEST(ProxIteration, OneSweepByHand) {
  MatrixXd G = MatrixXd::Identity(6, 6);
  G(0, 3) = G(3, 0) = 0.5;
  G(0, 1) = G(1, 0) = 0.2;
  G(2, 2) = 2.0;
  VectorXd c(6);
  c << -1, -0.1, 0, -1, -10, 0;
  std::vector<ContactLaw> laws(2);
  laws[0].mu = 10.0;  // contact 1 sticks
  laws[1].mu = 0.5;
  ProxSolver solver(2);
  ProxParams params;
  params.max_iterations = 1;
  params.method = ProxMethod::kJor;
  VectorXd Lambda = VectorXd::Zero(6);
  ProxResult r = solver.Solve(params, laws, G, c, VectorXd::Zero(6), Lambda);
  EXPECT_EQ(r.iterations, 1);
  EXPECT_FALSE(r.converged);
  VectorXd expected(6);
  expected << 0.6, 0.03, 0, 0.6, 0.3, 0;
  EXPECT_NEAR((Lambda - expected).norm(), 0.0, 1e-15);
  EXPECT_DOUBLE_EQ(r.residual, 0.6);
  EXPECT_NEAR((VectorXd(solver.gamma_E()) - (c + G * Lambda)).norm(), 0.0, 1e-15);

  params.method = ProxMethod::kSor;
  Lambda.setZero();
  r = solver.Solve(params, laws, G, c, VectorXd::Zero(6), Lambda);
  expected << 0.6, -0.006, 0, 0.42, 0.21, 0;
  EXPECT_NEAR((Lambda - expected).norm(), 0.0, 1e-15);
  EXPECT_NEAR((VectorXd(solver.gamma_E()) - (c + G * Lambda)).norm(), 0.0, 1e-15);
}

//--- one contact: a 1 kg point mass, G = I/m in any contact frame ---

class PointMassTest : public ::testing::TestWithParam<ProxMethod> {};

TEST_P(PointMassTest, RestingNormalImpulseIsMgDt) {
  const double m = 1.0;
  // Any tangent basis: t1 at 30° in the ground plane.
  const Problem p =
      PointMass(m, Frame(Vector3d::UnitZ(), Vector3d(std::cos(kPi / 6), std::sin(kPi / 6), 0)),
                Vector3d::Zero());
  EXPECT_NEAR((p.G - Matrix3d::Identity() / m).norm(), 0.0, 1e-15);
  ProxSolver solver(1);
  VectorXd Lambda = VectorXd::Zero(3);
  ProxParams params;
  params.method = GetParam();
  const ProxResult r = SolveProblem(solver, params, p, Lambda);
  EXPECT_TRUE(r.converged);
  EXPECT_GE(r.iterations, 1);
  EXPECT_LE(r.residual, params.T_rel * Lambda.norm() + params.T_abs);
  // Λ_N = m g Δt: the percussion that cancels one step of gravity. With
  // 000's tolerances the error is ≤ T_abs ρ/(1 − ρ), ρ = 1 − α = 0.4 here.
  EXPECT_NEAR(Lambda[0], m * kG * kDt, params.T_abs);
  EXPECT_EQ(Lambda[1], 0.0);
  EXPECT_EQ(Lambda[2], 0.0);
  EXPECT_NEAR(solver.gamma_E().norm(), 0.0, params.T_abs);
  EXPECT_NEAR(p.uE(Lambda).norm(), 0.0, params.T_abs);
}

TEST_P(PointMassTest, NewtonImpactRestitution) {
  const double m = 1.0, v = 2.0;
  for (double eps : {0.0, 0.5, 1.0}) {
    SCOPED_TRACE(eps);
    ContactLaw law;
    law.eps_N = eps;
    const Problem p =
        PointMass(m, Frame(Vector3d::UnitZ(), Vector3d::UnitX()), Vector3d(0, 0, -v), law);
    ProxSolver solver(1);
    VectorXd Lambda = VectorXd::Zero(3);
    const ProxResult r = SolveProblem(solver, Tight(GetParam()), p, Lambda);
    EXPECT_TRUE(r.converged);
    // ξ_N = γ_E,N + ε γ_S,N = 0 with Λ_N > 0 (000 eq. 5, 7): γ_E,N = +ε v.
    EXPECT_NEAR(p.uE(Lambda).z(), eps * v, 1e-12);
    EXPECT_NEAR(solver.gamma_E()[0], eps * v, 1e-12);
    EXPECT_NEAR(Lambda[0], m * ((1.0 + eps) * v + kG * kDt), 1e-12);
    ExpectSolves(p, Lambda, 1e-12);
  }
}

TEST_P(PointMassTest, TangentialRestitutionReversesAStickingSlip) {
  // A landing point mass with a small tangential velocity and ample friction
  // sticks: ξ_T = γ_E,T + ε_T γ_S,T = 0 (000 eq. 5, 7), so the tangential
  // velocity after the impact is −ε_T times the one before.
  const double m = 1.0, v = 2.0, mu = 10.0;
  const Vector3d slip = 0.1 * Vector3d(std::cos(kPi / 6), std::sin(kPi / 6), 0.0);
  for (double eps_T : {0.3, 1.0}) {
    SCOPED_TRACE(eps_T);
    ContactLaw law;
    law.mu = mu;
    law.eps_T = eps_T;
    const Problem p = PointMass(m, Frame(Vector3d::UnitZ(), Vector3d::UnitX()),
                                Vector3d(slip.x(), slip.y(), -v), law);
    ProxSolver solver(1);
    VectorXd Lambda = VectorXd::Zero(3);
    const ProxResult r = SolveProblem(solver, Tight(GetParam()), p, Lambda);
    EXPECT_TRUE(r.converged);
    const Vector3d after = p.uE(Lambda);
    EXPECT_NEAR(after.x(), -eps_T * slip.x(), 1e-12);
    EXPECT_NEAR(after.y(), -eps_T * slip.y(), 1e-12);
    EXPECT_NEAR(after.z(), 0.0, 1e-12);
    // The tangential percussion m (1 + ε_T) |slip| stays inside the cone.
    EXPECT_NEAR(std::hypot(Lambda[1], Lambda[2]), m * (1.0 + eps_T) * slip.norm(), 1e-12);
    EXPECT_LT(std::hypot(Lambda[1], Lambda[2]), mu * Lambda[0]);
    ExpectSolves(p, Lambda, 1e-12);
  }
}

TEST_P(PointMassTest, SlidingFrictionIsOnTheDiscOppositeTheSlip) {
  const double m = 1.0, mu = 0.8;
  // Tangent basis rotated by 10°, slip at 30°: neither along t1 nor t2.
  const Matrix3d P = Frame(Vector3d::UnitZ(), Vector3d(std::cos(kPi / 18), std::sin(kPi / 18), 0));
  const Vector3d s(std::cos(kPi / 6), std::sin(kPi / 6), 0);
  const double speed = 1.0;  // ≫ μ g Δt = 0.0196 m/s: slides through the step
  const Problem p = PointMass(m, P, speed * s);
  ProxSolver solver(1);
  VectorXd Lambda = VectorXd::Zero(3);
  const ProxResult r = SolveProblem(solver, Tight(GetParam()), p, Lambda);
  EXPECT_TRUE(r.converged);
  const double L_N = m * kG * kDt;
  EXPECT_NEAR(Lambda[0], L_N, 1e-12);
  // Λ_T (world) = −μ Λ_N ŝ: on the circle, against the slip.
  const Vector3d L_T_world = P.bottomRows<2>().transpose() * Lambda.tail<2>();
  EXPECT_NEAR(Lambda.tail<2>().norm(), mu * L_N, 1e-12);
  EXPECT_NEAR((L_T_world + mu * L_N * s).norm(), 0.0, 1e-12);
  // Still sliding, slowed by μ g Δt.
  EXPECT_NEAR((p.uE(Lambda) - (speed - mu * kG * kDt) * s).norm(), 0.0, 1e-12);
  ExpectSolves(p, Lambda, 1e-12);
}

TEST_P(PointMassTest, StickingFrictionStopsTheContact) {
  const double m = 1.0, mu = 0.8;
  const Vector3d s(std::cos(kPi / 6), std::sin(kPi / 6), 0);
  const double speed = 0.01;  // < μ g Δt = 0.0196 m/s: friction stops it
  const Problem p = PointMass(m, Frame(Vector3d::UnitZ(), Vector3d::UnitX()), speed * s);
  ProxSolver solver(1);
  VectorXd Lambda = VectorXd::Zero(3);
  const ProxResult r = SolveProblem(solver, Tight(GetParam()), p, Lambda);
  EXPECT_TRUE(r.converged);
  EXPECT_NEAR(solver.gamma_E().tail<2>().norm(), 0.0, 1e-12);  // γ_T,E = 0
  EXPECT_NEAR((Lambda.tail<2>() + m * speed * s.head<2>()).norm(), 0.0, 1e-12);
  EXPECT_LT(Lambda.tail<2>().norm(), mu * Lambda[0]);
  EXPECT_NEAR(p.uE(Lambda).norm(), 0.0, 1e-12);
}

TEST_P(PointMassTest, InclineSticksBelowAndSlidesAboveTheFrictionAngle) {
  const double m = 1.0, mu = 0.8;  // friction angle atan(0.8) = 38.7°
  for (double deg : {20.0, 45.0}) {
    SCOPED_TRACE(deg);
    const double th = deg * kPi / 180.0;
    // Plane rising along +x: normal (−sin θ, 0, cos θ), t1 up the slope.
    const Vector3d n(-std::sin(th), 0, std::cos(th));
    const Vector3d up(std::cos(th), 0, std::sin(th));
    const Problem p = PointMass(m, Frame(n, up), Vector3d::Zero());
    ProxSolver solver(1);
    VectorXd Lambda = VectorXd::Zero(3);
    ASSERT_TRUE(SolveProblem(solver, Tight(GetParam()), p, Lambda).converged);
    EXPECT_NEAR(Lambda[0], m * kG * kDt * std::cos(th), 1e-12);
    EXPECT_NEAR(Lambda[2], 0.0, 1e-12);
    if (std::tan(th) < mu) {
      EXPECT_NEAR(Lambda[1], m * kG * kDt * std::sin(th), 1e-12);  // holds it
      EXPECT_NEAR(p.uE(Lambda).norm(), 0.0, 1e-12);
    } else {
      EXPECT_NEAR(Lambda[1], mu * Lambda[0], 1e-12);  // on the disc
      EXPECT_NEAR((p.uE(Lambda) + kG * kDt * (std::sin(th) - mu * std::cos(th)) * up).norm(), 0.0,
                  1e-12);
    }
    ExpectSolves(p, Lambda, 1e-12);
  }
}

TEST_P(PointMassTest, SeparatingContactHasNoImpulse) {
  // c_N > 0: moving away faster than gravity pulls back within Δt.
  const Problem p =
      PointMass(1.0, Frame(Vector3d::UnitZ(), Vector3d::UnitX()), Vector3d(0.3, -0.2, 0.5));
  ASSERT_GT(p.c[0], 0.0);
  ProxSolver solver(1);
  ProxParams params;
  params.method = GetParam();
  for (const VectorXd& start : {VectorXd(VectorXd::Zero(3)), VectorXd(Vector3d(0.5, 0.2, -0.1))}) {
    VectorXd Lambda = start;
    const ProxResult r = SolveProblem(solver, params, p, Lambda);
    EXPECT_TRUE(r.converged);
    EXPECT_EQ(Lambda, VectorXd::Zero(3));
    EXPECT_NEAR((solver.gamma_E() - p.c).norm(), 0.0, 1e-15);
  }
}

INSTANTIATE_TEST_SUITE_P(Methods, PointMassTest,
                         ::testing::Values(ProxMethod::kJor, ProxMethod::kSor),
                         [](const auto& info) {
                           return info.param == ProxMethod::kJor ? "Jor" : "Sor";
                         });

//--- four contacts: a box on its bottom corners ---

TEST(ProxBox, RestingBoxCarriesItsWeight) {
  const Problem p = Box(Vector3d::Zero(), Vector3d::Zero());
  EXPECT_NEAR((p.G - p.G.transpose()).norm(), 0.0, 1e-12);
  for (ProxMethod method : {ProxMethod::kJor, ProxMethod::kSor}) {
    ProxSolver solver(4);
    VectorXd Lambda = VectorXd::Zero(12);
    ASSERT_TRUE(SolveProblem(solver, Tight(method), p, Lambda).converged);
    double sum_N = 0.0;
    for (int i = 0; i < 4; ++i) sum_N += Lambda[3 * i];
    EXPECT_NEAR(sum_N, kBoxMass * kG * kDt, 1e-12);
    EXPECT_NEAR(p.uE(Lambda).norm(), 0.0, 1e-12);  // stays at rest
    ExpectSolves(p, Lambda, 1e-12);
  }
}

// Landing (−1 m/s), sliding at 30° and spinning: some corners slide, the
// impact is inelastic (ε = 0).
Problem LandingBox() {
  return Box(Vector3d(0.5 * std::cos(kPi / 6), 0.5 * std::sin(kPi / 6), -1.0),
             Vector3d(0.3, -0.2, 1.5));
}

TEST(ProxBox, JorAndSorAgree) {
  const Problem p = LandingBox();
  ProxSolver solver(4);
  VectorXd L_jor = VectorXd::Zero(12), L_sor = VectorXd::Zero(12);
  ASSERT_TRUE(SolveProblem(solver, Tight(ProxMethod::kJor), p, L_jor).converged);
  const VectorXd gamma_jor = solver.gamma_E();
  ASSERT_TRUE(SolveProblem(solver, Tight(ProxMethod::kSor), p, L_sor).converged);
  const VectorXd gamma_sor = solver.gamma_E();
  ExpectSolves(p, L_jor, 1e-10);
  ExpectSolves(p, L_sor, 1e-10);
  // The contact velocities, the generalized impulse W Λ and so u_E agree.
  EXPECT_NEAR((gamma_jor - gamma_sor).norm(), 0.0, 1e-10);
  EXPECT_NEAR((p.W * (L_jor - L_sor)).norm(), 0.0, 1e-10);
  EXPECT_NEAR((p.uE(L_jor) - p.uE(L_sor)).norm(), 0.0, 1e-10);
  // Λ itself is not unique here: 12 percussions on a 6-DOF body, so G has
  // rank 6 and any Λ + null(G) with the same contact states also solves 000
  // eq. 12–13 (four corners on a plane are statically indeterminate). JOR
  // and SOR reach different points of that set; they differ by a null(G)
  // vector. (ProxQuadruped compares Λ itself, on a regular G.)
  Eigen::SelfAdjointEigenSolver<MatrixXd> eig(p.G);
  EXPECT_NEAR(eig.eigenvalues()[5], 0.0, 1e-12);
  EXPECT_GT(eig.eigenvalues()[6], 1e-3);
  EXPECT_NEAR((p.G * (L_jor - L_sor)).norm(), 0.0, 1e-10);
  double sum_jor = 0.0, sum_sor = 0.0;
  for (int i = 0; i < 4; ++i) sum_jor += L_jor[3 * i], sum_sor += L_sor[3 * i];
  EXPECT_NEAR(sum_jor, sum_sor, 1e-10);  // the total normal percussion is unique
  std::printf("box: |Λ_JOR − Λ_SOR| = %.3g of |Λ| = %.3g, G(Λ_JOR − Λ_SOR) = %.1e\n",
              (L_jor - L_sor).norm(), L_sor.norm(), (p.G * (L_jor - L_sor)).norm());
  // It lands: every corner ends with γ_E,N = 0 or lifts off.
  for (int i = 0; i < 4; ++i) EXPECT_GE(gamma_sor[3 * i], -1e-10);
  EXPECT_GT(p.uE(L_sor)[2], -1e-10);
}

TEST(ProxBox, SorNeedsFewerIterationsThanJorAndWarmStartConverges) {
  for (bool landing : {false, true}) {
    SCOPED_TRACE(landing ? "landing" : "resting");
    const Problem p = landing ? LandingBox() : Box(Vector3d::Zero(), Vector3d::Zero());
    ProxSolver solver(4);
    ProxParams params;  // 000's defaults
    params.warm_start = false;
    params.method = ProxMethod::kJor;
    VectorXd L_jor = VectorXd::Zero(12), L_sor = VectorXd::Zero(12);
    const ProxResult r_jor = SolveProblem(solver, params, p, L_jor);
    params.method = ProxMethod::kSor;
    const ProxResult r_sor = SolveProblem(solver, params, p, L_sor);
    EXPECT_TRUE(r_jor.converged);
    EXPECT_TRUE(r_sor.converged);
    // Landing (sliding corners, the momentum coupled through the trunk) SOR
    // needs about a third of JOR's sweeps. Resting, the symmetric load is
    // almost an eigenvector of the Jacobi iteration and JOR is as fast or
    // faster (000 § "Number of Hard Contact Iterations" sees both).
    if (landing) {
      EXPECT_LT(r_sor.iterations, r_jor.iterations);
    }
    std::printf("box %s: JOR %d, SOR %d iterations (alpha = 0.6, T = 1e-6)\n",
                landing ? "landing" : "resting", r_jor.iterations, r_sor.iterations);
    // Both stop near the same velocities (error ~ tolerance / (1 − rate)).
    EXPECT_NEAR((p.uE(L_jor) - p.uE(L_sor)).norm(), 0.0, 1e-3);

    // Warm start from the solution: the first sweep already passes the test.
    for (ProxMethod method : {ProxMethod::kJor, ProxMethod::kSor}) {
      ProxParams warm;
      warm.method = method;
      VectorXd Lambda = method == ProxMethod::kJor ? L_jor : L_sor;
      const ProxResult r = SolveProblem(solver, warm, p, Lambda);
      EXPECT_TRUE(r.converged);
      EXPECT_LE(r.iterations, 2);
    }
    // ... and warm_start = false ignores what is passed in.
    ProxParams cold;
    cold.warm_start = false;
    VectorXd Lambda = L_sor;
    EXPECT_EQ(SolveProblem(solver, cold, p, Lambda).iterations, r_sor.iterations);
    EXPECT_EQ(Lambda, L_sor);
  }
}

//--- four contacts on four legs: a regular G, so Λ is unique ---

TEST(ProxQuadruped, JorAndSorConvergeToTheSameLambda) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  for (int trial = 0; trial < 5; ++trial) {
    SCOPED_TRACE(trial);
    VectorXd u_S(18);
    for (int k = 0; k < 18; ++k) u_S[k] = 0.3 * U(rng);
    u_S[2] = -0.5;  // landing trunk
    const Problem p = Quadruped(rng, u_S);
    Eigen::SelfAdjointEigenSolver<MatrixXd> eig(p.G);
    ASSERT_GT(eig.eigenvalues().minCoeff(), 1e-6);  // regular
    ProxSolver solver(4);
    VectorXd L_jor = VectorXd::Zero(12), L_sor = VectorXd::Zero(12);
    ASSERT_TRUE(SolveProblem(solver, Tight(ProxMethod::kJor), p, L_jor).converged);
    ASSERT_TRUE(SolveProblem(solver, Tight(ProxMethod::kSor), p, L_sor).converged);
    EXPECT_NEAR((L_jor - L_sor).norm(), 0.0, 1e-10 * (1.0 + L_sor.norm()));
    ExpectSolves(p, L_jor, 1e-10);
    ExpectSolves(p, L_sor, 1e-10);

    ProxParams params;
    params.warm_start = false;
    params.method = ProxMethod::kJor;
    VectorXd a = VectorXd::Zero(12), b = VectorXd::Zero(12);
    const ProxResult r_jor = SolveProblem(solver, params, p, a);
    params.method = ProxMethod::kSor;
    const ProxResult r_sor = SolveProblem(solver, params, p, b);
    EXPECT_TRUE(r_jor.converged);
    EXPECT_TRUE(r_sor.converged);
    EXPECT_LT(r_sor.iterations, r_jor.iterations);
    std::printf("quadruped %d: JOR %d, SOR %d iterations\n", trial, r_jor.iterations,
                r_sor.iterations);
  }
}

//--- limits and safety ---

TEST(ProxSafety, IterationCapIsHonoured) {
  const Problem p = LandingBox();
  ProxSolver solver(4);
  for (ProxMethod method : {ProxMethod::kJor, ProxMethod::kSor}) {
    ProxParams params;
    params.method = method;
    params.max_iterations = 3;
    VectorXd Lambda = VectorXd::Zero(12);
    const ProxResult r = SolveProblem(solver, params, p, Lambda);
    EXPECT_FALSE(r.converged);
    EXPECT_EQ(r.iterations, 3);
    EXPECT_GT(r.residual, params.T_abs);
    EXPECT_TRUE(std::isfinite(r.residual));
    EXPECT_TRUE(Lambda.allFinite());
    EXPECT_TRUE(Admissible(p, Lambda));  // the last iterate is still admissible
    EXPECT_NEAR((VectorXd(solver.gamma_E()) - (p.c + p.G * Lambda)).norm(), 0.0, 1e-12);
  }
}

TEST(ProxSafety, SingularAndDegenerateG) {
  ProxSolver solver(2);
  const std::vector<ContactLaw> one(1), two(2);
  for (ProxMethod method : {ProxMethod::kJor, ProxMethod::kSor}) {
    ProxParams params;
    params.method = method;
    // G = 0 (the contact moves nothing): held at 0, not converged.
    VectorXd Lambda = Vector3d(1, 2, 3);
    ProxResult r = solver.Solve(params, one, MatrixXd::Zero(3, 3), Vector3d(-1, 0.5, 0),
                                Vector3d::Zero(), Lambda);
    EXPECT_FALSE(r.converged);
    EXPECT_EQ(Lambda, VectorXd::Zero(3));
    EXPECT_TRUE(std::isfinite(r.residual));

    // A negative normal diagonal: same.
    MatrixXd G = MatrixXd::Identity(3, 3);
    G(0, 0) = -1.0;
    Lambda.setZero();
    r = solver.Solve(params, one, G, Vector3d(-1, 0.5, 0), Vector3d::Zero(), Lambda);
    EXPECT_FALSE(r.converged);
    EXPECT_EQ(Lambda, VectorXd::Zero(3));

    // Zero tangential diagonals: Λ_N solved, Λ_T held at 0, reported.
    G = MatrixXd::Zero(3, 3);
    G(0, 0) = 1.0;
    Lambda.setZero();
    r = solver.Solve(params, one, G, Vector3d(-1, 0.5, 0), Vector3d::Zero(), Lambda);
    EXPECT_FALSE(r.converged);
    EXPECT_NEAR(Lambda[0], 1.0, 1e-5);
    EXPECT_EQ(Lambda.tail<2>(), Eigen::Vector2d::Zero());

    // Rank-deficient PSD G with a positive diagonal: the same point mass
    // contact listed twice. Finite, and the two share m g Δt.
    const Problem single =
        PointMass(1.0, Frame(Vector3d::UnitZ(), Vector3d::UnitX()), Vector3d(0.005, 0, 0));
    MatrixXd W2(3, 6);
    W2 << single.W, single.W;
    const Problem twice = MakeProblem(W2, Matrix3d::Identity(), single.h, single.u_S, {});
    Lambda = VectorXd::Zero(6);
    r = SolveProblem(solver, params, twice, Lambda);
    EXPECT_TRUE(r.converged);
    EXPECT_TRUE(Lambda.allFinite());
    EXPECT_NEAR(Lambda[0] + Lambda[3], kG * kDt, 1e-5);
    EXPECT_NEAR(twice.uE(Lambda).norm(), 0.0, 1e-4);

    // An indefinite "G" (not a Delassus matrix) whose iterate blows up:
    // overflow is caught, Λ = 0.
    G = MatrixXd::Identity(6, 6);
    G(0, 3) = G(3, 0) = -5.0;
    VectorXd c = VectorXd::Zero(6);
    c[0] = c[3] = -1.0;
    params.max_iterations = 100000;
    Lambda = VectorXd::Zero(6);
    r = solver.Solve(params, two, G, c, VectorXd::Zero(6), Lambda);
    EXPECT_FALSE(r.converged);
    EXPECT_EQ(r.residual, std::numeric_limits<double>::infinity());
    EXPECT_LT(r.iterations, 100000);
    EXPECT_EQ(Lambda, VectorXd::Zero(6));
    EXPECT_TRUE(solver.gamma_E().allFinite());
  }
}

TEST(ProxSafety, RejectsNonFiniteInputsAndWrongSizes) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const Problem p = LandingBox();
  ProxSolver solver(4);
  const ProxParams params;
  const auto expect_rejected = [&](const ProxResult& r, const VectorXd& Lambda) {
    EXPECT_FALSE(r.converged);
    EXPECT_EQ(r.iterations, 0);
    EXPECT_EQ(r.residual, inf);
    EXPECT_TRUE(Lambda.allFinite());
    EXPECT_EQ(Lambda, VectorXd::Zero(Lambda.size()));
  };
  VectorXd Lambda = VectorXd::Ones(12);
  VectorXd c = p.c;
  c[4] = nan;
  expect_rejected(solver.Solve(params, p.laws, p.G, c, p.gamma_S, Lambda), Lambda);
  MatrixXd G = p.G;
  G(2, 7) = inf;
  Lambda.setOnes();
  expect_rejected(solver.Solve(params, p.laws, G, p.c, p.gamma_S, Lambda), Lambda);
  // Three contacts (9 rows: the finiteness test's rows past its 4-row blocks).
  G = p.G.topLeftCorner(9, 9);
  G(8, 1) = nan;
  VectorXd Lambda9 = VectorXd::Ones(9);
  expect_rejected(
      solver.Solve(params, std::span(p.laws).first(3), G, p.c.head(9), p.gamma_S.head(9), Lambda9),
      Lambda9);
  Lambda.setOnes();
  VectorXd gamma_S = p.gamma_S;
  gamma_S[0] = -inf;
  expect_rejected(solver.Solve(params, p.laws, p.G, p.c, gamma_S, Lambda), Lambda);
  std::vector<ContactLaw> laws = p.laws;
  laws[2].mu = nan;
  expect_rejected(solver.Solve(params, laws, p.G, p.c, p.gamma_S, Lambda), Lambda);
  ProxParams bad;
  bad.alpha = 2.5;
  expect_rejected(solver.Solve(bad, p.laws, p.G, p.c, p.gamma_S, Lambda), Lambda);
  // Sizes: 3 laws for a 12 × 12 G; 4 contacts in a solver for 2.
  expect_rejected(solver.Solve(params, std::span(p.laws).first(3), p.G, p.c, p.gamma_S, Lambda),
                  Lambda);
  ProxSolver small(2);
  expect_rejected(small.Solve(params, p.laws, p.G, p.c, p.gamma_S, Lambda), Lambda);
  VectorXd short_lambda = VectorXd::Ones(9);
  expect_rejected(solver.Solve(params, p.laws, p.G, p.c, p.gamma_S, short_lambda), short_lambda);

  // A non-finite warm start is dropped, not propagated.
  Lambda.setConstant(nan);
  const ProxResult r = solver.Solve(params, p.laws, p.G, p.c, p.gamma_S, Lambda);
  EXPECT_TRUE(r.converged);
  EXPECT_TRUE(Lambda.allFinite());

  // No contacts: nothing to do.
  VectorXd empty(0);
  const ProxResult r0 = solver.Solve(params, {}, MatrixXd(0, 0), VectorXd(0), VectorXd(0), empty);
  EXPECT_TRUE(r0.converged);
  EXPECT_EQ(r0.iterations, 0);
}

//--- no allocation ---

TEST(ProxNoAllocation, SolveAllocatesNothing) {
  // Problems as the caller holds them: blocks of preallocated max-size
  // storage (16 contacts), 4 active.
  const int max_contacts = 16, n_max = 3 * max_contacts;
  std::mt19937_64 rng(3);
  VectorXd u_S = VectorXd::Constant(18, 0.1);
  u_S[2] = -0.4;
  const Problem problems[] = {LandingBox(), Quadruped(rng, u_S)};
  ProxSolver solver(max_contacts);
  MatrixXd G = MatrixXd::Zero(n_max, n_max);
  VectorXd c = VectorXd::Zero(n_max), gamma_S = VectorXd::Zero(n_max);
  VectorXd Lambda = VectorXd::Zero(n_max);
  std::vector<ContactLaw> laws(max_contacts);
  ProxParams params;
  ProxParams bad;
  bad.alpha = -1.0;
  long allocations = 0, mallocs = 0;
  int iterations = 0;
  for (const Problem& p : problems) {
    const int n = 3 * p.nc();
    G.topLeftCorner(n, n) = p.G;
    c.head(n) = p.c;
    gamma_S.head(n) = p.gamma_S;
    const std::span<const ContactLaw> active(laws.data(), p.nc());
    for (ProxMethod method : {ProxMethod::kJor, ProxMethod::kSor}) {
      params.method = method;
      Lambda.setZero();
      const auto solve = [&](const ProxParams& pp) {
        return solver
            .Solve(pp, active, G.topLeftCorner(n, n), c.head(n), gamma_S.head(n), Lambda.head(n))
            .iterations;
      };
      const long before = ::moreau::testing::OperatorNewCount(),
                 mallocs_before = ::moreau::testing::MallocCount();
      iterations += solve(params);  // cold
      iterations += solve(params);  // warm
      iterations += solve(bad);     // rejected
      volatile double sink = solver.gamma_E().sum();
      (void)sink;
      allocations += ::moreau::testing::OperatorNewCount() - before;
      mallocs += ::moreau::testing::MallocCount() - mallocs_before;
    }
  }
  // A full 64-contact problem (G 192 × 192, beyond Eigen's small-size
  // paths) and the rejection of a non-finite c.
  ProxSolver big(64);
  const int nb = 192;
  const MatrixXd A = MatrixXd::Random(nb, nb) / std::sqrt(double(nb));
  const MatrixXd G_big = A * A.transpose() + MatrixXd::Identity(nb, nb);
  VectorXd c_big = VectorXd::Constant(nb, -0.1), gamma_S_big = VectorXd::Zero(nb);
  VectorXd Lambda_big = VectorXd::Zero(nb);
  const std::vector<ContactLaw> laws_big(64);
  for (ProxMethod method : {ProxMethod::kJor, ProxMethod::kSor}) {
    params.method = method;
    Lambda_big.setZero();
    const long before = ::moreau::testing::OperatorNewCount(),
               mallocs_before = ::moreau::testing::MallocCount();
    iterations += big.Solve(params, laws_big, G_big, c_big, gamma_S_big, Lambda_big).iterations;
    c_big[5] = std::numeric_limits<double>::quiet_NaN();
    iterations += big.Solve(params, laws_big, G_big, c_big, gamma_S_big, Lambda_big).iterations;
    c_big[5] = -0.1;
    allocations += ::moreau::testing::OperatorNewCount() - before;
    mallocs += ::moreau::testing::MallocCount() - mallocs_before;
  }
  EXPECT_GT(iterations, 0);
  EXPECT_EQ(allocations, 0);
  EXPECT_EQ(mallocs, 0);
}

std::vector<double>* volatile g_sink_vector = nullptr;  // defeats new/delete elision

TEST(ProxNoAllocation, CountersWork) {
  const long news = ::moreau::testing::OperatorNewCount(),
             mallocs = ::moreau::testing::MallocCount();
  g_sink_vector = new std::vector<double>(100);
  delete g_sink_vector;
  EXPECT_GE(::moreau::testing::OperatorNewCount() - news, 2);
  const long eigen_before = ::moreau::testing::MallocCount();
  {
    Eigen::VectorXd v = Eigen::VectorXd::Zero(100);  // Eigen → std::malloc
    volatile double sink = v.sum();
    (void)sink;
  }
  EXPECT_GE(::moreau::testing::MallocCount() - eigen_before, 1);
  EXPECT_GE(::moreau::testing::MallocCount() - mallocs, 3);
}

}  // namespace
}  // namespace moreau::contact

namespace moreau::contact {
namespace {

// Bilateral rows after the contact rows (000 eq. 19–20; 002's bounded
// inverse-dynamics rows): each projected on its own box.
TEST(ProxBilateral, UnboundedRowsSolveTheLinearSystem) {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> normal;
  const int m = 5;
  Eigen::MatrixXd A(m, m);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) A(i, j) = normal(rng);
  const Eigen::MatrixXd G = A * A.transpose() + Eigen::MatrixXd::Identity(m, m);
  Eigen::VectorXd c(m);
  for (int i = 0; i < m; ++i) c[i] = normal(rng);
  const Eigen::VectorXd exact = G.ldlt().solve(-c);
  const double inf = std::numeric_limits<double>::infinity();
  const Eigen::VectorXd lo = Eigen::VectorXd::Constant(m, -inf), hi = -lo;
  for (ProxMethod method : {ProxMethod::kSor, ProxMethod::kJor}) {
    ProxParams params;
    params.method = method;
    params.alpha = method == ProxMethod::kSor ? 1.0 : 0.2;
    params.max_iterations = 20000;
    params.T_abs = params.T_rel = 1e-12;
    ProxSolver solver(0, m);
    Eigen::VectorXd Lambda = Eigen::VectorXd::Zero(m);
    const ProxResult result = solver.Solve(params, {}, G, c, Eigen::VectorXd(), Lambda, lo, hi);
    EXPECT_TRUE(result.converged) << static_cast<int>(method);
    EXPECT_LT((Lambda - exact).norm(), 1e-8 * exact.norm()) << static_cast<int>(method);
    EXPECT_LT(solver.gamma_E().norm(), 1e-8);  // γ_E = c + G Λ = 0: the targets are met
  }
}

TEST(ProxBilateral, ActiveBoundClampsExactlyAndZeroRowsAreHeld) {
  // Row 0: wants Λ = 5 but |Λ| ≤ 1. Row 1: a vanishing Jacobian (G_11 = 0).
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(2, 2);
  G(0, 0) = 2.0;
  const Eigen::Vector2d c(-10.0, 3.0);
  const Eigen::Vector2d lo(-1.0, -INFINITY), hi(1.0, INFINITY);
  ProxSolver solver(0, 2);
  Eigen::VectorXd Lambda = Eigen::VectorXd::Constant(2, 0.5);
  const ProxResult result = solver.Solve(ProxParams{}, {}, G, c, Eigen::VectorXd(), Lambda, lo, hi);
  EXPECT_TRUE(result.converged);
  EXPECT_EQ(Lambda[0], 1.0);
  EXPECT_EQ(Lambda[1], 0.0);
}

TEST(ProxBilateral, BoundedRowAndContactEachKeepTheirSet) {
  // A point mass (1 kg) on the ground, pushed along t1 by a bilateral row (an
  // actuator asking 1 m/s with at most 2 N s) with weight impulse 10 N s.
  // μ = 0.5: friction (≤ 5 N s) holds, the row saturates on its bound and the
  // mass stays. μ = 0.1: friction saturates on its disc (1 N s), the row
  // reaches its target with 2 N s and the mass slides at 1 m/s. Neither row
  // leaves its own set.
  Eigen::MatrixXd G = Eigen::MatrixXd::Identity(4, 4);
  G(3, 1) = G(1, 3) = 1.0;  // the row's direction is t1
  Eigen::VectorXd c(4);
  c << -10.0, 0.0, 0.0, -1.0;
  const Eigen::VectorXd gamma_S = Eigen::VectorXd::Zero(3);
  const Eigen::VectorXd lo = Eigen::VectorXd::Constant(1, -2.0), hi = -lo;
  ProxParams params;
  params.max_iterations = 1000;
  for (double mu : {0.5, 0.1}) {
    const std::vector<ContactLaw> laws = {ContactLaw{mu, 0.0, 0.0}};
    ProxSolver solver(1, 1);
    Eigen::VectorXd Lambda = Eigen::VectorXd::Zero(4);
    const ProxResult result = solver.Solve(params, laws, G, c, gamma_S, Lambda, lo, hi);
    EXPECT_TRUE(result.converged) << mu;
    EXPECT_NEAR(Lambda[0], 10.0, 1e-5) << mu;
    EXPECT_LE(std::hypot(Lambda[1], Lambda[2]), mu * Lambda[0] + 1e-12) << mu;
    EXPECT_NEAR(Lambda[3], 2.0, 1e-5) << mu;  // the row on its bound
    const double slide = solver.gamma_E()[1];
    if (mu == 0.5) {
      EXPECT_NEAR(Lambda[1], -2.0, 1e-5);
      EXPECT_NEAR(slide, 0.0, 1e-5);
    } else {
      EXPECT_NEAR(Lambda[1], -1.0, 1e-5);
      EXPECT_NEAR(slide, 1.0, 1e-4);
    }
  }
}

TEST(ProxBilateral, RejectsBadBoxesAndTooManyRows) {
  const Eigen::MatrixXd G = Eigen::MatrixXd::Identity(1, 1);
  const Eigen::VectorXd c = Eigen::VectorXd::Ones(1);
  Eigen::VectorXd Lambda = Eigen::VectorXd::Ones(1);
  ProxSolver solver(0, 1);
  const ProxResult bad =
      solver.Solve(ProxParams{}, {}, G, c, Eigen::VectorXd(), Lambda,
                   Eigen::VectorXd::Constant(1, 1.0), Eigen::VectorXd::Constant(1, -1.0));
  EXPECT_FALSE(bad.converged);
  EXPECT_EQ(Lambda[0], 0.0);
  ProxSolver none(0, 0);
  const ProxResult too_many = none.Solve(ProxParams{}, {}, G, c, Eigen::VectorXd(), Lambda,
                                         Eigen::VectorXd::Zero(1), Eigen::VectorXd::Zero(1));
  EXPECT_EQ(too_many.residual, std::numeric_limits<double>::infinity());
}

TEST(ProxBilateral, SolveWithRowsAllocatesNothing) {
  Eigen::MatrixXd G = Eigen::MatrixXd::Identity(6, 6) * 2.0;
  G(3, 4) = G(4, 3) = 0.5;
  const Eigen::VectorXd c = Eigen::VectorXd::LinSpaced(6, -3.0, 2.0);
  const Eigen::VectorXd gamma_S = Eigen::VectorXd::Zero(3);
  const std::vector<ContactLaw> laws(1);
  const Eigen::VectorXd lo = Eigen::VectorXd::Constant(3, -1.0), hi = -lo;
  ProxSolver solver(1, 3);
  Eigen::VectorXd Lambda = Eigen::VectorXd::Zero(6);
  const long before = ::moreau::testing::OperatorNewCount();
  for (ProxMethod method : {ProxMethod::kJor, ProxMethod::kSor}) {
    ProxParams params;
    params.method = method;
    solver.Solve(params, laws, G, c, gamma_S, Lambda, lo, hi);
  }
  EXPECT_EQ(::moreau::testing::OperatorNewCount() - before, 0);
}

}  // namespace
}  // namespace moreau::contact
