"""`moreau sim MODEL … [--json]`: an in-process simulation run and its report.

Every run here is short (at most a few thousand steps of small models) so that
each test takes well under 5 s.
"""

import csv
import json
import math

import pytest

REPORT_TYPES = {
    "model": str,
    "contact": str,
    "integrator": str,
    "dt": float,
    "force_law_substeps": int,
    "gear": float,
    "rotor_inertia": float,
    "control": str,
    "id_time_constant": float,
    "loop_solver": str,
    "weight_feedforward": bool,
    "duration": float,
    "steps": int,
    "wall_s": float,
    "steps_per_s": float,
    "realtime_factor": float,
    "solver_iterations_mean": float,
    "solver_iterations_max": int,
    "max_penetration_m": float,
    "max_foot_slip_m": float,
    "final_base_pose": list,
    "fell": bool,
    "diverged": bool,
}
# Keys that depend on the machine's speed, not on the simulation.
TIMING_KEYS = {"wall_s", "steps_per_s", "realtime_factor"}


def sim(moreau, *args):
    return moreau.json("sim", *args)


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def tilt_degrees(pose):
    qw, qx, qy, qz = pose[3:7]
    cos_tilt = 1.0 - 2.0 * (qx * qx + qy * qy) / (qw * qw + qx * qx + qy * qy + qz * qz)
    return math.degrees(math.acos(max(-1.0, min(1.0, cos_tilt))))


def sphere_radius(moreau):
    info = moreau.json("info", "sphere")
    (point,) = info["contact_points"]
    return point["radius"]


def test_json_has_exactly_the_keys_with_their_types(moreau):
    report = sim(moreau, "mini_cheetah", "--duration", "0.2")
    assert set(report) == set(REPORT_TYPES)
    for key, kind in REPORT_TYPES.items():
        if kind is float:
            assert is_number(report[key]), (key, report[key])
        else:
            assert isinstance(report[key], kind), (key, report[key])
    assert report["model"] == "mini_cheetah"
    assert report["contact"] == "moreau-sor"  # the defaults
    assert report["integrator"] == "euler"
    assert report["dt"] == 0.001
    assert report["duration"] == 0.2
    assert report["steps"] == 200
    assert report["wall_s"] > 0
    assert report["steps_per_s"] == pytest.approx(report["steps"] / report["wall_s"], rel=1e-9)
    assert report["realtime_factor"] == pytest.approx(0.2 / report["wall_s"], rel=1e-6)
    assert 1 <= report["solver_iterations_mean"] <= report["solver_iterations_max"]
    assert report["max_penetration_m"] >= 0
    assert report["max_foot_slip_m"] >= 0
    pose = report["final_base_pose"]
    assert len(pose) == 7 and all(is_number(x) for x in pose)
    assert math.isclose(sum(x * x for x in pose[3:7]), 1.0, rel_tol=1e-9)
    assert report["diverged"] is False


def test_transmission_flags_are_reported_and_slow_the_pendulum(moreau, tmp_path):
    # The built-in pendulum (1 kg bob 1 m below the pivot, I = 1.001 kg m²)
    # released at 0.1 rad: θ(t) ≈ 0.1 cos(ω t) with ω² = m g l / I. With
    # N = 10 and I_rotor = 0.01 kg m² the reflected inertia N² I_rotor = 1 kg m²
    # joins I (paper 002 §IV-C), so at t = 0.5 s θ is 0.1 cos(0.5 √(9.81 / 2.001)).
    def final_angle(*extra):
        out = tmp_path / "run.csv"
        report = sim(moreau, "pendulum", "--controller", "zero", "--duration", "0.5", "--q", "0.1",
                     "--contact", "spring-damper", "--integrator", "rk4", "--out", str(out),
                     *extra)
        with open(out) as f:
            rows = list(csv.DictReader(f))
        return report, float(rows[-1]["q_hinge"])

    plain, angle = final_angle()
    assert plain["gear"] == 0 and plain["rotor_inertia"] == 0
    assert angle == pytest.approx(0.1 * math.cos(0.5 * math.sqrt(9.81 / 1.001)), abs=1e-3)
    geared, angle = final_angle("--gear", "10", "--rotor-inertia", "0.01")
    assert geared["gear"] == 10
    assert geared["rotor_inertia"] == 0.01
    assert angle == pytest.approx(0.1 * math.cos(0.5 * math.sqrt(9.81 / 2.001)), abs=1e-3)


