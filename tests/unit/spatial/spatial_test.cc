// Checks the (E, r) transforms, cross operators and inertia formulas against
// their 6×6 matrix definitions (001 App. A; RBDA §2).
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <random>
#include <vector>

#include "engine/spatial/articulated_inertia.h"
#include "engine/spatial/axis_transform.h"
#include "engine/spatial/inertia.h"
#include "engine/spatial/motion.h"
#include "engine/spatial/quaternion.h"
#include "engine/spatial/sincos.h"
#include "engine/spatial/transform.h"

namespace moreau::spatial {
namespace {

class SpatialTest : public ::testing::Test {
 protected:
  Vec3 RandomVec() { return Vec3(u_(rng_), u_(rng_), u_(rng_)); }
  Mat3 RandomRotation() {
    Eigen::Quaterniond q(u_(rng_), u_(rng_), u_(rng_), u_(rng_));
    q.normalize();
    return q.toRotationMatrix();
  }
  Transform RandomTransform() { return Transform(RandomRotation(), RandomVec()); }
  Motion RandomMotion() { return Motion(RandomVec(), RandomVec()); }
  Force RandomForce() { return Force(RandomVec(), RandomVec()); }
  Inertia RandomInertia() {
    const Vec3 d = RandomVec().cwiseAbs() + Vec3::Constant(0.1);
    const Mat3 R = RandomRotation();
    return Inertia::FromMassComInertia(1.0 + u_(rng_) * u_(rng_), RandomVec(),
                                       R * d.asDiagonal() * R.transpose());
  }

  // A random symmetric positive definite 6×6 (an articulated inertia).
  Mat6 RandomArticulated() {
    Mat6 G;
    for (int r = 0; r < 6; ++r) {
      for (int c = 0; c < 6; ++c) G(r, c) = u_(rng_);
    }
    return G * G.transpose() + 0.1 * Mat6::Identity();
  }

