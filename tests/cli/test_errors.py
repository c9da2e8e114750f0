"""Bad inputs: the command never crashes; it prints exactly one line,
"moreau: error: <message>", naming the problem, and exits 1 (2 for a malformed
command line)."""

import random

import pytest

# A small valid robot; each bad file below breaks one thing in it.
VALID_URDF = """<?xml version="1.0"?>
<robot name="two_links">
  <link name="base">
    <inertial>
      <mass value="2"/>
      <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/>
    </inertial>
  </link>
  <joint name="hinge" type="revolute">
    <parent link="base"/>
    <child link="arm"/>
    <origin xyz="0 0 0.5"/>
    <axis xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="10" velocity="5"/>
  </joint>
  <link name="arm">
    <inertial>
      <origin xyz="0 0 0.25"/>
      <mass value="1"/>
      <inertia ixx="0.02" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.001"/>
    </inertial>
  </link>
</robot>
"""

CYCLE_URDF = VALID_URDF.replace(
    "</robot>",
    """  <link name="tip"><inertial><mass value="1"/>
    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <joint name="arm_to_tip" type="fixed"><parent link="arm"/><child link="tip"/></joint>
  <joint name="tip_to_base" type="fixed"><parent link="tip"/><child link="base"/></joint>
</robot>""",
)

# (id, file text or bytes, words the message must contain (any of each tuple))
BAD_FILES = [
    ("missing_mass", VALID_URDF.replace('<mass value="1"/>', ""), [("mass",), ("arm",)]),
    ("negative_inertia", VALID_URDF.replace('ixx="0.02"', 'ixx="-1"'), [("ixx", "inertia"), ("arm",)]),
    ("nan_mass", VALID_URDF.replace('<mass value="1"/>', '<mass value="nan"/>'),
     [("mass",), ("nan",), ("arm",)]),
    ("unknown_joint_type", VALID_URDF.replace('type="revolute"', 'type="hinge"'),
     [("hinge",)]),
    ("cycle", CYCLE_URDF, [("cycle", "loop", "root", "parent", "two joints")]),
    ("empty", "", [("empty",)]),
    ("blank", "  \n\t\n", [("empty",)]),
    ("not_urdf", "<html><body>hello</body></html>", [("robot",)]),
]


def write(tmp_path, name, content):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return path


def assert_mentions(message, words):
    lower = message.lower()
    for alternatives in words:
        assert any(word.lower() in lower for word in alternatives), (
            f"{message!r} mentions none of {alternatives}")


def test_valid_template_loads(moreau, tmp_path):
    """The base of the bad files is itself fine, so each failure below is the
    one thing it breaks."""
    path = write(tmp_path, "valid.urdf", VALID_URDF)
    info = moreau.json("info", path)
    assert (info["nq"], info["nv"]) == (8, 7)
    moreau.json("dynamics", path)


