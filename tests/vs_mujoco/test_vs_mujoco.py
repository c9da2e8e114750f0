"""Tests of moreau_vs_mujoco (bench/vs_mujoco): a 1 s drop in both engines.

ctest passes by environment:
  MOREAU_VS_MUJOCO_BIN  path of the built moreau_vs_mujoco program
  MOREAU_MODELS_DIR     the third-party robot descriptions (default: models/)
Run by hand from the repository root with, e.g.,
  MOREAU_VS_MUJOCO_BIN=build/bench/vs_mujoco/moreau_vs_mujoco \
  /usr/bin/python3 -m pytest -p no:cacheprovider tests/vs_mujoco
"""

import json
import os
import pathlib
import subprocess

import pytest

BIN = os.environ.get("MOREAU_VS_MUJOCO_BIN", "")
MODELS = pathlib.Path(os.environ.get("MOREAU_MODELS_DIR",
                                     pathlib.Path(__file__).resolve().parents[2] / "models"))
A1 = MODELS / "unitree_a1" / "a1.urdf"


def run(*args, timeout=240):
    if not BIN:
        pytest.skip("MOREAU_VS_MUJOCO_BIN is not set (MuJoCo not found at configure time)")
    return subprocess.run([BIN, *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, check=False)


@pytest.fixture(scope="module")
def drop(tmp_path_factory):
    plots = tmp_path_factory.mktemp("plots")
    result = run("--model", A1, "--scenarios", "drop", "--duration", 1, "--dt", 0.001,
                 "--collision", "feet", "--contacts", "moreau-sor", "--cones", "elliptic", "--json",
                 "--plots", plots)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout), plots, result.stderr


def test_drop_runs_in_both_engines(drop):
    report, _, stderr = drop
    assert "total mass Moreau" in stderr
    assert report["moreau_total_mass_kg"] == pytest.approx(report["mujoco_total_mass_kg"], rel=1e-6)
    [entry] = report["scenarios"]
    assert entry["scenario"] == "drop"
    assert entry["dt"] == 0.001
    assert entry["steps"] == 1000
    assert entry["moreau_contact"] == "moreau-sor"
    assert entry["mujoco_cone"] == "elliptic"
    assert not entry["moreau_diverged"]
    assert not entry["mujoco"]["elliptic"]["diverged"]
    assert entry["moreau_steps_per_s"] > 0
    assert entry["mujoco_steps_per_s"] > 0
    assert entry["speed_ratio"] == pytest.approx(
        entry["moreau_steps_per_s"] / entry["mujoco_steps_per_s"], rel=1e-6)


def test_trunks_rest_within_1_cm(drop):
    report, _, _ = drop
    agreement = report["agreement"]["drop"]
    moreau = agreement["moreau_final_trunk_pos_m"]
    mujoco = agreement["mujoco_final_trunk_pos_m"]
    # Both stand on their feet (neither fell through the ground) ...
    assert moreau[2] > 0.1 and mujoco[2] > 0.1
    assert not agreement["moreau_fell"] and not agreement["mujoco_fell"]
    # ... at the same place.
    assert agreement["final_trunk_distance_m"] < 0.01, (moreau, mujoco)
    assert "trot" not in report  # only the scenarios asked for


def test_traces_written(drop):
    _, plots, _ = drop
    lines = (plots / "drop.csv").read_text().splitlines()
    assert lines[0].startswith("time,moreau_x,")
    assert len(lines) == 1 + 101  # t = 0 and every 10 ms


def test_bad_input_is_named():
    result = run("--scenarios", "drop,cartwheel", "--duration", 1)
    assert result.returncode == 2
    assert "--scenarios cartwheel" in result.stderr
    result = run("--model", "/nonexistent.urdf")
    assert result.returncode == 2
    assert "--model /nonexistent.urdf: no such file" in result.stderr
    result = run("--dt", "0")
    assert result.returncode == 2
    assert "--dt 0" in result.stderr
    result = run("--collision", "feet,knees")
    assert result.returncode == 2
    assert "--collision knees" in result.stderr


@pytest.fixture(scope="module")
def limp():
    result = run("--model", A1, "--scenarios", "limp", "--duration", 1.5, "--dt", 0.001,
                 "--collision", "feet,all", "--contacts", "moreau-sor", "--cones", "elliptic",
                 "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout), result.stderr


def test_limp_robot_rests_on_its_body_in_both_engines_with_whole_body_collision(limp):
    """Zero torque from standing: the legs fold. Colliding every geom, both
    engines bring the trunk to rest on the ground at the same place; with the
    feet alone, both let the trunk through the ground alike."""
    report, stderr = limp
    assert "collision all" in stderr and "geoms touch the ground" in stderr
    collisions = sorted(entry["collision"] for entry in report["scenarios"])
    assert collisions == ["all", "feet"]
    whole = report["agreement_all"]["limp"]
    moreau, mujoco = whole["moreau_final_trunk_pos_m"], whole["mujoco_final_trunk_pos_m"]
    # The A1's trunk box is 0.114 m tall: its centre rests about 5.7 cm up
    # (on the thighs and hips a little higher), in both engines.
    assert 0.04 < moreau[2] < 0.15 and 0.04 < mujoco[2] < 0.15, (moreau, mujoco)
    assert abs(moreau[2] - mujoco[2]) < 0.01, (moreau, mujoco)
    feet = report["agreement"]["limp"]
    # Only the feet collide: the trunk ends below its resting height with all,
    # in both engines.
    assert feet["moreau_final_trunk_pos_m"][2] < moreau[2] - 0.02, feet
    assert feet["mujoco_final_trunk_pos_m"][2] < mujoco[2] - 0.02, feet


# Paper 001's trot agreement (its simulator against MuJoCo): trunk position
# (63, 17, 4.6) mm, orientation (1.5, 1.3, 2.7) deg, normal force 5.65 N.
PAPER_001_POS_MM = (63.0, 17.0, 4.6)
PAPER_001_ROT_DEG = (1.5, 1.3, 2.7)
PAPER_001_GRF_N = 5.65


def test_trot_agrees_about_as_closely_as_paper_001():
    """The 10 s trot, moreau-sor against the elliptic cone at 1 ms (BENCHMARKS.md
    gives the figures: within 001's). The closed loop is chaotic and the force
    error sits near 001's, so this guard allows 1.5 x 001's figures: it catches
    a regression such as the earlier trot's (82, 122, 6) mm, 7.5 deg yaw,
    13 N without failing on rounding-level changes."""
    result = run("--model", A1, "--scenarios", "trot", "--duration", 10, "--dt", 0.001,
                 "--collision", "feet", "--contacts", "moreau-sor", "--cones", "elliptic", "--json")
    assert result.returncode == 0, result.stderr
    trot = json.loads(result.stdout)["trot"]
    assert not trot["moreau_fell"] and not trot["mujoco_fell"]
    pos_mm = [1e3 * e for e in trot["trunk_pos_mae_m"]]
    for got, paper in zip(pos_mm, PAPER_001_POS_MM):
        assert got <= 1.5 * paper, pos_mm
    for got, paper in zip(trot["trunk_rot_mae_deg"], PAPER_001_ROT_DEG):
        assert got <= 1.5 * paper, trot["trunk_rot_mae_deg"]
    assert trot["grf_mae_n"] <= 1.5 * PAPER_001_GRF_N, trot["grf_mae_n"]
    assert trot["contact_agreement"] >= 90.0
