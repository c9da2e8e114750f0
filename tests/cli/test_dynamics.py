"""`moreau dynamics MODEL [--q …] [--v …] [--tau …] --json`.

The checks are independent of the engine's algorithms: symmetry and
positive-definiteness of M, M·qacc + c + g = τ (ABA against CRBA and RNEA),
g = ∂V/∂q and J·v = ṗ by finite differences on the configuration manifold
(MuJoCo's free-joint conventions), and the closed-form pendulum.
"""

import json
import math
import xml.etree.ElementTree as ET

import numpy as np
import pytest

MODEL_URDFS = [
    ("mini_cheetah/mini_cheetah.urdf", []),
    ("unitree_a1/a1.urdf", []),
    ("ur10/ur10_robot.urdf", ["--base", "fixed"]),
    ("pendulum/Pendulum.urdf", []),
    # Fixed-base mechanisms whose root is not named "world": floating, their
    # massless or inertia-less root makes M singular.
    ("double_pendulum/double_pendulum.urdf", ["--base", "fixed"]),
    ("acrobot/acrobot.urdf", []),
    ("cartpole/cartpole.urdf", ["--base", "fixed"]),
]
BUILTINS = ["mini_cheetah", "pendulum", "double_pendulum", "cartpole", "acrobot", "sphere", "box"]


def flag(values):
    """A vector flag value with round-trip precision."""
    return ",".join(repr(float(x)) for x in values)


def dynamics(moreau, model, q=None, v=None, tau=None, flags=()):
    args = ["dynamics", model, *flags]
    for name, values in (("--q", q), ("--v", v), ("--tau", tau)):
        if values is not None:
            args += [name, flag(values)]
    return moreau.json(*args)


def quat_multiply(a, b):
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return np.array([
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    ])


def integrate(q, v, dt, floating):
    """q ⊕ v·dt: world-frame base translation, base-frame rotation, joints."""
    q = np.array(q, dtype=float)
    v = np.asarray(v, dtype=float)
    if not floating:
        return q + dt * v
    q[0:3] += dt * v[0:3]
    omega = v[3:6] * dt
    angle = np.linalg.norm(omega)
    if angle > 0:
        dq = np.concatenate([[math.cos(angle / 2)], math.sin(angle / 2) * omega / angle])
        q[3:7] = quat_multiply(q[3:7], dq)
    q[7:] += dt * v[6:]
    return q


def random_state(info, seed):
    """A generic state: unit quaternion, joints within ±1, moderate velocities."""
    rng = np.random.default_rng(seed)
    nq, nv = info["nq"], info["nv"]
    q = rng.uniform(-1, 1, nq)
    if info["floating_base"]:
        q[0:3] = [0.1, -0.2, 0.4]
        q[3:7] /= np.linalg.norm(q[3:7])
    return q, rng.uniform(-2, 2, nv), rng.uniform(-5, 5, nv)


def check_shapes(report, info):
    nq, nv = info["nq"], info["nv"]
    assert (report["nq"], report["nv"]) == (nq, nv)
    assert len(report["q"]) == nq
    for key in ("v", "tau", "c", "g", "qacc"):
        assert len(report[key]) == nv, key
    assert len(report["M"]) == nv
    assert all(len(row) == nv for row in report["M"])
    assert report["joint_names"] == [joint["name"] for joint in info["joints"]]
    names = [point["name"] for point in info["contact_points"]]
    assert list(report["contact_jacobians"]) == names
    for name, jacobian in report["contact_jacobians"].items():
        assert len(jacobian) == 3, name
        assert all(len(row) == nv for row in jacobian), name
        assert len(report["contact_positions"][name]) == 3


def check_equation_of_motion(report):
    """M symmetric positive definite and M·qacc + c + g = τ (1e-9 relative)."""
    M = np.array(report["M"], dtype=float).reshape(report["nv"], report["nv"])
    c, g, qacc, tau = (np.array(report[k], dtype=float) for k in ("c", "g", "qacc", "tau"))
    scale = max(np.abs(M).max(initial=0.0), 1e-300)
    assert np.abs(M - M.T).max(initial=0.0) <= 1e-12 * scale
    if report["nv"]:
        assert np.linalg.eigvalsh(M).min() > 0
    residual = M @ qacc + c + g - tau
    size = np.linalg.norm(M @ qacc) + np.linalg.norm(c) + np.linalg.norm(g) + np.linalg.norm(tau)
    assert np.linalg.norm(residual) <= 1e-9 * max(size, 1.0), residual


MINI_CHEETAH_Q = [0.1, -0.2, 0.35, 0.9, 0.1, -0.2, 0.3] + [
    0.1, -0.8, 1.6, -0.1, -0.7, 1.5, 0.15, -0.9, 1.7, -0.05, -0.85, 1.4
]


def mini_cheetah_state():
    q = np.array(MINI_CHEETAH_Q)
    q[3:7] /= np.linalg.norm(q[3:7])
    v = np.linspace(-1.5, 1.2, 18)
    tau = np.concatenate([np.zeros(6), np.linspace(-3, 4, 12)])
    return q, v, tau


