#include "engine/dynamics/rnea.h"

#include "engine/dynamics/joint.h"
#include "engine/dynamics/kinematics.h"

namespace moreau {
namespace {

// Backward pass of 001 Alg. 2–4: τ_i = S_iᵀ f_i, f_λ(i) += ^iX_λ(i)ᵀ f_i.
void BackwardPass(const Model& model, Data& data, Eigen::VectorXd& tau) {
  for (int i = model.nbodies - 1; i >= 1; --i) {
    const int vi = model.v_index[i];
    if (model.joint_type[i] == JointType::kFree) {
      joint::FreeJointProjectForce(data.R_base, data.f[i], tau.data() + vi);
    } else {
      tau[vi] = joint::MotionSubspace(model, i).Dot(data.f[i]);
    }
    const int p = model.parent[i];
    if (p > 0) data.f[p] += data.X_up[i].ApplyTranspose(data.f[i]);
  }
}

// Forward pass with the given velocity and acceleration sources. `with_velocity`
// false skips the velocity-product terms (v = 0); the gravity offset a_0 = −g
// is applied when `with_gravity`.
void ForwardPass(const Model& model, Data& data, const double* qacc, bool with_velocity,
                 bool with_gravity, const std::vector<Force>* f_ext) {
  const Motion a0(Vec3::Zero(), with_gravity ? Vec3(-model.gravity) : Vec3::Zero());
  for (int i = 1; i < model.nbodies; ++i) {
    const int vi = model.v_index[i];
    const int p = model.parent[i];
    const Motion& a_parent = p == 0 ? a0 : data.a[p];
    Motion a = data.X_up[i].Apply(a_parent);
    if (model.joint_type[i] == JointType::kFree) {
      if (qacc != nullptr) a += joint::FreeJointVelocity(data.R_base, qacc + vi);
      if (with_velocity) a += data.cJ[i];
    } else if (qacc != nullptr) {
      a += joint::MotionSubspace(model, i) * qacc[vi];
    }
    const Inertia& I = model.inertia[i];
    if (with_velocity) {
      // 001 Alg. 2: a_i = ^iX_λ a_λ + S q̈ + c_J + v_i × v_J;
      // f_i = I a_i + v_i ×* I v_i.
      const Motion& vel = data.v[i];
      a += vel.Cross(data.vJ[i]);
      data.a[i] = a;
      data.f[i] = I * a + vel.CrossForce(I * vel);
    } else {
      data.a[i] = a;
      data.f[i] = I * a;
    }
    if (f_ext != nullptr) data.f[i] -= (*f_ext)[i];
  }
}

}  // namespace

const Eigen::VectorXd& Rnea(const Model& model, Data& data, const Eigen::VectorXd& q,
                            const Eigen::VectorXd& v, const Eigen::VectorXd& qacc,
                            const std::vector<Force>* f_ext) {
  UpdateJointTransformsAndVelocities(model, data, q, v);
  ForwardPass(model, data, qacc.data(), true, true, f_ext);
  BackwardPass(model, data, data.tau);
  // The rotors' reflected inertia (002 §IV-C): τ += armature · q̈.
  if (model.armature.size() != 0) data.tau += model.armature.cwiseProduct(qacc);
  return data.tau;
}

const Eigen::VectorXd& ComputeCoriolis(const Model& model, Data& data, const Eigen::VectorXd& q,
                                       const Eigen::VectorXd& v) {
  UpdateJointTransformsAndVelocities(model, data, q, v);
  ForwardPass(model, data, nullptr, true, false, nullptr);
  BackwardPass(model, data, data.c);
  return data.c;
}

const Eigen::VectorXd& ComputeGravity(const Model& model, Data& data, const Eigen::VectorXd& q) {
  UpdateJointTransforms(model, data, q);
  ForwardPass(model, data, nullptr, false, true, nullptr);
  BackwardPass(model, data, data.g);
  return data.g;
}

const Eigen::VectorXd& NonlinearEffects(const Model& model, Data& data, const Eigen::VectorXd& q,
                                        const Eigen::VectorXd& v) {
  UpdateJointTransformsAndVelocities(model, data, q, v);
  return NonlinearEffectsFromKinematics(model, data);
}

const Eigen::VectorXd& NonlinearEffectsFromKinematics(const Model& model, Data& data) {
  ForwardPass(model, data, nullptr, true, true, nullptr);
  BackwardPass(model, data, data.tau);
  return data.tau;
}

void ExternalWrenchForce(const Model& model, Data& data, const std::vector<Force>& f_ext,
                         Eigen::VectorXd& out) {
  // 001 Alg. 4: f_i = −f_ext,i, accumulated toward the root and projected.
  for (int i = 1; i < model.nbodies; ++i) data.f[i] = -f_ext[i];
  BackwardPass(model, data, out);
}

}  // namespace moreau
