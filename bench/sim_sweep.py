#!/usr/bin/python3
"""Runs `moreau sim` over the configurations of one benchmark area and prints
one JSON object per configuration (one line each); progress goes to stderr.

    bench/sim_sweep.py AREA --moreau build/clients/cli/moreau [--quick] [--repeats N]

Areas:
  steps       the trotting Mini Cheetah, every contact model at Δt 0.1, 1 and
              2.5 ms: steps/s (each run's), realtime factor, outcome, final x
  max_dt      the same trot over an ascending Δt sweep, stopping at the first
              Δt where the robot falls or the simulation diverges
  stand_slip  the standing Mini Cheetah on hertz (every integrator, two Δt)
              and on hard contact: the largest foot slip and penetration
  a1          the Unitree A1 trotting with and without --weight-feedforward
  ladder      every quadruped of the repository, standing and trotting, with
              every contact model: the largest Δt of an ascending sweep at
              which the robot holds the whole run (stopping at the first that
              falls or diverges)
  ab          the Mini Cheetah standing and trotting at Δt 1 ms with every
              contact model, each run paired with the same run of --baseline
              (another build of `moreau`, in ABBA order): steps/s of both,
              their ratios, and whether the final poses agree

--quick runs 0.5 s of simulated time, one repeat and a few configurations.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

# (label, extra `moreau sim` flags) of every contact configuration.
HERTZ_IMPLICIT = ["--contact", "hertz", "--contact-param", "implicit_friction=1"]
CONTACTS = [
    ("moreau-jor", ["--contact", "moreau-jor"]),
    ("moreau-sor", ["--contact", "moreau-sor"]),
    ("spring-damper", ["--contact", "spring-damper"]),
    ("hertz (euler)", ["--contact", "hertz"]),
    ("hertz (heun)", ["--contact", "hertz", "--integrator", "heun"]),
    ("hertz implicit friction (euler)", HERTZ_IMPLICIT),
    ("hertz implicit friction (heun)", HERTZ_IMPLICIT + ["--integrator", "heun"]),
    ("micro", ["--contact", "micro"]),
    ("least-constraint", ["--contact", "least-constraint"]),
    ("micro-macro", ["--contact", "micro-macro"]),
]
QUICK_CONTACTS = ("moreau-sor", "spring-damper")
MAX_DT_MS = [0.1, 1, 1.5, 2, 2.5, 3, 3.25, 3.5, 4]
# The quadrupeds of the repository (name or URDF path for `moreau sim`).
QUADRUPEDS = [("mini_cheetah", "mini_cheetah"), ("unitree_a1", "models/unitree_a1/a1.urdf")]
LADDER_MS = [0.25, 0.5, 1, 1.5, 2, 2.5, 3, 4, 5]
A1_URDF = "models/unitree_a1/a1.urdf"
A1_CASES = [("spring-damper", 1.25e-3), ("hertz (heun)", 1e-4), ("micro", 1e-3),
            ("moreau-jor", 2.5e-3), ("moreau-sor", 2.5e-3), ("moreau-jor", 1e-3),
            ("least-constraint", 1e-3), ("micro-macro", 1e-3)]
STAND_CASES = [("hertz", "heun", 1e-4, []), ("hertz", "heun", 5e-5, []),
               ("hertz", "euler", 1e-4, []), ("hertz", "euler", 5e-5, []),
               ("hertz", "rk4", 1e-4, []),
               ("hertz implicit friction", "heun", 1e-4, ["--contact-param", "implicit_friction=1"]),
               ("moreau-sor", "—", 1e-3, [])]


def run_sim(args: argparse.Namespace, model: str, flags: list[str],
            binary: str | None = None) -> dict:
    """One `moreau sim ... --json` run; a diverged run (exit 1) still reports."""
    cmd = [binary or args.moreau, "sim", model, "--duration", str(args.duration), "--json", *flags]
    if args.pin is not None:
        cmd = ["taskset", "-c", str(args.pin), *cmd]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    try:
        result = json.loads(proc.stdout)
    except json.JSONDecodeError:
        sys.exit(f"sim_sweep: {' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr}")
    return result


def outcome(r: dict) -> str:
    return "diverged" if r["diverged"] else "fell" if r["fell"] else "upright"


def contacts(args: argparse.Namespace) -> list[tuple[str, list[str]]]:
    return [c for c in CONTACTS if not args.quick or c[0] in QUICK_CONTACTS]


def emit(row: dict) -> None:
    print(json.dumps(row), flush=True)


def area_steps(args: argparse.Namespace) -> None:
    for dt in ([1e-3] if args.quick else [1e-3, 2.5e-3]):
        for label, flags in contacts(args):
            runs = [run_sim(args, "mini_cheetah", ["--controller", "trot", "--dt", str(dt), *flags])
                    for _ in range(args.repeats)]
            rates = [r["steps_per_s"] for r in runs]
            last = runs[-1]
            emit({"contact": label, "dt": dt, "steps_per_s": rates,
                  "realtime_factor": statistics.median(r["realtime_factor"] for r in runs),
                  "outcome": outcome(last), "final_x": last["final_base_pose"][0]})


def area_max_dt(args: argparse.Namespace) -> None:
    sweep = [1, 4] if args.quick else MAX_DT_MS
    for label, flags in contacts(args):
        largest, failed = None, None
        for ms in sweep:
            r = run_sim(args, "mini_cheetah", ["--controller", "trot", "--dt", str(ms * 1e-3),
                                               *flags])
            if outcome(r) != "upright":
                failed = {"dt": ms * 1e-3, "outcome": outcome(r)}
                break
            largest = {"dt": ms * 1e-3, "final_x": r["final_base_pose"][0],
                       "final_y": r["final_base_pose"][1]}
        emit({"contact": label, "tried_dt": [ms * 1e-3 for ms in sweep], "largest": largest,
              "first_failure": failed})


def largest_holding_dt(args: argparse.Namespace, model: str, flags: list[str],
                       sweep_ms: list[float]) -> dict:
    """The largest Δt of the ascending sweep before the first run that does not
    stay upright, and that first failure."""
    largest, failed = None, None
    for ms in sweep_ms:
        r = run_sim(args, model, [*flags, "--dt", str(ms * 1e-3)])
        if outcome(r) != "upright":
            failed = {"dt": ms * 1e-3, "outcome": outcome(r)}
            break
        largest = ms * 1e-3
    return {"largest": largest, "first_failure": failed}


def area_ladder(args: argparse.Namespace) -> None:
    sweep = [1, 2.5] if args.quick else LADDER_MS
    robots = QUADRUPEDS[:1] if args.quick else QUADRUPEDS
    for robot, model in robots:
        for label, flags in contacts(args):
            row = {"robot": robot, "contact": label, "tried_dt": [ms * 1e-3 for ms in sweep]}
            for controller in ("stand", "trot"):
                row[controller] = largest_holding_dt(
                    args, model, ["--controller", controller, *flags], sweep)
            emit(row)


def area_stand_slip(args: argparse.Namespace) -> None:
    cases = STAND_CASES[:1] + STAND_CASES[-1:] if args.quick else STAND_CASES
    for label, integrator, dt, extra in cases:
        contact = label.split(" ")[0]
        flags = ["--controller", "stand", "--contact", contact, "--dt", str(dt), *extra]
        if integrator != "—":
            flags += ["--integrator", integrator]
        r = run_sim(args, "mini_cheetah", flags)
        emit({"contact": label, "integrator": integrator, "dt": dt,
              "max_foot_slip_m": r["max_foot_slip_m"], "max_penetration_m": r["max_penetration_m"],
              "outcome": outcome(r)})


def area_a1(args: argparse.Namespace) -> None:
    flags_of = dict(CONTACTS)
    cases = A1_CASES[:1] if args.quick else A1_CASES
    for label, dt in cases:
        row = {"contact": label, "dt": dt}
        for key, extra in (("feedforward", ["--weight-feedforward"]), ("pd_only", [])):
            # 001's gains: the derived tuning always feeds the weight forward.
            r = run_sim(args, A1_URDF, ["--controller", "trot", "--tuning", "paper-001", "--dt",
                                        str(dt), *flags_of[label], *extra])
            row[key] = {"outcome": outcome(r), "final_x": r["final_base_pose"][0]}
        emit(row)


# The contact models of the A/B area, spelled as every release of the CLI
# accepts them (--contact).
AB_CONTACTS = ["spring-damper", "hertz", "micro", "moreau-jor", "moreau-sor", "least-constraint",
               "micro-macro"]


def area_ab(args: argparse.Namespace) -> None:
    if args.baseline is None:
        sys.exit("sim_sweep ab: give --baseline BINARY (the `moreau` to compare against)")
    contacts_ab = AB_CONTACTS[:2] if args.quick else [c for c in AB_CONTACTS if not args.contacts or c in args.contacts.split(",")]
    for controller in ("stand", "trot"):
        for contact in contacts_ab:
            flags = ["--controller", controller, "--contact", contact, "--dt", "0.001"]
            new, base, same = [], [], True
            for i in range(args.repeats):
                # ABBA: each binary runs first in half of the pairs.
                order = (args.moreau, args.baseline) if i % 2 == 0 else (args.baseline, args.moreau)
                runs = {b: run_sim(args, "mini_cheetah", flags, binary=b) for b in order}
                new.append(runs[args.moreau]["steps_per_s"])
                base.append(runs[args.baseline]["steps_per_s"])
                same &= (runs[args.moreau]["final_base_pose"] ==
                         runs[args.baseline]["final_base_pose"])
            emit({"controller": controller, "contact": contact, "steps_per_s": new,
                  "baseline_steps_per_s": base, "ratios": [n / b for n, b in zip(new, base)],
                  "same_final_pose": same})


AREAS = {"ab": area_ab, "steps": area_steps, "max_dt": area_max_dt, "ladder": area_ladder,
         "stand_slip": area_stand_slip, "a1": area_a1}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("area", choices=sorted(AREAS))
    parser.add_argument("--moreau", default="build/clients/cli/moreau")
    parser.add_argument("--baseline", default=None,
                        help="ab: the `moreau` binary to compare against")
    parser.add_argument("--contacts", default="",
                        help="ab: only these contact models (comma-separated)")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--duration", type=float, default=None,
                        help="simulated seconds per run (default 10, --quick 0.5)")
    parser.add_argument("--repeats", type=int, default=None,
                        help="steps, ab: runs (ab: pairs) per configuration (default 5, --quick 1)")
    parser.add_argument("--pin", type=int, default=None,
                        help="run every simulation under taskset -c PIN")
    args = parser.parse_args()
    if args.duration is None:
        args.duration = 0.5 if args.quick else 10.0
    if args.repeats is None:
        args.repeats = 1 if args.quick else 5
    if args.pin is not None and shutil.which("taskset") is None:
        args.pin = None
    args.moreau = os.path.abspath(args.moreau)
    if args.baseline is not None:
        args.baseline = os.path.abspath(args.baseline)
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    start = time.monotonic()
    AREAS[args.area](args)
    print(f"sim_sweep {args.area}: {time.monotonic() - start:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
