// The MuJoCo side of the comparison: MuJoCo 2.2.2 compiles the same URDF file
// Moreau loads, with these changes so that both engines simulate the same
// mechanical system (each one is stated in BENCHMARKS.md):
//   - a free joint on the root link (MuJoCo fixes a URDF root to the world):
//     a parent link with a "floating" joint is added to the URDF text;
//   - visual elements are dropped (their meshes are not shipped), inertias
//     are read from the URDF only (inertiafromgeom="false"), fixed joints
//     are fused as in Moreau (fusestatic);
//   - a ground plane z = 0; only the foot spheres (Moreau's contact points)
//     collide, and only with the ground (Moreau detects nothing else);
//   - joint limits, damping, dry friction and armature off (Moreau's step
//     uses none of them); friction coefficient μ on the feet and the ground;
//   - MuJoCo's default soft-constraint parameters (solref, solimp), solver
//     (Newton), integrator (Euler) and tolerance; the cone as chosen.
// The torques of the Moreau controller (sim::MakeSimulationController of the
// engine's sim::ControllerSettings, as in Moreau's simulation) enter through
// qfrc_applied, clamped to the effort limits as Moreau's torque control does.
#ifndef MOREAU_BENCH_VS_MUJOCO_MUJOCO_ENGINE_H_
#define MOREAU_BENCH_VS_MUJOCO_MUJOCO_ENGINE_H_

#include <mujoco/mujoco.h>

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "bench/vs_mujoco/engine_adapter.h"
#include "engine/control/controller.h"
#include "engine/model/loader.h"
#include "engine/model/model.h"
#include "engine/sim/settings.h"

namespace moreau::bench::vs_mujoco {

enum class Cone { kPyramidal, kElliptic };
const char* ConeName(Cone cone);
absl::StatusOr<Cone> ParseCone(absl::string_view name);

// A compiled MuJoCo model of `urdf_path` whose joints and feet are matched by
// name and position to `model` (the Moreau model of the same file, loaded
// with the same `collision`). What touches the ground is what touches it in
// Moreau: with kFeet the foot spheres only, with kAll every collision geom
// of the robot (no self-collision in either engine). Shared, read-only, by
// the engines made from it.
class MujocoModel {
 public:
  // InvalidArgument when MuJoCo cannot compile the file, when a Moreau joint
  // or foot has no MuJoCo counterpart, or when the total masses differ.
  // InvalidArgument also when, with kAll, the robot's collision geoms are
  // not Moreau's (their number or kinds differ: a mesh MuJoCo cannot read).
  static absl::StatusOr<std::shared_ptr<const MujocoModel>> Load(const std::string& urdf_path,
                                                                 const Model& model,
                                                                 CollisionMode collision);
  ~MujocoModel();
  MujocoModel(const MujocoModel&) = delete;
  MujocoModel& operator=(const MujocoModel&) = delete;

  const mjModel* mj() const { return m_; }
  double TotalMass() const;

  // Index maps from Moreau's layout to MuJoCo's.
  int free_qpos = 0;             // qpos address of the free joint (7 entries)
  int free_dof = 0;              // qvel address of the free joint (6 entries)
  std::vector<int> joint_q;      // Moreau joint j (j ≥ 1) → q index in Moreau
  std::vector<int> joint_v;      //   … v index in Moreau
  std::vector<int> joint_qpos;   //   … qpos address in MuJoCo
  std::vector<int> joint_dof;    //   … dof address in MuJoCo
  std::vector<double> effort;    //   … effort limit (the actuator's), N m
  std::vector<int> foot_geom;    // foot f (FootSlots order) → MuJoCo geom id
  std::vector<int> robot_geoms;  // the robot's geoms that touch the ground
  int floor_geom = -1;

 private:
  explicit MujocoModel(mjModel* m) : m_(m) {}
  mjModel* m_;
};

class MujocoEngine : public EngineAdapter {
 public:
  // A simulation of `model` at time step dt with the given cone and friction
  // coefficient μ (feet and ground), driven by `controller` (its torques).
  // InvalidArgument for a controller the model cannot run.
  static absl::StatusOr<std::unique_ptr<MujocoEngine>> Create(
      std::shared_ptr<const MujocoModel> mujoco_model, std::shared_ptr<const Model> model,
      double dt, Cone cone, double mu, const sim::ControllerSettings& controller);
  ~MujocoEngine() override;

  std::string EngineName() const override { return "mujoco"; }
  std::string ContactName() const override { return ConeName(cone_); }
  absl::Status Reset(const Eigen::VectorXd& q, const Eigen::VectorXd& v) override;
  absl::Status Advance(int steps) override;
  void Record(Sample& sample) const override;

 private:
  MujocoEngine(std::shared_ptr<const MujocoModel> mujoco_model, std::shared_ptr<const Model> model,
               mjModel* m, Cone cone, std::unique_ptr<control::Controller> controller,
               int period_steps);
  // q_, v_ ← MuJoCo's qpos, qvel in Moreau's layout.
  void ReadState();
  bool Diverged() const;

  std::shared_ptr<const MujocoModel> map_;
  std::shared_ptr<const Model> model_;
  mjModel* m_;  // a copy of map_->mj() with this engine's options
  mjData* d_;
  Cone cone_;
  Eigen::VectorXd q_;    // nq (Moreau)
  Eigen::VectorXd v_;    // nv (Moreau)
  Eigen::VectorXd tau_;  // nv (Moreau): the controller's, held over its period
  std::unique_ptr<control::Controller> controller_;  // nullptr: "none", τ = 0
  control::ControllerState state_;                   // the controller's, from the start of a run
  int period_steps_;   // the controller runs every period_steps-th step
  int64_t steps_ = 0;  // steps since Reset
};

}  // namespace moreau::bench::vs_mujoco

#endif  // MOREAU_BENCH_VS_MUJOCO_MUJOCO_ENGINE_H_