def test_steps_follow_duration_and_dt(moreau):
    report = sim(moreau, "sphere", "--controller", "zero", "--dt", "0.002", "--duration", "0.1")
    assert report["steps"] == 50
    assert report["dt"] == 0.002


@pytest.mark.parametrize("contact", ["moreau-sor", "spring-damper"])
@pytest.mark.parametrize("height", [None, 0.3], ids=["on_ground", "dropped_0.3m"])
def test_sphere_comes_to_rest_on_the_ground(moreau, contact, height):
    radius = sphere_radius(moreau)
    args = ["sphere", "--controller", "zero", "--duration", "1", "--contact", contact]
    if height is not None:
        args += ["--q", f"0,0,{height},1,0,0,0"]
    report = sim(moreau, *args)
    x, y, z = report["final_base_pose"][:3]
    assert z == pytest.approx(radius, abs=2e-3)
    assert abs(x) < 1e-6 and abs(y) < 1e-6  # a vertical drop stays vertical
    assert report["diverged"] is False
    assert report["max_penetration_m"] < 0.02
    if contact == "spring-damper":
        assert report["solver_iterations_max"] == 0  # no solver for a force law


def test_mini_cheetah_stands(moreau):
    report = sim(moreau, "mini_cheetah", "--controller", "stand", "--duration", "2",
                 "--contact", "moreau-sor")
    assert report["fell"] is False
    assert report["diverged"] is False
    pose = report["final_base_pose"]
    assert 0.2 < pose[2] < 0.35  # standing height, not lying on the ground
    assert tilt_degrees(pose) < 10
    assert report["max_penetration_m"] < 5e-3


def test_a_strong_sideways_push_knocks_the_standing_robot_over(moreau):
    report = sim(moreau, "mini_cheetah", "--duration", "1.5", "--push", "0.5,0.2,0,150,0")
    assert report["fell"] is True
    assert report["diverged"] is False


def test_csv_log(moreau, tmp_path):
    info = moreau.json("info", "mini_cheetah")
    joints = [j["name"] for j in info["joints"] if j["type"] != "free"]
    feet = [p["name"] for p in info["contact_points"]]
    path = tmp_path / "run.csv"
    report = sim(moreau, "mini_cheetah", "--duration", "1", "--out", path)
    with open(path, newline="") as file:
        rows = list(csv.reader(file))
    header, body = rows[0], rows[1:]
    assert header == (
        ["time", "base_x", "base_y", "base_z", "base_qw", "base_qx", "base_qy", "base_qz"]
        + [f"q_{j}" for j in joints]
        + [f"v_{j}" for j in joints]
        + [f"tau_{j}" for j in joints]
        + [f"fn_{f}" for f in feet]
    )
    assert len(body) == report["steps"] == 1000
    for k, row in enumerate(body, start=1):
        assert len(row) == len(header)
        values = [float(x) for x in row]
        assert all(math.isfinite(x) for x in values)
        assert values[0] == pytest.approx(k * 0.001, abs=1e-9)
    final = [float(x) for x in body[-1][1:8]]
    assert final == pytest.approx(report["final_base_pose"], abs=1e-9)
    # Normal forces push, never pull; standing on four feet, once it has
    # landed from its start 0.4 m up, the robot's weight is carried by them
    # (on average over the last steps).
    fn = [[float(x) for x in row[-len(feet):]] for row in body]
    assert all(f >= -1e-9 for row in fn for f in row)
    weight = info["total_mass"] * 9.81
    assert sum(sum(row) for row in fn[-100:]) / 100 == pytest.approx(weight, rel=0.25)


