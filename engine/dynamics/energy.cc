#include "engine/dynamics/energy.h"

#include "engine/dynamics/joint.h"

namespace moreau {

Vec3 CenterOfMass(const Model& model, const Data& data) {
  double mass = 0.0;
  Vec3 moment = Vec3::Zero();
  for (int i = 0; i < model.nbodies; ++i) {
    const Inertia& I = model.inertia[i];
    mass += I.mass;
    moment += I.mass * data.X_0[i].InverseTransformPoint(I.CenterOfMass());
  }
  return mass > 0.0 ? Vec3(moment / mass) : Vec3::Zero();
}

double KineticEnergy(const Model& model, const Data& data) {
  double T = 0.0;
  for (int i = 1; i < model.nbodies; ++i) T += 0.5 * data.v[i].Dot(model.inertia[i] * data.v[i]);
  if (model.armature.size() == 0) return T;
  // The rotors (002 §IV-C): ½ I_rotor (N q̇)² = ½ armature q̇², with q̇ = Sᵀ v_J
  // of each 1-DOF joint (S a unit axis).
  for (int i = 1; i < model.nbodies; ++i) {
    if (model.joint_type[i] == JointType::kFree) continue;
    const Motion S = joint::MotionSubspace(model, i);
    const double qd = S.angular.dot(data.vJ[i].angular) + S.linear.dot(data.vJ[i].linear);
    T += 0.5 * model.armature[model.v_index[i]] * qd * qd;
  }
  return T;
}

double PotentialEnergy(const Model& model, const Data& data) {
  double V = 0.0;
  for (int i = 0; i < model.nbodies; ++i) {
    const Inertia& I = model.inertia[i];
    V -= I.mass * model.gravity.dot(data.X_0[i].InverseTransformPoint(I.CenterOfMass()));
  }
  return V;
}

Force SpatialMomentum(const Model& model, const Data& data) {
  Force h = Force::Zero();
  for (int i = 1; i < model.nbodies; ++i)
    h += data.X_0[i].ApplyTranspose(model.inertia[i] * data.v[i]);
  return h;
}

}  // namespace moreau
