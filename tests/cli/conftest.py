"""Fixtures for the `moreau` command tests.

ctest passes the binary and the robot files folder by environment:
  MOREAU_BIN            path of the built `moreau` executable
  MOREAU_MODELS_DIR     the third-party robot descriptions (default: models/)
Run by hand from the repository root with, e.g.,
  MOREAU_BIN=build/clients/cli/moreau /usr/bin/python3 -m pytest -p no:cacheprovider tests/cli
"""

import json
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


class Moreau:
    """Runs the `moreau` binary."""

    def __init__(self, binary):
        self.binary = str(binary)

    def run(self, *args, timeout=60):
        """Runs `moreau args…`; returns the CompletedProcess (text decoded as UTF-8)."""
        result = subprocess.run(
            [self.binary, *map(str, args)],
            capture_output=True,
            timeout=timeout,
            check=False,
        )
        # Strict decoding: the command must always write valid UTF-8.
        result.stdout = result.stdout.decode("utf-8")
        result.stderr = result.stderr.decode("utf-8")
        return result

    def ok(self, *args):
        """Runs a command that must succeed; returns its CompletedProcess."""
        result = self.run(*args)
        assert result.returncode == 0, (
            f"moreau {' '.join(map(str, args))} exited {result.returncode}:\n{result.stderr}"
        )
        return result

    def json(self, *args):
        """Runs `moreau args… --json`, which must succeed; returns the parsed report."""
        return json.loads(self.ok(*args, "--json").stdout)

    def fails(self, *args, exit_code=1):
        """Runs a command that must fail with `exit_code` and exactly one error line.

        Returns the error message (after "moreau: error: ").
        """
        result = self.run(*args)
        assert result.returncode == exit_code, (
            f"moreau {' '.join(map(str, args))} exited {result.returncode}, "
            f"expected {exit_code}:\nstdout: {result.stdout[:500]}\nstderr: {result.stderr}"
        )
        lines = result.stderr.splitlines()
        assert len(lines) == 1, f"expected one stderr line, got {lines!r}"
        prefix = "moreau: error: "
        assert lines[0].startswith(prefix), lines[0]
        assert result.stdout == "", "a failing command must print no report"
        return lines[0][len(prefix):]


@pytest.fixture(scope="session")
def moreau():
    binary = pathlib.Path(
        os.environ.get("MOREAU_BIN", REPO / "build" / "clients" / "cli" / "moreau")
    )
    if not binary.is_file():
        pytest.fail(f"moreau binary not found at {binary}; build it or set MOREAU_BIN")
    return Moreau(binary)


@pytest.fixture(scope="session")
def models_dir():
    folder = pathlib.Path(
        os.environ.get("MOREAU_MODELS_DIR", REPO / "models")
    )
    if not folder.is_dir():
        pytest.fail(f"robot files folder not found at {folder}; set MOREAU_MODELS_DIR")
    return folder
