#include "engine/sim/inspection.h"

#include "engine/contact/contact_witness.h"
#include "engine/dynamics/crba.h"
#include "engine/dynamics/energy.h"
#include "engine/dynamics/jacobians.h"
#include "engine/dynamics/kinematics.h"
#include "engine/dynamics/rnea.h"

namespace moreau::sim {

Inspection::Inspection(const Model& model, const State& state)
    : model_(model), state_(state), data_(MakeData(model)) {
  ForwardKinematics(model_, data_, state_.q, state_.v);
}

Inspection::Inspection(const Model& model) : Inspection(model, DefaultState(model)) {}

void Inspection::Inspect(const State& state) {
  state_ = state;  // equal sizes: no allocation
  ForwardKinematics(model_, data_, state_.q, state_.v);
}

double Inspection::KineticEnergy() const { return moreau::KineticEnergy(model_, data_); }

double Inspection::PotentialEnergy() const { return moreau::PotentialEnergy(model_, data_); }

const Eigen::MatrixXd& Inspection::MassMatrix() { return Crba(model_, data_, state_.q); }

const Eigen::VectorXd& Inspection::BiasForces() {
  return NonlinearEffects(model_, data_, state_.q, state_.v);
}

const std::vector<Matrix3Xd>& Inspection::ContactJacobians(const contact::Terrain& terrain) {
  contact::WitnessJacobians(model_, terrain, state_.q, data_);
  return data_.contact_J;
}

}  // namespace moreau::sim
