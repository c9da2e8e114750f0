#!/usr/bin/env bash
# Measures the container image: its size above the base image, the time of a
# build from nothing (no layer cache, no compiler cache), and a VectorEnv
# rollout's env-steps/s against moreaud in the container and against the
# same moreaud on the host (same flags, same rollout: examples/random_rollout.py
# --policy zero). Timing: run it on an otherwise idle machine.
#
#   deploy/container/measure.sh [--skip-build] [--num-envs N] [--steps S] [--rounds R]
#                               [--json FILE]
#
#   --skip-build  measure the existing localhost/moreau:latest; no build time
#   --num-envs N  environments of the rollout (default 64)
#   --steps S     timed policy steps (default 300)
#   --rounds R    rollouts on each side in ABBA order; the median counts (default 3)
#   --json FILE   also write the figures to FILE (bench/run_all.sh's container area)
#
# Needs the host build (BUILD_DIR, default build/: moreaud, moreau and the
# Python stubs) and podman.
set -euo pipefail
cd "$(dirname "$0")/../.."
export CONTAINERS_CONF="${CONTAINERS_CONF:-$PWD/deploy/container/containers.conf}"

build=1 num_envs=64 steps=300 rounds=3 json=""
while (($#)); do
  case "$1" in
    --skip-build) build=0; shift ;;
    --num-envs) num_envs="$2"; shift 2 ;;
    --steps) steps="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --json) json="$2"; shift 2 ;;
    *) echo "usage: $0 [--skip-build] [--num-envs N] [--steps S] [--rounds R] [--json FILE]" >&2
       exit 2 ;;
  esac
done

readonly image=localhost/moreau:latest base=docker.io/library/debian:bookworm-slim
readonly build_dir="${BUILD_DIR:-build}"
readonly moreaud="$build_dir/server/moreaud" python=/usr/bin/python3
[[ -x "$moreaud" ]] || { echo "measure: build moreaud first (scripts/build.sh)" >&2; exit 1; }
export PYTHONPATH="$PWD/clients/python:$(realpath "$build_dir")/clients/python"
workers=2  # moreaud --workers on both sides

if ((build)); then
  bash deploy/container/build-image.sh >/dev/null  # the base image, and the labels' arguments
  echo "measure: building from nothing (no layer cache, ccache off)…" >&2
  started=$SECONDS
  podman build --isolation=chroot --network=host --format docker --no-cache \
    --build-arg MOREAU_CCACHE= -t localhost/moreau:measure -f Dockerfile . >/dev/null
  build_s=$((SECONDS - started))
  echo "measure: built in $build_s s" >&2
  podman tag localhost/moreau:measure "$image"
  podman rmi localhost/moreau:measure >/dev/null
fi
size=$(podman image inspect --format '{{.Size}}' "$image")
base_size=$(podman image inspect --format '{{.Size}}' "$base")

free_port() {
  "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# Waits (≤ 60 s) until the server at $1 reports SERVING.
wait_serving() {
  for _ in $(seq 300); do
    "$build_dir/clients/cli/moreau" remote health --address "$1" --timeout-s 1 >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  echo "measure: $1 never served" >&2
  return 1
}
rollout() {
  "$python" examples/random_rollout.py --json --servers "$1" --policy zero \
    --num-envs "$num_envs" --steps "$steps" --warmup 20 |
    "$python" -c 'import json, sys; print(json.load(sys.stdin)["env_steps_per_s"])'
}

port=$(free_port)
flags=(--host 127.0.0.1 --port "$port" --metrics-port -1 --workers "$workers")
name="moreau-measure-$$"
podman run -d --name "$name" --network=host "$image" "${flags[@]}" >/dev/null
"$moreaud" "${flags[@]}" --port "$((port + 1))" >/dev/null 2>&1 &
host_pid=$!
trap 'podman rm -f -t 0 "$name" >/dev/null 2>&1 || true; kill "$host_pid" 2>/dev/null || true' EXIT
wait_serving "127.0.0.1:$port"
wait_serving "127.0.0.1:$((port + 1))"

container_rates=() host_rates=()
for ((r = 0; r < rounds; ++r)); do
  echo "measure: rollout round $((r + 1)) of $rounds" >&2
  # ABBA order: container first in even rounds, host first in odd ones.
  if ((r % 2 == 0)); then
    container_rates+=("$(rollout "127.0.0.1:$port")")
    host_rates+=("$(rollout "127.0.0.1:$((port + 1))")")
  else
    host_rates+=("$(rollout "127.0.0.1:$((port + 1))")")
    container_rates+=("$(rollout "127.0.0.1:$port")")
  fi
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
in_container=$(median "${container_rates[@]}")
on_host=$(median "${host_rates[@]}")

echo "image $image: $(podman image inspect --format '{{.Id}}' "$image" | cut -c1-12)"
awk -v s="$size" -v b="$base_size" 'BEGIN {
  printf "size above the base: %.1f MB (image %.1f MB, base %.1f MB)\n", (s - b) / 1e6, s / 1e6, b / 1e6 }'
((build)) && echo "build from nothing: $build_s s"
echo "rollout: examples/random_rollout.py --policy zero --num-envs $num_envs --steps $steps," \
  "moreaud --workers $workers, median of $rounds"
awk -v c="$in_container" -v h="$on_host" 'BEGIN {
  printf "  in the container: %.0f env-steps/s\n  on the host:      %.0f env-steps/s\n", c, h
  printf "  container / host: %.1f %%\n", 100 * c / h }'
if [[ -n "$json" ]]; then
  "$python" - "$json" "$size" "$base_size" "${build_s:-}" "$num_envs" "$steps" "$workers" \
    "${container_rates[*]}" "${host_rates[*]}" <<'PY'
import json, sys
out, size, base, build_s, envs, steps, workers, inside, host = sys.argv[1:]
json.dump({"image_bytes": int(size), "base_bytes": int(base),
           "build_from_nothing_s": int(build_s) if build_s else None,
           "num_envs": int(envs), "steps": int(steps), "workers": int(workers),
           "container_env_steps_per_s": [float(x) for x in inside.split()],
           "host_env_steps_per_s": [float(x) for x in host.split()]}, open(out, "w"), indent=1)
PY
fi