def test_csv_every(moreau, tmp_path):
    path = tmp_path / "sparse.csv"
    sim(moreau, "sphere", "--controller", "zero", "--duration", "0.1", "--out", path,
        "--csv-every", "10")
    with open(path, newline="") as file:
        rows = list(csv.reader(file))
    assert rows[0] == ["time", "base_x", "base_y", "base_z", "base_qw", "base_qx", "base_qy",
                       "base_qz", "fn_sphere"]
    assert [float(row[0]) for row in rows[1:]] == pytest.approx([0.01 * k for k in range(1, 11)])


def test_csv_unwritable_path(moreau, tmp_path):
    path = tmp_path / "no_such_dir" / "run.csv"
    message = moreau.fails("sim", "sphere", "--duration", "0.01", "--out", path)
    assert str(path) in message and "--out" in message


@pytest.mark.parametrize("args", [
    ["mini_cheetah", "--controller", "trot", "--duration", "0.5"],
    ["mini_cheetah", "--contact", "spring-damper", "--integrator", "rk4", "--duration", "0.3",
     "--push", "0.1,0.1,20,0,0"],
], ids=["trot_moreau_sor", "stand_spring_damper_rk4_push"])
def test_deterministic(moreau, args):
    first = sim(moreau, *args)
    second = sim(moreau, *args)
    assert first["final_base_pose"] == second["final_base_pose"]
    for key in set(first) - TIMING_KEYS:
        assert first[key] == second[key], key


def test_fixed_base_model(moreau):
    result = moreau.ok("sim", "pendulum", "--duration", "0.2", "--json")
    report = json.loads(result.stdout)
    assert report["final_base_pose"] == [0, 0, 0, 1, 0, 0, 0]
    assert report["fell"] is False
    # No legs: the default controller falls back from stand to zero.
    assert "--controller stand" in result.stderr and "zero" in result.stderr


@pytest.mark.parametrize("contact", ["moreau-sor", "spring-damper"])
def test_sphere_on_an_incline(moreau, contact):
    """incline:DEG tilts the ground about the world y axis; positive DEG
    descends towards +x. Friction acts at the sphere centre (point feet: no
    rolling), so with μ = 0.8 > tan 20° the sphere stays, with μ = 0 it slides
    down at g sin 20°."""
    radius = sphere_radius(moreau)
    angle = math.radians(20)
    normal = (math.sin(angle), 0.0, math.cos(angle))
    start = [radius * normal[0], 0.0, radius * normal[2]]  # resting on the plane at the origin
    args = ["sphere", "--controller", "zero", "--duration", "0.5", "--terrain", "incline:20",
            "--contact", contact, "--q", ",".join(repr(x) for x in start + [1, 0, 0, 0])]
    held = sim(moreau, *args, "--mu", "0.8")
    slid = sim(moreau, *args, "--mu", "0")
    assert held["final_base_pose"][:3] == pytest.approx(start, abs=1e-3)
    assert held["max_foot_slip_m"] < 1e-3
    # Down the slope (+x): s = ½ g sin 20° t², and the slip metric measures it.
    travel = 0.5 * 9.81 * math.sin(angle) * 0.5**2
    x = slid["final_base_pose"][0]
    assert (x - start[0]) / math.cos(angle) == pytest.approx(travel, rel=0.05)
    assert slid["max_foot_slip_m"] == pytest.approx(travel, rel=0.05)
    for report in (held, slid):
        pose = report["final_base_pose"]
        assert abs(pose[1]) < 1e-6
        # On the plane: the centre one radius above it along its normal.
        assert normal[0] * pose[0] + normal[2] * pose[2] == pytest.approx(radius, abs=2e-3)


