#!/usr/bin/env bash
# Installs every build and test dependency of Moreau from Debian's packages.
# Idempotent: skips apt-get when everything is already installed.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  libeigen3-dev libabsl-dev liburdfdom-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc prometheus-cpp-dev
  libssl-dev openssl
  python3 python3-pytest python3-numpy python3-grpcio python3-protobuf python3-matplotlib
  python3-venv python3-yaml
  libnss-wrapper
  prometheus
  libmujoco-dev
  clang-14 libclang-rt-14-dev libfuzzer-14-dev
)

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
