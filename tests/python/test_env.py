"""moreau.Env and moreau.VectorEnv on one server: spaces, seeding,
autoreset, partial resets, branching, errors."""

from __future__ import annotations

from pathlib import Path

import grpc
import numpy as np
import pytest

import moreau
from moreau.tasks import default_ur10_urdf


@pytest.fixture(params=["remote", "in-process"])
def address(request, server, local_server):
    """Every test against a moreaud and against the in-process engine."""
    return server.address if request.param == "remote" else local_server


def rollout(env: moreau.VectorEnv, steps: int, seed: int, action_seed: int = 0):
    rng = np.random.default_rng(action_seed)
    obs, _ = env.reset(seed=seed)
    trajectory = [obs]
    for _ in range(steps):
        obs, reward, *_ = env.step(rng.uniform(-1, 1, env.action_space.shape))
        trajectory.append(obs)
        trajectory.append(reward)
    return trajectory


@pytest.mark.parametrize("task, extra", [("stand", 0), ("walk", 1)])
def test_legged_spaces_match_the_spec(address: str, task: str, extra: int) -> None:
    with moreau.Env(task, address) as env:
        spec = env.spec
        nu = spec.action.size
        assert spec.control_mode == "pd" and nu == len(spec.model.actuators) == 12
        assert env.action_space.shape == (nu,)
        assert env.action_space.labels == list(spec.action.labels)
        assert np.all(env.action_space.low == -1) and np.all(env.action_space.high == 1)
        assert env.observation_space.shape == (10 + 3 * nu + extra,)
        assert len(env.observation_space.labels) == env.observation_space.shape[0]
        assert env.observation_space.labels[10] == f"joint_pos/{spec.action.labels[0]}"
        assert env.task.substeps == 20 and spec.dt == pytest.approx(1e-3)
        obs, info = env.reset(seed=0)
        assert obs.shape == env.observation_space.shape and obs.dtype == np.float32
        assert env.action_space.contains(env.action_space.sample())
        obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
        assert obs in env.observation_space
        assert isinstance(reward, float) and isinstance(terminated, bool)
        assert isinstance(truncated, bool) and isinstance(info, dict)
        # Targets stay inside the Spec's action bounds.
        targets = env.targets(np.full(nu, 5.0))
        assert np.all(targets <= np.array(spec.action_upper))


def test_reach_spaces_match_the_spec(address: str, ur10_urdf) -> None:
    with moreau.Env("reach", address, urdf_path=ur10_urdf) as env:
        assert env.spec.action.size == 6 and not env.spec.model.floating_base
        assert env.action_space.shape == (6,)
        assert env.observation_space.shape == (27,)
        assert env.task.substeps == 100 and env.spec.dt == pytest.approx(2e-4)
        obs, _ = env.reset(seed=1)
        obs, reward, terminated, truncated, info = env.step(np.zeros(6))
        assert obs.shape == (27,) and reward <= 0.5 and info["distance"] > 0
        # target = (target − end effector) + end effector
        np.testing.assert_allclose(obs[15:18], obs[18:21] + obs[12:15], atol=1e-5)


def test_reach_end_effector_and_targets_are_the_servers(address: str, ur10_urdf) -> None:
    """The reach task's end effector is the server's ee_link position, and
    each target the server's ee_link position at the drawn configuration."""
    with moreau.VectorEnv("reach", 2, servers=[address], urdf_path=ur10_urdf) as env:
        env.reset(seed=3)
        obs, *_ = env.step(np.random.default_rng(0).uniform(-1, 1, (2, 6)))
        client = env.clients[0]
        task = env.task
        for i, instance_id in enumerate(env.instance_ids):
            ee = client.query(instance_id, link_positions=True).link_positions[0]
            np.testing.assert_array_equal(env.observation_batch.link_positions[i], ee)
            np.testing.assert_allclose(obs[i, 12:15], ee, rtol=1e-6)  # float32
            # Env i's generator: the reset's seed, then the target's configuration.
            rng = np.random.default_rng(3 + i)
            rng.integers(0, 2**63 - 1)
            q = task.q_default.copy()
            q[task.actuator_q] = task.home + 0.8 * task.action_scale * rng.uniform(-1.0, 1.0, 6)
            at_q = client.query(instance_id, link_positions=True, q=q).link_positions[0]
            np.testing.assert_array_equal(task.target[i], at_q)


