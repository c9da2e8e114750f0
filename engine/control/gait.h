// Trot foot-trajectory generator (001 §6.2, after its ref. [20]): a phase
// oscillator (the CPG) drives, per leg, a stance and a swing Bézier curve in
// the leg's hip frame; the leg IK (legs.h) turns them into joint targets and
// a joint PD (pd.h, 001 eq. 44) tracks them.
//
// Phase. The oscillator phase φ ∈ [0, 1) advances at the gait frequency f
// (dφ/dt = f; 000 trots at 1.25 Hz). Leg i runs at ψ_i = φ + offset_i (mod 1);
// in a trot the diagonal pairs FR+HL (offset 0) and FL+HR (offset ½) are half
// a period apart. ψ < β (duty factor) is stance, the rest swing.
//
// Curves (hip frame: x forward, z up; displacement from the nominal foot):
//   stance, s = ψ / β:          a line on the ground, degree-1 Bézier
//                                 x = L/2 − L s,  z = 0
//   swing,  s = (ψ − β)/(1 − β): x a cubic Bézier [−L/2, −L/2 − L r/3,
//                                 L/2 + L r/3, L/2], r = (1 − β)/β, so that the
//                                 foot leaves and lands with the stance speed;
//                                 z a degree-6 Bézier [0, 0, 0, 3.2 h, 0, 0, 0]
//                                 = 64 h s³ (1 − s)³: apex exactly h at s = ½
//                                 (where x = 0), zero vertical velocity and
//                                 acceleration at lift-off and touch-down.
// Position and velocity are continuous at both phase switches. In stance the
// foot moves backward relative to the hip at L f / β, which is the forward
// speed v of the body when L = v β / f.
#ifndef MOREAU_ENGINE_CONTROL_GAIT_H_
#define MOREAU_ENGINE_CONTROL_GAIT_H_

#include <Eigen/Core>

#include "engine/control/legs.h"
#include "engine/model/model.h"

namespace moreau::control {

struct GaitParams {
  double frequency_hz = 1.25;  // f, gait cycles per second (000: 1.25 Hz)
  double duty_factor = 0.5;    // β, stance fraction of a cycle (trot: ½)
  double step_length = 0.1;    // L, stance foot travel (m)
  double step_height = 0.06;   // h, swing apex above the ground (m)
};

// φ mod 1 in [0, 1).
double WrapPhase(double phase);

// A Bézier curve of degree count − 1 (count ≤ 8) at s ∈ [0, 1], by de
// Casteljau. Allocation-free.
double Bezier(const double* points, int count, double s);

// True when leg phase ψ is in stance (ψ mod 1 < β).
bool InStance(const GaitParams& gait, double leg_phase);

// The foot's displacement (dx, dz) from its nominal position at leg phase ψ.
Eigen::Vector2d FootTrajectory(const GaitParams& gait, double leg_phase);

// Trot phase offset of a leg: 0 for front-right and hind-left, ½ for
// front-left and hind-right.
double TrotPhaseOffset(const Leg& leg);

// Default standing height of the base origin above flat ground, level base:
// mean over the legs of 0.7 (|l₁| + |l₂|) + foot radius − hip z. At 0.7 of
// the leg length with the foot under the hip, the knee of an equal-link leg
// is bent by ≈ 90°, the middle of its range, leaving room both to extend
// (stance) and to fold (swing). Mini Cheetah: 0.7 · 0.389 + 0.015 = 0.287 m;
// A1: 0.7 · 0.4 + 0.02 = 0.30 m.
double DefaultStandHeight(const LegLayout& layout);

// The nominal standing foot of a leg in its hip frame: under the hip joint
// (x = (H − A)·x), in the leg plane (y = d), the sphere touching the ground
// z = 0 when the base origin is `stand_height` above it with a level base.
Vec3 NominalFoot(const Leg& leg, double stand_height);

}  // namespace moreau::control

#endif  // MOREAU_ENGINE_CONTROL_GAIT_H_
