"""Instances spread over three moreaud replicas on 127.0.0.1-3 (moreau.replicas):
target resolution, even spreading, routing to the owner, and the error that
names a replica that went away."""

from __future__ import annotations

import re
import socket
import time
import urllib.request

import grpc
import numpy as np
import pytest

import moreau
from moreau.replicas import resolve_servers, spread

# Generous: the point is "fails instead of hanging", not how fast.
HANG = 20.0


def live_instances(server) -> int:
    """The server's own count of the instances it hosts (its metrics page)."""
    url = f"http://{server.host}:{server.metrics_port}/metrics"
    with urllib.request.urlopen(url, timeout=10) as response:
        page = response.read().decode()
    match = re.search(r"^moreau_live_instances(?:\{\})? (\S+)$", page, re.MULTILINE)
    assert match, "no moreau_live_instances on the metrics page"
    return int(float(match.group(1)))


# ----------------------------------------------------------- no server --


def test_spread_is_contiguous_and_even() -> None:
    for replicas in range(1, 6):
        for count in range(0, 23):
            blocks = spread(count, replicas)
            assert len(blocks) == replicas
            assert blocks[0][0] == 0 and blocks[-1][1] == count
            assert all(a[1] == b[0] for a, b in zip(blocks, blocks[1:]))
            sizes = [stop - start for start, stop in blocks]
            assert max(sizes) - min(sizes) <= 1, (count, replicas, sizes)
    assert spread(7, 3) == [(0, 2), (2, 4), (4, 7)]


def test_dns_target_gives_each_distinct_address_once_sorted() -> None:
    asked = []

    def resolver(name: str, port: int) -> list[str]:
        asked.append((name, port))
        return ["127.0.0.3", "::1", "127.0.0.10", "127.0.0.1", "127.0.0.3", "127.0.0.2"]

    expected = ["127.0.0.1:7000", "127.0.0.2:7000", "127.0.0.3:7000", "127.0.0.10:7000",
                "[::1]:7000"]
    assert resolve_servers("dns:///moreaud.default.svc:7000", resolver) == expected
    assert resolve_servers(["dns:moreaud.default.svc:7000"], resolver) == expected
    assert asked == [("moreaud.default.svc", 7000)] * 2
    # Plain addresses are kept as given, in order, next to expanded targets.
    assert resolve_servers(["b:1", "a:2", "dns:///x:7000"], resolver) == ["b:1", "a:2", *expected]
    assert resolve_servers("[::1]:5") == ["[::1]:5"]


def test_a_name_resolving_to_nothing_is_an_error_naming_the_target() -> None:
    with pytest.raises(moreau.MoreauError) as error:
        resolve_servers("dns:///nothing.test:50051", lambda name, port: [])
    assert error.value.code == grpc.StatusCode.UNAVAILABLE
    assert error.value.address == "dns:///nothing.test:50051"
    assert "dns:///nothing.test:50051" in str(error.value)

    def unknown(name: str, port: int) -> list[str]:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    with pytest.raises(moreau.MoreauError, match="dns:///gone.test:1.*gone.test"):
        moreau.VectorEnv("stand", 2, servers="dns:///gone.test:1", resolver=unknown)


@pytest.mark.parametrize("target", ["dns:///name", "dns:///name:", "dns:///name:0",
                                    "dns:///name:99999", "dns:///:50051",
                                    "dns://10.0.0.1/name:50051"])
def test_malformed_dns_targets_are_refused(target: str) -> None:
    with pytest.raises(ValueError, match=re.escape(repr(target))):
        resolve_servers(target)


def test_no_servers_is_refused() -> None:
    with pytest.raises(ValueError):
        resolve_servers([])


# ------------------------------------------------------ three replicas --


def test_dns_localhost_resolves_through_the_system_resolver(server) -> None:
    addresses = resolve_servers(f"dns:///localhost:{server.port}")
    assert len(addresses) == len(set(addresses))
    assert f"127.0.0.1:{server.port}" in addresses
    if addresses == [server.address]:  # localhost is 127.0.0.1 alone here
        with moreau.VectorEnv("stand", 2, servers=f"dns:///localhost:{server.port}") as env:
            assert env.addresses == [server.address] * 2
            env.reset()
            env.step(np.zeros((2, 12)))


