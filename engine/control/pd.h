// Joint-space PD control at the simulation rate (001 §6.2, eq. 44: de Paula
// et al., "Dynamic modeling and simulation of a torque-controlled spatial
// quadruped robot", Robotica 2024):
//
//   τ_j = clamp(k_p (q_d,j − q_j) + k_d (q̇_d,j − q̇_j), ±τ_max,j)
//
// 001 eq. 44 prints the law with the error as (q − q_d) and the damping as
// +k_d q̇; we write it with restoring signs, as above. With q̇_d = 0 it
// is eq. 44 exactly (k_d acting on the measured rate); a non-zero q̇_d adds
// velocity feedforward. τ is the joint-side torque (N m) or force (N); the
// clamp is the actuator's effort_limit (URDF <limit effort>, joint side).
#ifndef MOREAU_ENGINE_CONTROL_PD_H_
#define MOREAU_ENGINE_CONTROL_PD_H_

#include <Eigen/Core>
#include <numbers>
#include <vector>

#include "engine/model/model.h"

namespace moreau::control {

// 001 Table I: k_p = 40 N m/rad, k_d = 1 N m s/rad (Mini Cheetah).
struct PdGains {
  double kp = 40.0;  // N m / rad (N / m for prismatic joints)
  double kd = 1.0;   // N m s / rad (N s / m)
};

// Joint PD (001 eq. 44) for every actuator of `model`.
//   q: nq, v: nv (the model's coordinates).
//   q_des, qd_des: actuator-shaped (size model.nu(), actuator
//     order): target position and rate of each actuator's joint.
//   tau: nv; every entry is written: actuated joints get the clamped PD torque,
//     everything else (the floating base, unactuated joints) gets 0.
// For a continuous (unlimited revolute) joint the position error is wrapped to
// (−π, π]. Allocation-free.
void JointPd(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
             const Eigen::VectorXd& q_des, const Eigen::VectorXd& qd_des, const PdGains& gains,
             Eigen::Ref<Eigen::VectorXd> tau);

// JointPd for a step of dt with the damping capped at the deadbeat gain of
// each joint:
//   τ_j = clamp(k_p (q_d − q) + min(k_d, I_j / Δt) (q̇_d − q̇), ±τ_max)
// Why: the simulation holds τ over the step (explicit), and an explicit
// damper k_d on a joint of inertia I changes its rate by the factor
// 1 − k_d Δt / I per step: it overshoots (reverses the motion) beyond
// k_d Δt / I = 1 and blows up beyond 2. The Mini Cheetah's legs, seen with the
// rest of the tree free (JointInertias), reach that at
// Δt ≈ 1–2 ms with 001's k_d = 1 (I_j: the smallest inertia of the joint's
// leg, as the leg's joints are coupled) (002 §IV: the PD-controlled quadruped is
// stable only up to Δt = 1 ms), so at 000's Δt = 2.5 ms a leg in the air
// blows up within three steps. Capped at I/Δt the damper stops the joint's
// relative motion in one step — the most a damper can do — and never
// reverses it. Where k_d Δt / I ≤ 1 (every joint at 001's Δt = 1e-4) this is
// JointPd exactly, 001 eq. 44. I_j: actuator-shaped joint inertias; dt = 0 or
// I_j ≤ 0 gives JointPd. Allocation-free.
void StableJointPd(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                   const Eigen::VectorXd& q_des, const Eigen::VectorXd& qd_des,
                   const PdGains& gains, const Eigen::VectorXd& inertia, double dt,
                   Eigen::Ref<Eigen::VectorXd> tau);

// StableJointPd for a controller that runs it at every step, the same τ bit
// for bit: what it reads of each actuator (indices, limit, wrap) gathered
// from the Model once, and each actuator's capped gains made once per Δt
// rather than divided out at every step. Gains are one pair for every
// actuator (StableJointPd's), or one pair per actuator with the stiffness
// capped as well, at half its explicit limit:
//   τ_j = clamp(k_p' (q_d − q) + min(k_d, I_j/Δt) (q̇_d − q̇), ±τ_max),
//   k_p' = min(k_p, 0.5 I_j / Δt²).
// A spring k on inertia I held over the step with the deadbeat damper scales
// its error by 1 − k Δt² / I per step: at the cap by ½, never reversed; the
// derived tuning's stiff gains (tuning.h) then stay stable at 2.5 ms.
// dt = 0 or I_j ≤ 0 (inertia shorter than the actuators): no caps.
class StablePd {
 public:
  // One gain pair for every actuator; the stiffness is not capped.
  // Allocates (set-up only).
  StablePd(const Model& model, const PdGains& gains, Eigen::VectorXd inertia);
  // Gains per actuator (kp, kd: actuator-shaped); both capped.
  StablePd(const Model& model, Eigen::VectorXd kp, Eigen::VectorXd kd, Eigen::VectorXd inertia);

  // τ (nv, every entry written) for a step of dt; q_des, qd_des
  // actuator-shaped. A dt other than the last call's remakes the capped
  // gains. Allocation-free.
  void Torques(const Eigen::VectorXd& q, const Eigen::VectorXd& v, const Eigen::VectorXd& q_des,
               const Eigen::VectorXd& qd_des, double dt, Eigen::Ref<Eigen::VectorXd> tau);

 private:
  // kp_step_, kd_step_ for dt: the caps above.
  void CapGains(double dt);

  std::vector<int> q_index_;          // the actuated joint's coordinate in q
  std::vector<int> v_index_;          // and in v, τ
  std::vector<double> effort_limit_;  // τ_max (joint side)
  std::vector<char> wrap_;            // 1: continuous revolute, error wrapped
  Eigen::VectorXd kp_, kd_;           // the gains asked for, per actuator
  Eigen::VectorXd inertia_;           // I_j, per actuator (0 beyond the given ones)
  bool cap_stiffness_;
  double dt_;                          // the Δt of kp_step_, kd_step_ (NaN: none yet)
  Eigen::VectorXd kp_step_, kd_step_;  // the capped gains for dt_
};

// The smallest inertia the branch of each actuated joint shows at
// configuration q (nq), with the rest of the tree free to move: 1 / λ_max of
// M⁻¹ restricted to the actuated joints that are the joint's ancestors or
// descendants (a leg's three joints; M from CRBA). A damping gain k_d on each
// of those joints is stable-explicit with one-step (deadbeat) decay at most
// when k_d Δt ≤ this. A branch of more than 32 joints (a long chain) takes
// Gershgorin's bound on λ_max instead, a smaller (safer) inertia, so that the
// cost stays O(n³) in the number of joints. Actuator-shaped. Allocates
// (set-up only).
Eigen::VectorXd JointInertias(const Model& model, const Eigen::VectorXd& q);

// The actuated joint coordinates of q (nq) in actuator order: out has size
// model.nu(). Allocation-free.
void ActuatorPositions(const Model& model, const Eigen::VectorXd& q,
                       Eigen::Ref<Eigen::VectorXd> out);

// The actuated joint rates of v (nv) in actuator order. Allocation-free.
void ActuatorVelocities(const Model& model, const Eigen::VectorXd& v,
                        Eigen::Ref<Eigen::VectorXd> out);

// WrapAngle for an angle outside (−π, π].
double WrapAngleOutside(double angle);

// Angle wrapped to (−π, π]; inline for the common case of an angle already
// in range (the controllers call it per joint and step).
inline double WrapAngle(double angle) {
  if (angle > -std::numbers::pi && angle <= std::numbers::pi) return angle;
  return WrapAngleOutside(angle);
}

}  // namespace moreau::control

#endif  // MOREAU_ENGINE_CONTROL_PD_H_