  std::mt19937 rng_{42};
  std::uniform_real_distribution<double> u_{-1.0, 1.0};
};

constexpr double kTol = 1e-12;

TEST_F(SpatialTest, TransformActionsMatchMatrices) {
  for (int n = 0; n < 100; ++n) {
    const Transform X = RandomTransform();
    const Motion m = RandomMotion();
    const Force f = RandomForce();
    EXPECT_TRUE(X.Apply(m).ToVector().isApprox(X.MotionMatrix() * m.ToVector(), kTol));
    EXPECT_TRUE(X.Apply(f).ToVector().isApprox(X.ForceMatrix() * f.ToVector(), kTol));
    EXPECT_TRUE(
        X.ApplyInverse(m).ToVector().isApprox(X.MotionMatrix().inverse() * m.ToVector(), 1e-10));
    EXPECT_TRUE(
        X.ApplyTranspose(f).ToVector().isApprox(X.MotionMatrix().transpose() * f.ToVector(), kTol));
    // Power is invariant: (X m) · (X* f) = m · f.
    EXPECT_NEAR(X.Apply(m).Dot(X.Apply(f)), m.Dot(f), 1e-12);
  }
}

TEST_F(SpatialTest, CompositionAndInverse) {
  for (int n = 0; n < 100; ++n) {
    const Transform A = RandomTransform(), B = RandomTransform();
    EXPECT_TRUE((A * B).MotionMatrix().isApprox(A.MotionMatrix() * B.MotionMatrix(), kTol));
    EXPECT_TRUE(A.Inverse().MotionMatrix().isApprox(A.MotionMatrix().inverse(), 1e-10));
    const Vec3 p = RandomVec();
    EXPECT_TRUE(A.InverseTransformPoint(A.TransformPoint(p)).isApprox(p, kTol));
  }
}

TEST_F(SpatialTest, PoseConvention) {
  // A frame B rotated 90° about z and moved to (1, 2, 3): its x axis is A's y.
  const Mat3 R = Eigen::AngleAxisd(M_PI / 2, Vec3::UnitZ()).toRotationMatrix();
  const Transform X = Transform::FromPose(R, Vec3(1, 2, 3));
  EXPECT_TRUE(X.InverseTransformPoint(Vec3(1, 0, 0)).isApprox(Vec3(1, 3, 3), kTol));
  EXPECT_TRUE(X.Rotation().isApprox(R, kTol));
}

TEST_F(SpatialTest, CrossOperatorsMatchMatrices) {
  for (int n = 0; n < 100; ++n) {
    const Motion m = RandomMotion(), m2 = RandomMotion();
    const Force f = RandomForce();
    EXPECT_TRUE(m.Cross(m2).ToVector().isApprox(CrmMatrix(m) * m2.ToVector(), kTol));
    EXPECT_TRUE(m.CrossForce(f).ToVector().isApprox(CrfMatrix(m) * f.ToVector(), kTol));
  }
}

TEST_F(SpatialTest, InertiaProductAndTransform) {
  for (int n = 0; n < 100; ++n) {
    const Inertia I = RandomInertia();
    const Motion m = RandomMotion();
    EXPECT_TRUE((I * m).ToVector().isApprox(I.Matrix() * m.ToVector(), kTol));
    const Transform X = RandomTransform();
    const Mat6 expected = X.MotionMatrix().transpose() * I.Matrix() * X.MotionMatrix();
    EXPECT_TRUE(I.ExpressedInParent(X).Matrix().isApprox(expected, 1e-10));
    EXPECT_TRUE(TransformArticulated(X, I.Matrix()).isApprox(expected, 1e-10));
    EXPECT_TRUE(Multiply(I.Matrix(), m).ToVector().isApprox((I * m).ToVector(), kTol));
  }
}

TEST_F(SpatialTest, InertiaAboutComRoundTrip) {
  const Mat3 Ic = Vec3(0.1, 0.2, 0.25).asDiagonal();
  const Inertia I = Inertia::FromMassComInertia(2.0, Vec3(0.1, -0.2, 0.3), Ic);
  EXPECT_TRUE(I.CenterOfMass().isApprox(Vec3(0.1, -0.2, 0.3), kTol));
  EXPECT_TRUE(I.InertiaAboutCom().isApprox(Ic, kTol));
}

TEST_F(SpatialTest, QuaternionWxyzAndIntegration) {
  const double wxyz_rot[4] = {std::cos(0.25), 0.0, 0.0, std::sin(0.25)};  // 0.5 rad about z
  EXPECT_TRUE(QuatToRotation(wxyz_rot).isApprox(
      Eigen::AngleAxisd(0.5, Vec3::UnitZ()).toRotationMatrix(), kTol));
  double q[4] = {1, 0, 0, 0};
  for (int k = 0; k < 1000; ++k) QuatIntegrateBody(q, Vec3(0, 0, 0.5), 1e-3);
  EXPECT_TRUE(QuatToRotation(q).isApprox(QuatToRotation(wxyz_rot), 1e-12));
  double bad[4] = {0, 0, 0, 0};
  EXPECT_FALSE(QuatNormalize(bad));
}

TEST_F(SpatialTest, ArticulatedInertiaBlockFormMatchesDense) {
  for (int n = 0; n < 100; ++n) {
    const Inertia I = RandomInertia();
    ArticulatedInertia rigid;
    rigid.SetRigid(I);
    EXPECT_TRUE(rigid.Matrix().isApprox(I.Matrix(), kTol));

    const Mat6 M = RandomArticulated();
    const ArticulatedInertia IA = ArticulatedInertia::FromMatrix(M);
    EXPECT_TRUE(IA.Matrix().isApprox(M, kTol));
    const Motion m = RandomMotion();
    EXPECT_TRUE((IA * m).ToVector().isApprox(M * m.ToVector(), kTol));

    // I^a = I^A − U D⁻¹ Uᵀ.
    Vec6 U;
    for (int k = 0; k < 6; ++k) U[k] = u_(rng_);
    const double D = 0.5 + std::abs(u_(rng_));
    ArticulatedInertia Ia = IA;
    Ia.SubtractOuter(U, 1.0 / D);
    EXPECT_TRUE(Ia.Matrix().isApprox(M - U * U.transpose() / D, kTol));

    // I^A_λ += Xᵀ I X, general and pure translation, against TransformArticulated.
    const Transform X = RandomTransform();
    const ArticulatedInertia P0 = ArticulatedInertia::FromMatrix(RandomArticulated());
    ArticulatedInertia P = P0;
    AddTransformed(X, IA, P);
    EXPECT_TRUE(P.Matrix().isApprox(P0.Matrix() + TransformArticulated(X, M), 1e-12));
    const Transform T(Mat3::Identity(), RandomVec());
    P = P0;
    AddTranslated(T.r, IA, P);
    EXPECT_TRUE(P.Matrix().isApprox(P0.Matrix() + TransformArticulated(T, M), 1e-12));
    // With the rank-one term: parent += Tᵀ I T − W D⁻¹ Wᵀ.
    const Force W = RandomForce();
    P = P0;
    AddTranslated(T.r, IA, P, W, 1.0 / D);
    EXPECT_TRUE(P.Matrix().isApprox(
        P0.Matrix() + TransformArticulated(T, M) - W.ToVector() * W.ToVector().transpose() / D,
        1e-12));

    // (I^A)⁻¹ b.
    Vec6 b;
    for (int k = 0; k < 6; ++k) b[k] = u_(rng_);
    EXPECT_TRUE(Solve(IA, b).isApprox(M.llt().solve(b), 1e-10));
  }
}

// The rotation about e_K of axis_transform.h (a revolute joint about ±e_K
// after a pure-translation tree transform) against the general (E, r) forms.
template <int K>
void CheckAxisTransform(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  auto vec = [&] { return Vec3(u(rng), u(rng), u(rng)); };
  for (int n = 0; n < 50; ++n) {
    const double angle = 3.0 * u(rng);
    const double sigma = u(rng) < 0.0 ? -1.0 : 1.0;
    const Vec3 r = vec();
    Transform X;
    const double c = std::cos(angle), s = sigma * std::sin(angle);
    axis::Write<K>(c, s, r, X);
    // E = R(σ e_K, angle)ᵀ, the joint transform's rotation (RBDA Table 4.1).
    const Mat3 E = Eigen::AngleAxisd(angle, sigma * Vec3::Unit(K)).toRotationMatrix().transpose();
    EXPECT_TRUE(X.E.isApprox(E, kTol));
    EXPECT_DOUBLE_EQ(axis::Cos<K>(X), c);
    EXPECT_DOUBLE_EQ(axis::Sin<K>(X), s);
    const Vec3 x = vec();
    EXPECT_TRUE(axis::Rotate<K>(c, s, x).isApprox(E * x, kTol));
    EXPECT_TRUE(axis::RotateTranspose<K>(c, s, x).isApprox(E.transpose() * x, kTol));
    const Motion m(vec(), vec());
    const Force f(vec(), vec());
    EXPECT_TRUE(axis::Apply<K>(c, s, r, m).ToVector().isApprox(X.Apply(m).ToVector(), kTol));
    EXPECT_TRUE(axis::ApplyTranspose<K>(c, s, r, f)
                    .ToVector()
                    .isApprox(X.ApplyTranspose(f).ToVector(), kTol));
    const double w = u(rng);
    EXPECT_TRUE(axis::CrossAxis<K>(x, w).isApprox(x.cross(w * Vec3::Unit(K)), kTol));

    Mat6 G;
    for (int i = 0; i < 6; ++i) {
      for (int j = 0; j < 6; ++j) G(i, j) = u(rng);
    }
    const Mat6 M = G * G.transpose();
    ArticulatedInertia I = ArticulatedInertia::FromMatrix(M);
    RotateAboutAxis<K>(c, s, I);
    const Transform rot(E, Vec3::Zero());
    EXPECT_TRUE(I.Matrix().isApprox(TransformArticulated(rot, M), 1e-12));

    // I m with m_K = 0 in both parts.
    Motion m_plane(vec(), vec());
    m_plane.angular[K] = 0.0;
    m_plane.linear[K] = 0.0;
    const ArticulatedInertia IM = ArticulatedInertia::FromMatrix(M);
    EXPECT_TRUE(MultiplyPlane<K>(IM, m_plane).ToVector().isApprox(M * m_plane.ToVector(), kTol));

    // parent += Xᵀ (I − U D⁻¹ Uᵀ) X with W = Xᵀ U (ABA's I^A_λ update).
    Vec6 U;
    for (int k = 0; k < 6; ++k) U[k] = u(rng);
    const double D = 0.5 + std::abs(u(rng));
    const Force W = axis::ApplyTranspose<K>(c, s, r, Force::FromVector(U));
    const ArticulatedInertia P0 = ArticulatedInertia::FromMatrix(G.transpose() * G);
    ArticulatedInertia P = P0;
    AddArticulatedAboutAxis<K>(IM, W, 1.0 / D, c, s, r, P);
    const Mat6 Xm = X.MotionMatrix();
    EXPECT_TRUE(P.Matrix().isApprox(P0.Matrix() + Xm.transpose() * (M - U * U.transpose() / D) * Xm,
                                    1e-12));

    // A rigid inertia (packed): Xᵀ I X stays rigid (CRBA's I^c_λ update) and
    // the rigid form of the ABA update equals the general one.
    const Mat3 Rc = Eigen::AngleAxisd(3.0 * u(rng), vec().normalized()).toRotationMatrix();
    const Vec3 d = vec().cwiseAbs() + Vec3::Constant(0.1);
    const Inertia rigid = Inertia::FromMassComInertia(1.0 + std::abs(u(rng)), vec(),
                                                      Rc * d.asDiagonal() * Rc.transpose());
    PackedInertia packed;
    packed.Set(rigid);
    double hp[3], Ip[6];
    RigidInParentAboutAxis<K>(c, s, r, packed, hp, Ip);
    PackedInertia moved;
    moved.m = rigid.mass;
    for (int a = 0; a < 3; ++a) moved.h[a] = hp[a];
    for (int k = 0; k < 6; ++k) moved.I[k] = Ip[k];
    EXPECT_TRUE(moved.Unpacked().Matrix().isApprox(Xm.transpose() * rigid.Matrix() * Xm, 1e-12));
    ArticulatedInertia rigid_articulated;
    rigid_articulated.SetRigid(rigid);
    ArticulatedInertia P_general = P0, P_rigid = P0;
    AddArticulatedAboutAxis<K>(rigid_articulated, W, 1.0 / D, c, s, r, P_general);
    AddRigidArticulatedAboutAxis<K>(packed, W, 1.0 / D, c, s, r, P_rigid);
    EXPECT_TRUE(P_rigid.Matrix().isApprox(P_general.Matrix(), 1e-12));
  }
}

TEST_F(SpatialTest, PackedInertiaRoundTripsAndAdds) {
  // Ī exactly symmetric, as the packed form assumes.
  Inertia a = RandomInertia(), b = RandomInertia();
  a.Ibar = (0.5 * (a.Ibar + a.Ibar.transpose())).eval();
  b.Ibar = (0.5 * (b.Ibar + b.Ibar.transpose())).eval();
  PackedInertia p;
  p.Set(a);
  EXPECT_TRUE(p.Unpacked().Matrix().isApprox(a.Matrix(), 0.0));
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) EXPECT_EQ(p.Ibar(r, c), a.Ibar(r, c)) << r << c;
  }
  p += b;
  EXPECT_TRUE(p.Unpacked().Matrix().isApprox((a + b).Matrix(), 1e-15));
}

TEST_F(SpatialTest, AxisTransformsMatchGeneralForms) {
  CheckAxisTransform<0>(rng_);
  CheckAxisTransform<1>(rng_);
  CheckAxisTransform<2>(rng_);
}

TEST_F(SpatialTest, SinCosMatchesLibm) {
  std::uniform_real_distribution<double> wide(-1e5, 1e5);
  std::vector<double> angles = {0.0,       -0.0,         M_PI / 4, M_PI / 2, M_PI,
                                -M_PI,     3 * M_PI / 2, 2 * M_PI, 1e-300,   -1e-8,
                                12345.678, -99999.0,     1e6,      -3e7};
  for (int n = 0; n < 2000; ++n) angles.push_back(4.0 * u_(rng_));
  for (int n = 0; n < 2000; ++n) angles.push_back(wide(rng_));
  for (const double x : angles) {
    double s, c;
    SinCos(x, s, c);
    EXPECT_NEAR(s, std::sin(x), 4e-16) << x;
    EXPECT_NEAR(c, std::cos(x), 4e-16) << x;
  }
  double s, c;
  SinCos(std::nan(""), s, c);
  EXPECT_TRUE(std::isnan(s) && std::isnan(c));
}

}  // namespace
}  // namespace moreau::spatial
