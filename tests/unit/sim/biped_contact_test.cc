// 003's and 004's scenarios on the built-in biped (box feet, four contact
// points per sole: the hyperstatic case): dropped from 5 cm above its
// standing height and held by joint PD to its default pose, it lands and
// stands. With the QP models (least-constraint, micro-macro) and, for
// comparison, moreau-sor:
//  - no chattering: after settling every sole corner stays closed (no on/off
//    flicker), each normal force stays within a band, and the normal forces'
//    total variation per second is small (a chattering contact alternates
//    between 0 and several times its share of the weight step by step, a
//    total variation of kN/s);
//  - no pulling: every normal force ≥ 0 at every step;
//  - the base stays up and level;
//  - least-constraint: after the inelastic landing (004 eq. 7–8) the closed
//    contact points are at rest, normal and tangential velocity ≈ 0.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <vector>

#include "engine/dynamics/jacobians.h"
#include "engine/model/loader.h"
#include "engine/sim/simulation.h"

namespace moreau::sim {
namespace {

constexpr double kG = 9.81;
constexpr double kDrop = 0.05;   // m above the standing height (003 §IV-B)
constexpr double kSettle = 1.0;  // s: landing and settling
constexpr double kStand = 1.5;   // s: the measured standing window (≥ 1 s)

struct Measured {
  bool ok = false;
  double min_height = 1e9;        // base z over the whole run
  double max_tilt_deg = 0.0;      // over the whole run
  double min_normal_force = 1e9;  // N, over every contact and step
  int flickers = 0;               // open/close switches of sole corners while standing
  double max_band = 0.0;          // N: max over corners of (max − min) normal force, standing
  double variation_per_s = 0.0;   // N/s: Σ_k Σ_t |Δf_N,k| / kStand, standing
  double mean_force = 0.0;        // N: mean corner normal force, standing
  double max_rest_speed = -1.0;   // m/s: least-constraint, closed corners the step after landing
  double penetration = 0.0;       // m: max over the standing window
  bool impact_after_touchdown = false;  // least-constraint: the impact projection ran
};

double TiltDeg(const Eigen::VectorXd& q) {
  const double x = q[4], y = q[5];
  const double c = 1.0 - 2.0 * (x * x + y * y) / q.segment<4>(3).squaredNorm();
  return std::acos(std::clamp(c, -1.0, 1.0)) * 180.0 / std::numbers::pi;
}

Measured DropAndStand(ContactModel cm) {
  Measured r;
  auto model = LoadBuiltin("biped");
  EXPECT_TRUE(model.ok()) << model.status();
  if (!model.ok()) return r;
  const Model& m = **model;
  Settings settings;
  settings.contact = DefaultContactSettings(cm);
  settings.dt = 1e-3;
  settings.control.mode = ControlMode::kPd;
  auto sim = Simulation::Create(*model, settings);
  EXPECT_TRUE(sim.ok()) << sim.status();
  if (!sim.ok()) return r;
  Simulation& s = **sim;
  State start = s.state();
  start.q[2] = m.default_base_height + kDrop;
  EXPECT_TRUE(s.SetState(start).ok());
  const Eigen::VectorXd action = Eigen::VectorXd::Zero(m.nu());

  // The sole corners: the contact points at the bottom of the foot boxes.
  const int nc = static_cast<int>(m.contact_points.size());
  std::vector<int> soles;
  for (int k = 0; k < nc; ++k) {
    if (m.contact_points[k].position.z() < -0.025) soles.push_back(k);
  }
  EXPECT_EQ(soles.size(), 8u);
  std::vector<double> f_min(nc, 1e9), f_max(nc, -1e9), f_prev(nc, 0.0), variation(nc, 0.0);
  std::vector<bool> was_closed(nc, false);
  Data data = MakeData(m);
  double force_sum = 0.0;
  long force_samples = 0;
  bool rest_checked = false;
  std::vector<int> touched;  // sole corners closed after the touchdown step
  const int steps = static_cast<int>(std::lround((kSettle + kStand) / settings.dt));
  for (int k = 0; k < steps; ++k) {
    if (!s.StepAction(action, 1).ok()) return r;
    const Eigen::VectorXd& q = s.state().q;
    r.min_height = std::min(r.min_height, q[2]);
    r.max_tilt_deg = std::max(r.max_tilt_deg, TiltDeg(q));
    const auto& contacts = s.contacts().contacts;
    for (int i = 0; i < nc; ++i) {
      r.min_normal_force = std::min(r.min_normal_force, contacts[i].NormalForce());
    }
    // The state after the step: which sole corners are closed, and how fast.
    ContactJacobians(m, data, q);
    if (!touched.empty() && !rest_checked && cm == ContactModel::kLeastConstraint) {
      // The step after touchdown: the corners that landed (closed, still
      // approaching at −g_N/Δt) went through the impact projection.
      rest_checked = true;
      r.impact_after_touchdown = s.last_report().impact;
      r.max_rest_speed = 0.0;
      for (int i : touched) {
        r.max_rest_speed = std::max(r.max_rest_speed, (data.contact_J[i] * s.state().v).norm());
      }
    }
    if (touched.empty()) {
      for (int i : soles) {
        if (data.contact_position[i].z() <= 1e-6) touched.push_back(i);
      }
    }
    if (s.state().time < kSettle - 1e-9) continue;
    for (int i : soles) {
      const double f = contacts[i].NormalForce();
      const bool closed = contacts[i].active;
      if (s.state().time > kSettle + 1.5 * settings.dt) {
        if (closed != was_closed[i]) ++r.flickers;
        variation[i] += std::abs(f - f_prev[i]) / kStand;
      }
      was_closed[i] = closed;
      f_prev[i] = f;
      f_min[i] = std::min(f_min[i], f);
      f_max[i] = std::max(f_max[i], f);
      force_sum += f;
      ++force_samples;
      r.penetration = std::max(r.penetration, -contacts[i].gap);
    }
  }
  for (int i : soles) {
    r.max_band = std::max(r.max_band, f_max[i] - f_min[i]);
    r.variation_per_s = std::max(r.variation_per_s, variation[i]);
  }
  r.mean_force = force_sum / std::max(force_samples, 1L);
  r.ok = true;
  std::printf(
      "[ measured ] biped %s: min height %.4f m (standing %.4f), max tilt %.2f deg, min normal "
      "force %.3g N, flickers %d, band %.3f N, variation %.3f N/s, mean corner force %.3f N, "
      "rest speed after landing %.2e m/s, penetration %.2f mm\n",
      ContactModelName(cm), r.min_height, m.default_base_height, r.max_tilt_deg, r.min_normal_force,
      r.flickers, r.max_band, r.variation_per_s, r.mean_force, r.max_rest_speed,
      1e3 * r.penetration);
  return r;
}

TEST(BipedContact, DropsAndStandsWithoutChatteringOrPulling) {
  for (ContactModel cm :
       {ContactModel::kLeastConstraint, ContactModel::kMicroMacro, ContactModel::kMoreauSor}) {
    SCOPED_TRACE(ContactModelName(cm));
    const Measured r = DropAndStand(cm);
    ASSERT_TRUE(r.ok);
    const double weight_share = 5.0 * kG / 8.0;  // N per sole corner
    // Standing, not fallen: the base above 80 % of its standing height, level.
    EXPECT_GT(r.min_height, 0.8 * 0.268);
    EXPECT_LT(r.max_tilt_deg, 5.0);
    // No pulling.
    EXPECT_GE(r.min_normal_force, -1e-9);
    // No chattering.
    EXPECT_EQ(r.flickers, 0);
    // The whole body still sways fore and aft on its PD-held joints (period
    // ≈ 0.3 s, corner forces ± 1–2 N): a slow band, a small variation. A
    // chattering corner would swing between 0 and several weight shares
    // every step, a variation of kN/s.
    EXPECT_LT(r.max_band, 0.75 * weight_share);
    EXPECT_LT(r.variation_per_s, 3.0 * weight_share);
    // The soles carry the weight.
    EXPECT_NEAR(r.mean_force, weight_share, 0.1 * weight_share);
    if (cm == ContactModel::kLeastConstraint) {
      EXPECT_TRUE(r.impact_after_touchdown);
      EXPECT_GE(r.max_rest_speed, 0.0);   // checked
      EXPECT_LT(r.max_rest_speed, 1e-3);  // after ≈ 1 m/s at touchdown
    }
  }
}

}  // namespace
}  // namespace moreau::sim
