// Per-step timings of the time-stepping schemes (engine/step) on the
// mini_cheetah trotting on flat ground (the "trot" controller, dt = 1 ms): the
// Moreau midpoint step with JOR and SOR prox iteration (hard contact) and the
// semi-implicit Euler step with each compliant force law. The robot is dropped
// from Model::q_default and stepped kWarmup times before timing (it lands and
// starts the gait); the timed steps continue the trot, controller included.
//
//   build/bench/engine/step_bench --benchmark_repetitions=9
//       --benchmark_report_aggregates_only=true
//   build/bench/engine/step_bench --profile=moreau-jor   (10 000 steps, for callgrind)
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bench/engine/bench_main.h"
#include "engine/contact/contact_forces.h"
#include "engine/contact/prox_solver.h"
#include "engine/contact/terrain.h"
#include "engine/control/controller.h"
#include "engine/model/loader.h"
#include "engine/step/explicit_step.h"
#include "engine/step/moreau_step.h"
#include "engine/step/workspace.h"

namespace moreau::bench {
namespace {

constexpr int kWarmup = 2000;
constexpr double kDt = 1e-3;

enum class Scheme { kMoreauJor, kMoreauSor, kSpringDamper, kHertz, kMicro };

struct StepFixture {
  std::shared_ptr<const Model> model;
  step::StepWorkspace w;
  contact::Terrain terrain;
  contact::ProxParams prox;
  contact::ContactLaw law;
  contact::ContactForceParams force_law;
  std::unique_ptr<control::Controller> controller;
  control::ControllerState controller_state;
  double t = 0.0;
  Eigen::VectorXd q, v, tau;
  std::vector<double> impulses;
  std::vector<contact::ContactState> states;
  Scheme scheme;

  explicit StepFixture(Scheme s) : scheme(s) {
    auto m = LoadBuiltin("mini_cheetah");
    if (!m.ok()) {
      std::fprintf(stderr, "cannot load mini_cheetah: %s\n", m.status().ToString().c_str());
      std::exit(1);
    }
    model = *m;
    w = step::MakeStepWorkspace(*model);
    q = model->q_default;
    auto c = control::MakeController("trot", *model);
    if (!c.ok()) {
      std::fprintf(stderr, "cannot make the trot: %s\n", c.status().ToString().c_str());
      std::exit(1);
    }
    controller = std::move(*c);
    v = Eigen::VectorXd::Zero(model->nv);
    tau = Eigen::VectorXd::Zero(model->nv);
    impulses.assign(3 * model->contact_points.size(), 0.0);
    states = contact::MakeContactStates(*model);
    prox.method = s == Scheme::kMoreauJor ? contact::ProxMethod::kJor : contact::ProxMethod::kSor;
    force_law.law = s == Scheme::kHertz   ? contact::ContactForceLaw::kHertz
                    : s == Scheme::kMicro ? contact::ContactForceLaw::kMicro
                                          : contact::ContactForceLaw::kSpringDamper;
    for (int k = 0; k < kWarmup; ++k) Step();
  }

  // One step: the trot's torques, then the scheme.
  void Step() {
    controller->Compute(*model, t, kDt, q, v, controller_state, tau);
    t += kDt;
    const step::StepInputs inputs{&tau, nullptr};
    if (scheme == Scheme::kMoreauJor || scheme == Scheme::kMoreauSor) {
      (void)step::MoreauStep(*model, terrain, prox, law, kDt, inputs, q, v, impulses, w);
    } else {
      step::ExplicitStep(*model, terrain, force_law, step::Integrator::kSemiImplicitEuler, kDt,
                         inputs, q, v, states, w);
    }
  }
};

void BM_Step(benchmark::State& state, Scheme scheme) {
  StepFixture f(scheme);
  for (auto _ : state) {
    f.Step();
    benchmark::ClobberMemory();
  }
}

BENCHMARK_CAPTURE(BM_Step, moreau_jor, Scheme::kMoreauJor);
BENCHMARK_CAPTURE(BM_Step, moreau_sor, Scheme::kMoreauSor);
BENCHMARK_CAPTURE(BM_Step, spring_damper, Scheme::kSpringDamper);
BENCHMARK_CAPTURE(BM_Step, hertz, Scheme::kHertz);
BENCHMARK_CAPTURE(BM_Step, micro, Scheme::kMicro);

// --profile=<scheme>: a fixed run of 10 000 steps (repeatable instruction
// counts under callgrind).
int Profile(const char* name) {
  const struct {
    const char* name;
    Scheme scheme;
  } kSchemes[] = {{"moreau-jor", Scheme::kMoreauJor},
                  {"moreau-sor", Scheme::kMoreauSor},
                  {"spring-damper", Scheme::kSpringDamper},
                  {"hertz", Scheme::kHertz},
                  {"micro", Scheme::kMicro}};
  for (const auto& s : kSchemes) {
    if (std::strcmp(s.name, name) != 0) continue;
    StepFixture f(s.scheme);
    for (int k = 0; k < 10000; ++k) f.Step();
    std::printf("q[2] = %.9f, active = %d\n", f.q[2], f.w.contacts.num_active);
    return 0;
  }
  std::fprintf(stderr, "unknown scheme %s\n", name);
  return 1;
}

}  // namespace
}  // namespace moreau::bench

int main(int argc, char** argv) {
  return moreau::bench::BenchMain(argc, argv, moreau::bench::Profile);
}
