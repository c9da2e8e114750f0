#!/usr/bin/python3
"""Turns the raw outputs of one benchmark area (bench/run_all.sh writes them to
a folder per area) into that area's BENCHMARKS.md section, keeps a section of
an earlier BENCHMARKS.md, and checks a generated file's structure.

    format_benchmarks.py section AREA RAW_DIR --command C --machine M --commit C --date D
    format_benchmarks.py keep AREA OLD_BENCHMARKS.md --note TEXT
    format_benchmarks.py check BENCHMARKS.md [--areas a,b]

A section is `## Title`, the marker `<!-- area: AREA -->`, an intro, the lines
`Command:`, `Machine:`, `Commit:` (commit and date) and its tables. Every figure
in a table is read from RAW_DIR; nothing is filled in by hand.
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import os
import re
import statistics
import sys

TITLES = {
    "engine": "Rigid-body algorithms and steps",
    "steps": "Simulation steps per contact model",
    "ab": "Simulation steps against a baseline commit",
    "max_dt": "Largest time step of an upright trot",
    "ladder": "Which Δt to pick: every quadruped, stand and trot",
    "stand_slip": "Hertz: a standing robot's foot slip",
    "a1": "The Unitree A1 trot with weight feed-forward",
    "chains": "Closed chains and the box-footed biped",
    "control": "Paper 002's experiments: control modes and transmissions",
    "service": "The service, moreaud",
    "viewers": "Dashboard viewers",
    "python": "Python client",
    "container": "The container image",
    "vs_mujoco": "Moreau against MuJoCo",
    "soak": "Robustness: the soak and chaos test",
    "fuzz": "Fuzzing",
}

INTROS = {
    "engine": "One call of each algorithm from scratch at a random state (a pool of 64 states "
              "cycled), kinematics included; mini_cheetah and unitree_a1 have 13 bodies and "
              "nv = 18. Then one step of the trotting Mini Cheetah (Δt 1 ms, trot controller "
              "included) per scheme. Median CPU time per call (Google Benchmark).",
    "steps": "The Mini Cheetah trotting for 10 s (`--controller trot`, 0.5 m/s after 0.5 s) "
             "with each contact model; steps/s of the stepping loop (controller included), "
             "median and range over the runs (the realtime factor is steps/s × Δt). \"fell\": base below 1/3 of its start height or "
             "tilted over 60°; \"diverged\": stopped with the divergence error.",
    "ab": "The Mini Cheetah standing and trotting 60 s at Δt 1 ms, each contact model, each "
          "run paired with the baseline commit's (ABBA, one process at a time): median steps/s "
          "and the median of the pairs' ratios, this commit / baseline. \"same pose\": every "
          "pair ended at the same final base pose.",
    "max_dt": "The same trot over an ascending sweep of Δt, stopping at the first that falls "
              "or diverges. Deterministic.",
    "ladder": "Every quadruped standing and trotting (`--controller stand`, `trot`) 10 s per "
              "contact model, Δt ascending: the largest Δt that holds (upright, not diverged) "
              "and the first that fails. Deterministic.",
    "stand_slip": "The Mini Cheetah standing 10 s (`--controller stand`): a foot's largest "
                  "travel since its touchdown (landing included) and the deepest penetration.",
    "a1": "The A1 (`models/unitree_a1/a1.urdf`) trotting 10 s with 001's gains "
          "(`--tuning paper-001`), with and without `--weight-feedforward`.",
    "chains": "`four_bar` (a parallelogram closed by a revolute cut joint) released from "
              "θ = 0.6 rad for 10 s, against the reduced pendulum (RK4) and Freudenstein's "
              "relation; `biped` (box feet, four corner contacts each) dropped 5 cm, standing "
              "1.5 s at Δt 1 ms.",
    "control": "Paper 002 §IV: per scenario and control mode the largest stable Δt (doubling "
               "from 1 ms up to the 100 ms cap, then bisections), and there the tracking error "
               "(mean absolute joint error) and the wall time of 5 s simulated (median). Then "
               "the velocity trot's stance-foot slip at Δt 10 ms (bench/control/stance_slip.h). "
               "The trot under `id-constraint` is the velocity trot, its error against its own "
               "targets.",
    "service": "`moreau_loadgen` (C++, loopback) against `moreaud` on the same "
               "machine; every mode: mini_cheetah, `pd` holding its default pose, contact "
               "`moreau-sor`, Δt 1 ms. The in-process reference: `Simulation::StepAction`, no "
               "gRPC.",
    "viewers": "Chromium pages each watch a trotting Mini Cheetah (30 Hz) "
               "that a client steps flat out, against none. `moreaud --workers 1` alone on core "
               "1 (nice -20), the rest on core 0 (browsers run on viewers' machines). ABBA.",
    "python": "`examples/random_rollout.py --policy zero` (`walk`: 20 sub-steps of 1 ms per "
              "env-step) as a Python `VectorEnv` on `moreaud --workers 2` (remote) and on "
              "`moreau.LocalServer(workers=2)` (in process), and the same physics in C++ "
              "(PD to the task's standing pose, no observations); env-steps/s, medians of the "
              "rounds.",
    "container": "`localhost/moreau:latest` built by podman from the `Dockerfile` with no layer "
                 "cache and no compiler cache (its base made by debootstrap when no registry "
                 "answers); its size above `debian:bookworm-slim`. Then the Python rollout of "
                 "the python area (`--policy zero`, the `walk` task) against `moreaud --workers "
                 "2` in the container (`--network=host`) and against the same moreaud on the "
                 "host, in ABBA order; median env-steps/s.",
    "vs_mujoco": "One program runs the Unitree A1 URDF in both engines (MuJoCo 2.2.2) under "
                 "the same Moreau controllers, same Δt and steps, one thread: stand, trot and "
                 "limp (zero torque from standing), 10 s each, colliding the feet alone, then "
                 "every collision geom (`all`) in both engines. The tables are the program's "
                 "own markdown.",
    "soak": "8 client processes × 32 Mini Cheetah instances against one moreaud on "
            "127.0.0.1: every RPC, streams cancelled part-way, about 15 % hostile requests, a "
            "client SIGKILLed about every 5 s.",
    "fuzz": "libFuzzer with ASan and UBSan (the `build-fuzz/` tree of `bash scripts/test.sh`), "
            "`-timeout=1 -detect_leaks=1`, each target from its seeds in `tests/fuzz/corpus/`. "
            "Every input a target ever found is replayed by ctest from "
            "`tests/fuzz/regressions/TARGET/`.",
}


def num(x: float, digits: int = 0) -> str:
    """A number with a space every three digits (12 345, 1 234.5)."""
    s = f"{x:,.{digits}f}"
    return s.replace(",", " ")


def sig(x: float, digits: int = 2) -> str:
    """x to `digits` significant digits, scientific below 1e-3 and from 1e6."""
    if x == 0:
        return "0"
    if abs(x) < 1e-3 or abs(x) >= 1e6:
        return f"{x:.{digits - 1}e}"
    return f"{x:.{max(0, digits - 1 - math.floor(math.log10(abs(x))))}f}"


def ms(dt: float) -> str:
    return f"{dt * 1e3:g} ms"


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def read_jsonl(path: str) -> list[dict]:
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def read_json(path: str) -> dict:
    with open(path) as f:
        return json.load(f)


# ---- engine: Google Benchmark JSON --------------------------------------------------------------

DYNAMICS_ROWS = [("BM_ForwardKinematics", "forward kinematics (positions + velocities)"),
                 ("BM_Rnea", "RNEA (inverse dynamics)"), ("BM_Crba", "CRBA (mass matrix)"),
                 ("BM_Aba", "ABA (forward dynamics)"),
                 ("BM_ContactJacobians", "contact Jacobians (4 feet, incl. kinematics)"),
                 ("BM_FactorMassMatrix", "LᵀDL factor of M"),
                 ("BM_CrbaAndFactor", "CRBA + factor")]


def benchmark_medians(path: str) -> dict[str, float]:
    """run_name → median CPU time (ns): the median aggregate when the run has
    repetitions, else the median of its iteration entries."""
    data = read_json(path)
    per_run: dict[str, list[float]] = {}
    medians: dict[str, float] = {}
    for b in data["benchmarks"]:
        scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
        name = b.get("run_name", b["name"])
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                medians[name] = b["cpu_time"] * scale
        else:
            per_run.setdefault(name, []).append(b["cpu_time"] * scale)
    for name, times in per_run.items():
        medians.setdefault(name, statistics.median(times))
    return medians


def format_engine(raw: str) -> str:
    dyn = benchmark_medians(os.path.join(raw, "dynamics.json"))
    robots = ["mini_cheetah", "unitree_a1"]
    rows = []
    for key, label in DYNAMICS_ROWS:
        cells = [f"{num(dyn[f'{key}/{r}'])} ns" if f"{key}/{r}" in dyn else "—" for r in robots]
        rows.append([label, *cells])
    out = table(["algorithm", *robots], rows)
    step = benchmark_medians(os.path.join(raw, "step.json"))
    rows = []
    for name, t in step.items():
        scheme = name.split("/", 1)[1].replace("_", "-")
        rows.append([scheme, f"{num(t / 1e3, 2)} µs", num(1e9 / t)])
    out += "\n" + table(["step scheme (mini_cheetah trot, Δt 1 ms)", "per step", "steps/s"], rows)
    return out


# ---- moreau sim sweeps ----------------------------------------------------------------------------

def format_steps(raw: str) -> str:
    rows = []
    for r in read_jsonl(os.path.join(raw, "steps.jsonl")):
        rates = r["steps_per_s"]
        spread = f"{num(min(rates))}–{num(max(rates))}" if len(rates) > 1 else "—"
        x = "—" if r["outcome"] == "diverged" else f"{r['final_x']:.2f}"
        rows.append([r["contact"], ms(r["dt"]), num(statistics.median(rates)), spread,
                     r["outcome"], x])
    runs = len(read_jsonl(os.path.join(raw, "steps.jsonl"))[0]["steps_per_s"])
    return table(["contact", "Δt", f"steps/s (median of {runs})", "range", "outcome",
                  "final x (m)"], rows)


def format_ab(raw: str) -> str:
    rows = []
    for r in read_jsonl(os.path.join(raw, "ab.jsonl")):
        ratios = r["ratios"]
        rows.append([r["controller"], r["contact"], num(statistics.median(r["steps_per_s"])),
                     num(statistics.median(r["baseline_steps_per_s"])),
                     f"{statistics.median(ratios):.3f}",
                     f"{min(ratios):.3f}–{max(ratios):.3f}",
                     "yes" if r["same_final_pose"] else "no"])
    pairs = len(read_jsonl(os.path.join(raw, "ab.jsonl"))[0]["ratios"])
    return table(["controller", "contact", "steps/s", "baseline steps/s",
                  f"ratio (median of {pairs} pairs)", "range", "same pose"], rows)


def format_max_dt(raw: str) -> str:
    rows = []
    tried = None
    for r in read_jsonl(os.path.join(raw, "max_dt.jsonl")):
        tried = r["tried_dt"]
        largest = r["largest"]
        up = "none" if largest is None else \
            f"{ms(largest['dt'])} (x {largest['final_x']:.2f}, y {largest['final_y']:.2f} m)"
        fail = r["first_failure"]
        first = "none tried" if fail is None else f"{ms(fail['dt'])} ({fail['outcome']})"
        rows.append([r["contact"], up, first])
    note = "Δt tried: " + ", ".join(f"{t * 1e3:g}" for t in tried) + " ms.\n\n"
    return note + table(["contact", "largest upright Δt (final base x, y)", "first Δt that fails"],
                        rows)


def format_ladder(raw: str) -> str:
    def cell(c: dict) -> str:
        largest = "none" if c["largest"] is None else ms(c["largest"])
        fail = c["first_failure"]
        return largest + ("" if fail is None else f" ({fail['outcome']} at {ms(fail['dt'])})")

    rows, tried = [], []
    for r in read_jsonl(os.path.join(raw, "ladder.jsonl")):
        tried = r["tried_dt"]
        rows.append([r["robot"], r["contact"], cell(r["stand"]), cell(r["trot"])])
    note = "Δt tried: " + ", ".join(f"{t * 1e3:g}" for t in tried) + " ms.\n\n"
    return note + table(["robot", "contact", "stand: largest Δt", "trot: largest Δt"], rows)


def format_stand_slip(raw: str) -> str:
    rows = [[r["contact"], r["integrator"], ms(r["dt"]), f"{r['max_foot_slip_m'] * 1e3:.2f} mm",
             f"{r['max_penetration_m'] * 1e3:.2f} mm", r["outcome"]]
            for r in read_jsonl(os.path.join(raw, "stand_slip.jsonl"))]
    return table(["contact", "integrator", "Δt", "largest foot slip", "deepest penetration",
                  "outcome"], rows)


def format_a1(raw: str) -> str:
    def cell(c: dict) -> str:
        return f"{c['final_x']:.2f}" if c["outcome"] == "upright" else \
            f"{c['outcome']} (x {c['final_x']:.2f})"
    rows = [[r["contact"], ms(r["dt"]), cell(r["feedforward"]), cell(r["pd_only"])]
            for r in read_jsonl(os.path.join(raw, "a1.jsonl"))]
    return table(["contact", "Δt", "final x (m), with feed-forward", "final x (m), PD only"], rows)


# ---- chains: the tests' printed lines --------------------------------------------------------------

FOUR_BAR = re.compile(r"four_bar, (\S+)( \(tight prox\))?, dt (\S+ ms), 10 s: drift (\S+) m, "
                      r"(?:coupler angle \S+ rad, Freudenstein (\S+), )?θ error (\S+) rad, "
                      r"energy gain (\S+) J")
BIPED = re.compile(r"\[ measured \] biped (\S+): .*min normal force (\S+) N, flickers (\d+), "
                   r"band (\S+) N, variation (\S+) N/s, mean corner force (\S+) N, rest speed "
                   r"after landing (\S+) m/s, penetration (\S+) mm")


def format_chains(raw: str) -> str:
    rows = []
    with open(os.path.join(raw, "four_bar.txt")) as f:
        for m in FOUR_BAR.finditer(f.read()):
            solver = m.group(1) + (" (tight prox)" if m.group(2) else "")
            rows.append([solver, m.group(3), f"{m.group(4)} m", m.group(5) or "—",
                         f"{m.group(6)} rad", f"{m.group(7)} J"])
    out = table(["loop solver", "Δt", "loop drift (max)", "Freudenstein residual",
                 "crank angle vs reduced pendulum", "energy gain"], rows)
    rows = []
    with open(os.path.join(raw, "biped.txt")) as f:
        for m in BIPED.finditer(f.read()):
            # A negative rest speed: the test measured none for this model.
            rest = "—" if float(m.group(7)) < 0 else f"{float(m.group(7)):.2g} m/s"
            rows.append([m.group(1), f"{m.group(4)} N", f"{m.group(5)} N/s", m.group(3),
                         f"{m.group(2)} N", f"{m.group(8)} mm", rest, f"{m.group(6)} N"])
    out += "\n" + table(["biped contact model", "corner force band", "total variation",
                         "open/close switches", "min normal force", "penetration",
                         "rest speed after landing", "mean corner force"], rows)
    return out


# ---- control: moreau_control_bench JSON ------------------------------------------------------------

SCENARIO_NAMES = {"ur10": "UR10 sinusoid", "ur10_geared": "UR10 geared (N 100)",
                  "trot": "Mini Cheetah trot"}


def format_control(raw: str) -> str:
    report = read_json(os.path.join(raw, "search.json"))
    rows = []
    for r in report["results"]:
        name = SCENARIO_NAMES.get(r["scenario"], r["scenario"])
        if "max_stable_dt_s" not in r:
            rows.append([name, r["mode"], r.get("error", "no stable Δt"), "—", "—", "—"])
            continue
        cap = " (the cap)" if r["max_stable_dt_s"] >= report["dt_max_s"] else ""
        rows.append([name, f"`{r['mode']}`", f"{ms(r['max_stable_dt_s'])}{cap}",
                     f"{sig(r['tracking_mae_rad'])} rad", f"{sig(r['wall_s_median'] * 1e3)} ms",
                     num(r["steps_per_s"])])
    out = table(["scenario", "control", "largest stable Δt", "tracking error (MAE)",
                 f"wall time, {report['duration_s']:g} s simulated", "steps/s"], rows)
    slip = read_json(os.path.join(raw, "slip.json"))["results"][0]
    mm = lambda key: f"{slip[key] * 1e3:.2f} mm"  # noqa: E731
    out += (f"\nVelocity trot, `id-constraint`, Δt 10 ms: {slip['stances']} stances, "
            f"{slip['forward_distance_m']:.2f} m forward.\n\n")
    out += table(["stance measure", "median", "90th percentile", "max"], [
        ["slip (travel while in contact)", mm("slip_median_m"), mm("slip_p90_m"),
         mm("slip_max_m")],
        ["displacement from the first touchdown", mm("stance_displacement_median_m"),
         mm("stance_displacement_p90_m"), mm("stance_displacement_max_m")],
        [f"segment slip (from the last closure, {slip['closed_segments']} segments)", "—",
         mm("segment_slip_p90_m"), mm("segment_slip_max_m")],
        ["contact closures per stance", "—", "—",
         f"mean {slip['contact_closures_per_stance_mean']:.1f}, "
         f"max {slip['contact_closures_per_stance_max']}"],
    ])
    return out


# ---- service and python: moreau_loadgen / random_rollout.py JSON ------------------------------------

ROUND_TRIPS = [("floor", "floor: empty gRPC service (no Moreau code)"),
               ("bare", "bare unary call"), ("health", "gRPC health check"),
               ("unary", "unary `Step`"), ("session", "`Session` round trip")]


def span(values: list[float], unit: str) -> str:
    lo, hi = min(values), max(values)
    return f"{lo:.0f} {unit}" if round(lo) == round(hi) else f"{lo:.0f}–{hi:.0f} {unit}"


def format_service(raw: str) -> str:
    rows = []
    for mode, label in ROUND_TRIPS:
        runs = [read_json(p) for p in sorted(glob.glob(os.path.join(raw, f"rt_{mode}_*.json")))]
        if runs:
            p99 = span([r["p99_us"] for r in runs], "µs") if mode in ("unary", "session") else "—"
            rows.append([label, span([r["p50_us"] for r in runs], "µs"), p99])
    calls = read_json(glob.glob(os.path.join(raw, "rt_*.json"))[0])["calls"]
    out = f"Round trips of one physics step, {calls} calls a run (range):\n\n"
    out += table(["call", "p50", "p99"], rows)
    rounds = sorted({int(re.search(r"_(\d+)\.json$", p).group(1))
                     for p in glob.glob(os.path.join(raw, "inproc_*.json"))})
    refs = [read_json(os.path.join(raw, f"inproc_{k}.json"))["steps_per_s"] for k in rounds]
    rows = []
    batch = None
    # Every observation array, then q and v only (observation_fields): steps/s
    # and the ratio to the reference run after it, each as median (range).
    for kind, label in (("", "all"), ("qv_", "q, v")):
        for streams in (1, 2):
            runs = [read_json(os.path.join(raw, f"batch_{kind}{streams}_{k}.json"))
                    for k in rounds]
            batch = runs[0]
            rates = [r["steps_per_s"] for r in runs]
            ratios = [100 * r / ref for r, ref in zip(rates, refs)]
            kb = batch.get("reply_bytes", 0) / 1000
            size = f" ({kb:.0f} KB)" if streams == 1 else ""
            rows.append([f"{label}{size}, {streams}", num(statistics.median(rates)),
                         f"{statistics.median(ratios):.0f} ({min(ratios):.0f}–{max(ratios):.0f})"])
    rows.append(["in-process", num(statistics.median(refs)), "—"])
    out += (f"\nStepBatch {batch['instances']} × {batch['substeps']}, {batch['wall_s']:.1f} s a "
            f"run, {len(rounds)} round(s), then in-process; reply: all arrays or "
            f"`observation_fields` q, v. Median steps/s, % of in-process (range):\n\n")
    out += table(["reply, streams", "steps/s", "%"], rows)
    out += ("\nBelow in-process: the round trip (1 stream); client and gRPC threads on the same "
            "cores (2).\n")
    return out


def format_viewers(raw: str) -> str:
    skipped = os.path.join(raw, "skipped.txt")
    if os.path.exists(skipped):
        with open(skipped) as f:
            return f.read().strip() + "\n"
    r = read_json(os.path.join(raw, "viewers.json"))
    o, phases = r["options"], r["phases"]
    pages = o["viewers"]

    def median_of(n: int, key: str) -> float:
        return statistics.median(p[key] for p in phases if p["viewers"] == n)

    rows = []
    for n in (0, pages):
        frames = [f for p in phases if p["viewers"] == n for f in p["framesPerSecond"]]
        rows.append([str(n), num(median_of(n, "stepsPerSecond")),
                     f"{100 * median_of(n, 'serverCpu'):.0f} %",
                     num(median_of(n, "stepsPerServerCpuSecond")),
                     f"{statistics.median(frames):.1f} ({min(frames):.1f}–{max(frames):.1f})"
                     if frames else "—"])
    out = table(["pages", "steps/s", "server CPU", "per server CPU s",
                 f"frames/s a page ({o['rateHz']:g} Hz)"], rows)

    def ratios(key: str) -> str:
        per_round = []
        for k in sorted({p["round"] for p in phases}):
            side = [[p[key] for p in phases if p["round"] == k and p["viewers"] == n]
                    for n in (pages, 0)]
            per_round.append(statistics.mean(side[0]) / statistics.mean(side[1]))
        whole = median_of(pages, key) / median_of(0, key)
        return f"**{whole:.3f}** (rounds {', '.join(f'{x:.3f}' for x in per_round)})"

    return out + (f"\n{pages} pages / none, medians of {len(phases) // 2} × {o['phaseS']:g} s: "
                  f"{ratios('stepsPerSecond')}; per server CPU s "
                  f"{ratios('stepsPerServerCpuSecond')}.\n")


def format_python(raw: str) -> str:
    """One row per env count: the medians over the rounds of each figure and
    of each round's ratio (a round's four runs ran back to back)."""
    rows = []
    for path in sorted(glob.glob(os.path.join(raw, "rollout_*.json")),
                       key=lambda p: int(re.search(r"_(\d+)\.json$", p).group(1))):
        n = int(re.search(r"_(\d+)\.json$", path).group(1))

        def rates(name: str) -> list[float]:
            return [r["env_steps_per_s"] for r in read_jsonl(os.path.join(raw, f"{name}_{n}.json"))]

        remote, local = rates("rollout"), rates("local")
        ref, same = rates("inproc"), rates("inproc_rollout")
        if not len(remote) == len(local) == len(ref) == len(same):
            sys.exit(f"format_benchmarks: python area, {n} envs: rounds of unequal length")

        def ratio(a: list[float], b: list[float]) -> str:
            return f"{statistics.median(100 * x / y for x, y in zip(a, b)):.0f} %"

        timed = read_jsonl(os.path.join(raw, f"local_{n}.json"))[0]["env_steps"]
        rows.append([str(n), num(statistics.median(ref)), num(statistics.median(local)),
                     ratio(local, ref), num(statistics.median(remote)), ratio(remote, ref),
                     str(timed), num(statistics.median(same)), ratio(local, same)])
    return table(["num_envs", "C++ in process", "Python in process", "ratio", "Python remote",
                  "ratio", "env-steps timed", "C++, same interval", "ratio"], rows)


def format_container(raw: str) -> str:
    m = read_json(os.path.join(raw, "container.json"))
    inside = statistics.median(m["container_env_steps_per_s"])
    host = statistics.median(m["host_env_steps_per_s"])
    build = m["build_from_nothing_s"]
    rows = [["runtime layers above the base", f"{(m['image_bytes'] - m['base_bytes']) / 1e6:.1f} MB",
             "≤ 80 MB"],
            ["whole image", f"{m['image_bytes'] / 1e6:.1f} MB", "—"],
            ["build from nothing", f"{build} s" if build is not None else "not rerun", "—"],
            [f"rollout in the container ({m['num_envs']} envs)", f"{num(inside)} env-steps/s",
             "—"],
            [f"rollout on the host ({m['num_envs']} envs)", f"{num(host)} env-steps/s", "—"],
            ["container / host", f"{100 * inside / host:.1f} %", "≥ 95 %"]]
    return table(["measure", "value", "goal"], rows)


# ---- vs_mujoco, soak, fuzz ---------------------------------------------------------------------------

def format_vs_mujoco(raw: str) -> str:
    skipped = os.path.join(raw, "skipped.txt")
    if os.path.exists(skipped):
        with open(skipped) as f:
            return f.read().strip() + "\n"
    with open(os.path.join(raw, "report.md")) as f:
        out = f.read().strip() + "\n"
    if os.path.exists(os.path.join(raw, "plot.txt")):
        with open(os.path.join(raw, "plot.txt")) as f:
            out += f"\n![trot, Moreau against MuJoCo]({f.read().strip()})\n"
    return out


def format_soak(raw: str) -> str:
    with open(os.path.join(raw, "soak.txt")) as f:
        text = f.read()

    def grab(pattern: str) -> re.Match:
        m = re.search(pattern, text, re.M)
        if m is None:
            sys.exit(f"format_benchmarks: soak output lacks /{pattern}/")
        return m

    total = grab(r"^\s+total\s+(\d+)$").group(1)
    rss = grab(r"server RSS: start (\d+) kB, after warm-up (\d+) kB, end (\d+) kB \(([-+0-9.]+) %")
    workers = grab(r"workers: (\d+) started, (\d+) SIGKILLed and restarted, (\d+) failed")
    threads = grab(r"server threads: start (\d+), after warm-up (\d+), end (\d+), drained (\d+)")
    fds = grab(r"server open fds: start (\d+), after warm-up (\d+), end (\d+), drained (\d+)")
    head = grab(r"^soak: .* (\d+) s \(warm-up (\d+) s\)")
    return table(["figure", "value"], [
        ["seconds of load (warm-up)", f"{head.group(1)} ({head.group(2)})"],
        ["calls (batch rows and session messages counted singly)", num(int(total))],
        ["unexpected gRPC codes", grab(r"^unexpected codes: (\d+)").group(1)],
        ["server crashes", grab(r"^server crashes: (.*)$").group(1)],
        ["client processes SIGKILLed and restarted", f"{workers.group(2)} of "
         f"{workers.group(1)} started ({workers.group(3)} failed)"],
        ["server RSS after warm-up → end", f"{num(int(rss.group(2)))} kB → "
         f"{num(int(rss.group(3)))} kB ({rss.group(4)} %)"],
        ["server threads: start, after warm-up, end, drained", ", ".join(threads.groups())],
        ["server open fds: start, after warm-up, end, drained", ", ".join(fds.groups())],
        ["verdict", grab(r"^soak: (PASS|FAIL.*)$").group(1)],
    ])


def format_fuzz(raw: str) -> str:
    corpus = {}
    if os.path.exists(os.path.join(raw, "corpus.tsv")):
        with open(os.path.join(raw, "corpus.tsv")) as f:
            corpus = dict(line.split() for line in f if line.strip())
    rows = []
    with open(os.path.join(raw, "fuzz.txt")) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 7 and parts[1].isdigit():
                t, execs, rate, crashes, leaks, timeouts, ooms = parts
                rate = num(int(rate)) if rate.isdigit() else rate
                rows.append([f"`{t}`", num(int(execs)), rate, crashes, leaks, timeouts, ooms,
                             corpus.get(t, "—")])
    return table(["target", "executions", "exec/s", "crashes", "leaks", "> 1 s inputs",
                  "out of memory", "corpus after"], rows)


FORMATTERS = {"engine": format_engine, "steps": format_steps, "ab": format_ab, "max_dt": format_max_dt,
              "ladder": format_ladder,
              "stand_slip": format_stand_slip, "a1": format_a1, "chains": format_chains,
              "control": format_control, "service": format_service, "viewers": format_viewers,
              "python": format_python,
              "container": format_container,
              "vs_mujoco": format_vs_mujoco, "soak": format_soak, "fuzz": format_fuzz}


def section(args: argparse.Namespace) -> None:
    body = FORMATTERS[args.area](args.raw)
    print(f"## {TITLES[args.area]}\n<!-- area: {args.area} -->\n\n{INTROS[args.area]}\n\n"
          f"Command: {args.command}.\nMachine: {args.machine}.\n"
          f"Commit: {args.commit}, {args.date}.\n\n{body}")


def split_sections(text: str) -> dict[str, str]:
    """AREA → its section (from its `## ` heading up to the next one)."""
    sections = {}
    for chunk in re.split(r"(?m)^(?=## )", text):
        m = re.search(r"<!-- area: (\w+) -->", chunk)
        if chunk.startswith("## ") and m:
            sections[m.group(1)] = chunk.rstrip("\n") + "\n"
    return sections


def keep(args: argparse.Namespace) -> int:
    """Prints AREA's section of an earlier file, its Commit line marked as kept."""
    if not os.path.exists(args.old):
        return 1
    with open(args.old) as f:
        old = split_sections(f.read()).get(args.area)
    if old is None:
        return 1
    # The Commit line keeps its commit and date, and the note of this run
    # (replacing what an earlier keep said; none when the note is empty).
    suffix = f"; {args.note}." if args.note else "."
    old = re.sub(r"(?m)^(Commit: .*?)(; (?:kept: |not rerun ).*)?\.?$",
                 lambda m: f"{m.group(1)}{suffix}", old, count=1)
    print(old)
    return 0


