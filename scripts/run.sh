#!/usr/bin/env bash
# The main job: builds Moreau, starts the server, moreaud, on localhost:50051 (Prometheus metrics
# on localhost:9464) and the browser dashboard on http://127.0.0.1:8080 with a demo: a Mini Cheetah
# trotting in a circle under the server's own controller and a UR10 arm moving. Extra arguments go
# to moreaud.
# Ctrl-C / SIGTERM stops both cleanly.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh

./build/server/moreaud --host 127.0.0.1 --port 50051 --metrics-port 9464 "$@" &
moreaud=$!
stop() {
  kill -TERM "${dashboard:-}" "$moreaud" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap stop INT TERM EXIT
# The dashboard once moreaud answers its health check (at most 30 s).
for _ in $(seq 1 60); do
  ./build/clients/cli/moreau remote health --address 127.0.0.1:50051 >/dev/null 2>&1 && break
  sleep 0.5
done
node clients/web/bin/moreau-dashboard.js --server 127.0.0.1:50051 --port 8080 --demo &
dashboard=$!
echo "moreau: open http://127.0.0.1:8080 to watch the demo (Ctrl-C stops moreaud and the dashboard)"
wait -n "$moreaud" "$dashboard"
