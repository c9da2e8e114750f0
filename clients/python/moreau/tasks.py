"""Built-in tasks: what the robot is, how the policy acts, what it sees, and
how it is rewarded. Everything but the physics runs in the client, vectorized
over the environments of a :class:`moreau.VectorEnv`.

Common to every task:

* **Acting.** The policy acts at ``policy_hz`` (50 Hz); its action ``a`` in
  [-1, 1]^nu becomes joint position targets ``q* = pose + action_scale · a``
  (clipped to the joint limits of the server's Spec), which the server's joint
  PD tracks at the simulation rate for ``substeps = 1 / (policy_hz · dt)``
  sub-steps (decimation), as on real legged robots.
* **Episodes** start from the model's default pose perturbed by seeded noise
  (``reset_noise``: joints ± noise rad, velocities ± noise) and are truncated
  after ``max_episode_steps`` policy steps. An instance that diverges (the
  server's FAILED_PRECONDITION) terminates its episode with
  ``info["diverged"]``.
* **Randomness** (reset noise seeds, commands, targets) comes from each
  environment's own generator, seeded ``seed + i``: the same seed gives the
  same trajectories.
* **Kinematics** is the server's: link positions come with the observations
  (``Settings.observed_links``) or, at other configurations, from Query
  (``positions_at``); the client computes none.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Mapping

import numpy as np

from moreau.client import make_settings, model_source
from moreau.observation import ObservationBatch

# positions_at(rows, q): the world positions (n, 3·links) of the observed links
# (settings ``observed_links``, the columns of ObservationBatch.link_positions)
# in the environments ``rows`` (n,) at the configurations ``q`` (n, nq), at
# rest, computed by their servers (Query at q); VectorEnv provides it.
PositionsAt = Callable[[np.ndarray, np.ndarray], np.ndarray]

_COS_60 = 0.5

# Standing joint pose (abduction, hip, knee per leg, actuator order) of the
# built-in quadrupeds: knees bent, the base ≈ 0.28 m up on the Mini Cheetah.
STAND_POSES: dict[str, tuple[float, ...]] = {
    "mini_cheetah": (0.0, -0.8, 1.6) * 4,
}
STAND_HEIGHTS: dict[str, float] = {"mini_cheetah": 0.28}


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise a × b of (n, 3) arrays (np.cross costs several times more for
    the small batches a step handles)."""
    a0, a1, a2 = a[:, 0], a[:, 1], a[:, 2]
    b0, b1, b2 = b[:, 0], b[:, 1], b[:, 2]
    return np.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=1)


def quat_rotate_inverse(quat: np.ndarray, vec: np.ndarray) -> np.ndarray:
    """R(quat)ᵀ vec for unit quaternions (n, 4) as (w, x, y, z) and (n, 3)."""
    w = quat[:, :1]
    u = quat[:, 1:]
    t = 2.0 * _cross(u, vec)
    return vec - w * t + _cross(u, t)


def projected_gravity(quat: np.ndarray) -> np.ndarray:
    """The unit gravity direction (0, 0, −1) in the base frame: (n, 3)."""
    w, x, y, z = quat[:, 0], quat[:, 1], quat[:, 2], quat[:, 3]
    return -np.stack([2.0 * (x * z - w * y), 2.0 * (y * z + w * x),
                      1.0 - 2.0 * (x * x + y * y)], axis=1)


def native_base_terms() -> Callable[[np.ndarray, np.ndarray], np.ndarray] | None:
    """The compiled module's LeggedTask.base_terms (``moreau._local.legged_base_terms``),
    or None without the module (numpy computes the same bits)."""
    try:
        from moreau._local import legged_base_terms
    except ImportError:
        return None
    return legged_base_terms