def write_heightfield(path, rows, cell_size=None):
    lines = ["# a test heightfield"]
    if cell_size is not None:
        lines.append(f"# cell_size: {cell_size}")
    lines += [",".join(repr(h) for h in row) for row in rows]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@pytest.mark.parametrize("contact", ["moreau-sor", "spring-damper"])
def test_sphere_rests_on_a_heightfield_file(moreau, tmp_path, contact):
    """heightfield:FILE.csv: a grid of heights centred on the origin. A 5 x 4
    grid of 0.3 m cells holding a ramp along +x (0.1 m per cell, 0.2 m at the
    centre): the sphere dropped at the origin comes to rest one radius above
    the surface there (with friction it holds on the slope of 18.4 degrees)."""
    radius = sphere_radius(moreau)
    rows = [[0.1 * i for i in range(5)] for _ in range(4)]
    path = write_heightfield(tmp_path / "ramp.csv", rows, cell_size=0.3)
    slope = math.atan(0.1 / 0.3)
    report = sim(moreau, "sphere", "--controller", "zero", "--duration", "0.6", "--contact",
                 contact, "--terrain", "heightfield:" + path, "--q", f"0,0,{0.3 + radius},1,0,0,0")
    pose = report["final_base_pose"]
    # Resting on the ramp: one radius from it along its normal, near the origin.
    height_above = (pose[2] - (0.2 + pose[0] / 3.0)) * math.cos(slope)
    assert height_above == pytest.approx(radius, abs=2e-3)
    assert abs(pose[0]) < 0.02 and abs(pose[1]) < 1e-6
    # The same drop on flat ground ends 0.2 m lower: the file was used.
    flat = sim(moreau, "sphere", "--controller", "zero", "--duration", "0.6", "--contact",
               contact, "--q", f"0,0,{0.3 + radius},1,0,0,0")
    assert flat["final_base_pose"][2] == pytest.approx(radius, abs=2e-3)


@pytest.mark.parametrize(
    "rows,words",
    [
        ([[0.0, 0.0], [0.0]], ["line 3", "1 heights", "2"]),
        ([[0.0, 0.0, 0.0]], ["at least 2 rows"]),
        ([["0.0", "x"], [0.0, 0.0]], ["line 2", "value 2", "x"]),
    ],
)
def test_bad_heightfield_files(moreau, tmp_path, rows, words):
    path = tmp_path / "bad.csv"
    path.write_text("# comment\n" + "\n".join(",".join(str(h) for h in row) for row in rows))
    message = moreau.fails("sim", "sphere", "--duration", "0.01", "--terrain",
                           "heightfield:" + str(path), exit_code=1)
    assert "--terrain heightfield:" + str(path) in message
    for word in words:
        assert word in message, (word, message)


def test_mini_cheetah_trots_on_rough_ground(moreau):
    """rough:AMPLITUDE: a fixed pseudo-random heightfield up to AMPLITUDE
    below z = 0. The trotting robot keeps its feet and moves forward; the
    ground under it is not flat (its feet sink below z = 0)."""
    rough = sim(moreau, "mini_cheetah", "--controller", "trot", "--duration", "4",
                "--terrain", "rough:0.02")
    assert rough["fell"] is False and rough["diverged"] is False
    assert rough["final_base_pose"][0] > 0.5
    flat = sim(moreau, "mini_cheetah", "--controller", "trot", "--duration", "4")
    assert rough["final_base_pose"] != flat["final_base_pose"]
    # Deterministic: the same patch every run.
    again = sim(moreau, "mini_cheetah", "--controller", "trot", "--duration", "4",
                "--terrain", "rough:0.02")
    assert again["final_base_pose"] == rough["final_base_pose"]


