// No heap allocation after Data is made (STYLE.md house rule 5): every
// dynamics algorithm runs under counters of operator new and malloc.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>

#include "engine/dynamics/aba.h"
#include "engine/dynamics/configuration.h"
#include "engine/dynamics/crba.h"
#include "engine/dynamics/data.h"
#include "engine/dynamics/energy.h"
#include "engine/dynamics/jacobians.h"
#include "engine/dynamics/kinematics.h"
#include "engine/dynamics/rnea.h"
#include "tests/unit/dynamics/test_models.h"
#include "tests/unit/testing/allocation_counter.h"

namespace moreau {
namespace {

TEST(NoAllocation, EveryAlgorithmAfterMakeData) {
  for (const char* name : {"mini_cheetah", "cartpole", "sphere", "mini_cheetah+armature"}) {
    SCOPED_TRACE(name);
    const bool geared = std::string(name) == "mini_cheetah+armature";
    std::shared_ptr<const Model> model = testing::Builtin(geared ? "mini_cheetah" : name);
    ASSERT_NE(model, nullptr);
    if (geared) {  // the armature terms of CRBA, ABA, RNEA and the energy
      auto copy = std::make_shared<Model>(*model);
      for (Actuator& a : copy->actuators) {
        a.gear = 9.0;
        a.rotor_inertia = 1e-4;
      }
      UpdateArmature(*copy);
      model = copy;
    }
    Data data = MakeData(*model);
    std::mt19937_64 rng(1);
    Eigen::VectorXd q = RandomConfiguration(*model, rng);
    const Eigen::VectorXd v = Eigen::VectorXd::Constant(model->nv, 0.3);
    const Eigen::VectorXd tau = Eigen::VectorXd::Constant(model->nv, 0.1);
    Eigen::VectorXd x = tau;
    Eigen::VectorXd ext = tau;
    std::vector<Force> f_ext(model->nbodies, Force(Vec3(0.1, 0, 0), Vec3(0, 0, 1)));

    const long before = ::moreau::testing::HeapAllocationCount();
    ForwardKinematics(*model, data, q, v);
    Rnea(*model, data, q, v, tau, &f_ext);
    ComputeCoriolis(*model, data, q, v);
    ComputeGravity(*model, data, q);
    NonlinearEffects(*model, data, q, v);
    ExternalWrenchForce(*model, data, f_ext, ext);
    Crba(*model, data, q);
    FactorMassMatrix(*model, data);
    SolveMassMatrix(data, x);
    CrbaFactor(*model, data);
    SolveMassMatrixHalf(data, x);
    Aba(*model, data, q, v, tau, &f_ext);
    ContactJacobians(*model, data, q);
    ContactJdotV(*model, data, q, v);
    ForwardKinematics(*model, data, q, v);
    AbaVelocities(*model, data, v, &f_ext);
    AbaAccelerations(*model, data, tau);
    AbaVelocities(*model, data, v, &f_ext);
    AbaAccelerations(*model, data, tau);
    volatile double sink = KineticEnergy(*model, data) + PotentialEnergy(*model, data) +
                           CenterOfMass(*model, data).x() +
                           SpatialMomentum(*model, data).linear.x();
    (void)sink;
    IntegrateConfiguration(*model, q, v, 1e-3);
    EXPECT_EQ(::moreau::testing::HeapAllocationCount() - before, 0);
  }
}

TEST(NoAllocation, CounterSeesNewAndEigen) {
  long before = ::moreau::testing::HeapAllocationCount();
  auto* p = new std::vector<double>(100);
  delete p;
  EXPECT_GE(::moreau::testing::HeapAllocationCount() - before, 2);
  before = ::moreau::testing::HeapAllocationCount();
  {
    Eigen::VectorXd x = Eigen::VectorXd::Zero(100);  // Eigen allocates with malloc
    EXPECT_EQ(x.size(), 100);
  }
  EXPECT_GE(::moreau::testing::HeapAllocationCount() - before, 1);
}

}  // namespace
}  // namespace moreau
