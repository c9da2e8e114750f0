"""Observations as numpy arrays: one instance (:class:`Observation`) or a batch
(:class:`ObservationBatch`, every array with a leading instance axis).

Field meanings, units and sizes are those of ``moreau.v1.Observation``
(proto/moreau/v1/simulator.proto): ``q`` (nq), ``v`` (nv), the per-actuator
``joint_positions``/``joint_velocities``/``joint_torques`` (the action's order),
``base_pose`` (x y z qw qx qy qz) and ``base_twist`` (linear in the world frame,
angular in the base frame; both empty for a fixed base), per contact point
``contact_normal_forces`` (N) and ``contact_flags``, and ``link_positions``
(x y z in the world frame of each body of the instance's
``Settings.observed_links``, in that order; empty without them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np


@dataclass
class Observation:
    """One instance's observation (1-D arrays)."""

    instance_id: str
    time: float
    steps: int
    q: np.ndarray
    v: np.ndarray
    joint_positions: np.ndarray
    joint_velocities: np.ndarray
    joint_torques: np.ndarray
    base_pose: np.ndarray
    base_twist: np.ndarray
    contact_normal_forces: np.ndarray
    contact_flags: np.ndarray
    solver_iterations: int = 0
    solver_converged: bool = False
    status_code: int = 0
    status_message: str = ""
    substeps_done: int = 0
    link_positions: np.ndarray = field(default_factory=lambda: np.zeros(0))

    @property
    def ok(self) -> bool:
        """True when the instance's step succeeded (status code 0)."""
        return self.status_code == 0

    @classmethod
    def from_proto(cls, msg: Any) -> "Observation":
        """Converts a ``moreau.v1.Observation`` message."""
        return cls(
            instance_id=msg.instance_id,
            time=msg.time,
            steps=msg.steps,
            q=np.array(msg.q, dtype=np.float64),
            v=np.array(msg.v, dtype=np.float64),
            joint_positions=np.array(msg.joint_positions, dtype=np.float64),
            joint_velocities=np.array(msg.joint_velocities, dtype=np.float64),
            joint_torques=np.array(msg.joint_torques, dtype=np.float64),
            base_pose=np.array(msg.base_pose, dtype=np.float64),
            base_twist=np.array(msg.base_twist, dtype=np.float64),
            contact_normal_forces=np.array(msg.contact_normal_forces, dtype=np.float64),
            contact_flags=np.array(msg.contact_flags, dtype=bool),
            solver_iterations=msg.solver_iterations,
            solver_converged=msg.solver_converged,
            status_code=msg.status.code,
            status_message=msg.status.message,
            substeps_done=msg.substeps_done,
            link_positions=np.array(msg.link_positions, dtype=np.float64),
        )


