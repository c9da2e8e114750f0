#!/usr/bin/env bash
# The main job: builds Moreau, describes the built-in Mini Cheetah and simulates it standing
# (hard contact, Moreau time-stepping), then trotting.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
./build/clients/cli/moreau info mini_cheetah
./build/clients/cli/moreau sim mini_cheetah --controller stand --duration 5
./build/clients/cli/moreau sim mini_cheetah --controller trot --duration 3