def test_reach_finds_the_ur10_in_the_repository(monkeypatch, tmp_path) -> None:
    monkeypatch.delenv("MOREAU_UR10_URDF", raising=False)
    repo = Path(__file__).resolve().parents[2]
    assert default_ur10_urdf() == repo / "models" / "ur10" / "ur10_robot.urdf"
    assert default_ur10_urdf().is_file()
    # $MOREAU_UR10_URDF overrides, even for a file that does not exist.
    monkeypatch.setenv("MOREAU_UR10_URDF", str(tmp_path / "arm.urdf"))
    assert default_ur10_urdf() == tmp_path / "arm.urdf"
    with pytest.raises(FileNotFoundError, match="arm.urdf"):
        moreau.ReachTask()


def test_same_seed_same_trajectory(address: str) -> None:
    with moreau.VectorEnv("walk", 3, servers=[address], max_episode_steps=8) as env:
        first = rollout(env, 20, seed=5)
        second = rollout(env, 20, seed=5)
        third = rollout(env, 20, seed=6)
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(first[0], third[0])


def test_env_i_is_seeded_seed_plus_i(address: str) -> None:
    with moreau.VectorEnv("walk", 3, servers=[address]) as three, \
            moreau.VectorEnv("walk", 1, servers=[address]) as one:
        obs3, _ = three.reset(seed=10)
        obs1, _ = one.reset(seed=12)
        np.testing.assert_array_equal(obs3[2], obs1[0])
        zeros3, zeros1 = np.zeros((3, 12)), np.zeros((1, 12))
        for _ in range(5):
            obs3 = three.step(zeros3)[0]
            obs1 = one.step(zeros1)[0]
        np.testing.assert_array_equal(obs3[2], obs1[0])


def test_autoreset_follows_next_step(address: str) -> None:
    with moreau.VectorEnv("stand", 2, servers=[address], seed=0, max_episode_steps=3) as env:
        first, _ = env.reset()
        actions = np.zeros((2, 12))
        for t in range(3):
            obs, reward, terminated, truncated, info = env.step(actions)
        assert list(truncated) == [True, True] and not terminated.any()
        assert list(info["episode_step"]) == [3, 3]
        # The next call ignores the actions, resets, and reports the first
        # observation with reward 0 and no flags.
        obs, reward, terminated, truncated, info = env.step(np.full((2, 12), np.nan))
        assert info["reset"].all()
        assert list(reward) == [0.0, 0.0]
        assert not terminated.any() and not truncated.any()
        assert list(info["episode_step"]) == [0, 0]
        assert np.allclose(obs[:, 0], env.observation_batch.base_pose[:, 2])
        assert np.all(obs[:, -12:] == 0)  # the last action is cleared
        obs, reward, terminated, truncated, info = env.step(actions)
        assert not info["reset"].any() and list(info["episode_step"]) == [1, 1]
        assert np.all(reward != 0)


def test_termination_then_autoreset(address: str) -> None:
    # A nominal height of 3 m: every step counts as having fallen.
    with moreau.VectorEnv("stand", 2, servers=[address], seed=0, base_height=3.0) as env:
        env.reset()
        obs, reward, terminated, truncated, info = env.step(np.zeros((2, 12)))
        assert terminated.all() and not truncated.any()
        obs, reward, terminated, truncated, info = env.step(np.zeros((2, 12)))
        assert info["reset"].all() and not terminated.any() and list(reward) == [0, 0]


def test_partial_reset_with_mask(address: str) -> None:
    with moreau.VectorEnv("stand", 3, servers=[address], seed=2) as env:
        env.reset()
        for _ in range(3):
            obs, *_ = env.step(np.full((3, 12), 0.3))
        before = obs.copy()
        after, info = env.reset(mask=np.array([False, True, False]))
        assert list(info["reset"]) == [False, True, False]
        np.testing.assert_array_equal(after[[0, 2]], before[[0, 2]])
        assert not np.array_equal(after[1], before[1])
        assert np.all(after[1, -12:] == 0)
        also, _ = env.reset(options={"reset_mask": np.array([True, False, False])})
        np.testing.assert_array_equal(also[1:], after[1:])


def test_get_and_set_state_branch_rollouts(address: str) -> None:
    rng = np.random.default_rng(3)
    plan = rng.uniform(-1, 1, (6, 2, 12))
    with moreau.VectorEnv("walk", 2, servers=[address], seed=4) as env:
        env.reset()
        env.step(plan[0])
        snapshot = env.get_state(0)
        branch_a = [env.step(a)[0][0] for a in plan[1:]]
        env.set_state(0, snapshot)
        branch_b = [env.step(a)[0][0] for a in plan[1:]]
        np.testing.assert_array_equal(np.array(branch_a), np.array(branch_b))
        # The snapshot moves to another env too.
        env.set_state(1, snapshot)
        env.set_state(0, snapshot)
        both = [env.step(np.stack([a[0], a[0]]))[0] for a in plan[1:]]
        for obs in both:
            np.testing.assert_array_equal(obs[0], obs[1])


