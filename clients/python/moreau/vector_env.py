"""``moreau.VectorEnv``: many environments over one or more moreaud servers,
in the shape of Gymnasium's vector API and EnvPool's two modes.

``servers`` is a list of ``host:port`` addresses or a ``dns:///NAME:PORT``
target resolving to every replica (see :mod:`moreau.replicas`). Environments
are spread over the servers in contiguous blocks whose sizes differ by at
most one (server k holds envs ``[k·n//s, (k+1)·n//s)``). Each step sends one StepBatch
per server, all servers at once, and waits for all of them; the resets that
autoreset needs go out in the same round. ``send``/``recv`` (EnvPool's
asynchronous mode) keep several such rounds over disjoint groups of envs in
flight, so the servers step one group while the policy works on another.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from moreau.client import (DEFAULT_TIMEOUT_S, Client, MoreauError, Pending, State, TlsArgument,
                           status_code)
from moreau.local import LocalServer, default_server
from moreau.observation import Observation, ObservationBatch
from moreau.replicas import ReplicaSet, Resolver, spread
from moreau.spaces import Box, batch_space
from moreau.tasks import Task, make_task

_FAILED_PRECONDITION = 9


@dataclass
class EnvState:
    """A snapshot of one environment for branching rollouts: the server's
    portable state and the client's episode bookkeeping."""

    server: State
    episode_step: int
    last_action: np.ndarray
    task: dict[str, np.ndarray]
    rng: dict[str, Any]
    needs_reset: bool


@dataclass
class _Round:
    """One policy step under way: the envs it covers and its calls."""

    rows: np.ndarray | None  # env ids in the caller's order (None: every env)
    mask: np.ndarray  # (num_envs,) bool: the envs of this round
    resetting: np.ndarray  # (num_envs,) bool: those being autoreset instead
    reset_pending: list[tuple[int, Pending]]
    calls: list[Pending]  # StepBatch calls still in flight


class _Shard:
    """The environments [start, stop) hosted by one server."""

    def __init__(self, client: Client, start: int, stop: int) -> None:
        self.client = client
        self.start = start
        self.stop = stop
        self.ids: list[str] = []


