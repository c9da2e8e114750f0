"""moreau_loadgen (bench/service) against a real moreaud: every mode runs and
reports what BENCHMARKS.md quotes; a bad mode is a clear error. Counts are
tiny: this checks that the benchmark still works, not how fast it is."""
import json
import os
import subprocess

import pytest

LOADGEN = os.environ["MOREAU_LOADGEN_BIN"]


def loadgen(*args):
    return subprocess.run([LOADGEN, *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("mode", ["bare", "health", "floor", "unary", "session"])
def test_round_trip_modes_report_latency(address, mode):
    result = loadgen("--address", address, "--mode", mode, "--calls", "40", "--substeps", "1",
                     "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["mode"] == mode
    assert report["calls"] == 40
    assert 0 < report["p50_us"] <= report["p99_us"]
    assert report["calls_per_s"] > 0


@pytest.mark.parametrize("mode,packed", [("batch", "true"), ("batch", "false"),
                                         ("inprocess", "true")])
def test_throughput_modes_report_steps(address, mode, packed):
    result = loadgen("--address", address, "--mode", mode, "--instances", "4", "--substeps", "2",
                     "--duration_s", "0.3", "--threads", "1", f"--packed={packed}", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["mode"] == mode and report["instances"] == 4
    # Both are printed rounded to whole steps/s.
    assert report["steps_per_s"] == pytest.approx(2 * report["env_steps_per_s"], abs=2)
    assert report["env_steps_per_s"] > 0


def test_unknown_mode_is_named(address):
    result = loadgen("--address", address, "--mode", "warp")
    assert result.returncode != 0
    assert "warp" in result.stderr and "health" in result.stderr


def test_inprocess_rounds_time_that_many_rounds_after_the_warmup(address):
    result = loadgen("--mode", "inprocess", "--instances", "4", "--substeps", "1000",
                     "--threads", "2", "--warmup_rounds", "2", "--rounds", "5", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    # 4 instances × 5 rounds timed (wall_s is printed to the ms).
    assert report["env_steps_per_s"] * report["wall_s"] == pytest.approx(20, rel=0.1)
