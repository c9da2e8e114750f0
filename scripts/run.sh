#!/usr/bin/env bash
# The main job: builds Moreau and starts the server, moreaud, on localhost:50051 (Prometheus
# metrics on localhost:9464). Extra arguments go to moreaud. Ctrl-C / SIGTERM stops it cleanly.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
exec ./build/server/moreaud --host 127.0.0.1 --port 50051 --metrics-port 9464 "$@"
