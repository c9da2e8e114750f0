"""`--collision feet|all` (docs/collision.md) on `moreau info`, `sim` and `dynamics`."""

import pytest


def test_info_all_lists_shapes_and_slots(moreau, models_dir):
    path = models_dir / "unitree_a1" / "a1.urdf"
    feet = moreau.json("info", path)
    assert len(feet["contact_points"]) == 4
    assert all(point["foot"] for point in feet["contact_points"])
    info = moreau.json("info", path, "--collision", "all")
    points = info["contact_points"]
    assert len(points) > 40
    # Feet first, then the rest of the body.
    assert [p["foot"] for p in points[:4]] == [True] * 4
    assert not any(p["foot"] for p in points[4:])
    shapes = info["collision"]
    assert {s["shape"] for s in shapes} == {"box", "cylinder", "sphere"}
    for shape in shapes:
        expected = {"sphere": 1, "box": 8, "cylinder": 8}[shape["shape"]]
        assert shape["slots"] == expected, shape
    assert sum(s["slots"] for s in shapes) == len(points)
    # The text report has the shapes and the number of slots.
    text = moreau.ok("info", path, "--collision", "all").stdout
    assert f"{len(points)} contact slots" in text
    assert "cylinder" in text


def test_info_all_mesh_fallback_warns(moreau):
    info = moreau.json("info", "mini_cheetah", "--collision", "all")
    assert any("inertia box" in w for w in info["warnings"])
    meshes = [s for s in info["collision"] if s["shape"] == "mesh"]
    assert meshes and all("mesh" in s for s in meshes)


def test_collision_flag_errors(moreau):
    message = moreau.fails("info", "mini_cheetah", "--collision", "body", exit_code=2)
    assert "feet" in message and "all" in message
    message = moreau.fails("info", "mini_cheetah", "--collide-links", "wing")
    assert "'wing'" in message


@pytest.mark.parametrize("contact", ["moreau-sor", "least-constraint"])
def test_sim_limp_all(moreau, contact):
    report = moreau.json(
        "sim", "mini_cheetah", "--collision", "all", "--controller", "zero", "--contact", contact,
        "--duration", "0.5",
    )
    assert report


def test_sim_trot_with_whole_body_collision(moreau, models_dir):
    """The legs use the foot slots only: the trot runs as with the feet alone."""
    a1 = models_dir / "unitree_a1" / "a1.urdf"
    feet = moreau.json("sim", a1, "--controller", "trot", "--duration", "2")
    every = moreau.json("sim", a1, "--collision", "all", "--controller", "trot", "--duration", "2")
    assert not every["fell"]
    assert every["final_base_pose"][2] == pytest.approx(feet["final_base_pose"][2], abs=0.02)
    # The Mini Cheetah's shank inertia boxes reach past its toes (the file puts
    # the shank's centre of mass below the toe; docs/collision.md): without them
    # it trots.
    shanks = "shank_fr,shank_fl,shank_hr,shank_hl"
    report = moreau.json(
        "sim", "mini_cheetah", "--collision", "all", "--exclude-links", shanks,
        "--controller", "trot", "--duration", "2",
    )
    assert not report["fell"]


def test_dynamics_all(moreau):
    feet = moreau.json("dynamics", "mini_cheetah")
    every = moreau.json("dynamics", "mini_cheetah", "--collision", "all")
    assert len(every["contact_positions"]) > len(feet["contact_positions"])
