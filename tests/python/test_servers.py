"""A VectorEnv over two servers, and what happens when one goes away."""

from __future__ import annotations

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


def test_stopped_server_raises_instead_of_hanging(fresh_servers) -> None:
    addresses = [s.address for s in fresh_servers]
    env = moreau.VectorEnv("stand", 4, servers=addresses, seed=0, timeout=2.0)
    try:
        env.reset()
        env.step(np.zeros((4, 12)))
        fresh_servers[1].stop()
        start = time.monotonic()
        with pytest.raises(moreau.MoreauError) as error:
            env.step(np.zeros((4, 12)))
        assert time.monotonic() - start < HANG
        assert error.value.code in (grpc.StatusCode.UNAVAILABLE,
                                    grpc.StatusCode.DEADLINE_EXCEEDED)
        assert error.value.address == addresses[1]
        assert addresses[1] in str(error.value)
    finally:
        env.close()


def test_frozen_server_fails_within_the_deadline(fresh_servers) -> None:
    addresses = [s.address for s in fresh_servers]
    env = moreau.VectorEnv("stand", 4, servers=addresses, seed=0, timeout=1.0)
    try:
        env.reset()
        env.step(np.zeros((4, 12)))
        fresh_servers[0].pause()
        start = time.monotonic()
        with pytest.raises(moreau.MoreauError) as error:
            env.step(np.zeros((4, 12)))
        assert time.monotonic() - start < HANG
        assert error.value.code == grpc.StatusCode.DEADLINE_EXCEEDED
        assert error.value.address == addresses[0]
        fresh_servers[0].resume()
    finally:
        env.close()