def test_vector_env_spreads_evenly_over_three_replicas(replicas) -> None:
    addresses = [s.address for s in replicas]
    assert [s.host for s in replicas] == ["127.0.0.1", "127.0.0.2", "127.0.0.3"]
    with moreau.VectorEnv("stand", 7, servers=addresses, seed=0) as env:
        assert env.addresses == [addresses[0]] * 2 + [addresses[1]] * 2 + [addresses[2]] * 3
        assert [live_instances(s) for s in replicas] == [2, 2, 3]
        # Each instance is on the server the env says, and on no other.
        for instance_id, owner in zip(env.instance_ids, env.addresses):
            for s in replicas:
                with moreau.Client(s.address) as client:
                    if s.address == owner:
                        client.get_state(instance_id)
                    else:
                        with pytest.raises(moreau.MoreauError) as error:
                            client.get_state(instance_id)
                        assert error.value.code == grpc.StatusCode.NOT_FOUND
        obs, _ = env.reset()
        for _ in range(5):
            obs, reward, terminated, truncated, _ = env.step(np.zeros((7, 12)))
        assert obs.shape == (7, env.single_observation_space.shape[0])
        assert np.isfinite(obs).all() and np.isfinite(reward).all()
        # Same seeds on one server: the same rollout.
        with moreau.VectorEnv("stand", 7, servers=addresses[:1], seed=0) as single:
            reference, _ = single.reset()
            for _ in range(5):
                reference = single.step(np.zeros((7, 12)))[0]
        np.testing.assert_array_equal(obs, reference)
    assert [live_instances(s) for s in replicas] == [0, 0, 0]


def test_killed_replica_fails_the_next_step_naming_it(replicas) -> None:
    addresses = [s.address for s in replicas]
    with moreau.VectorEnv("stand", 6, servers=addresses, seed=0, timeout=5.0) as env:
        env.reset()
        env.step(np.zeros((6, 12)))
        replicas[1].stop()  # SIGKILL
        start = time.monotonic()
        with pytest.raises(moreau.MoreauError) as error:
            env.step(np.zeros((6, 12)))
        assert time.monotonic() - start < HANG
    assert error.value.code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)
    assert error.value.address == addresses[1]
    assert error.value.method == "StepBatch"
    assert f"StepBatch on {addresses[1]}" in str(error.value)


def test_replica_set_routes_each_call_to_the_owner(replicas) -> None:
    addresses = [s.address for s in replicas]
    with moreau.ReplicaSet(addresses) as fleet:
        made = fleet.create_instances("pendulum", 5, noise=0.1, seed=3)
        assert len(made.ids) == 5 and len(set(made.ids)) == 5
        assert [fleet.owner(i).address for i in made.ids] == (
            [addresses[0]] + [addresses[1]] * 2 + [addresses[2]] * 2)
        assert [live_instances(s) for s in replicas] == [1, 2, 2]
        # Instance k's noise seed is seed + k, as on one server.
        with moreau.Client(addresses[0]) as one:
            alone = one.create_instances("pendulum", 5, noise=0.1, seed=3)
            np.testing.assert_array_equal(made.observations.q, alone.observations.q)
            one.destroy_instances(alone.ids)
        # StepBatch rows come back in the order asked, from every owner.
        order = [made.ids[k] for k in (4, 0, 2, 1, 3)]
        batch = fleet.step_batch(order, np.full((5, 1), 0.5), substeps=3)
        assert batch.instance_ids == order and batch.ok.all()
        assert (batch.steps == 3).all()
        # A state moves between replicas; per-instance calls go to the owner.
        fleet.set_state(made.ids[4], fleet.get_state(made.ids[0]))
        a = fleet.step(made.ids[0], [0.2], 2)
        b = fleet.step(made.ids[4], [0.2], 2)
        np.testing.assert_array_equal(a.q, b.q)
        assert fleet.reset(made.ids[2]).time == 0.0
        assert fleet.query(made.ids[2], energies=True).time == 0.0
        with pytest.raises(KeyError, match="not created through this ReplicaSet"):
            fleet.step("no-such-instance", [0.0])
        assert fleet.destroy_instances(made.ids) == (5, [])
    assert [live_instances(s) for s in replicas] == [0, 0, 0]


def test_a_client_is_one_server() -> None:
    with pytest.raises(TypeError, match="ReplicaSet"):
        moreau.Client(["127.0.0.1:1", "127.0.0.2:1"])