def test_a1_trots_with_the_weight_feedforward(moreau, models_dir):
    """--weight-feedforward: the Unitree A1 (13.7 kg on 001's k_p = 40, i.e.
    --tuning paper-001; its default, derived, feeds the weight forward itself)
    trots forward with it; with the PD alone it does not make headway (it
    falls within seconds)."""
    a1 = str(models_dir / "unitree_a1" / "a1.urdf")
    args = [a1, "--controller", "trot", "--duration", "6", "--contact", "moreau-jor",
            "--dt", "0.0025", "--tuning", "paper-001"]
    carried = sim(moreau, *args, "--weight-feedforward")
    assert carried["weight_feedforward"] is True
    assert carried["fell"] is False and carried["diverged"] is False
    assert carried["final_base_pose"][0] > 1.0
    sagging = sim(moreau, *args)
    assert sagging["weight_feedforward"] is False
    assert sagging["fell"] is True or sagging["final_base_pose"][0] < 0.5


def test_tuning_is_selectable_and_an_unknown_one_names_the_valid_ones(moreau):
    """--tuning and --controller-parameters tuning=NAME (docs/controllers.md):
    the Mini Cheetah stands and trots under the derived tuning too."""
    for args in (["--tuning", "derived"], ["--controller-parameters", "tuning=derived"],
                 ["--controller-parameters", "tuning=2"]):
        report = sim(moreau, "mini_cheetah", "--controller", "trot", "--duration", "3", *args)
        assert report["fell"] is False and report["diverged"] is False
    for args in (["--tuning", "stiff"], ["--controller-parameters", "tuning=stiff"]):
        message = moreau.fails("sim", "mini_cheetah", "--controller", "trot", *args)
        assert "'stiff'" in message and "auto, paper-001, derived" in message
    message = moreau.fails("sim", "mini_cheetah", "--controller-parameters", "tuning=3")
    assert "0 (auto), 1 (paper-001) or 2 (derived)" in message


def test_no_friction_no_grip(moreau):
    """--mu 0: the robot slides more than with friction."""
    gripping = sim(moreau, "mini_cheetah", "--duration", "0.5", "--terrain", "incline:10")
    sliding = sim(moreau, "mini_cheetah", "--duration", "0.5", "--terrain", "incline:10",
                  "--mu", "0")
    assert sliding["max_foot_slip_m"] > 2 * gripping["max_foot_slip_m"]


def test_divergence_is_reported_then_fails(moreau):
    """A step too large for a stiff spring, stepped with one explicit update:
    the report of the run up to the divergence is printed, then one error
    line, exit status 1."""
    result = moreau.run("sim", "mini_cheetah", "--contact", "spring-damper", "--dt", "0.01",
                        "--contact-parameters", "substeps=1", "--controller", "zero",
                        "--duration", "2", "--json")
    assert result.returncode == 1, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("moreau: error: "), lines
    assert "diverged" in lines[0]
    report = json.loads(result.stdout)
    assert report["diverged"] is True
    assert 0 < report["steps"] < 200
    assert all(math.isfinite(x) for x in report["final_base_pose"])


def test_spring_damper_substeps_a_step_past_its_stability_limit(moreau):
    """The same 10 ms step with the default sub-steps: three updates of
    3.3 ms (the Mini Cheetah's lightest contact point is stable up to
    3.5 ms), no divergence, and the count in both reports."""
    args = ["sim", "mini_cheetah", "--contact", "spring-damper", "--dt", "0.01",
            "--controller", "zero", "--duration", "2"]
    report = json.loads(moreau.ok(*args, "--json").stdout)
    assert report["force_law_substeps"] == 3
    assert report["diverged"] is False and report["steps"] == 200
    assert "(3 explicit updates of dt/3 per step" in moreau.ok(*args).stdout
    at_1ms = json.loads(moreau.ok("sim", "mini_cheetah", "--contact", "spring-damper",
                                  "--duration", "0.1", "--json").stdout)
    assert at_1ms["force_law_substeps"] == 1


