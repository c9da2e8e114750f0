"""Shared parts of the deployment tests: podman, free loopback ports, the
image (built by deploy/container/build-image.sh), moreaud in a container on
the host's network, and deploy/k8s rendered by `kubectl kustomize`.

Environment (ctest sets it, see CMakeLists.txt): MOREAU_BIN and MOREAUD_BIN,
the host's binaries; PYTHONPATH with the Python client; CONTAINERS_CONF,
deploy/container/containers.conf (runc, ulimits).
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
import uuid
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
IMAGE = "localhost/moreau:latest"
os.environ.setdefault("CONTAINERS_CONF", str(REPO / "deploy" / "container" / "containers.conf"))


def podman(*args: str, timeout: float = 120, check: bool = True) -> subprocess.CompletedProcess:
    """Runs `podman args…` (text output captured)."""
    result = subprocess.run(["podman", *args], capture_output=True, text=True, timeout=timeout,
                            check=False)
    if check and result.returncode != 0:
        pytest.fail(f"podman {' '.join(args)} exited {result.returncode}:\n{result.stderr}")
    return result


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def moreau_bin() -> str:
    binary = os.environ.get("MOREAU_BIN", str(REPO / "build" / "clients" / "cli" / "moreau"))
    if not Path(binary).is_file():
        pytest.fail(f"moreau not found at {binary}; build it or set MOREAU_BIN")
    return binary


def health(address: str) -> subprocess.CompletedProcess:
    """`moreau remote health` (the host's binary) against `address`."""
    return subprocess.run([moreau_bin(), "remote", "health", "--address", address,
                           "--timeout-s", "2"], capture_output=True, text=True, timeout=30,
                          check=False)


def wait_serving(address: str, seconds: float, alive=lambda: True) -> subprocess.CompletedProcess:
    """Polls the health service until SERVING or `seconds` pass (or `alive`
    says the server is gone); returns the last answer."""
    deadline = time.monotonic() + seconds
    result = health(address)
    while result.returncode != 0 and time.monotonic() < deadline and alive():
        time.sleep(0.2)
        result = health(address)
    return result


def build_image(*extra: str) -> subprocess.CompletedProcess:
    """deploy/container/build-image.sh: a build, or a reuse of the image of
    these very sources. Its output goes to the test's log."""
    result = subprocess.run(["bash", str(REPO / "deploy" / "container" / "build-image.sh"),
                             *extra], capture_output=True, text=True, timeout=2300, check=False)
    print(result.stdout[-20000:])
    assert result.returncode == 0, result.stderr[-5000:]
    return result


@pytest.fixture(scope="session")
def image() -> str:
    """localhost/moreau:latest of these sources (deploy_image built it)."""
    build_image()
    return IMAGE


class Container:
    """moreaud in a container on the host's network, on free loopback ports
    (the image's entrypoint, with --host, --port and --metrics-port appended:
    the last value of a flag wins)."""

    def __init__(self, image: str, *flags: str) -> None:
        self.name = f"moreau-test-{uuid.uuid4().hex[:10]}"
        self.grpc_port = free_port()
        self.metrics_port = free_port()
        self.address = f"127.0.0.1:{self.grpc_port}"
        podman("run", "-d", "--name", self.name, "--network=host",
               "-e", f"MOREAU_ADDRESS={self.address}", image,
               "--host", "127.0.0.1", "--port", str(self.grpc_port),
               "--metrics-port", str(self.metrics_port), *flags)
        answer = wait_serving(self.address, 60, self.running)
        if answer.returncode != 0:
            logs = self.logs()
            self.remove()
            pytest.fail(f"moreaud in {self.name} did not serve: {answer.stderr}\n{logs}")

    def running(self) -> bool:
        return self.inspect("{{.State.Running}}") == "true"

    def inspect(self, template: str) -> str:
        return podman("inspect", "--format", template, self.name).stdout.strip()

    def exec(self, *command: str) -> subprocess.CompletedProcess:
        return podman("exec", self.name, *command, check=False)

    def logs(self) -> str:
        result = podman("logs", self.name, check=False)
        return result.stdout + result.stderr

    def remove(self) -> None:
        podman("rm", "-f", "-t", "0", self.name, check=False)


def render_k8s() -> list[dict]:
    """deploy/k8s rendered by `kubectl kustomize`, as YAML documents."""
    try:
        result = subprocess.run(["kubectl", "kustomize", str(REPO / "deploy" / "k8s")],
                                capture_output=True, text=True, timeout=60, check=False)
    except FileNotFoundError:
        pytest.fail("kubectl not found: scripts/setup.sh installs it (Debian: kubernetes-client)")
    assert result.returncode == 0, result.stderr
    return [doc for doc in yaml.safe_load_all(result.stdout) if doc]
