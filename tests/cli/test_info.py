"""`moreau info MODEL [--json]` on every built-in and every URDF in models/."""

import math
import pathlib
import xml.etree.ElementTree as ET

import pytest

from conftest import REPO

BUILTINS = ["mini_cheetah", "pendulum", "double_pendulum", "cartpole", "acrobot", "sphere", "box",
            "ur10"]

# (path under models/, extra flags)
MODEL_URDFS = [
    ("mini_cheetah/mini_cheetah.urdf", []),
    ("unitree_a1/a1.urdf", []),
    ("ur10/ur10_robot.urdf", ["--base", "fixed"]),
    ("pendulum/Pendulum.urdf", []),
    ("double_pendulum/double_pendulum.urdf", []),
    ("acrobot/acrobot.urdf", []),
    ("cartpole/cartpole.urdf", []),
    ("sphere/sphere2.urdf", []),
    ("box/box.urdf", []),
    ("box/cube.urdf", []),
]

BUILTIN_MINI_CHEETAH_URDF = REPO / "engine" / "model" / "robots" / "mini_cheetah.urdf"

TOP_KEYS = {
    "name",
    "nq",
    "nv",
    "floating_base",
    "total_mass",
    "bodies",
    "joints",
    "contact_points",
    "actuators",
    "warnings",
}
JOINT_SIZES = {"free": (7, 6), "revolute": (1, 1), "continuous": (1, 1), "prismatic": (1, 1)}


def urdf_total_mass(path):
    """Σ <link><inertial><mass value> — computed independently of the loader."""
    root = ET.parse(path).getroot()
    return sum(
        float(mass.get("value"))
        for link in root.findall("link")
        for mass in link.findall("inertial/mass")
    )


def check_report(info):
    """Checks the structure and internal consistency of an info report."""
    assert TOP_KEYS <= info.keys(), f"missing keys: {TOP_KEYS - info.keys()}"
    assert isinstance(info["name"], str)
    assert isinstance(info["floating_base"], bool)
    assert isinstance(info["total_mass"], float | int) and info["total_mass"] >= 0
    assert all(isinstance(name, str) for name in info["bodies"])
    assert all(isinstance(w, str) for w in info["warnings"])

    # nq, nv are the sums of the joints' sizes, and q/v indices are contiguous.
    q_index = v_index = 0
    for joint in info["joints"]:
        assert {"name", "type", "q_index", "v_index"} <= joint.keys()
        assert joint["type"] in JOINT_SIZES, joint
        assert joint["q_index"] == q_index, joint
        assert joint["v_index"] == v_index, joint
        nq, nv = JOINT_SIZES[joint["type"]]
        q_index += nq
        v_index += nv
    assert info["nq"] == q_index
    assert info["nv"] == v_index
    free = [joint for joint in info["joints"] if joint["type"] == "free"]
    assert len(free) == int(info["floating_base"])
    if free:
        assert info["joints"][0]["type"] == "free"
    names = [joint["name"] for joint in info["joints"]]
    assert len(set(names)) == len(names), "joint names must be unique"

    for point in info["contact_points"]:
        assert {"name", "body", "position", "radius"} <= point.keys()
        assert isinstance(point["name"], str)
        assert point["body"] in info["bodies"] or point["body"] == "world", point
        assert len(point["position"]) == 3
        assert all(math.isfinite(x) for x in point["position"])
        # Spheres have a radius; box corners (free boxes) are points.
        assert point["radius"] > 0 or "_corner" in point["name"], point
        assert point["radius"] >= 0

    for shape in info["visual"]:
        assert {"link", "body", "shape", "size", "position", "rotation", "material",
                "rgba"} <= shape.keys()
        assert shape["body"] in info["bodies"] or shape["body"] == "world", shape
        assert shape["shape"] in ("box", "sphere", "cylinder", "mesh"), shape
        assert ("mesh" in shape) == (shape["shape"] == "mesh"), shape
        assert len(shape["position"]) == 3
        assert math.isclose(sum(x * x for x in shape["rotation"]), 1.0, rel_tol=1e-12)
        assert shape["rgba"] is None or (
            len(shape["rgba"]) == 4 and all(0 <= x <= 1 for x in shape["rgba"])), shape

    for actuator in info["actuators"]:
        assert {"name", "joint", "gear", "rotor_inertia", "armature", "effort_limit"} <= actuator.keys()
        assert actuator["armature"] == pytest.approx(
            actuator["gear"] ** 2 * actuator["rotor_inertia"])
        assert actuator["joint"] in names, actuator
        limit = actuator["effort_limit"]
        assert limit is None or limit > 0, actuator


