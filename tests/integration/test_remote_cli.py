"""`moreau remote …` against a real moreaud: list, create, step, state, watch,
destroy, and clear one-line errors."""
import json
import os
import subprocess

MOREAU = os.environ["MOREAU_BIN"]


def remote(address, *args, check=True):
    result = subprocess.run([MOREAU, "remote", *args, "--address", address],
                            capture_output=True, text=True, timeout=60)
    if check:
        assert result.returncode == 0, result.stderr
    return result


def test_list_shows_the_builtins(address):
    out = remote(address, "list", "--json").stdout
    models = {m["name"]: m for m in json.loads(out)}
    assert models["mini_cheetah"]["nv"] == 18
    assert models["mini_cheetah"]["actuators"] == 12
    assert "pendulum" in remote(address, "list").stdout


def test_create_step_state_watch_destroy(address, tmp_path):
    created = json.loads(remote(address, "create", "pendulum", "--count", "2", "--control",
                                "torque", "--json").stdout)
    ids = created["instance_ids"]
    assert len(ids) == 2 and created["action_size"] == 1
    obs = json.loads(remote(address, "step", ids[0], "--action", "0.5", "--substeps", "100",
                            "--json").stdout)
    assert obs["steps"] == 100
    assert obs["joint_torques"] == [0.5]
    blob = tmp_path / "state.bin"
    state = json.loads(remote(address, "state", ids[0], "--state-out", str(blob),
                              "--json").stdout)
    assert abs(state["time"] - 0.1) < 1e-12
    assert blob.stat().st_size == state["state_bytes"] > 0
    # The saved state restored into the second instance: same q.
    restored = json.loads(remote(address, "state", ids[1], "--state-in", str(blob),
                                 "--json").stdout)
    assert restored["q"] == state["q"]
    frames = remote(address, "watch", ids[0], "--rate", "50", "--frames", "2").stdout
    assert len(frames.strip().splitlines()) == 2
    assert "t = 0.1000 s" in frames
    assert "destroyed 2" in remote(address, "destroy", *ids).stdout


