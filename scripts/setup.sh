#!/usr/bin/env bash
# Installs every build and test dependency of Moreau from Debian's packages:
# the lists scripts/packages/build.txt (what builds it; the Dockerfile's build
# stage installs the same list) and scripts/packages/test.txt (what the tests,
# benchmarks and fuzzing add). Idempotent: skips apt-get when everything is
# already installed.
set -euo pipefail
cd "$(dirname "$0")/.."

mapfile -t packages < <(sh scripts/packages/names.sh scripts/packages/build.txt \
  scripts/packages/test.txt)
# `kubectl kustomize` renders deploy/k8s (tests/deploy); Debian's kubectl is in
# kubernetes-client, unless another kubectl is installed already.
command -v kubectl >/dev/null || packages+=(kubernetes-client)
# npm for clients/js (`npm ci` in scripts/build.sh): Debian's package, unless
# an npm is installed already (as with a Node.js that bundles its own, which
# conflicts with Debian's npm package).
command -v npm >/dev/null || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  # The prometheus package may start a system Prometheus (port 9090); the
  # tests start their own on free loopback ports and need none running.
  if [[ " ${missing[*]} " == *" prometheus "* ]]; then
    if [[ -d /run/systemd/system ]]; then
      $SUDO systemctl disable --now prometheus >/dev/null 2>&1 || true
    else
      $SUDO service prometheus stop >/dev/null 2>&1 || true
    fi
  fi
fi