@pytest.mark.parametrize("name", BUILTINS)
def test_builtin_info_json(moreau, name):
    info = moreau.json("info", name)
    check_report(info)
    assert info["total_mass"] > 0


@pytest.mark.parametrize("path,flags", MODEL_URDFS, ids=[p for p, _ in MODEL_URDFS])
def test_model_urdf_info_json(moreau, models_dir, path, flags):
    file = models_dir / path
    info = moreau.json("info", file, *flags)
    check_report(info)
    assert info["total_mass"] == pytest.approx(urdf_total_mass(file), rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("source", ["builtin", "file"])
def test_mini_cheetah(moreau, models_dir, source):
    if source == "builtin":
        model, urdf = "mini_cheetah", BUILTIN_MINI_CHEETAH_URDF
    else:
        model = urdf = models_dir / "mini_cheetah" / "mini_cheetah.urdf"
    info = moreau.json("info", model)
    assert info["nq"] == 19
    assert info["nv"] == 18
    assert info["floating_base"] is True
    assert info["joints"][0]["type"] == "free"
    assert [j["type"] for j in info["joints"][1:]] == ["continuous"] * 12
    assert len(info["contact_points"]) == 4
    for point in info["contact_points"]:
        assert point["radius"] == pytest.approx(0.015)
    assert len(info["actuators"]) == 12
    assert info["total_mass"] == pytest.approx(urdf_total_mass(urdf), rel=1e-12)
    assert info["total_mass"] == pytest.approx(8.852, abs=1e-9)


def test_mini_cheetah_actuated_joints(moreau):
    info = moreau.json("info", "mini_cheetah")
    actuated = [actuator["joint"] for actuator in info["actuators"]]
    assert actuated == [joint["name"] for joint in info["joints"][1:]]


# (model, floating by default, (nq, nv) with --base fixed, (nq, nv) with --base floating).
# A root link named "world" is dropped by --base floating: its child floats
# and the joint to it goes (the built-in pendulum keeps no hinge).
BASE_CASES = [
    ("mini_cheetah", True, (12, 12), (19, 18)),
    ("sphere", True, (0, 0), (7, 6)),
    ("box", True, (0, 0), (7, 6)),
    ("pendulum", False, (1, 1), (7, 6)),
    ("cartpole", False, (2, 2), (8, 7)),
]


@pytest.mark.parametrize("model,default_floating,fixed_size,floating_size", BASE_CASES)
def test_base_override(moreau, model, default_floating, fixed_size, floating_size):
    auto = moreau.json("info", model)
    fixed = moreau.json("info", model, "--base", "fixed")
    floating = moreau.json("info", model, "--base=floating")
    assert auto["floating_base"] is default_floating
    assert fixed["floating_base"] is False
    assert floating["floating_base"] is True
    assert (fixed["nq"], fixed["nv"]) == fixed_size
    assert (floating["nq"], floating["nv"]) == floating_size
    expected = floating if default_floating else fixed
    assert (auto["nq"], auto["nv"]) == (expected["nq"], expected["nv"])
    for report in (auto, fixed, floating):
        check_report(report)


def test_base_floating_drops_world_root(moreau, models_dir):
    pendulum = models_dir / "pendulum" / "Pendulum.urdf"
    auto = moreau.json("info", pendulum)
    floating = moreau.json("info", pendulum, "--base", "floating")
    assert auto["floating_base"] is False
    assert floating["floating_base"] is True
    # world -(fixed)- base -(theta)- arm: base floats, theta stays.
    assert (floating["nq"], floating["nv"]) == (8, 7)


def test_base_override_on_urdf_file(moreau, models_dir):
    a1 = models_dir / "unitree_a1" / "a1.urdf"
    assert moreau.json("info", a1)["nq"] == 19
    fixed = moreau.json("info", a1, "--base", "fixed")
    assert fixed["floating_base"] is False
    assert (fixed["nq"], fixed["nv"]) == (12, 12)


def test_contact_links_override(moreau):
    default = moreau.json("info", "mini_cheetah")
    feet = [point["name"] for point in default["contact_points"]]
    one = moreau.json("info", "mini_cheetah", "--contact-links", feet[0])
    assert [point["name"] for point in one["contact_points"]] == [feet[0]]
    # The underscore spelling of the flag works too.
    two = moreau.json("info", "mini_cheetah", f"--contact_links={feet[0]},{feet[1]}")
    assert [point["name"] for point in two["contact_points"]] == feet[:2]


def test_text_report(moreau):
    result = moreau.ok("info", "mini_cheetah")
    text = result.stdout
    info = moreau.json("info", "mini_cheetah")
    assert "nq: 19" in text and "nv: 18" in text
    for joint in info["joints"]:
        assert joint["name"] in text
    for point in info["contact_points"]:
        assert point["name"] in text
    # Warnings go to stderr, one line each.
    assert all(line.startswith("warning: ") for line in result.stderr.splitlines())
    assert len(result.stderr.splitlines()) == len(info["warnings"])


def test_json_is_the_only_stdout(moreau):
    """--json prints exactly one JSON document (warnings go to stderr)."""
    result = moreau.ok("info", "pendulum", "--json")
    assert result.stdout.lstrip().startswith("{")
    assert result.stdout.rstrip().endswith("}")


@pytest.mark.parametrize("args", [[], ["help"], ["--help"], ["-h"]])
def test_help(moreau, args):
    result = moreau.ok(*args)
    for command in ("info", "dynamics", "help"):
        assert command in result.stdout
    assert "w, x, y, z" in result.stdout or "w,x,y,z" in result.stdout
    assert result.stderr == ""


@pytest.mark.parametrize("args", [["help", "info"], ["info", "--help"], ["dynamics", "-h"]])
def test_command_help(moreau, args):
    result = moreau.ok(*args)
    assert "--base" in result.stdout
    assert "--contact-links" in result.stdout
    assert "--json" in result.stdout


ESCAPE_URDF = """<?xml version="1.0"?>
<robot name="q&quot;uote\\\\back&#9;tab \u00fc\u2192 &lt;x&gt;">
  <link name="base">
    <inertial>
      <mass value="1"/>
      <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>
    </inertial>
  </link>
</robot>
"""


def test_json_string_escaping(moreau, tmp_path):
    path = tmp_path / "escape.urdf"
    path.write_text(ESCAPE_URDF, encoding="utf-8")
    info = moreau.json("info", path)
    assert info["name"] == 'q"uote\\\\back\ttab \u00fc\u2192 <x>'


def test_json_is_valid_utf8_for_invalid_input_bytes(moreau, tmp_path):
    """A name with bytes that are not UTF-8 still gives valid JSON (U+FFFD)."""
    path = tmp_path / "latin1.urdf"
    path.write_bytes(ESCAPE_URDF.encode("utf-8").replace(b"q&quot;uote", b"caf\xe9"))
    info = moreau.json("info", path)  # decodes stdout strictly as UTF-8
    assert info["name"].startswith("caf\ufffd")


def test_controller_tuning_json(moreau, models_dir):
    """The stand/trot tuning (docs/controllers.md): paper-001 for the Mini
    Cheetah, derived for the A1, none for a model without legs."""
    cheetah = moreau.json("info", "mini_cheetah")["controller"]
    assert cheetah["available"] is True and cheetah["trot"] is True
    assert cheetah["requested_tuning"] == "auto" and cheetah["tuning"] == "paper-001"
    assert all(j["kp"] == 40 and j["kd"] == 1 for j in cheetah["joints"])
    assert cheetah["weight_feedforward"] is False
    assert cheetah["step_height"] == pytest.approx(0.06)

    a1 = moreau.json("info", models_dir / "unitree_a1" / "a1.urdf")["controller"]
    assert a1["tuning"] == "derived" and a1["weight_feedforward"] is True
    assert 0.45 <= a1["stand_fraction"] <= 0.9
    assert a1["step_height"] == pytest.approx(0.15 * a1["leg_length"])
    for joint in a1["joints"]:
        assert joint["kp"] > 0 and joint["kd"] > 0 and joint["lever"] > 0
        assert joint["kp"] <= 33.5 / 0.2 + 1e-9
        assert joint["kp_cap_2_5ms"] > 0

    derived = moreau.json("info", "mini_cheetah", "--tuning", "derived")["controller"]
    assert derived["requested_tuning"] == "derived" and derived["tuning"] == "derived"

    pendulum = moreau.json("info", "pendulum")["controller"]
    assert pendulum["available"] is False and pendulum["reason"]


def test_controller_tuning_text(moreau):
    text = moreau.ok("info", "mini_cheetah", "--tuning", "derived").stdout
    assert "controller tuning" in text and "tuning: derived" in text
    assert "weight feed-forward: on" in text and "kp cap at 2.5 ms" in text


def test_unknown_tuning_names_the_valid_ones(moreau):
    message = moreau.fails("info", "mini_cheetah", "--tuning", "stiff")
    assert "--tuning" in message and "'stiff'" in message
    assert "auto, paper-001, derived" in message


# A robot no test has seen: a coloured box on a base welded to the world, a
# cylinder on a rotated fixed child of the arm, a mesh under an undefined
# material.
VISUAL_URDF = """<robot name="lamp">
  <material name="brass"><color rgba="0.8 0.6 0.2 1"/></material>
  <link name="world"/>
  <joint name="weld" type="fixed"><parent link="world"/><child link="base"/></joint>
  <link name="base">
    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><origin xyz="0 0 0.1"/><geometry><box size="0.2 0.2 0.2"/></geometry><material name="brass"/></visual>
  </link>
  <joint name="hinge" type="revolute"><parent link="base"/><child link="arm"/>
    <axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="5" velocity="2"/></joint>
  <link name="arm">
    <inertial><mass value="0.5"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><mesh filename="meshes/arm.stl" scale="0.5 0.5 0.5"/></geometry><material name="nowhere"/></visual>
  </link>
  <joint name="tip_joint" type="fixed"><parent link="arm"/><child link="tip"/>
    <origin xyz="0 0 0.4" rpy="0 1.5707963267948966 0"/></joint>
  <link name="tip">
    <visual><geometry><cylinder radius="0.02" length="0.1"/></geometry>
      <material name="red"><color rgba="1 0 0 1"/></material></visual>
  </link>
</robot>
"""


def test_visual_shapes_json_and_text(moreau, tmp_path):
    path = tmp_path / "lamp.urdf"
    path.write_text(VISUAL_URDF)
    info = moreau.json("info", path)
    check_report(info)
    box, mesh, cylinder = info["visual"]
    assert (box["link"], box["body"], box["shape"]) == ("base", "world", "box")
    assert box["size"] == [0.2, 0.2, 0.2] and box["position"] == [0, 0, 0.1]
    assert (box["material"], box["rgba"]) == ("brass", [0.8, 0.6, 0.2, 1])
    assert (mesh["body"], mesh["mesh"], mesh["size"]) == ("arm", "meshes/arm.stl", [0.5] * 3)
    assert (mesh["material"], mesh["rgba"]) == ("nowhere", None)
    # The tip is merged into the arm: its cylinder sits at the fixed joint's
    # origin, turned 90 degrees about y.
    assert (cylinder["link"], cylinder["body"], cylinder["rgba"]) == ("tip", "arm", [1, 0, 0, 1])
    assert cylinder["position"] == pytest.approx([0, 0, 0.4])
    assert cylinder["rotation"] == pytest.approx([math.sqrt(0.5), 0, math.sqrt(0.5), 0])
    assert any("material 'nowhere' is not defined" in w for w in info["warnings"])

    result = moreau.ok("info", path)
    assert "visual shapes (3):" in result.stdout
    assert "meshes/arm.stl scale" in result.stdout and "brass [0.8, 0.6, 0.2, 1]" in result.stdout
    assert "material 'nowhere' is not defined" in result.stderr


def test_ur10_builtin_draws_its_meshes(moreau):
    info = moreau.json("info", "ur10")
    assert (info["nq"], info["nv"], info["floating_base"]) == (6, 6, False)
    assert info["total_mass"] == pytest.approx(32.7)
    assert len(info["visual"]) == 7
    for shape in info["visual"]:
        assert shape["shape"] == "mesh" and shape["mesh"].startswith("meshes/ur10/collision/")
        assert (shape["material"], shape["rgba"]) == ("LightGrey", [0.7, 0.7, 0.7, 1])
    assert info["warnings"] == []
    assert "visual shapes (7):" in moreau.ok("info", "ur10").stdout
