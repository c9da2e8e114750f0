// The common face of the two engines under comparison: each adapter holds one
// simulated A1-like robot (Moreau's Model layout for q, v, joints and feet),
// runs the Moreau controller of the sim::ControllerSettings it was made with
// (sim::MakeSimulationController: one definition for both engines), and
// reports what the comparison records.
#ifndef MOREAU_BENCH_VS_MUJOCO_ENGINE_ADAPTER_H_
#define MOREAU_BENCH_VS_MUJOCO_ENGINE_ADAPTER_H_

#include <Eigen/Core>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "engine/model/model.h"

namespace moreau::bench::vs_mujoco {

// The contact slots of the feet (ContactPoint::foot), in slot order: the
// feet the comparison records, whatever else collides.
inline std::vector<int> FootSlots(const Model& model) {
  std::vector<int> feet;
  for (size_t k = 0; k < model.contact_points.size(); ++k) {
    if (model.contact_points[k].foot) feet.push_back(static_cast<int>(k));
  }
  return feet;
}

// One recorded instant of a run. Joints and feet are in Moreau's order
// (Model::actuators, FootSlots) in both engines.
struct Sample {
  double t = 0.0;                                            // s
  Eigen::Vector3d trunk_position = Eigen::Vector3d::Zero();  // m, world
  Eigen::Vector4d trunk_quaternion{1.0, 0.0, 0.0, 0.0};      // (w, x, y, z), base → world
  Eigen::VectorXd joints;                                    // rad
  Eigen::VectorXd foot_normal_force;  // N, along the contact normal; 0 when open
};

class EngineAdapter {
 public:
  virtual ~EngineAdapter() = default;

  // "moreau" or "mujoco".
  virtual std::string EngineName() const = 0;
  // The contact setting: a Moreau contact model ("moreau-sor", …) or a
  // MuJoCo friction cone ("pyramidal", "elliptic").
  virtual std::string ContactName() const = 0;

  // Sets q (nq), v (nv) in Moreau's coordinates, the time to 0 and the
  // controller to the start of a run.
  virtual absl::Status Reset(const Eigen::VectorXd& q, const Eigen::VectorXd& v) = 0;

  // Advances `steps` steps; at every control period the controller computes
  // τ from (t, q, v) over the period, and the steps apply it (under torque
  // control: clamped to the effort limits). FailedPrecondition when the
  // engine diverged (the state is then not meaningful any more).
  virtual absl::Status Advance(int steps) = 0;

  // The current time, trunk pose, joint angles and foot normal forces (of the
  // last step's contacts).
  virtual void Record(Sample& sample) const = 0;
};

}  // namespace moreau::bench::vs_mujoco

#endif  // MOREAU_BENCH_VS_MUJOCO_ENGINE_ADAPTER_H_
