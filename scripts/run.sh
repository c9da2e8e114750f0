#!/usr/bin/env bash
# The main job: builds Moreau and describes the built-in Mini Cheetah, then evaluates its dynamics.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
./build/clients/cli/moreau info mini_cheetah
./build/clients/cli/moreau dynamics mini_cheetah