@pytest.mark.parametrize("command", ["info", "dynamics"])
@pytest.mark.parametrize("name,content,words", BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_bad_file(moreau, tmp_path, command, name, content, words):
    path = write(tmp_path, f"{name}.urdf", content)
    message = moreau.fails(command, path)
    assert_mentions(message, words)


def test_truncated_file(moreau, models_dir, tmp_path):
    text = (models_dir / "unitree_a1" / "a1.urdf").read_bytes()
    path = write(tmp_path, "a1_truncated.urdf", text[: len(text) // 2])
    message = moreau.fails("info", path)
    assert_mentions(message, [("truncated", "malformed", "xml", "parse")])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_binary_file(moreau, tmp_path, seed):
    rng = random.Random(seed)
    data = bytes(rng.randrange(256) for _ in range(4096)) + b"\0\0\0"
    path = write(tmp_path, "noise.urdf", b"\0" + data)
    message = moreau.fails("info", path)
    assert_mentions(message, [("binary", "text", "parse", "xml", "utf")])


@pytest.mark.parametrize("command", ["info", "dynamics", "sim"])
def test_deeply_nested_file(moreau, tmp_path, command):
    """Elements nested 200000 deep, which overflowed the recursive XML parser's
    stack, are refused by the depth limit before any parser sees them."""
    path = write(tmp_path, "deep.urdf", '<robot name="r">' + "<a>" * 200000 + "</robot>")
    message = moreau.fails(command, path)
    assert_mentions(message, [("65 deep",), ("at most 64",), ("--max-xml-depth",)])


def test_too_many_links(moreau, tmp_path):
    links = "".join(f'<link name="l{k}"/>' for k in range(1001))
    path = write(tmp_path, "many_links.urdf", f'<robot name="r">{links}</robot>')
    message = moreau.fails("info", path)
    assert_mentions(message, [("1001 links",), ("at most 1000",), ("--max-links",)])


def test_nonexistent_path(moreau, tmp_path):
    path = tmp_path / "no_such_dir" / "robot.urdf"
    message = moreau.fails("info", path)
    assert str(path) in message


def test_directory_is_not_a_model(moreau, tmp_path):
    moreau.fails("info", tmp_path)


@pytest.mark.parametrize("name", ["mini_cheeta", "Pendulum", "doublependulum"])
def test_unknown_builtin_like_name(moreau, name):
    message = moreau.fails("info", name)
    assert name in message


def test_unknown_contact_link(moreau):
    message = moreau.fails("info", "mini_cheetah", "--contact-links", "no_such_link")
    assert "no_such_link" in message


def test_empty_contact_link_entry(moreau):
    message = moreau.fails("info", "mini_cheetah", "--contact-links", "toe_fr,,toe_fl")
    assert "--contact-links" in message


# --- dynamics: state flags ---


def test_wrong_q_size(moreau):
    message = moreau.fails("dynamics", "mini_cheetah", "--q", "0,0,0.3,1,0,0,0")
    assert_mentions(message, [("--q",), ("19",), ("7",)])


@pytest.mark.parametrize("flag,size", [("--v", 18), ("--tau", 18)])
def test_wrong_v_and_tau_size(moreau, flag, size):
    message = moreau.fails("dynamics", "mini_cheetah", flag, ",".join(["0"] * (size + 1)))
    assert_mentions(message, [(flag,), (str(size),), (str(size + 1),)])


def test_non_numeric_v(moreau):
    message = moreau.fails("dynamics", "pendulum", "--v", "abc")
    assert_mentions(message, [("--v",), ("abc",)])


def test_nan_tau(moreau):
    message = moreau.fails("dynamics", "pendulum", "--tau", "nan")
    assert_mentions(message, [("--tau",), ("nan",)])


@pytest.mark.parametrize("value", ["inf", "-inf", "1e999"])
def test_infinite_q(moreau, value):
    message = moreau.fails("dynamics", "pendulum", "--q", value)
    assert_mentions(message, [("--q",), (value,)])


def test_empty_entry(moreau):
    message = moreau.fails("dynamics", "double_pendulum", "--q", "0.1,,0.2")
    assert_mentions(message, [("--q",), ("entry 2",)])


def test_zero_quaternion(moreau):
    q = ["0"] * 19
    message = moreau.fails("dynamics", "mini_cheetah", "--q", ",".join(q))
    assert_mentions(message, [("--q",), ("quaternion",), ("zero",)])


def test_mini_cheetah_error_has_no_warning_lines(moreau):
    """The model's warnings are not printed when the command fails."""
    moreau.fails("dynamics", "mini_cheetah", "--v", "1,2")


# --- malformed command lines: exit 2 ---


@pytest.mark.parametrize(
    "args,words",
    [
        (["simulate", "mini_cheetah"], [("simulate",), ("info",)]),
        (["--json"], [("--json",)]),
        (["info"], [("info",), ("MODEL",)]),
        (["info", "a", "b"], [("info",)]),
        (["info", "pendulum", "--bogus"], [("--bogus",)]),
        (["info", "pendulum", "--q", "1"], [("--q",)]),
        (["info", "pendulum", "--base", "sideways"], [("--base",), ("sideways",)]),
        (["dynamics", "pendulum", "--q"], [("--q",)]),
        (["dynamics", "pendulum", "--json=maybe"], [("--json",)]),
        (["help", "nope"], [("nope",)]),
    ],
)
def test_usage_errors(moreau, args, words):
    message = moreau.fails(*args, exit_code=2)
    assert_mentions(message, words)