class Task:
    """The interface VectorEnv drives. Subclasses set the model, the
    settings, the observation and the reward.

    Args:
        max_episode_steps: policy steps before truncation.
        policy_hz: policy rate; the server runs ``substeps`` PD steps per action.
        reset_noise: amplitude of the seeded reset noise.
        action_scale: rad per unit of action.
        settings: overrides of the task's moreau.v1.Settings (dict keys as in
            :func:`moreau.make_settings`).
    """

    name = "task"
    default_settings: dict[str, Any] = {}

    def __init__(self, *, max_episode_steps: int = 1000, policy_hz: float = 50.0,
                 reset_noise: float = 0.05, action_scale: float = 0.5,
                 settings: Mapping[str, Any] | None = None) -> None:
        self.max_episode_steps = int(max_episode_steps)
        self.policy_hz = float(policy_hz)
        self.reset_noise = float(reset_noise)
        self.action_scale = float(action_scale)
        merged = {"control_mode": "pd", **self.default_settings, **dict(settings or {})}
        if merged["control_mode"] != "pd":
            raise ValueError("tasks act through joint position targets: control_mode must be 'pd'")
        self._settings = make_settings(merged)
        self.spec: Any = None
        self.num_envs = 0

    # -- set-up --

    def model_source(self) -> Any:
        raise NotImplementedError

    def settings(self) -> Any:
        return self._settings

    @property
    def dt(self) -> float:
        return self._settings.dt or 1e-3

    @property
    def substeps(self) -> int:
        """Simulation steps per policy step (the decimation)."""
        return max(1, int(round(1.0 / (self.policy_hz * self.dt))))

    def bind(self, spec: Any, num_envs: int, positions_at: PositionsAt | None = None) -> None:
        """Called once the instances exist, with the server's Spec and the
        servers' kinematics at given configurations."""
        self.spec = spec
        self.num_envs = num_envs
        self.positions_at = positions_at
        self.action_size = spec.action.size
        self.action_labels = list(spec.action.labels)
        self.target_lower = np.array(spec.action_lower, dtype=np.float64)
        self.target_upper = np.array(spec.action_upper, dtype=np.float64)
        self.pose = np.zeros(self.action_size)

    @property
    def observation_labels(self) -> list[str]:
        raise NotImplementedError

    # -- per step --

    def targets(self, actions: np.ndarray) -> np.ndarray:
        """Joint position targets (n, nu) for actions (n, nu)."""
        # np.minimum/np.maximum: np.clip's argument checks cost more than the
        # clipping for these small arrays.
        q = self.pose + self.action_scale * np.minimum(np.maximum(actions, -1.0), 1.0)
        return np.minimum(np.maximum(q, self.target_lower), self.target_upper)

    def begin_episodes(self, rows: np.ndarray, rngs: list[np.random.Generator]) -> None:
        """Draws per-episode quantities (commands, targets) for ``rows``."""

    def observe(self, obs: ObservationBatch, last_actions: np.ndarray) -> np.ndarray:
        """The policy's observation (n, d) as float32."""
        raise NotImplementedError

    def evaluate(self, obs: ObservationBatch, actions: np.ndarray,
                 last_actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """(reward (n,), terminated (n,), info arrays) after a step."""
        raise NotImplementedError

    def outputs(self, obs: ObservationBatch, actions: np.ndarray, last_actions: np.ndarray,
                next_last_actions: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray], np.ndarray]:
        """What a step returns, in one call: ``evaluate(obs, actions,
        last_actions)`` and ``observe(obs, next_last_actions)`` (subclasses
        share the work of the two)."""
        reward, terminated, info = self.evaluate(obs, actions, last_actions)
        return reward, terminated, info, self.observe(obs, next_last_actions)

    # -- branching --

    def env_state(self, i: int) -> dict[str, np.ndarray]:
        """The client-side per-episode state of env i (commands, targets)."""
        return {}

    def set_env_state(self, i: int, state: Mapping[str, np.ndarray]) -> None:
        """Restores what :meth:`env_state` returned."""


