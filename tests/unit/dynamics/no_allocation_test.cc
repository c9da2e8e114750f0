// No heap allocation after Data is made (STYLE.md house rule 5): every
// dynamics algorithm runs under a global operator new that counts calls.
#include <atomic>
#include <cstdlib>
#include <new>
#include <random>

#include <gtest/gtest.h>

#include "engine/dynamics/aba.h"
#include "engine/dynamics/configuration.h"
#include "engine/dynamics/crba.h"
#include "engine/dynamics/data.h"
#include "engine/dynamics/energy.h"
#include "engine/dynamics/jacobians.h"
#include "engine/dynamics/kinematics.h"
#include "engine/dynamics/rnea.h"
#include "tests/unit/dynamics/test_models.h"

namespace {
std::atomic<long> g_allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, std::align_val_t align) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  const std::size_t a = static_cast<std::size_t>(align);
  if (void* p = std::aligned_alloc(a, (size + a - 1) / a * a)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

namespace moreau {
namespace {

TEST(NoAllocation, EveryAlgorithmAfterMakeData) {
  for (const char* name : {"mini_cheetah", "cartpole", "sphere"}) {
    SCOPED_TRACE(name);
    auto model = testing::Builtin(name);
    ASSERT_NE(model, nullptr);
    Data data = MakeData(*model);
    std::mt19937_64 rng(1);
    Eigen::VectorXd q = RandomConfiguration(*model, rng);
    const Eigen::VectorXd v = Eigen::VectorXd::Constant(model->nv, 0.3);
    const Eigen::VectorXd tau = Eigen::VectorXd::Constant(model->nv, 0.1);
    Eigen::VectorXd x = tau;
    Eigen::VectorXd ext = tau;
    std::vector<Force> f_ext(model->nbodies, Force(Vec3(0.1, 0, 0), Vec3(0, 0, 1)));

    const long before = g_allocations.load();
    ForwardKinematics(*model, data, q, v);
    Rnea(*model, data, q, v, tau, &f_ext);
    ComputeCoriolis(*model, data, q, v);
    ComputeGravity(*model, data, q);
    NonlinearEffects(*model, data, q, v);
    ExternalWrenchForce(*model, data, f_ext, ext);
    Crba(*model, data, q);
    FactorMassMatrix(*model, data);
    SolveMassMatrix(data, x);
    Aba(*model, data, q, v, tau, &f_ext);
    ContactJacobians(*model, data, q);
    ContactJdotV(*model, data, q, v);
    ForwardKinematics(*model, data, q, v);
    volatile double sink = KineticEnergy(*model, data) + PotentialEnergy(*model, data) +
                           CenterOfMass(*model, data).x() +
                           SpatialMomentum(*model, data).linear.x();
    (void)sink;
    IntegrateConfiguration(*model, q, v, 1e-3);
    EXPECT_EQ(g_allocations.load() - before, 0);
  }
}

TEST(NoAllocation, CounterWorks) {
  const long before = g_allocations.load();
  auto* p = new std::vector<double>(100);
  delete p;
  EXPECT_GE(g_allocations.load() - before, 2);
}

}  // namespace
}  // namespace moreau
