#include "engine/dynamics/energy.h"

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
