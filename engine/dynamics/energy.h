// Centre of mass, kinetic and potential energy, spatial momentum.
#ifndef MOREAU_ENGINE_DYNAMICS_ENERGY_H_
#define MOREAU_ENGINE_DYNAMICS_ENERGY_H_

#include <Eigen/Core>

#include "engine/dynamics/data.h"
#include "engine/model/model.h"

namespace moreau {

// World centre of mass of all links (including links welded to the world).
// Needs ForwardKinematics positions.
Vec3 CenterOfMass(const Model& model, const Data& data);

// T = Σ ½ v_iᵀ I_i v_i + Σ ½ armature_k q̇_k² (the rotors, Model::armature).
// Needs ForwardKinematics with velocities.
double KineticEnergy(const Model& model, const Data& data);

// V = −Σ m_i gᵀ c_i (world). Needs ForwardKinematics positions.
double PotentialEnergy(const Model& model, const Data& data);

// Total spatial momentum Σ ^0X_iᵀ I_i v_i in world coordinates about the world
// origin: angular = angular momentum, linear = linear momentum. Needs
// ForwardKinematics with velocities.
Force SpatialMomentum(const Model& model, const Data& data);

}  // namespace moreau

#endif  // MOREAU_ENGINE_DYNAMICS_ENERGY_H_