def test_text_summary(moreau):
    result = moreau.ok("sim", "mini_cheetah", "--duration", "0.2")
    text = result.stdout
    for words in ["mini_cheetah", "moreau-sor", "200 steps", "steps/s", "realtime factor",
                  "max penetration", "max foot slip", "final base pose", "fell: no"]:
        assert words in text, words
    assert "sim:" not in result.stderr  # no progress line when stderr is not a terminal


def test_progress_on_request(moreau):
    result = moreau.ok("sim", "sphere", "--controller", "zero", "--duration", "0.2",
                       "--progress", "--json")
    json.loads(result.stdout)  # stdout stays one JSON object
    assert "\rsim: 100% t=0.20 s" in result.stderr
    assert result.stderr.endswith("\n")


def test_help(moreau):
    assert "sim" in moreau.ok("help").stdout
    text = moreau.ok("help", "sim").stdout
    for flag in ["--contact", "--integrator", "--dt", "--duration", "--controller", "--push",
                 "--terrain", "--mu", "--out", "--csv-every", "--json", "--base",
                 "--contact-links", "max_foot_slip_m"]:
        assert flag in text, flag


@pytest.mark.parametrize(
    "args,exit_code,words",
    [
        (["--contact", "bogus"], 2, ["--contact", "bogus"]),
        (["--integrator", "leapfrog"], 2, ["--integrator", "leapfrog"]),
        (["--controller", "walk"], 2, ["--controller", "walk"]),
        (["--dt", "abc"], 2, ["--dt", "abc"]),
        (["--dt", "0"], 1, ["--dt", "0"]),
        (["--dt", "2"], 1, ["--dt", "2"]),
        (["--duration", "-1"], 1, ["--duration", "-1"]),
        (["--duration", "0"], 1, ["--duration", "0"]),
        (["--duration", "1e6", "--dt", "1e-6"], 1, ["--duration", "1e8"]),
        (["--push", "1,2,3"], 2, ["--push", "1,2,3"]),
        (["--push", "1,x,0,0,0"], 2, ["--push", "1,x,0,0,0"]),
        (["--push", "1,-0.5,0,0,10"], 1, ["--push", "DURATION"]),
        (["--mu", "-0.5"], 1, ["--mu", "-0.5"]),
        (["--terrain", "hill"], 2, ["--terrain", "hill"]),
        (["--terrain", "incline:90"], 1, ["--terrain", "incline:90"]),
        (["--terrain", "rough:abc"], 2, ["--terrain", "rough:abc"]),
        (["--terrain", "rough:-0.01"], 1, ["--terrain", "rough:-0.01", "amplitude"]),
        (["--terrain", "rough:0.5"], 1, ["--terrain", "rough:0.5", "amplitude"]),
        (["--terrain", "heightfield:"], 2, ["--terrain", "heightfield"]),
        (["--terrain", "heightfield:/nonexistent/ground.csv"], 1,
         ["--terrain", "/nonexistent/ground.csv", "cannot open"]),
        (["--csv-every", "0", "--out", "x.csv"], 1, ["--csv-every", "0"]),
        (["--tau", "1"], 2, ["--tau"]),
        (["--contact-param", "stiffness"], 1, ["--contact-param", "NAME=VALUE"]),
        (["--contact-param", "mu=abc"], 1, ["--contact-param", "mu", "abc"]),
        (["--contact-param", "mu=nan"], 1, ["contact parameter", "mu", "finite"]),
        (["--contact", "hertz", "--contact-param", "alpha=0.5"], 1,
         ["unknown contact parameter", "alpha", "hertz", "stiffness"]),
        (["--contact-param", "max_iterations=2.5"], 1, ["max_iterations", "integer"]),
        (["--contact", "hertz", "--contact-param", "implicit_friction=0.5"], 1,
         ["implicit_friction", "0 (explicit) or 1 (implicit)", "0.5"]),
        (["--contact-param", "implicit_friction=1"], 1,
         ["unknown contact parameter", "implicit_friction", "moreau-sor"]),
        (["--contact-param", "alpha=3"], 1, ["alpha", "3"]),
        (["--gear", "-2"], 1, ["--gear", "-2"]),
        (["--control", "telekinesis"], 1, ["telekinesis"]),
        (["--id-time-constant", "-1"], 1, ["--id-time-constant", "-1"]),
        (["--loop-solver", "magic"], 1, ["--loop-solver", "magic", "prox", "direct"]),
        (["--control", "id-constraint", "--contact", "hertz"], 1, ["id-constraint", "hertz"]),
        (["--gear", "abc"], 2, ["--gear", "abc"]),
        (["--rotor-inertia", "-1e-5"], 1, ["--rotor-inertia", "-1e-05"]),
    ],
)
def test_bad_flags(moreau, args, exit_code, words):
    message = moreau.fails("sim", "sphere", "--duration", "0.01", *args, exit_code=exit_code)
    for word in words:
        assert word in message, (word, message)


