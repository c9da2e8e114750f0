#!/usr/bin/env bash
# Configures and builds Moreau (Release) into ./build. With ccache installed
# (scripts/packages/build.txt) the compiles go through it, paths taken
# relative to the checkout (CCACHE_BASEDIR), so that a rebuild and the
# container image's build (deploy/container/build-image.sh) reuse them. Then
# `npm ci` installs the JavaScript client's packages (clients/js) and the
# browser dashboard's (clients/web).
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
# The JavaScript client's dependencies (clients/js/package-lock.json), for its
# tests (ctest js_client): installed when missing or older than the lock file.
if [[ ! -d clients/js/node_modules || clients/js/package-lock.json -nt clients/js/node_modules ]]; then
  (cd clients/js && npm ci --no-audit --no-fund)
fi
# The browser dashboard's (clients/web/package-lock.json), for its tests (ctest
# web_dashboard); its bridge requires clients/js, installed above.
if [[ ! -d clients/web/node_modules || clients/web/package-lock.json -nt clients/web/node_modules ]]; then
  (cd clients/web && npm ci --no-audit --no-fund)
fi
