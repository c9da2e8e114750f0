// What a client inspects of one state besides the state itself: body poses,
// energies, the joint-space mass matrix M(q), the bias forces h(q, v) = c + g
// and the contact points' Jacobians. An Inspection owns its Data, so it
// works from a copy of a simulation's state while the simulation steps on;
// one kept and pointed at state after state (Inspect) allocates nothing once
// its vectors have their sizes.
#ifndef MOREAU_ENGINE_SIM_INSPECTION_H_
#define MOREAU_ENGINE_SIM_INSPECTION_H_

#include <Eigen/Core>
#include <vector>

#include "engine/contact/terrain.h"
#include "engine/dynamics/data.h"
#include "engine/model/model.h"
#include "engine/sim/state.h"
#include "engine/spatial/transform.h"

namespace moreau::sim {

class Inspection {
 public:
  // Runs the forward kinematics of `state` (positions and velocities).
  // `model` must outlive the Inspection.
  Inspection(const Model& model, const State& state);
  // An Inspection of the model's default state at rest, to be pointed at
  // other states with Inspect.
  explicit Inspection(const Model& model);

  // Inspects `state` from now on: copies it into the Inspection's own state
  // and reruns the forward kinematics in its Data.
  void Inspect(const State& state);

  // i_X_0 of every body i (0: the world): E = i_R_0, r = body origin in world.
  const std::vector<Transform>& BodyTransforms() const { return data_.X_0; }
  double KineticEnergy() const;    // J
  double PotentialEnergy() const;  // J, gravity along the model's g
  // M(q), nv × nv (CRBA).
  const Eigen::MatrixXd& MassMatrix();
  // h = c(q, v) + g(q), nv (RNEA with q̈ = 0).
  const Eigen::VectorXd& BiasForces();
  // 3 × nv per contact point (Model::contact_points), world frame, at each
  // slot's witness point on `terrain` (contact::WitnessJacobians: a sphere's
  // or rim's lowest point, as the step finds it).
  const std::vector<Matrix3Xd>& ContactJacobians(const contact::Terrain& terrain);

 private:
  const Model& model_;
  State state_;
  Data data_;
};

}  // namespace moreau::sim

#endif  // MOREAU_ENGINE_SIM_INSPECTION_H_