def test_hertz_implicit_friction_reaches_the_engine(moreau):
    # Table I's hertz with its friction stepped implicitly: the same standing
    # robot ends elsewhere than with the explicit friction, and runs cleanly.
    def final_pose(implicit):
        report = sim(moreau, "mini_cheetah", "--controller", "stand", "--duration", "0.5",
                     "--dt", "1e-4", "--contact", "hertz", "--integrator", "heun",
                     "--contact-param", f"implicit_friction={implicit}")
        assert not report["fell"] and not report["diverged"]
        return report["final_base_pose"]

    assert final_pose(1) != final_pose(0)


def test_contact_param_sets_the_named_parameter(moreau):
    # The spring-damper's static depth is m g / c_N: four times the stiffness,
    # a quarter of the depth.
    def depth(stiffness):
        report = sim(moreau, "sphere", "--controller", "zero", "--duration", "1",
                     "--dt", "1e-4", "--contact", "spring-damper",
                     "--contact-param", f"normal_stiffness={stiffness},normal_damping=200")
        return sphere_radius(moreau) - report["final_base_pose"][2]

    soft, stiff = depth(30000), depth(120000)
    assert soft > 0 and stiff > 0
    assert soft / stiff == pytest.approx(4.0, rel=0.02)


def test_explicit_trot_on_a_model_without_legs_fails(moreau):
    message = moreau.fails("sim", "sphere", "--controller", "trot", "--duration", "0.01")
    assert "--controller trot" in message