def check(args: argparse.Namespace) -> int:
    """Every section has its marker, Command/Machine/Commit lines (the last
    with a date) and a table whose rows hold numbers."""
    with open(args.file) as f:
        text = f.read()
    problems = []
    sections = split_sections(text)
    for area in filter(None, (args.areas or "").split(",")):
        if area not in sections:
            problems.append(f"no section for {area}")
    for area, body in sections.items():
        for key in ("Command:", "Machine:", "Commit:"):
            if not re.search(rf"(?m)^{key} \S", body):
                problems.append(f"{area}: no '{key}' line")
        commit = re.search(r"(?m)^Commit: (.*)$", body)
        if commit and not re.search(r"\b[0-9a-f]{7,}\b.*\d{4}-\d\d-\d\d", commit.group(1)):
            problems.append(f"{area}: the Commit line lacks a commit or a date")
        rows = [line for line in body.splitlines() if line.startswith("| ")]
        if not re.search(r"(?m)^\|(---\|)+$", body) or len(rows) < 2:
            problems.append(f"{area}: no table")
        elif not any(re.search(r"\d", cell) for row in rows[1:] for cell in row.split("|")[2:]):
            problems.append(f"{area}: no numeric cell in its table")
    if not sections:
        problems.append("no sections")
    if args.max_bytes and len(text.encode()) >= args.max_bytes:
        problems.append(f"{len(text.encode())} bytes, not under {args.max_bytes}")
    for p in problems:
        print(f"check: {p}", file=sys.stderr)
    return 1 if problems else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("section")
    p.add_argument("area", choices=sorted(FORMATTERS))
    p.add_argument("raw")
    for key in ("command", "machine", "commit", "date"):
        p.add_argument(f"--{key}", required=True)
    p = sub.add_parser("keep")
    p.add_argument("area")
    p.add_argument("old")
    p.add_argument("--note", default="")
    p = sub.add_parser("check")
    p.add_argument("file")
    p.add_argument("--areas", default="", help="these areas must have a section")
    p.add_argument("--max-bytes", type=int, default=25000)
    args = parser.parse_args()
    if args.what == "section":
        section(args)
        return 0
    return keep(args) if args.what == "keep" else check(args)


if __name__ == "__main__":
    sys.exit(main())