class VectorEnv:
    """``num_envs`` environments of one task.

    Args:
        task: ``"stand"``, ``"walk"``, ``"reach"`` or a :class:`moreau.tasks.Task`.
        num_envs: how many environments.
        servers: None (the default) runs the environments in this process
            (:func:`moreau.local.default_server`); else moreaud addresses
            (``host:port``), one ``dns:///NAME:PORT`` target resolved to
            every address of NAME (e.g. a Kubernetes headless Service),
            :class:`moreau.LocalServer` s, or a list mixing them;
            environments are spread over them evenly. A replica that fails makes the call raise
            MoreauError naming its ``address`` and the ``method``.
        seed: env i draws its randomness from a generator seeded ``seed + i``
            (None: fresh entropy). ``reset(seed=…)`` re-seeds.
        timeout: deadline of every call (s). A server that stops answering
            makes the next call raise MoreauError within it.
        autoreset: Gymnasium's NEXT_STEP autoreset (True) or none (False:
            call :meth:`reset` with a mask yourself).
        tls, token: TLS and the bearer token of every server, as for
            :class:`moreau.Client` (e.g. ``tls="ca.pem"``; the token defaults
            to the ``MOREAU_TOKEN`` environment variable).
        resolver: ``(name, port) → IP addresses`` used for ``dns:`` targets
            in place of the system resolver.
        task_options: passed to the task (e.g. ``max_episode_steps``,
            ``command`` for walk, ``urdf_path`` for reach, ``settings``).

    ``step(actions)`` takes (num_envs, nu) actions in [-1, 1] and returns
    ``(obs, reward, terminated, truncated, info)`` as arrays with a leading
    num_envs axis. With NEXT_STEP autoreset, the step after an episode ends
    ignores that env's action, resets it and returns its first observation
    with reward 0 and terminated = truncated = False (``info["reset"]`` marks
    it).

    ``send(actions, env_ids)`` / ``recv()`` is the same step split in two,
    for groups of envs (EnvPool's asynchronous mode): e.g. two halves, one
    stepping on the servers while the policy acts on the other::

        env.send(policy(obs_a), ids_a); env.send(policy(obs_b), ids_b)
        while True:
            obs, reward, terminated, truncated, info = env.recv()
            env.send(policy(obs), info["env_id"])
    """

    metadata = {"autoreset_mode": "NextStep"}

    def __init__(self, task: str | Task, num_envs: int,
                 servers: str | LocalServer | Sequence[str | LocalServer] | None = None,
                 seed: int | None = None, *, timeout: float = DEFAULT_TIMEOUT_S,
                 autoreset: bool = True, tls: TlsArgument = None, token: str | None = None,
                 resolver: Resolver | None = None, **task_options: Any) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be ≥ 1, got {num_envs}")
        if servers is None:
            servers = [default_server()]
        if not servers:
            raise ValueError("give at least one server address (or servers=None: in process)")
        self.task = make_task(task, **task_options)
        self.num_envs = num_envs
        self.autoreset = autoreset
        self.timeout = timeout
        self._seed = seed
        self._closed = True  # until the replicas are connected
        self.replicas = ReplicaSet(servers, timeout=timeout, tls=tls, token=token,
                                   resolver=resolver)
        self.clients = self.replicas.clients  # one per replica
        self._closed = False
        self._shards: list[_Shard] = []
        self._rounds: deque[_Round] = deque()  # send()s awaiting recv(), oldest first
        for client, (start, stop) in zip(self.clients, spread(num_envs, len(self.clients))):
            if stop > start:
                self._shards.append(_Shard(client, start, stop))
        try:
            self._create()
        except BaseException:
            self.close()
            raise

    # ------------------------------------------------------------- set-up --

    def _create(self) -> None:
        task = self.task
        # Created on every replica at once, in the blocks of the shards.
        made = self.replicas.create_instances(task.model_source(), self.num_envs,
                                              settings=task.settings())
        for shard in self._shards:
            shard.ids = made.ids[shard.start:shard.stop]
        self.spec = made.spec
        task.bind(made.spec, self.num_envs, self._positions_at)
        self._obs = made.observations
        nu = task.action_size
        for shard in self._shards:
            shard.step = shard.client.prepare_step_batch(shard.ids, nu, task.substeps, packed=True)
        self.single_action_space = Box(-1.0, 1.0, (nu,), np.float32, task.action_labels)
        labels = task.observation_labels
        self.single_observation_space = Box(-np.inf, np.inf, (len(labels),), np.float32, labels)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self._last_actions = np.zeros((self.num_envs, nu))
        self._episode_step = np.zeros(self.num_envs, dtype=np.int64)
        self._needs_reset = np.zeros(self.num_envs, dtype=bool)
        self._actions = np.zeros((self.num_envs, nu))  # the latest action of each env
        self._targets = np.zeros((self.num_envs, nu))  # and its joint targets
        self._in_flight = np.zeros(self.num_envs, dtype=bool)
        self.seed(self._seed)
        self._started = False

    @property
    def instance_ids(self) -> list[str]:
        """The server instance id of each env."""
        return [i for shard in self._shards for i in shard.ids]

    @property
    def addresses(self) -> list[str]:
        """The server address of each env."""
        return [shard.client.address for shard in self._shards
                for _ in range(shard.stop - shard.start)]

    @property
    def observation_batch(self) -> ObservationBatch:
        """The latest raw server observations of every env (read-only)."""
        return self._obs

    def _locate(self, i: int) -> tuple[_Shard, str]:
        for shard in self._shards:
            if shard.start <= i < shard.stop:
                return shard, shard.ids[i - shard.start]
        raise IndexError(f"env {i} out of range [0, {self.num_envs})")

    def _positions_at(self, rows: np.ndarray, q: np.ndarray) -> np.ndarray:
        """The world positions (n, 3·links) of the observed links in envs
        ``rows`` at the configurations ``q`` (n, nq), at rest: one Query at q
        per env, all at once (the tasks' :data:`moreau.tasks.PositionsAt`)."""
        pending = []
        for k, i in enumerate(rows):
            shard, instance_id = self._locate(int(i))
            request = Client.query_request(instance_id, q=q[k], link_positions=True)
            pending.append(shard.client.call_async("Query", request))
        return np.array([call.result().link_positions for call in pending],
                        dtype=np.float64).reshape(len(pending), -1)

    # -------------------------------------------------------------- reset --

    def seed(self, seed: int | None) -> None:
        """Seeds env i with ``seed + i`` (fresh entropy for None)."""
        self._rngs = [np.random.default_rng(None if seed is None else seed + i)
                      for i in range(self.num_envs)]

    def reset(self, *, seed: int | None = None, options: Mapping[str, Any] | None = None,
              mask: np.ndarray | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Resets every env, or those where ``mask`` (or
        ``options["reset_mask"]``) is True; returns (obs, info) for all envs.
        ``seed`` re-seeds env i with seed + i first."""
        if mask is None and options is not None:
            mask = options.get("reset_mask")
        if seed is not None:
            self.seed(seed)
        rows = np.arange(self.num_envs) if mask is None else np.flatnonzero(np.asarray(mask))
        self._check_idle(rows, "reset")
        self._finish_resets(self._start_resets(rows))
        self._started = True
        reset = np.zeros(self.num_envs, dtype=bool)
        reset[rows] = True
        return self.task.observe(self._obs, self._last_actions), {"reset": reset}

    def _check_idle(self, rows: Any, what: str) -> None:
        busy = [int(i) for i in rows if 0 <= int(i) < self.num_envs and self._in_flight[int(i)]]
        if busy:
            raise RuntimeError(f"{what}: env {busy[0]} is in a send() awaiting recv()")

    def _start_resets(self, rows: np.ndarray) -> list[tuple[int, Pending]]:
        pending = []
        for i in rows:
            shard, instance_id = self._locate(int(i))
            seed = int(self._rngs[i].integers(0, 2**63 - 1))
            request = Client.reset_request(instance_id, seed, self.task.reset_noise)
            pending.append((int(i), shard.client.call_async("Reset", request)))
        return pending

    def _finish_resets(self, pending: list[tuple[int, Pending]]) -> None:
        rows = np.array([i for i, _ in pending], dtype=np.int64)
        for i, call in pending:
            self._obs.assign_one(i, Observation.from_proto(call.result().observation))
        if len(rows):
            self._last_actions[rows] = 0.0
            self._episode_step[rows] = 0
            self._needs_reset[rows] = False
            self.task.begin_episodes(rows, self._rngs)

    # --------------------------------------------------------------- step --

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                 np.ndarray, dict[str, Any]]:
        """Steps every env one policy step (see the class docstring)."""
        if self._rounds:
            raise RuntimeError(f"{len(self._rounds)} send() calls await recv(): "
                               "finish them before step()")
        return self._finish_round(self._start_round(actions, None, blocking=True))

    def send(self, actions: np.ndarray, env_ids: Sequence[int] | np.ndarray | None = None) -> None:
        """Starts one policy step of the envs ``env_ids`` (all when None) and
        returns at once (EnvPool's asynchronous mode): ``actions`` has one row
        per id, in that order. :meth:`recv` returns the results, oldest send
        first, while the servers step the envs of later sends — so a policy
        working on one group of envs overlaps the simulation of another. An
        env may be in one unfinished send at a time."""
        if env_ids is None:
            rows = None
        else:
            rows = np.asarray(env_ids)
            if rows.ndim != 1 or rows.size == 0 or rows.dtype.kind not in "iu":
                raise ValueError(f"env_ids must be a non-empty 1-D sequence of integers, got "
                                 f"{env_ids!r}")
            rows = rows.astype(np.int64)
            if rows.min() < 0 or rows.max() >= self.num_envs:
                raise ValueError(f"env_ids must lie in [0, {self.num_envs}), got "
                                 f"[{rows.min()}, {rows.max()}]")
            if np.unique(rows).size != rows.size:
                raise ValueError("env_ids holds an env twice")
        self._rounds.append(self._start_round(actions, rows, blocking=False))

    def recv(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Waits for the oldest unfinished :meth:`send`; returns ``(obs,
        reward, terminated, truncated, info)`` for its envs, rows in the order
        of its ``env_ids`` (``info["env_id"]``)."""
        if not self._rounds:
            raise RuntimeError("recv() without a send() awaiting it")
        return self._finish_round(self._rounds.popleft())

    def _start_round(self, actions: np.ndarray, rows: np.ndarray | None,
                     blocking: bool) -> _Round:
        if not self._started:
            raise RuntimeError("call reset() before step()")
        count = self.num_envs if rows is None else rows.size
        actions = np.asarray(actions, dtype=np.float64)
        if actions.shape != (count, self.task.action_size):
            raise ValueError(f"actions have shape {actions.shape}, expected "
                             f"{(count, self.task.action_size)}")
        if rows is None:
            mask = np.ones(self.num_envs, dtype=bool)
        else:
            mask = np.zeros(self.num_envs, dtype=bool)
            mask[rows] = True
        if self._in_flight.any() and (self._in_flight & mask).any():
            busy = np.flatnonzero(self._in_flight & mask)
            raise ValueError(f"env {int(busy[0])} is already in a send() awaiting recv()")
        if self.autoreset and self._needs_reset.any():
            resetting = self._needs_reset & mask
        else:
            resetting = np.zeros_like(mask)
        index = slice(None) if rows is None else rows
        self._actions[index] = actions
        self._targets[index] = self.task.targets(actions)
        # Resets and steps go out together; an env being reset is left out of
        # its server's StepBatch (its action is ignored).
        if rows is None and not resetting.any():
            # Every env steps: each shard's whole block.
            reset_pending = []
            plan = [(shard, None) for shard in self._shards if shard.stop > shard.start]
        else:
            reset_pending = self._start_resets(np.flatnonzero(resetting))
            plan = []
            for shard in self._shards:
                keep = mask[shard.start:shard.stop] & ~resetting[shard.start:shard.stop]
                if keep.any():
                    plan.append((shard, None if keep.all() else np.flatnonzero(keep)))
        targets = self._targets
        calls = []
        for shard, local in plan:
            # Each reply is decoded straight into its rows of self._obs.
            where = slice(shard.start, shard.stop) if local is None else shard.start + local
            if blocking and len(plan) == 1 and not reset_pending:
                # One call in flight: a blocking call avoids a future's thread.
                shard.step(targets[shard.start:shard.stop], rows=local, into=(self._obs, where))
            else:
                calls.append(shard.step.future(targets[shard.start:shard.stop], rows=local,
                                               into=(self._obs, where)))
        self._in_flight |= mask
        return _Round(rows, mask, resetting, reset_pending, calls)

    def _finish_round(self, round_: _Round) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                     np.ndarray, dict[str, Any]]:
        mask, resetting = round_.mask, round_.resetting
        self._in_flight &= ~mask
        for call in round_.calls:
            call.result()  # written into self._obs
        self._finish_resets(round_.reset_pending)

        codes = self._obs.status_code
        if codes.any():
            diverged = (codes == _FAILED_PRECONDITION) & mask & ~resetting
            failed = (codes != 0) & mask & ~diverged & ~resetting
        else:  # the common case: every instance stepped
            diverged = failed = np.zeros(self.num_envs, dtype=bool)
        if failed.any():
            i = int(np.flatnonzero(failed)[0])
            raise MoreauError(status_code(codes[i]), self._obs.status_message[i],
                              method=f"StepBatch (env {i}, instance {self._obs.instance_ids[i]})",
                              address=self._locate(i)[0].client.address)

        stepped = mask & ~resetting
        everyone = stepped.all()  # the common case: fewer masked copies
        last_actions = self._last_actions.copy()
        if everyone:
            np.minimum(np.maximum(self._actions, -1.0), 1.0, out=last_actions)
        else:
            last_actions[stepped] = np.clip(self._actions[stepped], -1.0, 1.0)
        reward, terminated, info, obs = self.task.outputs(
            self._obs, self._actions, self._last_actions, last_actions)
        self._last_actions = last_actions
        if everyone:
            self._episode_step += 1
            terminated = terminated | diverged
            truncated = (self._episode_step >= self.task.max_episode_steps) & ~terminated
        else:
            self._episode_step[stepped] += 1
            terminated = (terminated | diverged) & stepped
            truncated = ((self._episode_step >= self.task.max_episode_steps) & stepped &
                         ~terminated)
            reward = np.where(stepped, reward, 0.0)
            info = {key: np.where(stepped, value, 0) if value.dtype != bool else value & stepped
                    for key, value in info.items()}
        if self.autoreset:
            ended = terminated | truncated
            self._needs_reset = ended if everyone else np.where(mask, ended, self._needs_reset)
        info.update(reset=resetting, diverged=diverged, episode_step=self._episode_step.copy())
        rows = round_.rows
        if rows is None:
            info["env_id"] = np.arange(self.num_envs)
            return obs, reward, terminated, truncated, info
        info = {key: value[rows] for key, value in info.items()}
        info["env_id"] = rows.copy()
        return obs[rows], reward[rows], terminated[rows], truncated[rows], info

    # ------------------------------------------------------------ branching --

    def get_state(self, i: int) -> EnvState:
        """A snapshot of env i (server state + client bookkeeping)."""
        self._check_idle([i], "get_state")
        shard, instance_id = self._locate(i)
        return EnvState(server=shard.client.get_state(instance_id),
                        episode_step=int(self._episode_step[i]),
                        last_action=self._last_actions[i].copy(),
                        task=self.task.env_state(i),
                        rng=self._rngs[i].bit_generator.state,
                        needs_reset=bool(self._needs_reset[i]))

    def set_state(self, i: int, state: EnvState, *, restore_rng: bool = False) -> np.ndarray:
        """Puts env i in ``state`` (possibly taken from another env, on
        another server); returns its observation. The env keeps its own random
        generator unless ``restore_rng``."""
        self._check_idle([i], "set_state")
        shard, instance_id = self._locate(i)
        self._obs.assign_one(i, shard.client.set_state(instance_id, state.server))
        self._episode_step[i] = state.episode_step
        self._last_actions[i] = state.last_action
        self._needs_reset[i] = state.needs_reset
        self.task.set_env_state(i, state.task)
        if restore_rng:
            self._rngs[i].bit_generator.state = state.rng
        return self.task.observe(self._obs, self._last_actions)[i]

    # -------------------------------------------------------------- close --

    def close(self) -> None:
        """Destroys the instances (best effort) and closes the connections."""
        if self._closed:
            return
        self._closed = True
        self._rounds.clear()
        for shard in self._shards:
            if shard.ids:
                try:
                    shard.client.destroy_instances(shard.ids, timeout=min(self.timeout, 2.0))
                except MoreauError:
                    pass
        self.replicas.close()

    def __enter__(self) -> "VectorEnv":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            if not self._closed:
                self.replicas.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass

    def __repr__(self) -> str:
        return (f"moreau.VectorEnv({self.task.name!r}, num_envs={self.num_envs}, "
                f"servers={[c.address for c in self.clients]})")
