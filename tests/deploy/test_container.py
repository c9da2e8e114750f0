"""moreaud from the image, in a container on the host's network: health
SERVING (through the image's moreau, its HEALTHCHECK and the host's), a
Python VectorEnv rollout against it, its /metrics, a non-root process, no
compiler in the image, and `podman stop` (SIGTERM) letting an in-flight call
complete before it exits 0 within the grace period."""

from __future__ import annotations

import threading
import time
import urllib.request

import numpy as np
import pytest

import moreau
from conftest import Container, health, podman


@pytest.fixture(scope="module")
def server(image):
    container = Container(image, "--drain-delay-s", "0")
    yield container
    container.remove()


def test_health_is_serving(server):
    answer = server.exec("moreau", "remote", "health")  # $MOREAU_ADDRESS
    assert (answer.returncode, answer.stdout) == (0, "SERVING\n"), answer.stderr
    assert health(server.address).stdout == "SERVING\n"
    # The image's HEALTHCHECK.
    check = podman("healthcheck", "run", server.name, check=False)
    assert check.returncode == 0, check.stdout + check.stderr


def test_runs_as_non_root(server):
    assert server.exec("id", "-u").stdout.strip() == "10001"
    # The server process itself, seen from the host.
    pid = server.inspect("{{.State.Pid}}")
    with open(f"/proc/{pid}/status") as status:
        uids = next(line for line in status if line.startswith("Uid:")).split()[1:]
    assert uids == ["10001"] * 4, uids


def test_vector_env_rollout(server):
    env = moreau.VectorEnv("stand", num_envs=8, servers=[server.address], seed=0)
    try:
        obs, _ = env.reset(seed=0)
        rng = np.random.default_rng(0)
        for _ in range(20):
            obs, reward, terminated, truncated, _ = env.step(
                rng.uniform(-1, 1, env.action_space.shape))
        assert obs.shape == (8,) + env.single_observation_space.shape
        assert np.all(np.isfinite(obs)) and np.all(np.isfinite(reward))
    finally:
        env.close()


def test_metrics_scrape(server):
    url = f"http://127.0.0.1:{server.metrics_port}/metrics"
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.status == 200
        text = response.read().decode()
    steps = [float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
             if line.startswith("moreau_steps_total{")]
    assert steps and sum(steps) > 0, text[:2000]


def test_image_has_no_compiler(image):
    found = podman("run", "--rm", "--network=none", "--entrypoint", "sh", image, "-c",
                   "for c in cc c++ gcc g++ cpp clang clang++ ld as make; do "
                   "command -v $c; done; "
                   "dpkg-query -W -f '${Package}\\n' | grep -E -- '-dev$|^(gcc|g\\+\\+|cpp|clang|"
                   "binutils|build-essential)(-[0-9]+)?$'; true").stdout
    assert found.strip() == "", found


def test_stop_completes_the_call_in_flight_and_exits_0(image):
    grace_s = 20
    # A call long enough to be in flight at the stop needs more sub-steps
    # than the default cap on a fast machine.
    max_substeps = 1_000_000
    container = Container(image, "--drain-delay-s", "1", "--shutdown-grace-s", str(grace_s),
                          "--max-substeps", str(max_substeps))
    try:
        with moreau.Client(container.address, timeout=120) as client:
            created = client.create_instances("mini_cheetah", 16)
            ids = list(created.ids)
            actions = np.zeros((len(ids), created.spec.action.size))
            # Sub-steps for a call of about 5 s (measured here: machines differ).
            # The fastest of three warm calls: a first call's start-up cost
            # would shorten the call below the stop's delay.
            per_substep = float("inf")
            for _ in range(3):
                started = time.monotonic()
                client.step_batch(ids, actions, 100)
                per_substep = min(per_substep, (time.monotonic() - started) / 100)
            substeps = int(min(max_substeps, max(100, 5.0 / per_substep)))
            outcome = {}

            def call():
                try:
                    outcome["batch"] = client.step_batch(ids, actions, substeps)
                except Exception as error:  # noqa: BLE001 - reported below
                    outcome["error"] = error
                outcome["ended"] = time.monotonic()

            caller = threading.Thread(target=call)
            caller.start()
            time.sleep(0.5)
            stop_sent = time.monotonic()
            stopped = podman("stop", "-t", str(grace_s + 15), container.name,
                             timeout=grace_s + 60)
            stop_took = time.monotonic() - stop_sent
            caller.join(timeout=120)
        assert stopped.returncode == 0
        assert "error" not in outcome, outcome.get("error")
        batch = outcome["batch"]
        assert np.all(batch.status_code == 0), batch.status_message
        assert np.all(batch.steps == 300 + substeps)
        assert outcome["ended"] > stop_sent, (
            f"the call of {substeps} sub-steps ({per_substep * 1e3:.2f} ms each when measured) "
            f"ended {stop_sent - outcome['ended']:.3f} s before the stop: not in flight")
        assert stop_took < grace_s + 10, f"stopping took {stop_took:.1f} s"
        assert container.inspect("{{.State.ExitCode}}") == "0", container.logs()
        logs = container.logs()
        assert "SIGTERM: draining" in logs and "moreaud: stopped" in logs, logs
    finally:
        container.remove()