class LeggedTask(Task):
    """Shared by ``stand`` and ``walk``: a floating-base legged robot.

    Observation (float32; ``obs_labels`` names each entry):
        base height (1); gravity direction in the base frame (3); base linear
        velocity in the base frame (3); base angular velocity in the base
        frame (3); joint positions minus the standing pose (nu); joint
        velocities (nu); the previous action (nu).
    Action: ``pose = stand pose``, ``action_scale`` 0.5 rad.
    Termination ("fell"): base height below ⅓ of the nominal height, or a
    tilt above 60°, or divergence.

    Args:
        model: a built-in legged model (default ``mini_cheetah``).
        stand_pose: joint targets of the standing pose (actuator order);
            known for the built-in quadrupeds.
        base_height: the nominal standing base height (m).
    """

    default_settings: dict[str, Any] = {"dt": 1e-3}

    def __init__(self, model: str = "mini_cheetah", *, stand_pose: Any = None,
                 base_height: float | None = None, **options: Any) -> None:
        super().__init__(**options)
        self.model = model
        pose = stand_pose if stand_pose is not None else STAND_POSES.get(model)
        if pose is None:
            raise ValueError(f"no standing pose known for '{model}': pass stand_pose=")
        self.stand_pose = np.asarray(pose, dtype=np.float64)
        height = base_height if base_height is not None else STAND_HEIGHTS.get(model)
        if height is None:
            raise ValueError(f"no nominal base height known for '{model}': pass base_height=")
        self.base_height = float(height)
        self._native_terms: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None

    def model_source(self) -> Any:
        return model_source(self.model)

    def bind(self, spec: Any, num_envs: int, positions_at: PositionsAt | None = None) -> None:
        super().bind(spec, num_envs, positions_at)
        self._native_terms = native_base_terms()
        if not spec.model.floating_base:
            raise ValueError(f"task '{self.name}' needs a floating-base model")
        if self.stand_pose.shape != (self.action_size,):
            raise ValueError(f"stand_pose has {self.stand_pose.size} entries, the model "
                             f"has {self.action_size} actuators")
        self.pose = self.stand_pose

    @property
    def observation_labels(self) -> list[str]:
        return (["base_height", "gravity_x", "gravity_y", "gravity_z",
                 "lin_vel_x", "lin_vel_y", "lin_vel_z", "ang_vel_x", "ang_vel_y", "ang_vel_z"] +
                [f"joint_pos/{a}" for a in self.action_labels] +
                [f"joint_vel/{a}" for a in self.action_labels] +
                [f"last_action/{a}" for a in self.action_labels])

    def base_terms(self, obs: ObservationBatch) -> dict[str, np.ndarray]:
        """Height, gravity direction, base-frame velocities, cos(tilt); with
        the compiled module, computed by it (the same bits) and the first
        four also as one (n, 10) block, ``"block"``."""
        if self._native_terms is not None:
            block = self._native_terms(obs.base_pose, obs.base_twist)
            gravity = block[:, 1:4]
            return {"height": block[:, 0], "gravity": gravity, "lin_vel": block[:, 4:7],
                    "ang_vel": block[:, 7:10], "cos_tilt": -gravity[:, 2], "block": block}
        quat = obs.base_pose[:, 3:7]
        gravity = projected_gravity(quat)
        return {
            "height": obs.base_pose[:, 2],
            "gravity": gravity,
            "lin_vel": quat_rotate_inverse(quat, obs.base_twist[:, :3]),
            "ang_vel": obs.base_twist[:, 3:6],
            "cos_tilt": -gravity[:, 2],
        }

    def observe(self, obs: ObservationBatch, last_actions: np.ndarray) -> np.ndarray:
        return self._observe(obs, last_actions, self.base_terms(obs))

    def evaluate(self, obs: ObservationBatch, actions: np.ndarray,
                 last_actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        return self._evaluate(obs, actions, last_actions, self.base_terms(obs))

    def outputs(self, obs: ObservationBatch, actions: np.ndarray, last_actions: np.ndarray,
                next_last_actions: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray], np.ndarray]:
        t = self.base_terms(obs)  # once for both
        reward, terminated, info = self._evaluate(obs, actions, last_actions, t)
        return reward, terminated, info, self._observe(obs, next_last_actions, t)

    def _evaluate(self, obs: ObservationBatch, actions: np.ndarray, last_actions: np.ndarray,
                  t: dict[str, np.ndarray]
                  ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        raise NotImplementedError

    def _observe(self, obs: ObservationBatch, last_actions: np.ndarray,
                 t: dict[str, np.ndarray], extra: tuple[np.ndarray, ...] = ()) -> np.ndarray:
        base = ([t["block"]] if "block" in t else
                [t["height"][:, None], t["gravity"], t["lin_vel"], t["ang_vel"]])
        return np.concatenate(
            [*base, obs.joint_positions - self.pose, obs.joint_velocities, last_actions, *extra],
            axis=1, dtype=np.float32)

    def fell(self, t: dict[str, np.ndarray]) -> np.ndarray:
        # A NaN height or tilt compares False: fell (no warning for NaN
        # comparisons in numpy ≥ 1.24).
        return ~((t["height"] >= self.base_height / 3.0) & (t["cos_tilt"] >= _COS_60))


class StandTask(LeggedTask):
    """``stand``: hold the nominal base height and a level base.

    Reward per step:
        exp(−((z − h)/0.05)²)                      height
        + max(cos tilt, 0)                         upright
        + 0.5 · exp(−(|v|² + 0.1 |ω|²) / 0.25)      still
        − 0.01 · |a − a_prev|²                     action rate
    with v, ω the base's linear and angular velocity (base frame).
    """

    name = "stand"

    def _evaluate(self, obs: ObservationBatch, actions: np.ndarray, last_actions: np.ndarray,
                  t: dict[str, np.ndarray]
                  ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        height = np.exp(-((t["height"] - self.base_height) / 0.05) ** 2)
        upright = np.maximum(t["cos_tilt"], 0.0)
        still = np.exp(-(np.sum(t["lin_vel"] ** 2, axis=1) +
                         0.1 * np.sum(t["ang_vel"] ** 2, axis=1)) / 0.25)
        rate = np.sum((actions - last_actions) ** 2, axis=1)
        reward = height + upright + 0.5 * still - 0.01 * rate
        return reward, self.fell(t), {"base_height": t["height"]}


class WalkTask(LeggedTask):
    """``walk``: track a commanded forward velocity.

    Each episode draws a command v* uniformly in ``command`` (m/s; a number
    for a fixed command). The observation ends with v*.

    Reward per step:
        2 · exp(−(v_x − v*)² / 0.1)                 forward tracking
        + 0.5 · exp(−(v_y² + ω_z²) / 0.1)           no drift, no turning
        + 0.5 · max(cos tilt, 0)                    upright
        + 0.25 · exp(−((z − h)/0.05)²)              height
        − 0.01 · |a − a_prev|²                      action rate
    with v, ω in the base frame.
    """

    name = "walk"

    def __init__(self, model: str = "mini_cheetah", *,
                 command: float | tuple[float, float] = (0.3, 1.0), **options: Any) -> None:
        super().__init__(model, **options)
        low, high = (command, command) if np.isscalar(command) else command
        self.command_range = (float(low), float(high))

    def bind(self, spec: Any, num_envs: int, positions_at: PositionsAt | None = None) -> None:
        super().bind(spec, num_envs, positions_at)
        self.command = np.full(num_envs, np.mean(self.command_range))

    @property
    def observation_labels(self) -> list[str]:
        return super().observation_labels + ["command_vx"]

    def begin_episodes(self, rows: np.ndarray, rngs: list[np.random.Generator]) -> None:
        for i in rows:
            self.command[i] = rngs[i].uniform(*self.command_range)

    def _observe(self, obs: ObservationBatch, last_actions: np.ndarray,
                 t: dict[str, np.ndarray]) -> np.ndarray:
        return super()._observe(obs, last_actions, t, (self.command[:, None],))

    def _evaluate(self, obs: ObservationBatch, actions: np.ndarray, last_actions: np.ndarray,
                  t: dict[str, np.ndarray]
                  ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        vx = t["lin_vel"][:, 0]
        track = np.exp(-((vx - self.command) ** 2) / 0.1)
        drift = np.exp(-(t["lin_vel"][:, 1] ** 2 + t["ang_vel"][:, 2] ** 2) / 0.1)
        upright = np.maximum(t["cos_tilt"], 0.0)
        height = np.exp(-((t["height"] - self.base_height) / 0.05) ** 2)
        rate = np.sum((actions - last_actions) ** 2, axis=1)
        reward = 2.0 * track + 0.5 * drift + 0.5 * upright + 0.25 * height - 0.01 * rate
        return reward, self.fell(t), {"base_height": t["height"], "forward_velocity": vx,
                                      "command": self.command.copy()}

    def env_state(self, i: int) -> dict[str, np.ndarray]:
        return {"command": np.array(self.command[i])}

    def set_env_state(self, i: int, state: Mapping[str, np.ndarray]) -> None:
        self.command[i] = state["command"]


def default_ur10_urdf() -> Path:
    """Where ``reach`` looks for the UR10 URDF: $MOREAU_UR10_URDF if set, else
    ``models/ur10/ur10_robot.urdf`` inside this package (where the installed
    package carries it: pip install ./clients/python), else the
    repository's ``models/ur10/ur10_robot.urdf`` (the package's source tree is
    clients/python/moreau)."""
    if os.environ.get("MOREAU_UR10_URDF"):
        return Path(os.environ["MOREAU_UR10_URDF"])
    package = Path(__file__).resolve().parent
    relative = Path("models") / "ur10" / "ur10_robot.urdf"
    if (package / relative).is_file():
        return package / relative
    return package.parents[2] / relative


class ReachTask(Task):
    """``reach``: bring the UR10's end effector to a target point.

    Each episode draws a reachable target: the end-effector position at a
    random configuration within ±0.8 · action_scale of the home pose, which
    the server computes (Query at that configuration). The end effector's
    position comes with every observation: the task has the server observe
    ``ee_link`` (``Settings.observed_links``).

    Observation (float32): joint positions minus the home pose (6); joint
    velocities (6); end-effector position (3); target (3); target − end
    effector (3); previous action (6). Positions in the world frame, where
    the fixed base sits at the origin (m).
    Action: ``pose = home``, ``action_scale`` 1 rad.
    Reward per step: −d + 0.5 · [d < 0.05 m] − 0.01 · |a − a_prev|², d the
    end-effector distance to the target. No termination but divergence
    (``info["success"]`` reports d < 0.05 m); truncation at 250 steps (5 s).

    Settings: dt = 0.2 ms, kp = 1000 N m/rad, kd = 5 N m s/rad. One gain pair
    drives every joint, and the PD is explicit: kd · dt must stay below
    about twice the lightest link's inertia (wrist 3, 5.7e-4 kg m²), which a
    1 ms step with a damping able to hold the shoulder would violate.

    Args:
        urdf_path: the UR10 URDF (default: :func:`default_ur10_urdf`).
        ee_link: the end-effector link.
        home: the home joint pose (6).
    """

    name = "reach"
    default_settings: dict[str, Any] = {"dt": 2e-4, "kp": 1000.0, "kd": 5.0}
    HOME = (0.0, -1.2, 1.6, -0.4, 1.5708, 0.0)

    def __init__(self, *, urdf_path: str | Path | None = None, ee_link: str = "ee_link",
                 home: Any = HOME, max_episode_steps: int = 250, action_scale: float = 1.0,
                 settings: Mapping[str, Any] | None = None, **options: Any) -> None:
        settings = dict(settings or {})
        observed = list(settings.get("observed_links") or [])
        if ee_link not in observed:
            observed.append(ee_link)
        settings["observed_links"] = observed
        super().__init__(max_episode_steps=max_episode_steps, action_scale=action_scale,
                         settings=settings, **options)
        self.urdf_path = Path(urdf_path) if urdf_path is not None else default_ur10_urdf()
        if not self.urdf_path.is_file():
            raise FileNotFoundError(
                f"reach: no UR10 URDF at {self.urdf_path} (set urdf_path= or "
                "$MOREAU_UR10_URDF)")
        self.urdf = self.urdf_path.read_text()
        self.ee_link = ee_link
        # The end effector's columns of ObservationBatch.link_positions.
        k = observed.index(ee_link)
        self.ee_columns = slice(3 * k, 3 * k + 3)
        self.home = np.asarray(home, dtype=np.float64)

    def model_source(self) -> Any:
        return model_source(urdf=self.urdf, base="fixed")

    def bind(self, spec: Any, num_envs: int, positions_at: PositionsAt | None = None) -> None:
        super().bind(spec, num_envs, positions_at)
        if positions_at is None:
            raise ValueError("reach draws its targets with the servers' kinematics: "
                             "bind(..., positions_at=) (VectorEnv provides it)")
        if self.home.shape != (self.action_size,):
            raise ValueError(f"home has {self.home.size} entries, the model has "
                             f"{self.action_size} actuators")
        self.pose = self.home
        joint_by_name = {j.name: j for j in spec.model.joints}
        actuated = {a.name: joint_by_name[a.joint].q_index for a in spec.model.actuators}
        self.actuator_q = np.array([actuated[label] for label in self.action_labels])
        self.q_default = np.array(spec.model.q_default, dtype=np.float64)
        home = self.end_effector_at(np.zeros(1, dtype=np.int64), self.home[None, :])
        self.target = np.tile(home, (num_envs, 1))

    def end_effector_at(self, rows: np.ndarray, joint_positions: np.ndarray) -> np.ndarray:
        """End-effector positions (n, 3) of envs ``rows`` (n,) for
        actuator-ordered joint positions (n, nu), from their servers."""
        q = np.tile(self.q_default, (len(joint_positions), 1))
        q[:, self.actuator_q] = joint_positions
        return self.positions_at(rows, q)[:, self.ee_columns]

    def end_effector(self, obs: ObservationBatch) -> np.ndarray:
        """The end-effector positions (n, 3) the servers observed."""
        return obs.link_positions[:, self.ee_columns]

    @property
    def observation_labels(self) -> list[str]:
        xyz = ("x", "y", "z")
        return ([f"joint_pos/{a}" for a in self.action_labels] +
                [f"joint_vel/{a}" for a in self.action_labels] +
                [f"ee_{c}" for c in xyz] + [f"target_{c}" for c in xyz] +
                [f"error_{c}" for c in xyz] +
                [f"last_action/{a}" for a in self.action_labels])

    def begin_episodes(self, rows: np.ndarray, rngs: list[np.random.Generator]) -> None:
        if len(rows) == 0:
            return
        q = np.stack([self.home + 0.8 * self.action_scale *
                      rngs[i].uniform(-1.0, 1.0, self.action_size) for i in rows])
        self.target[rows] = self.end_effector_at(rows, q)

    def observe(self, obs: ObservationBatch, last_actions: np.ndarray) -> np.ndarray:
        ee = self.end_effector(obs)
        return np.concatenate(
            [obs.joint_positions - self.pose, obs.joint_velocities, ee, self.target,
             self.target - ee, last_actions], axis=1).astype(np.float32)

    def evaluate(self, obs: ObservationBatch, actions: np.ndarray,
                 last_actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        ee = self.end_effector(obs)
        distance = np.linalg.norm(self.target - ee, axis=1)
        success = distance < 0.05
        rate = np.sum((actions - last_actions) ** 2, axis=1)
        reward = -distance + 0.5 * success - 0.01 * rate
        terminated = np.zeros(len(distance), dtype=bool)
        return reward, terminated, {"distance": distance, "success": success}

    def env_state(self, i: int) -> dict[str, np.ndarray]:
        return {"target": self.target[i].copy()}

    def set_env_state(self, i: int, state: Mapping[str, np.ndarray]) -> None:
        self.target[i] = state["target"]


TASKS: dict[str, type[Task]] = {"stand": StandTask, "walk": WalkTask, "reach": ReachTask}


def make_task(task: str | Task, **options: Any) -> Task:
    """A task by name (``stand``, ``walk``, ``reach``) with options, or the
    given Task instance."""
    if isinstance(task, Task):
        if options:
            raise ValueError("options are for a task given by name")
        return task
    try:
        return TASKS[task](**options)
    except KeyError:
        raise ValueError(f"unknown task '{task}' (expected one of {', '.join(TASKS)})") from None
