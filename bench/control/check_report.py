#!/usr/bin/python3
"""Smoke test of moreau_control_bench: one short search, JSON fields present;
a short trot with its stance measures and --trot_log.

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

    # The trot's stance measures and the per-step log (1.5 s at 10 ms steps).
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "trot.json")
        log = os.path.join(tmp, "trot.csv")
        args = [binary, "--scenarios=trot", "--modes=id-constraint", "--duration=1.5",
                "--dt_start=0.01", "--dt_max=0.01", "--bisections=0", "--repeats=1",
                f"--json={out}", f"--trot_log={log}"]
        proc = subprocess.run(args, capture_output=True, text=True, timeout=50)
        if proc.returncode != 0:
            print(proc.stderr)
            return 1
        with open(out) as f:
            trot = json.load(f)["results"][0]
        with open(log) as f:
            lines = f.read().splitlines()
    for key in ("stances", "slip_max_m", "slip_median_m", "slip_p90_m",
                "stance_displacement_max_m", "contact_closures_per_stance_mean",
                "contact_closures_per_stance_max", "closed_segments", "segment_slip_max_m"):
        assert key in trot, key
    assert trot["stances"] >= 1, trot
    # In-contact travel is part of the displacement from the first touchdown.
    assert trot["slip_max_m"] <= trot["stance_displacement_max_m"] + 1e-12, trot
    assert trot["closed_segments"] >= trot["stances"], trot
    header = lines[0].split(",")
    assert header[:3] == ["t", "foot", "psi"], header
    assert len(lines) == 1 + 4 * 150, len(lines)  # 150 steps × 4 feet
    assert all(len(line.split(",")) == len(header) for line in lines[1:])
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
