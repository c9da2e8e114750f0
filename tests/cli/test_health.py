"""`moreau remote health` against a real moreaud: exit 0 and SERVING while it
serves; exit 1 with one clear line when it is draining (SIGTERM with
--drain-delay-s), unreachable, silent past --timeout-s, or asked about a
service it does not have.

moreaud comes by environment, MOREAUD_BIN (default build/server/moreaud).
"""

import os
import pathlib
import re
import signal
import socket
import subprocess
import time

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def start_moreaud(*flags):
    """A moreaud on a free loopback port; returns (process, address)."""
    binary = pathlib.Path(
        os.environ.get("MOREAUD_BIN", REPO / "build" / "server" / "moreaud"))
    if not binary.is_file():
        pytest.fail(f"moreaud binary not found at {binary}; build it or set MOREAUD_BIN")
    proc = subprocess.Popen(
        [str(binary), "--host", "127.0.0.1", "--port", "0", "--metrics-port", "-1", *flags],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    match = re.search(r"listening on ([\d.]+:\d+)", line)
    if not match:
        proc.kill()
        proc.wait(timeout=10)
        pytest.fail(f"moreaud did not start: {line!r}")
    return proc, match.group(1)


@pytest.fixture(scope="module")
def address():
    proc, addr = start_moreaud("--drain-delay-s", "0")
    yield addr
    proc.terminate()
    assert proc.wait(timeout=30) == 0


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serving_server_exits_0(moreau, address):
    assert moreau.ok("remote", "health", "--address", address).stdout == "SERVING\n"
    assert moreau.ok("remote", "health", "moreau.v1.Simulator",
                     "--address", address).stdout == "SERVING\n"
    report = moreau.json("remote", "health", "--address", address)
    assert report == {"address": address, "service": "", "status": "SERVING"}


def test_address_comes_from_the_environment_without_the_flag(moreau, address):
    environment = dict(os.environ, MOREAU_ADDRESS=address)
    result = subprocess.run([moreau.binary, "remote", "health"], env=environment,
                            capture_output=True, text=True, timeout=60, check=False)
    assert (result.returncode, result.stdout) == (0, "SERVING\n"), result.stderr
    # --address wins over the variable.
    unreachable = f"127.0.0.1:{free_port()}"
    result = subprocess.run([moreau.binary, "remote", "health", "--address", unreachable],
                            env=environment, capture_output=True, text=True, timeout=60,
                            check=False)
    assert result.returncode == 1 and unreachable in result.stderr


def test_unknown_service_is_an_error(moreau, address):
    message = moreau.fails("remote", "health", "no.such.Service", "--address", address)
    assert message == (f"moreaud at {address}: the health service knows no service "
                       "no.such.Service")


def test_unreachable_server_is_an_error(moreau):
    address = f"127.0.0.1:{free_port()}"
    message = moreau.fails("remote", "health", "--address", address)
    assert message.startswith(f"moreaud at {address} is unreachable: "), message


def test_silent_server_runs_into_the_deadline(moreau):
    # A socket that accepts connections and never answers them.
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        address = "127.0.0.1:%d" % silent.getsockname()[1]
        started = time.monotonic()
        message = moreau.fails("remote", "health", "--address", address, "--timeout-s", "0.5")
        assert time.monotonic() - started < 20
    assert message == f"moreaud at {address}: no health answer within 0.5 s"


def test_timeout_must_be_positive(moreau, address):
    message = moreau.fails("remote", "health", "--address", address, "--timeout-s", "0")
    assert "--timeout-s must be > 0" in message


def test_draining_server_reports_not_serving(moreau):
    proc, address = start_moreaud("--drain-delay-s", "30")
    try:
        moreau.ok("remote", "health", "--address", address)
        proc.send_signal(signal.SIGTERM)
        # The health service turns NOT_SERVING as soon as the signal is taken.
        deadline = time.monotonic() + 10
        result = moreau.run("remote", "health", "--address", address)
        while result.returncode == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
            result = moreau.run("remote", "health", "--address", address)
        assert result.returncode == 1, result.stdout
        assert result.stdout == ""
        assert result.stderr == (f"moreau: error: moreaud at {address}: the server is "
                                 "NOT_SERVING (draining or stopping: send calls to another "
                                 "replica)\n")
        # Calls are still served while it drains.
        assert "pendulum" in moreau.ok("remote", "list", "--address", address).stdout
        # A second SIGTERM ends the delay.
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
