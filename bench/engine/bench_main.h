// The main() of the engine benchmarks: `--profile=NAME` runs one named case in
// a loop (for callgrind's repeatable instruction counts) instead of Google
// Benchmark.
#ifndef MOREAU_BENCH_ENGINE_BENCH_MAIN_H_
#define MOREAU_BENCH_ENGINE_BENCH_MAIN_H_

#include <benchmark/benchmark.h>

#include <cstring>

namespace moreau::bench {

inline int BenchMain(int argc, char** argv, int (*profile)(const char* name)) {
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--profile=", 10) == 0) return profile(argv[i] + 10);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace moreau::bench

#endif  // MOREAU_BENCH_ENGINE_BENCH_MAIN_H_