def test_create_takes_the_simulation_settings(address):
    created = json.loads(remote(address, "create", "pendulum", "--control", "id-constraint",
                                "--id-time-constant", "0.05", "--gear", "10",
                                "--rotor-inertia", "1e-3", "--contact-param",
                                "mu=0.5,max_iterations=300", "--json").stdout)
    assert len(created["instance_ids"]) == 1
    created = json.loads(remote(address, "create", "four_bar", "--loop-solver", "direct",
                                "--json").stdout)
    assert len(created["instance_ids"]) == 1
    for args, words in ((["--loop-solver", "magic"], "magic"),
                        (["--contact-model", "hertz", "--contact-param", "alpha=1"], "alpha"),
                        (["--contact-param", "mu"], "NAME=VALUE"),
                        (["--gear", "-1"], "gear")):
        result = remote(address, "create", "pendulum", *args, check=False)
        assert result.returncode == 1, args
        assert words in result.stderr, (args, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1


def test_errors_are_one_line_naming_the_problem(address):
    result = remote(address, "step", "no-such-id", "--action", "0", check=False)
    assert result.returncode == 1
    assert result.stderr.startswith("moreau: error: no instance with id 'no-such-id'")
    assert len(result.stderr.strip().splitlines()) == 1
    ids = json.loads(remote(address, "create", "pendulum", "--json").stdout)["instance_ids"]
    result = remote(address, "step", ids[0], "--action", "1,2", check=False)
    assert result.returncode == 1 and "size 2, expected 1" in result.stderr
    result = remote(address, "create", "robocop", check=False)
    assert result.returncode == 1 and "robocop" in result.stderr
    result = remote(address, "dance", check=False)
    assert result.returncode == 1 and "unknown remote command 'dance'" in result.stderr


def test_unreachable_server_is_a_clear_error():
    result = subprocess.run([MOREAU, "remote", "list", "--address", "127.0.0.1:1"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 1
    assert "moreaud at 127.0.0.1:1" in result.stderr


MODELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "models")
SETTINGS = """# moreau.v1.Settings, text format
contact_model: "moreau-jor"
dt: 0.002
control_mode: "pd"
kp: 30
contact_parameters { key: "mu" value: 0.6 }
"""


def test_one_settings_file_configures_a_remote_instance_and_a_local_run_alike(address,
                                                                             tmp_path):
    settings = tmp_path / "run.textproto"
    settings.write_text(SETTINGS)
    created = json.loads(remote(address, "create", "mini_cheetah", "--settings", str(settings),
                                "--json").stdout)
    assert created["control_mode"] == "pd" and created["dt"] == 0.002
    instance = created["instance_ids"][0]
    actions = tmp_path / "actions.csv"
    rows = []
    for t in range(12):
        row = [(-0.8 if a % 3 == 1 else 1.6 if a % 3 == 2 else 0.0) + 0.2 * ((t + a) % 5 - 2)
               for a in range(12)]
        rows.append(",".join(repr(x) for x in row))
        remote(address, "step", instance, "--action", rows[-1], "--substeps", "10")
    actions.write_text("\n".join(rows) + "\n")
    remote_blob, local_blob = tmp_path / "remote.bin", tmp_path / "local.bin"
    state = json.loads(remote(address, "state", instance, "--state-out", str(remote_blob),
                              "--json").stdout)
    assert abs(state["time"] - 12 * 10 * 0.002) < 1e-12
    local = subprocess.run([MOREAU, "sim", "mini_cheetah", "--settings", str(settings),
                            "--actions", str(actions), "--action-substeps", "10",
                            "--state-out", str(local_blob)],
                           capture_output=True, text=True, timeout=120)
    assert local.returncode == 0, local.stderr
    # The same contact model, time step, gains, friction and control mode: the
    # same state, bit for bit.
    assert local_blob.read_bytes() == remote_blob.read_bytes()


def test_the_settings_files_controller_runs_remotely_as_locally(address, tmp_path):
    settings = tmp_path / "trot.textproto"
    settings.write_text('controller { kind: "trot" period_steps: 2 '
                        'parameters { key: "start_delay_s" value: 0.1 } }\n')
    created = json.loads(remote(address, "create", "mini_cheetah", "--settings", str(settings),
                                "--json").stdout)
    instance = created["instance_ids"][0]
    # A zero action leaves the trot alone in charge.
    for _ in range(30):
        remote(address, "step", instance, "--action", ",".join(["0"] * 12), "--substeps", "10")
    remote_blob, local_blob = tmp_path / "remote.bin", tmp_path / "local.bin"
    remote(address, "state", instance, "--state-out", str(remote_blob))
    local = subprocess.run([MOREAU, "sim", "mini_cheetah", "--settings", str(settings),
                            "--duration", "0.3", "--state-out", str(local_blob)],
                           capture_output=True, text=True, timeout=120)
    assert local.returncode == 0, local.stderr
    assert local_blob.read_bytes() == remote_blob.read_bytes()
    # The server refuses a controller the model cannot run, by name.
    result = remote(address, "create", "double_pendulum", "--settings", str(settings),
                    check=False)
    assert result.returncode == 1 and "controller 'trot'" in result.stderr, result.stderr


def test_flags_win_over_the_settings_file(address, tmp_path):
    settings = tmp_path / "run.textproto"
    settings.write_text(SETTINGS)
    created = json.loads(remote(address, "create", "mini_cheetah", "--settings", str(settings),
                                "--control-mode", "torque", "--dt", "0.001", "--json").stdout)
    assert created["control_mode"] == "torque" and created["dt"] == 0.001
    # The older spellings of the flags still work.
    created = json.loads(remote(address, "create", "mini_cheetah", "--settings", str(settings),
                                "--control", "id", "--time-step", "0.0005", "--json").stdout)
    assert created["control_mode"] == "id" and created["dt"] == 0.0005


def test_bad_settings_files_are_refused_by_name(address, tmp_path):
    cases = (("dt: fast\n", "line 1, column 5"),
             ("contact_model: \"moreau-jor\"\nfriction: 1\n", "line 2"),
             ("contact_model: \"soft\"\n", "unknown contact model 'soft'"))
    for text, words in cases:
        settings = tmp_path / "bad.textproto"
        settings.write_text(text)
        result = remote(address, "create", "mini_cheetah", "--settings", str(settings),
                        check=False)
        assert result.returncode == 1, text
        assert words in result.stderr, (text, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1
    result = remote(address, "create", "mini_cheetah", "--settings", str(tmp_path / "none"),
                    check=False)
    assert result.returncode == 1 and "cannot open" in result.stderr


def test_create_takes_a_urdf_file(address):
    urdf = os.path.join(MODELS, "mini_cheetah", "mini_cheetah.urdf")
    created = json.loads(remote(address, "create", urdf, "--json").stdout)
    assert created["action_size"] == 12
    result = remote(address, "create", os.path.join(MODELS, "no_such.urdf"), check=False)
    assert result.returncode == 1 and "no_such.urdf" in result.stderr


def test_mesh_writes_the_built_in_models_mesh(address, tmp_path):
    out = tmp_path / "wrist3.stl"
    mesh = "meshes/ur10/collision/wrist3.stl"
    report = json.loads(remote(address, "mesh", "ur10", mesh, "--out", str(out), "--json").stdout)
    expected = open(os.path.join(MODELS, "ur10", mesh), "rb").read()
    assert out.read_bytes() == expected
    assert report == {"model": "ur10", "mesh": mesh, "format": "stl", "bytes": len(expected),
                      "out": str(out)}
    text = remote(address, "mesh", "ur10", mesh, "--out", str(out)).stdout
    assert f"{len(expected)} bytes (stl) written to {out}" in text


def test_mesh_errors(address, tmp_path):
    out = tmp_path / "mesh.stl"
    for args, words in ((["ur10", "meshes/nope.stl", "--out", str(out)],
                         "model 'ur10' has no mesh 'meshes/nope.stl'"),
                        (["mini_cheetah", "meshes/mini_body.obj", "--out", str(out)],
                         "has no compiled-in meshes"),
                        (["ur10", "meshes/ur10/collision/base.stl"], "give --out FILE"),
                        (["ur10"], "usage: moreau remote mesh MODEL MESH --out FILE")):
        result = remote(address, "mesh", *args, check=False)
        assert result.returncode == 1, args
        assert words in result.stderr, (args, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1
    assert not out.exists()
