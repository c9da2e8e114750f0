#!/usr/bin/env bash
# Configures and builds Moreau (Release) into ./build. With ccache installed
# (scripts/packages/build.txt) the compiles go through it, paths taken
# relative to the checkout (CCACHE_BASEDIR), so that a rebuild and the
# container image's build (deploy/container/build-image.sh) reuse them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" "${launcher[@]}" >/dev/null
cmake --build build --parallel "$(nproc)"
