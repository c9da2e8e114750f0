"""A ``dns:///NAME:PORT`` target resolved by the system resolver to three
replicas, as a Kubernetes headless Service's name is.

ctest runs this file with Debian's nss_wrapper preloaded (LD_PRELOAD=
libnss_wrapper.so, NSS_WRAPPER_HOSTS=tests/integration/replicas_hosts), so
glibc's getaddrinfo gives moreaud-replicas.test the three addresses
127.0.0.1-3 without touching /etc/hosts.
"""

from __future__ import annotations

import os
import socket

import grpc
import numpy as np
import pytest
from conftest import REPLICAS_NAME

import moreau
from moreau.replicas import system_resolver


@pytest.fixture(scope="module", autouse=True)
def _name_resolves_to_three_addresses() -> None:
    try:
        found = sorted(set(system_resolver(REPLICAS_NAME, 1)))
    except socket.gaierror as error:
        found = [str(error)]
    if found != ["127.0.0.1", "127.0.0.2", "127.0.0.3"]:
        pytest.fail(f"{REPLICAS_NAME} resolves to {found}: run with LD_PRELOAD=libnss_wrapper.so "
                    "(Debian's libnss-wrapper, see scripts/setup.sh) and "
                    f"NSS_WRAPPER_HOSTS=tests/integration/replicas_hosts "
                    f"(now {os.environ.get('LD_PRELOAD')!r}, "
                    f"{os.environ.get('NSS_WRAPPER_HOSTS')!r})")


def test_vector_env_over_a_dns_target_uses_every_replica(replicas) -> None:
    port = replicas[0].port
    target = f"dns:///{REPLICAS_NAME}:{port}"
    addresses = [s.address for s in replicas]
    assert moreau.resolve_servers(target) == addresses
    with moreau.VectorEnv("stand", 6, servers=target, seed=0, timeout=5.0) as env:
        assert [c.address for c in env.clients] == addresses
        assert env.addresses == [a for a in addresses for _ in range(2)]
        env.reset()
        for _ in range(3):
            obs, reward, *_ = env.step(np.zeros((6, 12)))
        assert np.isfinite(obs).all() and np.isfinite(reward).all()
        replicas[2].stop()  # SIGKILL
        with pytest.raises(moreau.MoreauError) as error:
            env.step(np.zeros((6, 12)))
    assert error.value.code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)
    assert error.value.address == addresses[2]
    assert addresses[2] in str(error.value)


def test_env_over_a_dns_target_lives_on_the_first_replica(replicas) -> None:
    target = f"dns:///{REPLICAS_NAME}:{replicas[0].port}"
    with moreau.Env("stand", target) as env:
        assert env.client.address == replicas[0].address
        env.reset(seed=1)
        env.step(np.zeros(12))
