"""``moreau.Env``: one environment with Gymnasium's API shape."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from moreau.client import DEFAULT_TIMEOUT_S, TlsArgument
from moreau.local import LocalServer
from moreau.replicas import Resolver
from moreau.spaces import Box
from moreau.tasks import Task
from moreau.vector_env import EnvState, VectorEnv


class Env:
    """One environment of a task on one moreaud.

    Args:
        task: ``"stand"``, ``"walk"``, ``"reach"`` or a :class:`moreau.tasks.Task`.
        address: None (the default): in this process (see
            :mod:`moreau.local`); else the server, ``host:port`` or a
            :class:`moreau.LocalServer`; or a list of addresses or a
            ``dns:///NAME:PORT`` target (see :mod:`moreau.replicas`), of
            which the environment uses the first (sorted) replica.
        timeout: deadline of every call (s).
        tls, token: TLS and the bearer token, as for :class:`moreau.Client`.
        resolver: in place of the system resolver for ``dns:`` targets.
        task_options: passed to the task (see :mod:`moreau.tasks`).

    ``reset(seed=None, options=None) → (obs, info)``;
    ``step(action) → (obs, reward, terminated, truncated, info)``; no
    autoreset: call :meth:`reset` when an episode ends. ``observation_space``
    and ``action_space`` are Boxes built from the server's Spec (``spec``).
    """

    metadata: dict[str, Any] = {"render_modes": []}
    render_mode = None

    def __init__(self, task: str | Task, address: str | LocalServer | Sequence[str] | None = None,
                 *,
                 timeout: float = DEFAULT_TIMEOUT_S, tls: TlsArgument = None,
                 token: str | None = None, resolver: Resolver | None = None,
                 **task_options: Any) -> None:
        self._vec = VectorEnv(task, 1, servers=address, timeout=timeout, autoreset=False,
                              tls=tls, token=token, resolver=resolver, **task_options)
        self.task = self._vec.task
        self.spec = self._vec.spec
        self.observation_space: Box = self._vec.single_observation_space
        self.action_space: Box = self._vec.single_action_space
        self.client = self._vec.clients[0]

    @property
    def instance_id(self) -> str:
        """The server instance behind this environment."""
        return self._vec.instance_ids[0]

    @property
    def unwrapped(self) -> "Env":
        return self

    def reset(self, *, seed: int | None = None,
              options: Mapping[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Starts an episode; ``seed`` re-seeds the environment."""
        obs, info = self._vec.reset(seed=seed, options=options)
        return obs[0], {key: value[0] for key, value in info.items()}

    def step(self, action: np.ndarray) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """One policy step: ``action`` (nu,) in [-1, 1]."""
        obs, reward, terminated, truncated, info = self._vec.step(
            np.asarray(action, dtype=np.float64).reshape(1, -1))
        return (obs[0], float(reward[0]), bool(terminated[0]), bool(truncated[0]),
                {key: value[0] for key, value in info.items()})

    def targets(self, action: np.ndarray) -> np.ndarray:
        """The joint position targets an action maps to."""
        return self.task.targets(np.asarray(action, dtype=np.float64).reshape(1, -1))[0]

    def action_for_targets(self, targets: np.ndarray) -> np.ndarray:
        """The action whose joint targets are ``targets`` (inside the action range)."""
        return (np.asarray(targets) - self.task.pose) / self.task.action_scale

    @property
    def observation(self) -> Any:
        """The latest raw server observation (a :class:`moreau.Observation`)."""
        return self._vec.observation_batch[0]

    def get_state(self) -> EnvState:
        """A snapshot to branch from (see VectorEnv.get_state)."""
        return self._vec.get_state(0)

    def set_state(self, state: EnvState) -> np.ndarray:
        """Returns to a snapshot; gives its observation."""
        return self._vec.set_state(0, state)

    def close(self) -> None:
        """Destroys the instance and closes the connection."""
        self._vec.close()

    def __enter__(self) -> "Env":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"moreau.Env({self.task.name!r}, {self.client.address!r})"
