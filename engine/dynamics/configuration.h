// Operations on generalized coordinates: integration on the configuration
// manifold (000 eq. 22 for the quaternion), neutral and random configurations.
#ifndef MOREAU_ENGINE_DYNAMICS_CONFIGURATION_H_
#define MOREAU_ENGINE_DYNAMICS_CONFIGURATION_H_

#include <Eigen/Core>
#include <random>

#include "engine/model/model.h"

namespace moreau {

// q ← q ⊕ v Δt: base position += Δt ṗ (world), quaternion ← q ⊗ exp(Δt ω/2)
// with ω in the base frame, joints += Δt q̇. Exact for constant v.
void IntegrateConfiguration(const Model& model, Eigen::Ref<Eigen::VectorXd> q,
                            const Eigen::VectorXd& v, double dt);

// Renormalizes the base quaternion; false if it cannot be (zero or non-finite).
bool NormalizeConfiguration(const Model& model, Eigen::Ref<Eigen::VectorXd> q);

// A random configuration: joints uniform within their position limits (or
// [−π, π] without limits, [−1, 1] m for unlimited prismatic joints), base
// position uniform in [−1, 1]³ and a uniformly random unit quaternion.
Eigen::VectorXd RandomConfiguration(const Model& model, std::mt19937_64& rng);

}  // namespace moreau

#endif  // MOREAU_ENGINE_DYNAMICS_CONFIGURATION_H_
