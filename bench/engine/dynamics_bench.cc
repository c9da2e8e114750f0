// Per-call timings of the rigid-body algorithms (FK, RNEA, CRBA, ABA, contact
// Jacobians, the LTDL factor of M) on the 18-DOF quadrupeds. Each call runs
// on a fixed random state; a pool of states is cycled so branch predictors
// see varied inputs.
//
//   build/bench/engine/dynamics_bench --benchmark_repetitions=5
//       (add --benchmark_report_aggregates_only=true for medians only)
//   build/bench/engine/dynamics_bench --profile=aba[:unitree_a1]   (1000 calls on
//       mini_cheetah or the robot named, for repeatable instruction counts
//       under callgrind: the inclusive cost of moreau::Aba / 1000)
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench/engine/bench_main.h"
#include "engine/dynamics/aba.h"
#include "engine/dynamics/configuration.h"
#include "engine/dynamics/crba.h"
#include "engine/dynamics/data.h"
#include "engine/dynamics/jacobians.h"
#include "engine/dynamics/kinematics.h"
#include "engine/dynamics/rnea.h"
#include "engine/model/loader.h"

namespace moreau::bench {
namespace {

constexpr int kPool = 64;

struct Fixture {
  std::shared_ptr<const Model> model;
  Data data;
  std::vector<Eigen::VectorXd> q, v, a;
};

std::shared_ptr<const Model> LoadOrDie(const std::string& which) {
  auto m = which == "mini_cheetah"
               ? LoadBuiltin("mini_cheetah")
               : LoadUrdfFile(std::string(MOREAU_MODELS_DIR) + "/unitree_a1/a1.urdf");
  if (!m.ok()) {
    std::fprintf(stderr, "cannot load %s: %s\n", which.c_str(), m.status().ToString().c_str());
    std::exit(1);
  }
  return *m;
}

Fixture& Get(const std::string& which) {
  static std::map<std::string, std::unique_ptr<Fixture>> cache;
  auto& slot = cache[which];
  if (!slot) {
    slot = std::make_unique<Fixture>();
    slot->model = LoadOrDie(which);
    slot->data = MakeData(*slot->model);
    std::mt19937_64 rng(1);
    std::normal_distribution<double> normal(0.0, 1.0);
    const int nv = slot->model->nv;
    for (int k = 0; k < kPool; ++k) {
      slot->q.push_back(RandomConfiguration(*slot->model, rng));
      Eigen::VectorXd v(nv), a(nv);
      for (int i = 0; i < nv; ++i) v[i] = normal(rng), a[i] = normal(rng);
      slot->v.push_back(v);
      slot->a.push_back(a);
    }
  }
  return *slot;
}

template <typename Fn>
void Run(benchmark::State& state, const std::string& which, Fn fn) {
  Fixture& f = Get(which);
  int k = 0;
  for (auto _ : state) {
    fn(f, k);
    benchmark::ClobberMemory();
    k = (k + 1) % kPool;
  }
}

void BM_ForwardKinematics(benchmark::State& s, const std::string& w) {
  Run(s, w, [](Fixture& f, int k) { ForwardKinematics(*f.model, f.data, f.q[k], f.v[k]); });
}
void BM_Rnea(benchmark::State& s, const std::string& w) {
  Run(s, w, [](Fixture& f, int k) { Rnea(*f.model, f.data, f.q[k], f.v[k], f.a[k]); });
}
void BM_Crba(benchmark::State& s, const std::string& w) {
  Run(s, w, [](Fixture& f, int k) { Crba(*f.model, f.data, f.q[k]); });
}
void BM_Aba(benchmark::State& s, const std::string& w) {
  Run(s, w, [](Fixture& f, int k) { Aba(*f.model, f.data, f.q[k], f.v[k], f.a[k]); });
}
void BM_ContactJacobians(benchmark::State& s, const std::string& w) {
  Run(s, w, [](Fixture& f, int k) { ContactJacobians(*f.model, f.data, f.q[k]); });
}
void BM_FactorMassMatrix(benchmark::State& s, const std::string& w) {
  Fixture& f = Get(w);
  Crba(*f.model, f.data, f.q[0]);
  Run(s, w, [](Fixture& f, int) { FactorMassMatrix(*f.model, f.data); });
}
void BM_CrbaAndFactor(benchmark::State& s, const std::string& w) {
  Run(s, w, [](Fixture& f, int k) {
    Crba(*f.model, f.data, f.q[k]);
    FactorMassMatrix(*f.model, f.data);
  });
}

#define MOREAU_BENCH(fn)                                            \
  BENCHMARK_CAPTURE(fn, mini_cheetah, std::string("mini_cheetah")); \
  BENCHMARK_CAPTURE(fn, unitree_a1, std::string("unitree_a1"))

MOREAU_BENCH(BM_ForwardKinematics);
MOREAU_BENCH(BM_Rnea);
MOREAU_BENCH(BM_Crba);
MOREAU_BENCH(BM_Aba);
MOREAU_BENCH(BM_ContactJacobians);
MOREAU_BENCH(BM_FactorMassMatrix);
MOREAU_BENCH(BM_CrbaAndFactor);

// --profile=<algorithm>[:<robot>]: 1000 calls cycling the state pool, on
// mini_cheetah unless the robot (mini_cheetah, unitree_a1) is given.
int Profile(const char* arg) {
  const char* colon = std::strchr(arg, ':');
  const std::string name_str = colon == nullptr ? std::string(arg) : std::string(arg, colon);
  const char* name = name_str.c_str();
  Fixture& f = Get(colon == nullptr ? "mini_cheetah" : colon + 1);
  const Model& m = *f.model;
  for (int n = 0; n < 1000; ++n) {
    const int k = n % kPool;
    if (std::strcmp(name, "fk") == 0) ForwardKinematics(m, f.data, f.q[k], f.v[k]);
    if (std::strcmp(name, "rnea") == 0) Rnea(m, f.data, f.q[k], f.v[k], f.a[k]);
    if (std::strcmp(name, "crba") == 0) Crba(m, f.data, f.q[k]);
    if (std::strcmp(name, "aba") == 0) Aba(m, f.data, f.q[k], f.v[k], f.a[k]);
    if (std::strcmp(name, "jacobians") == 0) ContactJacobians(m, f.data, f.q[k]);
    if (std::strcmp(name, "crba_factor") == 0) {
      Crba(m, f.data, f.q[k]);
      FactorMassMatrix(m, f.data);
    }
  }
  std::printf("qacc[0] = %.9f\n", f.data.qacc[0]);
  return 0;
}

}  // namespace
}  // namespace moreau::bench

int main(int argc, char** argv) {
  return moreau::bench::BenchMain(argc, argv, moreau::bench::Profile);
}
