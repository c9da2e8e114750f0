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
