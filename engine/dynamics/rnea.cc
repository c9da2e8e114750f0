#include "engine/dynamics/rnea.h"

#include "engine/dynamics/joint.h"
#include "engine/dynamics/kinematics.h"

namespace moreau {
namespace {

namespace axis = spatial::axis;

// τ_i = S_iᵀ f_i, f_λ(i) += ^iX_λ(i)ᵀ f_i for body i (001 Alg. 2–4, backward
// pass). K ≥ 0: S = σ e_K and the rotation-about-e_K form of X_up (joint.h).
template <int K>
inline void BackwardBody(const Model& model, Data& data, int i, Eigen::VectorXd& tau) {
  const int vi = model.v_index[i];
  const Force& f = data.f[i];
  const Transform& X = data.X_up[i];
  const int p = model.parent[i];
  if constexpr (K >= 0) {
    tau[vi] = model.joint_axis[i][K] * f.angular[K];
    if (p > 0) data.f[p] += axis::ApplyTranspose<K>(axis::Cos<K>(X), axis::Sin<K>(X), X.r, f);
  } else {
    if (model.joint_type[i] == JointType::kFree) {
      joint::FreeJointProjectForce(data.R_base, f, tau.data() + vi);
    } else {
      tau[vi] = joint::MotionSubspace(model, i).Dot(f);
    }
    if (p > 0) data.f[p] += X.ApplyTranspose(f);
  }
}

void BackwardPass(const Model& model, Data& data, Eigen::VectorXd& tau) {
  // Children before parents, a level at a time (Data::level_order).
  for (auto it = data.level_order.rbegin(); it != data.level_order.rend(); ++it) {
    const int i = *it;
    switch (data.rotation_axis[i]) {
      case 0:
        BackwardBody<0>(model, data, i, tau);
        break;
      case 1:
        BackwardBody<1>(model, data, i, tau);
        break;
      case 2:
        BackwardBody<2>(model, data, i, tau);
        break;
      default:
        BackwardBody<-1>(model, data, i, tau);
    }
  }
}

// f_i = I_i a_i + v_i ×* I_i v_i − f_ext,i (001 Alg. 2), or I_i a_i without
// velocity.
inline void BodyForce(const Model& model, Data& data, int i, bool with_velocity,
                      const std::vector<Force>* f_ext) {
  const Inertia& I = model.inertia[i];
  if (with_velocity) {
    const Motion& vel = data.v[i];
    data.f[i] = I * data.a[i] + vel.CrossForce(I * vel);
  } else {
    data.f[i] = I * data.a[i];
  }
  if (f_ext != nullptr) data.f[i] -= (*f_ext)[i];
}

// The forward pass of 001 Alg. 2 for body i at the kinematics in data:
// a_i = ^iX_λ a_λ + S q̈ + c_J + v_i × v_J (velocity terms when
// `with_velocity`, q̈ terms when qacc != nullptr).
template <int K>
inline void ForwardBody(const Model& model, Data& data, int i, const Motion& a_parent,
                        const double* qacc, bool with_velocity) {
  const int vi = model.v_index[i];
  const Transform& X = data.X_up[i];
  Motion a;
  if constexpr (K >= 0) {
    a = axis::Apply<K>(axis::Cos<K>(X), axis::Sin<K>(X), X.r, a_parent);
    if (qacc != nullptr) a.angular[K] += model.joint_axis[i][K] * qacc[vi];
    if (with_velocity) {
      // v × (w e_K) with v_J = w e_K.
      const double w = data.vJ[i].angular[K];
      a.angular += axis::CrossAxis<K>(data.v[i].angular, w);
      a.linear += axis::CrossAxis<K>(data.v[i].linear, w);
    }
  } else {
    a = X.Apply(a_parent);
    if (model.joint_type[i] == JointType::kFree) {
      if (qacc != nullptr) a += joint::FreeJointVelocity(data.R_base, qacc + vi);
      if (with_velocity) a += data.cJ[i];
    } else if (qacc != nullptr) {
      a += joint::MotionSubspace(model, i) * qacc[vi];
    }
    if (with_velocity) a += data.v[i].Cross(data.vJ[i]);
  }
  data.a[i] = a;
}

// Forward pass with the given velocity and acceleration sources. `with_velocity`
// false skips the velocity-product terms (v = 0); the gravity offset a_0 = −g
// is applied when `with_gravity`.
void ForwardPass(const Model& model, Data& data, const double* qacc, bool with_velocity,
                 bool with_gravity, const std::vector<Force>* f_ext) {
  const Motion a0(Vec3::Zero(), with_gravity ? Vec3(-model.gravity) : Vec3::Zero());
  for (const int i : data.level_order) {
    const int p = model.parent[i];
    const Motion& a_parent = p == 0 ? a0 : data.a[p];
    switch (data.rotation_axis[i]) {
      case 0:
        ForwardBody<0>(model, data, i, a_parent, qacc, with_velocity);
        break;
      case 1:
        ForwardBody<1>(model, data, i, a_parent, qacc, with_velocity);
        break;
      case 2:
        ForwardBody<2>(model, data, i, a_parent, qacc, with_velocity);
        break;
      default:
        ForwardBody<-1>(model, data, i, a_parent, qacc, with_velocity);
    }
    BodyForce(model, data, i, with_velocity, f_ext);
  }
}

// Rnea's forward pass in one sweep (001 Alg. 1–2): for each body the joint
// transform, v_i = X v_λ + v_J and a_i, f_i as in ForwardPass, so every
// body's data is used while in cache. A revolute joint about σ e_K uses the
// rotation-about-e_K forms (RneaBodyAxis); the others the general ones of
// joint.h (KinematicsBody, ForwardBody<-1>, BodyForce).
inline void KinematicsBody(const Model& model, Data& data, int i, const double* q,
                           const double* v) {
  const int vi = model.v_index[i];
  const int p = model.parent[i];
  Transform& X = data.X_up[i];
  joint::JointTransformUp(model, i, q, X, data.R_base);
  if (model.joint_type[i] == JointType::kFree) {
    data.vJ[i] = joint::FreeJointVelocity(data.R_base, v + vi);
    data.cJ[i] = joint::FreeJointBias(data.vJ[i]);
  } else {
    data.vJ[i] = joint::MotionSubspace(model, i) * v[vi];
  }
  data.v[i] = p == 0 ? data.vJ[i] : X.Apply(data.v[p]) + data.vJ[i];
}

// The fused forward step for a revolute joint about σ e_K (001 Alg. 1–2):
// X = rot(E_J(q)) xlt(r), v = X v_λ + w e_K, a = X a_λ + σ q̈ e_K + v × w e_K,
// f = I a + v ×* I v − f_ext, with c, s, w and v kept in registers between
// the steps rather than read back from data.
template <int K>
inline void RneaBodyAxis(const Model& model, Data& data, int i, const double* q, const double* v,
                         const double* qacc, const Motion& a_parent,
                         const std::vector<Force>* f_ext) {
  const int vi = model.v_index[i];
  const int p = model.parent[i];
  const double sigma = model.joint_axis[i][K];
  const Vec3& r = model.X_tree[i].r;
  double c, s;
  spatial::SinCos(q[model.q_index[i]], s, c);
  s *= sigma;  // E_J = R(σ e_K, q)ᵀ: c = cos q, s = σ sin q
  const double w = sigma * v[vi];
  Motion vel = p == 0 ? Motion::Zero() : axis::Apply<K>(c, s, r, data.v[p]);
  vel.angular[K] += w;
  Motion acc = axis::Apply<K>(c, s, r, a_parent);
  acc.angular[K] += sigma * qacc[vi];
  acc.angular += axis::CrossAxis<K>(vel.angular, w);
  acc.linear += axis::CrossAxis<K>(vel.linear, w);
  const Inertia& I = model.inertia[i];
  Force f = I * acc + vel.CrossForce(I * vel);
  if (f_ext != nullptr) f -= (*f_ext)[i];
  axis::Write<K>(c, s, r, data.X_up[i]);
  Motion& vJ = data.vJ[i];
  vJ.angular.setZero();
  vJ.angular[K] = w;
  vJ.linear.setZero();
  data.v[i] = vel;
  data.a[i] = acc;
  data.f[i] = f;
}

void FusedForwardPass(const Model& model, Data& data, const double* q, const double* v,
                      const double* qacc, const std::vector<Force>* f_ext) {
  const Motion a0(Vec3::Zero(), -model.gravity);
  for (const int i : data.level_order) {
    const int p = model.parent[i];
    const Motion& a_parent = p == 0 ? a0 : data.a[p];
    switch (data.rotation_axis[i]) {
      case 0:
        RneaBodyAxis<0>(model, data, i, q, v, qacc, a_parent, f_ext);
        break;
      case 1:
        RneaBodyAxis<1>(model, data, i, q, v, qacc, a_parent, f_ext);
        break;
      case 2:
        RneaBodyAxis<2>(model, data, i, q, v, qacc, a_parent, f_ext);
        break;
      default:
        KinematicsBody(model, data, i, q, v);
        ForwardBody<-1>(model, data, i, a_parent, qacc, true);
        BodyForce(model, data, i, true, f_ext);
    }
  }
}

}  // namespace

const Eigen::VectorXd& Rnea(const Model& model, Data& data, const Eigen::VectorXd& q,
                            const Eigen::VectorXd& v, const Eigen::VectorXd& qacc,
                            const std::vector<Force>* f_ext) {
  FusedForwardPass(model, data, q.data(), v.data(), qacc.data(), f_ext);
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
  return NonlinearEffects(model, data);
}

const Eigen::VectorXd& NonlinearEffects(const Model& model, Data& data) {
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
