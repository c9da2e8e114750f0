"""A VectorEnv over two servers, and what happens when one goes away."""

from __future__ import annotations

import contextlib
import time

import grpc
import numpy as np
import pytest

import moreau

# Generous: the point is "fails instead of hanging", not how fast.
HANG = 60.0


def test_vector_env_over_two_servers(fresh_servers) -> None:
    addresses = [s.address for s in fresh_servers]
    with moreau.VectorEnv("walk", 5, servers=addresses, seed=0, max_episode_steps=4) as env:
        assert env.addresses == [addresses[0]] * 2 + [addresses[1]] * 3
        obs, _ = env.reset()
        assert obs.shape == (5, 47)
        for _ in range(6):
            obs, reward, terminated, truncated, info = env.step(np.zeros((5, 12)))
            assert obs.shape == (5, 47) and reward.shape == (5,)
        # Same seeds on one server give the same trajectories.
        with moreau.VectorEnv("walk", 5, servers=addresses[:1], seed=0,
                              max_episode_steps=4) as single:
            reference, _ = single.reset()
            for _ in range(6):
                reference = single.step(np.zeros((5, 12)))[0]
        np.testing.assert_array_equal(obs, reference)
        # A state taken on one server continues bit-exactly on the other.
        env.set_state(4, env.get_state(0))
        for _ in range(3):
            obs = env.step(np.zeros((5, 12)))[0]
        np.testing.assert_array_equal(obs[0], obs[4])


@contextlib.contextmanager
def _stepped_env(addresses: list[str], timeout: float):
    """A "stand" VectorEnv of 4 over the servers, reset and stepped once."""
    env = moreau.VectorEnv("stand", 4, servers=addresses, seed=0, timeout=timeout)
    try:
        env.reset()
        env.step(np.zeros((4, 12)))
        yield env
    finally:
        env.close()


def _next_step_error(env) -> moreau.MoreauError:
    """The error the next step raises, within HANG."""
    start = time.monotonic()
    with pytest.raises(moreau.MoreauError) as error:
        env.step(np.zeros((4, 12)))
    assert time.monotonic() - start < HANG
    return error.value


def test_stopped_server_raises_instead_of_hanging(fresh_servers) -> None:
    addresses = [s.address for s in fresh_servers]
    with _stepped_env(addresses, timeout=2.0) as env:
        fresh_servers[1].stop()
        error = _next_step_error(env)
        assert error.code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)
        assert error.address == addresses[1]
        assert addresses[1] in str(error)


def test_frozen_server_fails_within_the_deadline(fresh_servers) -> None:
    addresses = [s.address for s in fresh_servers]
    with _stepped_env(addresses, timeout=1.0) as env:
        fresh_servers[0].pause()
        error = _next_step_error(env)
        assert error.code == grpc.StatusCode.DEADLINE_EXCEEDED
        assert error.address == addresses[0]
        fresh_servers[0].resume()