def test_actions_replay_and_state_out(moreau, tmp_path):
    actions = tmp_path / "actions.csv"
    actions.write_text("# pendulum: one torque per row\n0.5\n-0.25\n\n1.0\n")
    state = tmp_path / "state.bin"
    result = moreau.run("sim", "pendulum", "--actions", str(actions), "--action-substeps", "10",
                        "--control", "torque", "--state-out", str(state), "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["steps"] == 30
    assert state.stat().st_size > 0


@pytest.mark.parametrize("content,message", [
    ("1,2\n", "line 1: 2 values, expected 1"),
    ("0.5\nabc\n", "line 2: entry 1 (\"abc\") is not a finite number"),
    ("# nothing\n", "no action rows"),
])
def test_actions_file_errors_name_the_line(moreau, tmp_path, content, message):
    actions = tmp_path / "actions.csv"
    actions.write_text(content)
    result = moreau.run("sim", "pendulum", "--actions", str(actions))
    assert result.returncode == 1
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("control", ["pd", "id", "id-constraint"])
def test_controller_targets_through_each_control_mode(moreau, control):
    # The stand controller's targets driven by --control instead of its own
    # PD torques: the Mini Cheetah stands in every mode, at larger steps in the
    # id modes (paper 002: PD 1 ms, ID control 4 ms, ID constraint more). On a
    # floating base `id` needs a time constant: its contact forces lag a step.
    args = {"pd": ["--dt", "0.002"],
            "id": ["--dt", "0.004", "--id-time-constant", "0.1"],
            "id-constraint": ["--dt", "0.01"]}[control]
    report = sim(moreau, "mini_cheetah", "--controller", "stand", "--duration", "2",
                 "--control", control, *args)
    assert report["control"] == control
    assert report["fell"] is False and report["diverged"] is False
    assert report["final_base_pose"][2] > 0.2


def test_trot_under_id_constraint_holds_at_ten_milliseconds(moreau):
    # --controller trot under --control id-constraint is the velocity trot,
    # run by the simulation inside its step: the Mini Cheetah trots 5 s at
    # 10 ms steps without falling, its base at the stand height (0.287 m) and
    # level, every foot still while its contact stays closed (< 5 mm).
    report = sim(moreau, "mini_cheetah", "--controller", "trot", "--control", "id-constraint",
                 "--dt", "0.01", "--duration", "5")
    assert report["diverged"] is False and report["fell"] is False
    assert report["steps"] == 500
    x, _, z = report["final_base_pose"][:3]
    assert 0.25 < z < 0.32
    assert x > 0.5  # trots forward: 0.25 m/s commanded after the start delay and ramp
    assert report["max_foot_slip_m"] < 5e-3


def test_velocity_trot_needs_a_target_mode(moreau):
    message = moreau.fails("sim", "mini_cheetah", "--controller", "velocity-trot",
                           "--duration", "0.1")
    assert "--controller velocity-trot" in message and "torque" in message


def test_four_bar_loop_solvers_agree(moreau, tmp_path):
    # The four-bar swings under gravity from 0.6 rad (the parallelogram's
    # q = (θ, −θ, θ)); the cut joint
    # solved in the prox iteration or directly gives the same motion.
    last_rows = {}
    for solver in ("prox", "direct"):
        out = tmp_path / f"{solver}.csv"
        report = sim(moreau, "four_bar", "--controller", "zero", "--duration", "1",
                     "--q", "0.6,-0.6,0.6", "--loop-solver", solver, "--out", str(out))
        assert report["loop_solver"] == solver and report["diverged"] is False
        with open(out, newline="") as f:
            rows = list(csv.DictReader(f))
        first = {k: float(v) for k, v in rows[0].items() if k.startswith("q_")}
        last_rows[solver] = {k: float(v) for k, v in rows[-1].items() if k.startswith("q_")}
        assert first and max(abs(last_rows[solver][k] - first[k]) for k in first) > 0.01
    for name, value in last_rows["prox"].items():
        assert value == pytest.approx(last_rows["direct"][name], abs=1e-3), name


def test_hold_controller_holds_the_pose_the_run_starts_in(moreau, tmp_path):
    # `--controller hold`: joint PD (k_p = 40, k_d = 1) to the joint angles of
    # the first step. The pendulum released at 0.3 rad sags under its weight
    # (m g l sin θ / k_p ≈ 0.07 rad at rest) but stays on its side, where
    # `--controller zero` lets it swing through to −0.3 rad.
    def angles(controller):
        out = tmp_path / f"{controller}.csv"
        report = sim(moreau, "pendulum", "--controller", controller, "--q", "0.3",
                     "--duration", "2", "--contact", "spring-damper", "--out", str(out))
        assert report["diverged"] is False
        with open(out) as f:
            return [float(row["q_hinge"]) for row in csv.DictReader(f)]

    held = angles("hold")
    assert 0.15 < min(held) and max(held) <= 0.3 + 1e-6
    assert min(angles("zero")) < -0.29


@pytest.mark.parametrize("mode", ["torque", "pd", "id-constraint"])
def test_hold_controller_runs_a_quadruped(moreau, mode):
    # The Mini Cheetah held in its start pose (legs straight) stays up.
    report = sim(moreau, "mini_cheetah", "--controller", "hold", "--control-mode", mode,
                 "--duration", "0.5")
    assert report["diverged"] is False and report["fell"] is False
    assert report["control"] == mode
    assert report["final_base_pose"][2] > 0.3
