// Each force law integrated on a point mass (m = 1 kg, no robot) with
// semi-implicit Euler, v ← v + Δt (f/m + g), x ← x + Δt v: drops come to rest
// at the static penetration, the micro law does not gain energy, friction
// stops a slide after v²/(2 μ g) and holds a mass on a slope below the
// friction angle.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numbers>

#include "engine/contact/contact_state.h"
#include "engine/contact/hertz.h"
#include "engine/contact/micro.h"
#include "engine/contact/spring_damper.h"
#include "engine/contact/terrain.h"
#include "tests/unit/contact/test_bodies.h"

namespace moreau::contact {
namespace {

using testing::PointContact;

constexpr double kG = 9.81;
constexpr double kMass = 1.0;

using Law = std::function<Vec3(const Contact&, ContactState&)>;

struct PointMass {
  Vec3 x = Vec3::Zero();
  Vec3 v = Vec3::Zero();
};

// One semi-implicit Euler step; returns the contact force.
Vec3 Step(const Terrain& terrain, const Law& law, double dt, PointMass& s, ContactState& state) {
  const Contact c = PointContact(terrain, s.x, 0.0, s.v);
  Vec3 f = Vec3::Zero();
  if (c.gap <= 0.0) {
    f = law(c, state);
  } else {
    state.Clear();
  }
  s.v += dt * (f / kMass + Vec3(0, 0, -kG));
  s.x += dt * s.v;
  return f;
}

Law SpringDamper(const SpringDamperParams& p) {
  return [p](const Contact& c, ContactState& s) { return SpringDamperForce(p, c, s); };
}
Law Hertz(const HertzParams& p) {
  return [p](const Contact& c, ContactState&) { return HertzForce(p, c); };
}
Law Micro(const MicroParams& p, double dt) {
  return [p, dt](const Contact& c, ContactState& s) { return MicroForce(p, c, dt, s); };
}

TEST(Drop, SpringDamperRestsAtMgOverK) {
  const SpringDamperParams p;
  const double dt = 1.25e-3;  // 000: two steps per 2.5 ms control period
  PointMass s;
  s.x = Vec3(0, 0, 0.1);
  ContactState state;
  for (int k = 0; k < static_cast<int>(2.0 / dt); ++k) {
    Step(Terrain(), SpringDamper(p), dt, s, state);
  }
  const double expected = -kMass * kG / p.normal_stiffness;
  EXPECT_NEAR(s.x.z(), expected, 0.05 * std::abs(expected));
  EXPECT_LT(s.v.norm(), 1e-3);
}

TEST(Drop, HertzRestsAtTheStaticDepth) {
  const HertzParams p;
  const double dt = 1e-4;  // 001 Table I
  PointMass s;
  s.x = Vec3(0, 0, 0.05);
  ContactState state;
  for (int k = 0; k < static_cast<int>(5.0 / dt); ++k) {
    Step(Terrain(), Hertz(p), dt, s, state);
  }
  // K δ₀ (δ/δ₀)^e = m g.
  const double d0 = p.reference_depth;
  const double expected = -d0 * std::pow(kMass * kG / (p.stiffness * d0), 1.0 / p.exponent);
  EXPECT_NEAR(s.x.z(), expected, 0.05 * std::abs(expected));
  EXPECT_LT(s.v.norm(), 1e-3);
}

// Mechanical energy with the contact spring's potential ½ k d² (d < 0).
double Energy(const PointMass& s, double k) {
  const double d = std::min(s.x.z(), 0.0);
  return 0.5 * kMass * s.v.squaredNorm() + kMass * kG * s.x.z() + 0.5 * k * d * d;
}

// Drops the mass from 5 cm (003's drop height) for `duration`; returns the
// largest energy reached and, if asked, checks that rebound apexes never rise.
double MaxEnergyOfDrop(const MicroParams& p, double law_dt, double dt, double duration,
                       bool check_apexes, PointMass& s) {
  s = PointMass();
  s.x = Vec3(0, 0, 0.05);
  ContactState state;
  double e_max = Energy(s, p.stiffness), last_apex = s.x.z();
  bool rising = false;
  for (int k = 0; k < static_cast<int>(duration / dt); ++k) {
    Step(Terrain(), Micro(p, law_dt), dt, s, state);
    e_max = std::max(e_max, Energy(s, p.stiffness));
    if (s.v.z() > 0.0) rising = true;
    if (rising && s.v.z() <= 0.0) {
      if (check_apexes) {
        EXPECT_LE(s.x.z(), last_apex + 1e-12);
      }
      last_apex = s.x.z();
      rising = false;
    }
  }
  return e_max;
}

TEST(Drop, MicroDoesNotGainEnergy) {
  for (double dt : {1e-3, 2.5e-3}) {  // 003 §IV-B
    // 003's damper, and none at all: the k Δt ḋ term alone is dissipative.
    for (double c : {282.0, 0.0}) {
      SCOPED_TRACE(::testing::Message() << "dt " << dt << ", c " << c);
      MicroParams p;
      p.damping = c;
      PointMass s;
      s.x = Vec3(0, 0, 0.05);
      const double e0 = Energy(s, p.stiffness);
      const double e_max = MaxEnergyOfDrop(p, dt, dt, 3.0, true, s);
      EXPECT_LE(e_max, e0 + 1e-12);
      if (c > 0.0) {
        const double expected = -kMass * kG / p.stiffness;
        EXPECT_NEAR(s.x.z(), expected, 0.05 * std::abs(expected));
        EXPECT_LT(std::abs(s.v.z()), 1e-3);
      }
    }
  }
  // Without the Δt term (003 eq. 13, law_dt = 0) the same drop at 2.5 ms
  // gains energy — the effect 003 Fig. 2 and 6 describe.
  PointMass s;
  s.x = Vec3(0, 0, 0.05);
  const double e0 = Energy(s, MicroParams().stiffness);
  EXPECT_GT(MaxEnergyOfDrop(MicroParams(), 0.0, 2.5e-3, 3.0, false, s), 1.05 * e0);
}

// Starts at rest on the ground, pushed to 1 m/s along x: friction μ m g stops
// it after v²/(2 μ g).
double SlideDistance(const Law& law, double mu, double rest_depth, double dt) {
  PointMass s;
  s.x = Vec3(0, 0, -rest_depth);
  ContactState state;
  for (int k = 0; k < static_cast<int>(0.5 / dt); ++k) {
    Step(Terrain(), law, dt, s, state);  // settle
  }
  const double x0 = s.x.x();
  s.v.x() = 1.0;
  for (int k = 0; k < static_cast<int>(1.0 / (mu * kG) / dt) + 2000; ++k) {
    Step(Terrain(), law, dt, s, state);
  }
  EXPECT_LT(std::abs(s.v.x()), 1e-2);
  return s.x.x() - x0;
}

TEST(Drop, FrictionStopsASlide) {
  const SpringDamperParams sd;
  const MicroParams mi;
  const HertzParams he;
  const double dt_sd = 1.25e-3, dt_mi = 1e-3, dt_he = 1e-4;
  EXPECT_NEAR(SlideDistance(SpringDamper(sd), sd.mu, kG / sd.normal_stiffness, dt_sd),
              1.0 / (2 * sd.mu * kG), 0.1 / (2 * sd.mu * kG));
  EXPECT_NEAR(SlideDistance(Micro(mi, dt_mi), mi.mu, kG / mi.stiffness, dt_mi),
              1.0 / (2 * mi.mu * kG), 0.1 / (2 * mi.mu * kG));
  EXPECT_NEAR(
      SlideDistance(Hertz(he), he.mu_dynamic,
                    he.reference_depth *
                        std::pow(kMass * kG / (he.stiffness * he.reference_depth), 1 / he.exponent),
                    dt_he),
      1.0 / (2 * he.mu_dynamic * kG), 0.1 / (2 * he.mu_dynamic * kG));
}

// Releases the mass at rest on an incline of `angle` about x and returns its
// displacement along the slope after `duration`.
double SlopeTravel(const Law& law, double angle, double dt, double duration) {
  auto incline = Terrain::Incline(angle, Vec3::UnitX());
  EXPECT_TRUE(incline.ok());
  PointMass s;
  ContactState state;
  const Vec3 n = incline->plane_normal();
  s.x = -1e-4 * n;
  for (int k = 0; k < static_cast<int>(duration / dt); ++k) {
    Step(*incline, law, dt, s, state);
  }
  const Vec3 downhill(0, -std::cos(angle), -std::sin(angle));
  return s.x.dot(downhill);
}

TEST(Drop, StickAnchorHoldsBelowTheFrictionAngle) {
  const double deg = std::numbers::pi / 180;
  // tan 30° = 0.58 < 0.8 and tan 15° = 0.27 < 0.4: held, up to the
  // anchor spring's static stretch (≈ m g sin θ / c_T).
  EXPECT_LT(std::abs(SlopeTravel(SpringDamper({}), 30 * deg, 1.25e-3, 2.0)), 1e-3);
  EXPECT_LT(std::abs(SlopeTravel(Micro({}, 1e-3), 15 * deg, 1e-3, 2.0)), 2e-3);
  // tan 35° = 0.70 > 0.4: the micro law slides with a = g (sin θ − μ cos θ).
  const double theta = 35 * deg;
  const double a = kG * (std::sin(theta) - 0.4 * std::cos(theta));
  EXPECT_NEAR(SlopeTravel(Micro({}, 1e-3), theta, 1e-3, 1.0), 0.5 * a, 0.1 * 0.5 * a);
}

}  // namespace
}  // namespace moreau::contact