def test_mini_cheetah_dynamics(moreau):
    info = moreau.json("info", "mini_cheetah")
    q, v, tau = mini_cheetah_state()
    report = dynamics(moreau, "mini_cheetah", q, v, tau)
    check_shapes(report, info)
    assert report["joint_names"][0] == "floating_base"
    assert len(report["joint_names"]) == 13
    assert len(report["contact_jacobians"]) == 4
    assert np.allclose(report["q"], q, rtol=0, atol=1e-15)
    assert report["warnings"] == info["warnings"]  # the quaternion was unit
    check_equation_of_motion(report)

    M = np.array(report["M"])
    # Kinetic energy ½ vᵀ M v; the base block's mass is the total mass.
    assert report["kinetic_energy"] == pytest.approx(0.5 * v @ M @ v, rel=1e-10)
    assert np.allclose(M[0:3, 0:3], info["total_mass"] * np.eye(3), rtol=1e-12, atol=1e-12)
    # Gravity on the base translation: −m·gravity (v's linear part is world-frame).
    gravity = np.array(info.get("gravity", [0, 0, -9.81]))
    assert np.allclose(report["g"][0:3], -info["total_mass"] * gravity, rtol=1e-10, atol=1e-10)


def test_mini_cheetah_default_state(moreau):
    report = moreau.json("dynamics", "mini_cheetah")
    check_equation_of_motion(report)
    assert np.allclose(report["v"], 0) and np.allclose(report["tau"], 0)
    assert np.allclose(report["c"], 0)
    assert np.linalg.norm(report["q"][3:7]) == pytest.approx(1.0)


def test_coriolis_is_quadratic_in_v(moreau):
    q, v, tau = mini_cheetah_state()
    once = dynamics(moreau, "mini_cheetah", q, v, tau)
    twice = dynamics(moreau, "mini_cheetah", q, 2 * v, tau)
    still = dynamics(moreau, "mini_cheetah", q, 0 * v, tau)
    assert np.allclose(twice["c"], 4 * np.array(once["c"]), rtol=1e-10, atol=1e-10)
    assert np.allclose(still["c"], 0, atol=1e-12)
    assert np.allclose(once["M"], twice["M"]) and np.allclose(once["g"], twice["g"])


def test_mini_cheetah_contact_jacobians_by_finite_differences(moreau):
    """J v = d/dt p(q ⊕ t v) at t = 0 (central differences)."""
    q, v, _ = mini_cheetah_state()
    report = dynamics(moreau, "mini_cheetah", q, v)
    h = 1e-6
    plus = dynamics(moreau, "mini_cheetah", integrate(q, v, h, True))["contact_positions"]
    minus = dynamics(moreau, "mini_cheetah", integrate(q, v, -h, True))["contact_positions"]
    for name, jacobian in report["contact_jacobians"].items():
        predicted = np.array(jacobian) @ v
        measured = (np.array(plus[name]) - np.array(minus[name])) / (2 * h)
        assert np.allclose(predicted, measured, rtol=1e-6, atol=1e-7), name


def check_gravity_is_potential_gradient(moreau, model, info, q, flags=()):
    """g_k = ∂V/∂(direction k of v), by central differences along the manifold."""
    report = dynamics(moreau, model, q, flags=flags)
    h = 1e-6
    floating = info["floating_base"]
    for k in range(info["nv"]):
        e = np.zeros(info["nv"])
        e[k] = 1.0
        up = dynamics(moreau, model, integrate(q, e, h, floating), flags=flags)
        down = dynamics(moreau, model, integrate(q, e, -h, floating), flags=flags)
        slope = (up["potential_energy"] - down["potential_energy"]) / (2 * h)
        assert report["g"][k] == pytest.approx(slope, rel=1e-6, abs=1e-6), (
            k, report["joint_names"])


def test_mini_cheetah_gravity_is_potential_gradient(moreau):
    info = moreau.json("info", "mini_cheetah")
    q, _, _ = mini_cheetah_state()
    check_gravity_is_potential_gradient(moreau, "mini_cheetah", info, q)


@pytest.mark.parametrize("name", ["pendulum", "double_pendulum", "cartpole", "acrobot"])
def test_builtin_gravity_is_potential_gradient(moreau, name):
    info = moreau.json("info", name)
    q, _, _ = random_state(info, seed=7)
    check_gravity_is_potential_gradient(moreau, name, info, q)


@pytest.mark.parametrize("name", BUILTINS)
def test_builtin_equation_of_motion(moreau, name):
    info = moreau.json("info", name)
    q, v, tau = random_state(info, seed=1)
    report = dynamics(moreau, name, q, v, tau)
    check_shapes(report, info)
    check_equation_of_motion(report)


