"""Shared fixture of the Python integration tests: a real moreaud on a free
loopback port, stopped with SIGTERM (which must exit 0)."""
import os
import re
import subprocess

import pytest


@pytest.fixture(scope="module")
def address():
    proc = subprocess.Popen(
        [os.environ["MOREAUD_BIN"], "--host", "127.0.0.1", "--port", "0", "--metrics-port", "-1",
         "--drain-delay-s", "0"],
        stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    match = re.search(r"listening on ([\d.]+:\d+)", line)
    assert match, f"unexpected first line: {line!r}"
    yield match.group(1)
    proc.terminate()
    assert proc.wait(timeout=30) == 0