@dataclass
class ObservationBatch:
    """Observations of n instances, stacked: every array has shape (n, …).

    Rows of failed instances (``status_code != 0``) without data hold NaN.
    """

    instance_ids: list[str]
    time: np.ndarray  # (n,)
    steps: np.ndarray  # (n,) int64
    q: np.ndarray  # (n, nq)
    v: np.ndarray  # (n, nv)
    joint_positions: np.ndarray  # (n, nu)
    joint_velocities: np.ndarray  # (n, nu)
    joint_torques: np.ndarray  # (n, nu)
    base_pose: np.ndarray  # (n, 7) or (n, 0)
    base_twist: np.ndarray  # (n, 6) or (n, 0)
    contact_normal_forces: np.ndarray  # (n, nc)
    contact_flags: np.ndarray  # (n, nc) bool
    solver_iterations: np.ndarray  # (n,) int32
    solver_converged: np.ndarray  # (n,) bool
    status_code: np.ndarray  # (n,) int32, google.rpc.Code, 0 = OK
    status_message: list[str] = field(default_factory=list)
    substeps_done: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    link_positions: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))  # (n, 3·links)

    ARRAY_FIELDS = (
        "time", "steps", "q", "v", "joint_positions", "joint_velocities", "joint_torques",
        "base_pose", "base_twist", "contact_normal_forces", "contact_flags",
        "solver_iterations", "solver_converged", "status_code", "substeps_done",
        "link_positions",
    )

    def __len__(self) -> int:
        return len(self.instance_ids)

    @property
    def ok(self) -> np.ndarray:
        """(n,) bool: which instances' steps succeeded."""
        return self.status_code == 0

    def __getitem__(self, i: int) -> Observation:
        """Row i as an :class:`Observation` (copies)."""
        values = {name: getattr(self, name)[i].copy() for name in self.ARRAY_FIELDS}
        for name in ("time",):
            values[name] = float(values[name])
        for name in ("steps", "solver_iterations", "status_code", "substeps_done"):
            values[name] = int(values[name])
        values["solver_converged"] = bool(values["solver_converged"])
        return Observation(instance_id=self.instance_ids[i],
                           status_message=self.status_message[i], **values)

    def assign(self, rows: np.ndarray | slice, other: "ObservationBatch") -> None:
        """Overwrites rows ``rows`` (indices or a slice) of this batch with the
        rows of ``other``. Fields ``other`` lacks entirely (a batch whose
        instances all failed) become NaN or 0."""
        for name in self.ARRAY_FIELDS:
            source, target = getattr(other, name), getattr(self, name)
            if source.shape[1:] != target.shape[1:] and source.size == 0:
                target[rows] = np.nan if target.dtype.kind == "f" else 0
            else:
                target[rows] = source
        self.set_labels(rows, other.instance_ids, other.status_message)

    def set_labels(self, rows: np.ndarray | slice, instance_ids: list[str],
                   messages: list[str]) -> None:
        """Sets the instance ids and status messages of rows ``rows``."""
        if isinstance(rows, slice):
            self.instance_ids[rows] = instance_ids
            self.status_message[rows] = messages
            return
        for k, i in enumerate(rows):
            self.instance_ids[i] = instance_ids[k]
            self.status_message[i] = messages[k]

    def assign_one(self, i: int, obs: Observation) -> None:
        """Overwrites row i with a single observation."""
        for name in self.ARRAY_FIELDS:
            getattr(self, name)[i] = getattr(obs, name)
        self.instance_ids[i] = obs.instance_id
        self.status_message[i] = obs.status_message

    # The dtype of each array (float64 when not listed).
    DTYPES = {"steps": np.int64, "contact_flags": bool, "solver_iterations": np.int32,
              "solver_converged": bool, "status_code": np.int32, "substeps_done": np.int32}
    PER_INSTANCE = ("time", "steps", "solver_iterations", "solver_converged", "status_code",
                    "substeps_done")

    @classmethod
    def _rows(cls, name: str, rows: list[Any]) -> np.ndarray:
        """Array ``name`` of the batch from one value (or sequence) per
        instance. A row shorter than the longest (an instance that could not
        be stepped sends no data) is NaN, or 0 for integers and flags."""
        dtype = np.dtype(cls.DTYPES.get(name, np.float64))
        if name in cls.PER_INSTANCE:
            return np.array(rows, dtype=dtype).reshape(len(rows))
        widths = [len(row) for row in rows]
        width = max(widths, default=0)
        if min(widths, default=0) == width:
            return np.array(rows, dtype=dtype).reshape(len(rows), width)
        out = np.full((len(rows), width), np.nan) if dtype.kind == "f" else np.zeros(
            (len(rows), width), dtype)
        for i, row in enumerate(rows):
            if widths[i] == width:
                out[i] = row
        return out

    @classmethod
    def from_protos(cls, messages: Sequence[Any]) -> "ObservationBatch":
        """Stacks ``moreau.v1.Observation`` messages (rows padded as in
        :meth:`stack`)."""
        values = {name: cls._rows(name, [getattr(m, name)[:] for m in messages])
                  for name in cls.ARRAY_FIELDS if name not in cls.PER_INSTANCE}
        values.update({name: cls._rows(name, [getattr(m, name) for m in messages])
                       for name in cls.PER_INSTANCE if name != "status_code"})
        values["status_code"] = cls._rows("status_code", [m.status.code for m in messages])
        return cls(instance_ids=[m.instance_id for m in messages],
                   status_message=[m.status.message for m in messages], **values)

    @classmethod
    def stack(cls, observations: list[Observation]) -> "ObservationBatch":
        """Stacks single observations (of different sizes: see :meth:`_rows`)."""
        values = {name: cls._rows(name, [getattr(o, name) for o in observations])
                  for name in cls.ARRAY_FIELDS}
        return cls(instance_ids=[o.instance_id for o in observations],
                   status_message=[o.status_message for o in observations], **values)