def test_send_recv_matches_step(address: str) -> None:
    # Two groups in flight at once, in a scrambled env order, through
    # autoresets (5-step episodes over 12 steps): every env sees exactly the
    # trajectory that step() gives it.
    rng = np.random.default_rng(7)
    plan = rng.uniform(-1, 1, (12, 4, 12))
    groups = [np.array([3, 0]), np.array([1, 2])]
    with moreau.VectorEnv("walk", 4, servers=[address], seed=9, max_episode_steps=5) as sync, \
            moreau.VectorEnv("walk", 4, servers=[address], seed=9, max_episode_steps=5) as split:
        np.testing.assert_array_equal(sync.reset()[0], split.reset()[0])
        for actions in plan:
            expected = sync.step(actions)
            for ids in groups:
                split.send(actions[ids], ids)
            for ids in groups:
                obs, reward, terminated, truncated, info = split.recv()
                np.testing.assert_array_equal(info["env_id"], ids)
                np.testing.assert_array_equal(obs, expected[0][ids])
                np.testing.assert_array_equal(reward, expected[1][ids])
                np.testing.assert_array_equal(terminated, expected[2][ids])
                np.testing.assert_array_equal(truncated, expected[3][ids])
                for key in ("reset", "episode_step", "forward_velocity"):
                    np.testing.assert_array_equal(info[key], expected[4][key][ids])
            groups.reverse()  # the other group goes first next time
        assert expected[4]["reset"].any()  # the plan crossed an autoreset
        np.testing.assert_array_equal(expected[4]["env_id"], np.arange(4))


def test_send_recv_refuse_misuse(address: str) -> None:
    with moreau.VectorEnv("stand", 3, servers=[address], seed=1) as env:
        env.reset()
        with pytest.raises(RuntimeError, match="without a send"):
            env.recv()
        env.send(np.zeros((2, 12)), [0, 2])
        with pytest.raises(ValueError, match="env 2 is already in a send"):
            env.send(np.zeros((1, 12)), [2])
        with pytest.raises(RuntimeError, match="await recv"):
            env.step(np.zeros((3, 12)))
        with pytest.raises(RuntimeError, match="reset: env 0"):
            env.reset(mask=np.array([True, False, False]))
        with pytest.raises(RuntimeError, match="get_state: env 2"):
            env.get_state(2)
        with pytest.raises(ValueError, match=r"lie in \[0, 3\)"):
            env.send(np.zeros((1, 12)), [3])
        with pytest.raises(ValueError, match="twice"):
            env.send(np.zeros((2, 12)), [1, 1])
        with pytest.raises(ValueError, match=r"shape \(2, 12\), expected \(1, 12\)"):
            env.send(np.zeros((2, 12)), [1])
        env.send(np.zeros((1, 12)), [1])  # the one idle env joins in
        assert list(env.recv()[4]["env_id"]) == [0, 2]
        assert list(env.recv()[4]["env_id"]) == [1]
        obs, *_ = env.step(np.zeros((3, 12)))  # all idle again
        assert obs.shape == (3, env.single_observation_space.shape[0])


def test_env_api_and_close(address: str) -> None:
    env = moreau.Env("stand", address)
    obs, info = env.reset(seed=0)
    assert isinstance(info, dict)
    instance_id = env.instance_id
    with env:
        env.step(np.zeros(12))
    with moreau.Client(address) as client, pytest.raises(moreau.MoreauError) as error:
        client.get_state(instance_id)
    assert error.value.code == grpc.StatusCode.NOT_FOUND


def test_server_errors_surface_as_exceptions(address: str) -> None:
    with moreau.Env("stand", address) as env:
        env.reset(seed=0)
        with pytest.raises(moreau.MoreauError) as error:
            env.step(np.full(12, np.nan))
        assert error.value.code == grpc.StatusCode.INVALID_ARGUMENT
        assert error.value.message  # the server's own words
        with moreau.Client(address) as client:
            client.destroy_instances([env.instance_id])
        with pytest.raises(moreau.MoreauError) as error:
            env.step(np.zeros(12))
        assert error.value.code == grpc.StatusCode.NOT_FOUND
        assert env.instance_id in error.value.message
    with pytest.raises(moreau.MoreauError) as error:
        moreau.VectorEnv("stand", 2, servers=[address], settings={"dt": -1.0})
    assert error.value.code == grpc.StatusCode.INVALID_ARGUMENT


def test_unknown_task() -> None:
    with pytest.raises(ValueError, match="unknown task"):
        moreau.make_task("fly")
