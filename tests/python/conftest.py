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


class Server:
    """A moreaud child process."""

    def __init__(self, *extra: str) -> None:
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
            pytest.fail(f"moreaud did not start: {line!r}")
        self.address = f"{match.group(1)}:{match.group(2)}"

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


@pytest.fixture(scope="session")
def ur10_urdf() -> Path:
    repo = Path(__file__).resolve().parents[2]
    path = Path(os.environ.get("MOREAU_MODELS_DIR", repo / "models")) / "ur10" / "ur10_robot.urdf"
    if not path.is_file():
        pytest.fail(f"no UR10 URDF at {path}; set MOREAU_MODELS_DIR")
    return path
