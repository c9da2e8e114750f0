#include "engine/control/gait.h"

#include <algorithm>
#include <cmath>

namespace moreau::control {

double WrapPhase(double phase) {
  double wrapped = phase - std::floor(phase);
  if (wrapped >= 1.0) wrapped = 0.0;  // phase = −ε rounds up to 1
  return wrapped;
}

double Bezier(const double* points, int count, double s) {
  double b[8];
  const int n = std::clamp(count, 1, 8);
  for (int i = 0; i < n; ++i) b[i] = points[i];
  for (int level = n - 1; level > 0; --level) {
    for (int i = 0; i < level; ++i) b[i] = (1.0 - s) * b[i] + s * b[i + 1];
  }
  return b[0];
}

bool InStance(const GaitParams& gait, double leg_phase) {
  return WrapPhase(leg_phase) < gait.duty_factor;
}

Eigen::Vector2d FootTrajectory(const GaitParams& gait, double leg_phase) {
  const double psi = WrapPhase(leg_phase);
  const double beta = gait.duty_factor;
  const double l = gait.step_length;
  if (psi < beta) {
    // Stance (001 §6.2): a line on the ground, from L/2 ahead to L/2 behind.
    const double s = psi / beta;
    // Bezier({L/2, −L/2}, s): de Casteljau's one level, written out.
    return {(1.0 - s) * (0.5 * l) + s * (-0.5 * l), 0.0};
  }
  // Swing (001 §6.2): x leaves and lands with the stance velocity; z lifts
  // to the apex h at s = ½ with zero vertical velocity at both ends.
  const double s = (psi - beta) / (1.0 - beta);
  const double r = (1.0 - beta) / beta;
  const double x[4] = {-0.5 * l, -0.5 * l - l * r / 3.0, 0.5 * l + l * r / 3.0, 0.5 * l};
  // Bezier(x, 4, s): de Casteljau's three levels, written out (the same
  // operations in the same order).
  const double t = 1.0 - s;
  const double a0 = t * x[0] + s * x[1], a1 = t * x[1] + s * x[2], a2 = t * x[2] + s * x[3];
  const double b0 = t * a0 + s * a1, b1 = t * a1 + s * a2;
  // z: the Bézier curve of degree 6 with control points {0, 0, 0, 3.2 h, 0,
  // 0, 0}, i.e. its one Bernstein term 3.2 h C(6,3) s³ (1 − s)³.
  const double h = gait.step_height;
  const double s_1ms = s * (1.0 - s);
  return {t * b0 + s * b1, 3.2 * h * 20.0 * s_1ms * s_1ms * s_1ms};
}

double TrotPhaseOffset(const Leg& leg) { return leg.front != leg.left ? 0.0 : 0.5; }

double DefaultStandHeight(const LegLayout& layout) {
  if (layout.legs.empty()) return 0.0;
  double sum = 0.0;
  for (const Leg& leg : layout.legs) {
    sum += 0.7 * (leg.thigh_length + leg.shank_length) + leg.foot_radius - leg.hip_position.z();
  }
  return sum / static_cast<double>(layout.legs.size());
}

Vec3 NominalFoot(const Leg& leg, double stand_height) {
  return {leg.hip_pitch.x(), leg.hip_offset, leg.foot_radius - stand_height - leg.hip_position.z()};
}

}  // namespace moreau::control
