#!/usr/bin/env bash
# Installs dependencies, builds, and runs every test (C++ unit tests and CLI tests) under ctest,
# then the fuzz targets (tests/fuzz) from their own clang + sanitizer build tree, build-fuzz/:
# a few seconds of fuzzing each and every regression input (ctest label `fuzz`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --test-dir build --output-on-failure --parallel "$(nproc)" --timeout 600

cmake -S . -B build-fuzz -G Ninja -DMOREAU_FUZZ=ON -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER=clang++-14 >/dev/null
cmake --build build-fuzz --parallel "$(nproc)" --target moreau_fuzzers
ctest --test-dir build-fuzz -L fuzz --output-on-failure --parallel "$(nproc)" --timeout 120