@pytest.mark.parametrize("path,flags", MODEL_URDFS, ids=[p for p, _ in MODEL_URDFS])
def test_model_urdf_equation_of_motion(moreau, models_dir, path, flags):
    model = models_dir / path
    info = moreau.json("info", model, *flags)
    q, v, tau = random_state(info, seed=2)
    report = dynamics(moreau, model, q, v, tau, flags=flags)
    check_shapes(report, info)
    check_equation_of_motion(report)


def test_drake_pendulum_closed_form(moreau, models_dir):
    """Pendulum.urdf: the arm and arm_com masses hang on theta (axis y); at q = 0.3
    M = Σ m d² and g = Σ m |gravity| d sin q, with numbers read from the URDF."""
    path = models_dir / "pendulum" / "Pendulum.urdf"
    links = {link.get("name"): link for link in ET.parse(path).getroot().findall("link")}
    m_d = m_d2 = 0.0
    for name in ("arm", "arm_com"):  # arm_com is welded to arm at its origin
        inertial = links[name].find("inertial")
        mass = float(inertial.find("mass").get("value"))
        com = [float(x) for x in inertial.find("origin").get("xyz").split()]
        assert com[0] == 0 and com[1] == 0  # straight down the arm
        m_d += mass * -com[2]
        m_d2 += mass * com[2] ** 2
    info = moreau.json("info", path)
    gravity = np.linalg.norm(info.get("gravity", [0, 0, -9.81]))
    report = dynamics(moreau, path, [0.3])
    assert report["joint_names"] == ["theta"]
    assert report["g"][0] == pytest.approx(m_d * gravity * math.sin(0.3), rel=1e-12)
    assert report["M"][0][0] == pytest.approx(m_d2, rel=1e-12)
    # Released from rest: q̈ = −g / M.
    assert report["qacc"][0] == pytest.approx(-m_d * gravity * math.sin(0.3) / m_d2, rel=1e-12)


def rotation(axis, angle):
    axis = np.asarray(axis, dtype=float) / np.linalg.norm(axis)
    K = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + math.sin(angle) * K + (1 - math.cos(angle)) * K @ K


def test_builtin_pendulum_closed_form(moreau):
    """The built-in pendulum, with mass, centre of mass and inertia from its own
    info report: M = aᵀ I_c a + m |a × c|², g = −m gravityᵀ (∂R/∂q c)."""
    info = moreau.json("info", "pendulum")
    assert info["nv"] == 1 and len(info["body_details"]) == 1
    body = info["body_details"][0]
    mass, com, inertia = body["mass"], np.array(body["com"]), np.array(body["inertia_com"])
    axis = np.array(info["joints"][0]["axis"])
    gravity = np.array(info["gravity"])
    q = 0.3
    report = dynamics(moreau, "pendulum", [q])
    expected_M = axis @ inertia @ axis + mass * np.linalg.norm(np.cross(axis, com)) ** 2
    assert report["M"][0][0] == pytest.approx(expected_M, rel=1e-12)
    # V(q) = −m gravity · (R(q) c): g = dV/dq = −m gravity · (a × R(q) c).
    expected_g = -mass * gravity @ np.cross(axis, rotation(axis, q) @ com)
    assert report["g"][0] == pytest.approx(expected_g, rel=1e-12)
    # For the 1 kg bob 1 m below the pivot: m |g| d sin q.
    assert expected_g == pytest.approx(mass * 9.81 * np.linalg.norm(com) * math.sin(q), rel=1e-9)


def test_quaternion_is_normalized_with_a_warning(moreau):
    q, _, _ = mini_cheetah_state()
    q[3:7] *= 2.0
    result = moreau.ok("dynamics", "mini_cheetah", "--q", flag(q), "--json")
    report = json.loads(result.stdout)
    assert np.linalg.norm(report["q"][3:7]) == pytest.approx(1.0, abs=1e-15)
    assert np.allclose(report["q"][3:7], q[3:7] / 2.0, atol=1e-15)
    quaternion_warnings = [w for w in report["warnings"] if "quaternion" in w]
    assert len(quaternion_warnings) == 1
    assert any("quaternion" in line and line.startswith("warning: ")
               for line in result.stderr.splitlines())


def test_nearly_unit_quaternion_has_no_warning(moreau):
    q, _, _ = mini_cheetah_state()
    q[3:7] *= 1.0 + 1e-9
    report = dynamics(moreau, "mini_cheetah", q)
    assert not [w for w in report["warnings"] if "quaternion" in w]


def test_text_report(moreau):
    result = moreau.ok("dynamics", "pendulum", "--q", "0.3", "--v", "0.5", "--tau", "1")
    for word in ("M (1 x 1)", "qacc", "hinge", "tau"):
        assert word in result.stdout


def test_fixed_base_without_dofs(moreau):
    """--base fixed on a single body: nv = 0, empty M, 3 × 0 Jacobians."""
    report = moreau.json("dynamics", "sphere", "--base", "fixed")
    assert (report["nq"], report["nv"]) == (0, 0)
    assert report["M"] == [] and report["qacc"] == []
    for jacobian in report["contact_jacobians"].values():
        assert jacobian == [[], [], []]
