"""Fixtures: real moreaud servers on free local ports.

The server binary comes from $MOREAUD_BIN (set by ctest, see CMakeLists.txt);
the UR10 URDF from $MOREAU_MODELS_DIR (default: the repository's models/).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path
from typing import Iterator

import pytest

_LISTENING = re.compile(r"moreaud: listening on ([^\s,]+):(\d+)")
_METRICS = re.compile(r"metrics on http://[^\s/]+:(\d+)/metrics")

# The name tests/integration/replicas_hosts gives to 127.0.0.1, .2 and .3 (read
# through nss_wrapper by the tests that preload it).
REPLICAS_NAME = "moreaud-replicas.test"


class StartError(RuntimeError):
    """moreaud did not print its "listening on" line (e.g. the port is taken)."""


class Server:
    """A moreaud child process."""

    def __init__(self, *extra: str, required: bool = True) -> None:
        """Flags in ``extra`` override the defaults (the last one wins). When
        the server does not start: the test fails, or StartError when not
        ``required``."""
        binary = os.environ.get("MOREAUD_BIN")
        if not binary or not Path(binary).is_file():
            pytest.fail("set MOREAUD_BIN to the moreaud binary (ctest does)")
        self.process = subprocess.Popen(
            [binary, "--host", "127.0.0.1", "--port", "0", "--metrics-port", "-1", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        match = _LISTENING.search(line)
        if not match:
            self.process.kill()
            self.process.wait(timeout=30)
            if not required:
                raise StartError(f"moreaud did not start: {line!r}")
            pytest.fail(f"moreaud did not start: {line!r}")
        self.host = match.group(1)
        self.port = int(match.group(2))
        self.address = f"{self.host}:{self.port}"
        metrics = _METRICS.search(line)
        self.metrics_port = int(metrics.group(1)) if metrics else None

    def stop(self) -> None:
        """Kills the server (as a crash would)."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=30)

    def pause(self) -> None:
        """Freezes the server (SIGSTOP): it accepts nothing, answers nothing.

        Returns once the kernel reports the process stopped: on a loaded machine
        the signal can take effect after a request sent right after it.
        """
        self.process.send_signal(signal.SIGSTOP)
        deadline = time.monotonic() + 5.0
        tasks = f"/proc/{self.process.pid}/task"
        while time.monotonic() < deadline:
            states = []
            for task in os.listdir(tasks):
                with open(f"{tasks}/{task}/stat") as stat:
                    # Field 3, after the parenthesised command name: the state.
                    states.append(stat.read().rsplit(")", 1)[1].split()[0])
            if all(state == "T" for state in states):
                return
            time.sleep(0.001)
        raise RuntimeError(f"moreaud (pid {self.process.pid}) did not stop after SIGSTOP")

    def resume(self) -> None:
        self.process.send_signal(signal.SIGCONT)


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    s = Server()
    yield s
    s.stop()


@pytest.fixture(scope="session")
def address(server: Server) -> str:
    return server.address


@pytest.fixture
def fresh_servers() -> Iterator[list[Server]]:
    """Two servers of the test's own (it may stop them)."""
    servers = [Server(), Server()]
    yield servers
    for s in servers:
        s.resume()
        s.stop()


def start_replicas(count: int = 3, attempts: int = 5) -> list[Server]:
    """``count`` servers on 127.0.0.1, 127.0.0.2, … sharing one port (as the
    pods behind a headless Service do), metrics on, one worker each. The
    port is the one the first server was given; when it is taken on another
    address, all start again on a new one (``attempts`` times at most)."""
    for _ in range(attempts):
        first = Server("--metrics-port", "0", "--workers", "1")
        servers = [first]
        try:
            for k in range(2, count + 1):
                servers.append(Server("--host", f"127.0.0.{k}", "--port", str(first.port),
                                      "--metrics-port", "0", "--workers", "1", required=False))
            return servers
        except StartError:
            for s in servers:
                s.stop()
    pytest.fail(f"could not start {count} moreaud on one port in {attempts} attempts")


@pytest.fixture
def replicas() -> Iterator[list[Server]]:
    """Three servers of the test's own on 127.0.0.1-3, one port (it may kill them)."""
    servers = start_replicas(3)
    yield servers
    for s in servers:
        s.stop()


@pytest.fixture(scope="session")
def ur10_urdf() -> Path:
    repo = Path(__file__).resolve().parents[2]
    path = Path(os.environ.get("MOREAU_MODELS_DIR", repo / "models")) / "ur10" / "ur10_robot.urdf"
    if not path.is_file():
        pytest.fail(f"no UR10 URDF at {path}; set MOREAU_MODELS_DIR")
    return path


@pytest.fixture(scope="session")
def local_server() -> Iterator["moreau.LocalServer"]:
    """The in-process engine, two workers (as the servers' default here)."""
    import moreau
    server = moreau.LocalServer(workers=2)
    yield server
    server.close()
