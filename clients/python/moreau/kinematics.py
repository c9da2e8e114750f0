"""Forward kinematics of a serial URDF chain in numpy, batched.

The ``reach`` task needs the end-effector position every policy step; asking
the server (Query) costs one round trip per instance, so the client computes
it from the same URDF text it sends: the chain of joints from the root link
to the end-effector link, each joint ``origin`` (xyz, rpy) followed by its
motion about/along ``axis``. Tests check it against Query's body poses.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass

import numpy as np


def _floats(text: str | None, default: tuple[float, ...]) -> np.ndarray:
    return np.array([float(x) for x in text.split()]) if text else np.array(default)


def rpy_matrix(rpy: np.ndarray) -> np.ndarray:
    """URDF's fixed-axis roll-pitch-yaw: R = Rz(yaw) Ry(pitch) Rx(roll)."""
    r, p, y = rpy
    cr, sr, cp, sp, cy, sy = np.cos(r), np.sin(r), np.cos(p), np.sin(p), np.cos(y), np.sin(y)
    return np.array([
        [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
        [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
        [-sp, cp * sr, cp * cr],
    ])


def axis_angle_matrices(axis: np.ndarray, angles: np.ndarray) -> np.ndarray:
    """Rotations about a unit ``axis`` by ``angles`` (n,): (n, 3, 3)."""
    x, y, z = axis
    c, s = np.cos(angles), np.sin(angles)
    t = 1.0 - c
    out = np.empty((len(angles), 3, 3))
    out[:, 0, 0] = t * x * x + c
    out[:, 0, 1] = t * x * y - s * z
    out[:, 0, 2] = t * x * z + s * y
    out[:, 1, 0] = t * x * y + s * z
    out[:, 1, 1] = t * y * y + c
    out[:, 1, 2] = t * y * z - s * x
    out[:, 2, 0] = t * x * z - s * y
    out[:, 2, 1] = t * y * z + s * x
    out[:, 2, 2] = t * z * z + c
    return out


@dataclass
class ChainJoint:
    name: str
    kind: str  # "revolute", "continuous", "prismatic" or "fixed"
    rotation: np.ndarray  # (3, 3), origin rpy
    translation: np.ndarray  # (3,), origin xyz
    axis: np.ndarray  # (3,), unit


class SerialChain:
    """The joints from the root link of a URDF to ``tip_link``.

    Args:
        urdf: URDF text.
        tip_link: the end link (e.g. ``ee_link``).
    """

    def __init__(self, urdf: str, tip_link: str) -> None:
        root = ET.fromstring(urdf)
        by_child = {}
        for joint in root.findall("joint"):
            by_child[joint.find("child").get("link")] = joint
        links = {link.get("name") for link in root.findall("link")}
        if tip_link not in links:
            raise ValueError(f"the URDF has no link '{tip_link}'")
        chain: list[ChainJoint] = []
        link = tip_link
        while link in by_child:
            joint = by_child[link]
            origin = joint.find("origin")
            axis_element = joint.find("axis")
            axis = _floats(axis_element.get("xyz") if axis_element is not None else None,
                           (1.0, 0.0, 0.0))
            chain.append(ChainJoint(
                name=joint.get("name"), kind=joint.get("type"),
                rotation=rpy_matrix(_floats(origin.get("rpy") if origin is not None else None,
                                            (0.0, 0.0, 0.0))),
                translation=_floats(origin.get("xyz") if origin is not None else None,
                                    (0.0, 0.0, 0.0)),
                axis=axis / np.linalg.norm(axis)))
            link = joint.find("parent").get("link")
        self.root_link = link
        self.tip_link = tip_link
        self.joints = chain[::-1]
        self.moving = [j.name for j in self.joints if j.kind != "fixed"]

    def forward(self, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Tip pose in the root frame for joint positions (n, len(moving)), in
        the order of ``self.moving``: (positions (n, 3), rotations (n, 3, 3))."""
        positions = np.atleast_2d(np.asarray(positions, dtype=np.float64))
        n = positions.shape[0]
        rotation = np.broadcast_to(np.eye(3), (n, 3, 3)).copy()
        translation = np.zeros((n, 3))
        k = 0
        for joint in self.joints:
            translation = translation + rotation @ joint.translation
            rotation = rotation @ joint.rotation
            if joint.kind == "fixed":
                continue
            value = positions[:, k]
            k += 1
            if joint.kind == "prismatic":
                translation = translation + value[:, None] * (rotation @ joint.axis)
            else:
                rotation = rotation @ axis_angle_matrices(joint.axis, value)
        return translation, rotation
