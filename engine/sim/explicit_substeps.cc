#include "engine/sim/explicit_substeps.h"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/sim/inspection.h"

namespace moreau::sim {

double LightestContactMass(const Model& model, const contact::Terrain& terrain) {
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  if (model.contact_points.empty()) return kInfinity;
  Inspection inspection(model);
  const Eigen::LLT<Eigen::MatrixXd> M(inspection.MassMatrix());
  if (M.info() != Eigen::Success) return kInfinity;
  double lightest = kInfinity;
  for (const Matrix3Xd& J : inspection.ContactJacobians(terrain)) {
    // W = J M⁻¹ Jᵀ, the point's inverse inertia (3 × 3, symmetric).
    const Eigen::Matrix3d W = J * M.solve(J.transpose());
    const double w_max = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(W, Eigen::EigenvaluesOnly)
                             .eigenvalues()
                             .maxCoeff();
    if (std::isfinite(w_max) && w_max > 0.0) lightest = std::min(lightest, 1.0 / w_max);
  }
  return lightest;
}

double StableSpringDamperStep(const contact::SpringDamperParams& law, double mass) {
  if (!std::isfinite(mass)) return std::numeric_limits<double>::infinity();
  const double c = std::max(law.normal_stiffness, law.tangential_stiffness);
  const double d = std::max(law.normal_damping, law.tangential_damping);
  // The positive root of c h² + 2 d h − margin · m = 0.
  return (-d + std::sqrt(d * d + kExplicitStabilityMargin * mass * c)) / c;
}

int SpringDamperSubsteps(const contact::SpringDamperParams& law, double mass, double dt) {
  const double h = StableSpringDamperStep(law, mass);
  if (!(h < dt)) return 1;
  const double n = std::ceil(dt / h);
  return n >= kMaxExplicitSubsteps ? kMaxExplicitSubsteps : static_cast<int>(n);
}

}  // namespace moreau::sim
