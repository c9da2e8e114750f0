#!/usr/bin/env bash
# Installs dependencies, builds, and runs every test (C++ unit tests and CLI tests) under ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --test-dir build --output-on-failure --parallel "$(nproc)" --timeout 600
