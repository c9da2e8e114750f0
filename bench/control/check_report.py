#!/usr/bin/python3
"""Smoke test of moreau_control_bench: one short search, JSON fields present.

Usage: check_report.py PATH/TO/moreau_control_bench
"""
import json
import os
import subprocess
import sys
import tempfile


def main() -> int:
    binary = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "report.json")
        args = [binary, "--scenarios=ur10", "--modes=pd,no-such-mode", "--duration=0.2",
                "--dt_max=0.004", "--bisections=1", "--repeats=2", f"--json={out}"]
        proc = subprocess.run(args, capture_output=True, text=True, timeout=50)
        if proc.returncode != 0:
            print(proc.stderr)
            return 1
        with open(out) as f:
            report = json.load(f)
    for key in ("duration_s", "dt_start_s", "dt_max_s", "error_threshold_rad", "scenarios",
                "results"):
        assert key in report, key
    assert report["duration_s"] == 0.2
    ur10 = report["scenarios"]["ur10"]
    for key in ("amplitude_rad", "frequency_hz", "center_rad", "phase_rad", "kp", "kd"):
        assert key in ur10, key
    assert len(ur10["center_rad"]) == 6
    results = {r["mode"]: r for r in report["results"]}
    assert set(results) == {"pd", "no-such-mode"}, results.keys()
    bad = results["no-such-mode"]
    assert "no-such-mode" in bad["error"], bad
    assert "max_stable_dt_s" not in bad
    pd = results["pd"]
    assert "error" not in pd, pd
    for key in ("max_stable_dt_s", "tracking_mae_rad", "wall_s_median", "wall_s_runs",
                "steps_per_s", "realtime_factor", "search"):
        assert key in pd, key
    assert 0.0 < pd["max_stable_dt_s"] <= 0.004
    assert len(pd["wall_s_runs"]) == 2
    assert pd["tracking_mae_rad"] < report["error_threshold_rad"]
    # The search starts at dt_start and the reported step is one it found stable.
    assert pd["search"][0]["dt_s"] == report["dt_start_s"]
    stable = [s["dt_s"] for s in pd["search"] if s["stable"]]
    assert pd["max_stable_dt_s"] == max(stable)
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
