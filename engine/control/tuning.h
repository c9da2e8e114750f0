// The tuning of the "stand" and "trot" controllers (docs/controllers.md):
// where their joint gains, standing pose, step and weight feed-forward come
// from.
//
//   paper-001  001's constants for the 8.9 kg Mini Cheetah (Table I: k_p = 40,
//              k_d = 1 on every joint), the stand at 0.7 of the leg length,
//              000's 6 cm step at 0.5 m/s, no weight feed-forward: the
//              ControllerOptions fields as they are.
//   derived    from the model (m its mass, g gravity, n its legs, ℓ the mean
//              leg length |l₁| + |l₂|):
//                stand   each foot under its hip, the leg at 0.7 ℓ (the
//                        nearest fraction in [0.45, 0.9] whose pose the leg
//                        IK reaches within the joint limits);
//                k_p,j = (m g / n) r_j / 0.1 rad, at most τ_max,j / 0.2 rad:
//                        a leg's share of the weight at the joint's lever
//                        arm r_j (abduction: axis → foot; hip: hip → foot;
//                        knee: knee → foot) deflects it by 0.1 rad; the
//                        stance-sized error 0.2 rad saturates the motor;
//                k_d,j = 2 ζ r_j √(k_p,j m / n), ζ = 0.5: the damping ratio
//                        of the joint carrying the leg's share of the mass
//                        at r_j;
//                k_p,j ≤ 0.5 I_j / Δt² at each step (I_j: JointInertias),
//                        besides StableJointPd's k_d,j ≤ I_j / Δt;
//                weight  each stance foot carries m g / n_stance by
//                        τ = −Jᵀ f (ControllerOptions::weight_feedforward,
//                        on for "stand" and "trot");
//                step    height 0.15 ℓ, speed 0.5 m/s · ℓ / 0.4 m (the Mini
//                        Cheetah's and A1's ℓ ≈ 0.4 m: 000's gait scaled).
//              The ControllerOptions fields scale these: k_p by kp / 40,
//              k_d by kd / 1, the step height by step_height / 0.06 m, the
//              speed by forward_velocity / 0.5 m/s (1 at their defaults);
//              stand_height > 0 and step_length > 0 replace theirs.
//   auto       paper-001 for the model named "mini_cheetah" (001's robot),
//              derived for every other.
#ifndef MOREAU_ENGINE_CONTROL_TUNING_H_
#define MOREAU_ENGINE_CONTROL_TUNING_H_

#include <Eigen/Core>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/control/controller.h"
#include "engine/control/gait.h"
#include "engine/control/legs.h"
#include "engine/model/model.h"

namespace moreau::control {

// "auto", "paper-001", "derived".
const char* TuningName(Tuning tuning);
std::vector<std::string> TuningNames();

// The Tuning named `name`; InvalidArgument naming the valid ones otherwise.
absl::StatusOr<Tuning> ParseTuning(absl::string_view name);

// kAuto resolved for `model` (kPaper001 or kDerived); the others as they are.
Tuning ResolveTuning(Tuning tuning, const Model& model);

// What a tuning chose for a model.
struct ControllerTuning {
  Tuning tuning = Tuning::kPaper001;  // resolved: kPaper001 or kDerived
  double leg_length = 0.0;            // ℓ, mean |l₁| + |l₂| (m)
  double stand_fraction = 0.7;        // leg at this fraction of ℓ when standing
  double stand_height = 0.0;          // base origin above the ground (m)
  Eigen::VectorXd q_stand;            // the standing joint targets (actuators)
  GaitParams gait;                    // the trot's, at full amplitude
  bool weight_feedforward = false;
  // Actuator-shaped. Under paper-001 every entry is ControllerOptions::gains;
  // lever is r_j (0 for paper-001 and for actuators outside the legs).
  Eigen::VectorXd kp;
  Eigen::VectorXd kd;
  Eigen::VectorXd lever;
  // StableJointPd's I_j (actuator-shaped; empty when stable_pd is off).
  Eigen::VectorXd inertia;
};

// The tuning of options.tuning for `model` and its legs `layout` (FindLegs).
// `trot`: the gait must also stay reachable (CheckTrotReach). InvalidArgument
// when the pose or the gait is out of reach (derived: at every stand
// fraction in [0.45, 0.9]).
absl::StatusOr<ControllerTuning> TuneController(const Model& model, const LegLayout& layout,
                                                const ControllerOptions& options, bool trot);

// The standing joint targets (actuator-shaped; non-leg actuators at 0):
// each foot at NominalFoot(stand_height). InvalidArgument naming the foot
// the leg IK cannot reach.
absl::StatusOr<Eigen::VectorXd> StandPose(const Model& model, const LegLayout& layout,
                                          double stand_height);

// OK when every leg reaches every point of the trot cycle of `gait`.
absl::Status CheckTrotReach(const LegLayout& layout, const GaitParams& gait, double stand_height);

// The stiffness cap of derived gains at step dt: 0.5 I / Δt² (∞ when dt or
// I is 0). A spring k on inertia I, stepped explicitly with StableJointPd's
// deadbeat damper, scales its error by 1 − k Δt² / I per step: ½ at the
// cap, no overshoot.
double StiffnessCap(double inertia, double dt);

}  // namespace moreau::control

#endif  // MOREAU_ENGINE_CONTROL_TUNING_H_
