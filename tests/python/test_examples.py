"""The examples run (briefly) against a real moreaud."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(os.environ.get("MOREAU_EXAMPLES",
                               Path(__file__).resolve().parents[2] / "examples"))


def run(script: str, *args: str) -> str:
    result = subprocess.run([sys.executable, str(EXAMPLES / script), *args],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_random_rollout(address: str) -> None:
    out = run("random_rollout.py", "--servers", address, "--num-envs", "4", "--steps", "10",
              "--warmup", "2", "--json")
    result = json.loads(out)
    assert result["env_steps"] == 40 and result["env_steps_per_s"] > 0
    assert result["substeps"] == 20


def test_random_rollout_in_groups(address: str) -> None:
    # Three groups of envs in flight (send/recv): recv returns the oldest
    # send, so the groups take turns and the clock, started once every group
    # has done its 2 warm-up steps, counts exactly 10 steps of each env.
    out = run("random_rollout.py", "--servers", address, "--num-envs", "5", "--steps", "10",
              "--warmup", "2", "--groups", "3", "--json")
    result = json.loads(out)
    assert result["groups"] == 3 and result["env_steps_per_s"] > 0
    assert result["env_steps"] == 50


def test_trot(address: str) -> None:
    out = run("trot_mini_cheetah.py", "--server", address, "--seconds", "1")
    assert "forward velocity" in out


def test_plot(address: str, tmp_path: Path) -> None:
    png = tmp_path / "trot.png"
    run("plot_trot.py", "--server", address, "--seconds", "0.5", "--out", str(png))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
