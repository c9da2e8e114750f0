"""The Python client over TLS and mutual TLS, with bearer tokens: Client, Env
and VectorEnv; ``tls=`` as PEM bytes, a path or grpc.ChannelCredentials;
``token=`` or $MOREAU_TOKEN on every kind of call. Certificates are made at
test time by make_test_pki.sh (Debian's openssl)."""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path
from typing import Iterator

import grpc
import numpy as np
import pytest

import moreau
from conftest import Server

ALICE = "alice-3b9e1f-token"
BOB = "bob-d04c7a-token"


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Path:
    script = os.environ.get("MOREAU_TEST_PKI")
    if not script:
        pytest.fail("set MOREAU_TEST_PKI to tests/integration/make_test_pki.sh (ctest does)")
    folder = tmp_path_factory.mktemp("pki")
    subprocess.run(["bash", script, str(folder)], check=True, timeout=60)
    tokens = folder / "tokens"
    tokens.write_text("".join(f"{tenant} {hashlib.sha256(token.encode()).hexdigest()}\n"
                              for tenant, token in (("alice", ALICE), ("bob", BOB))))
    return folder


def _server(pki: Path, *, mutual: bool) -> Iterator[Server]:
    flags = ["--tls-cert-file", str(pki / "server.pem"), "--tls-key-file", str(pki / "server.key"),
             "--auth-tokens-file", str(pki / "tokens")]
    if mutual:
        flags += ["--tls-client-ca-file", str(pki / "ca.pem")]
    server = Server(*flags)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def tls_server(pki: Path) -> Iterator[Server]:
    yield from _server(pki, mutual=False)


@pytest.fixture(scope="module")
def mtls_server(pki: Path) -> Iterator[Server]:
    yield from _server(pki, mutual=True)


@pytest.fixture(autouse=True)
def no_token_in_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MOREAU_TOKEN", raising=False)


def test_tls_takes_root_certificates_as_bytes_or_a_path_or_credentials(
        tls_server: Server, pki: Path) -> None:
    ca = pki / "ca.pem"
    for tls in (ca.read_bytes(), str(ca), ca, moreau.tls_credentials(ca=ca.read_text()),
                grpc.ssl_channel_credentials(ca.read_bytes())):
        with moreau.Client(tls_server.address, tls=tls, token=ALICE) as client:
            assert client.tls
            assert "mini_cheetah" in [m.name for m in client.list_models()]


def test_tls_refuses_plaintext_and_another_ca(tls_server: Server, pki: Path) -> None:
    for tls in (None, pki / "other_ca.pem"):
        with moreau.Client(tls_server.address, tls=tls, token=ALICE, timeout=20) as client:
            with pytest.raises(moreau.MoreauError) as failure:
                client.list_models()
            assert failure.value.code == grpc.StatusCode.UNAVAILABLE


def test_a_missing_or_wrong_token_is_unauthenticated(tls_server: Server, pki: Path) -> None:
    for token in (None, "", "not-a-token"):
        with moreau.Client(tls_server.address, tls=pki / "ca.pem", token=token) as client:
            with pytest.raises(moreau.MoreauError) as failure:
                client.list_models()
            assert failure.value.code == grpc.StatusCode.UNAUTHENTICATED


def test_the_token_comes_from_moreau_token(tls_server: Server, pki: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MOREAU_TOKEN", BOB)
    with moreau.Client(tls_server.address, tls=pki / "ca.pem") as client:
        assert client.list_models()
    # An explicit token wins; "" sends none.
    with moreau.Client(tls_server.address, tls=pki / "ca.pem", token="") as client:
        with pytest.raises(moreau.MoreauError) as failure:
            client.list_models()
        assert failure.value.code == grpc.StatusCode.UNAUTHENTICATED


def test_every_kind_of_call_carries_the_token(tls_server: Server, pki: Path) -> None:
    with moreau.Client(tls_server.address, tls=pki / "ca.pem", token=ALICE) as client:
        created = client.create_instances("pendulum", 2, settings={"control_mode": "torque"})
        ids = created.ids
        assert client.step(ids[0], [0.5], 10).steps == 10
        batch = client.step_batch(ids, np.zeros((2, 1)), 5)
        assert list(batch.steps) == [15, 5]
        packed = client.prepare_step_batch(ids, 1, 5, packed=True)
        assert list(packed(np.zeros((2, 1))).steps) == [20, 10]
        assert list(packed.future(np.zeros((2, 1))).result().steps) == [25, 15]
        assert client.call_async("GetState", moreau.client.pb.GetStateRequest(
            instance_id=ids[0])).result().time == pytest.approx(0.025)
        with client.session() as session:
            assert session.step(ids[0], [0.0], 5).steps == 30
        with client.watch(ids[0], 50.0) as watch:
            assert next(watch).steps == 30
        state = client.get_state(ids[0])
        assert client.set_state(ids[1], state).steps == 30
        assert client.query(ids[1], energies=True).time == pytest.approx(0.03)
        assert client.reset(ids[1]).steps == 0
        assert client.destroy_instances(ids) == (2, [])
    # Another tenant sees none of it.
    with moreau.Client(tls_server.address, tls=pki / "ca.pem", token=BOB) as bob:
        assert bob.destroy_instances(ids) == (0, ids)


def test_env_and_vector_env_over_tls_with_a_token(tls_server: Server, pki: Path) -> None:
    with moreau.Env("stand", tls_server.address, tls=pki / "ca.pem", token=ALICE) as env:
        obs, _ = env.reset(seed=0)
        obs, *_ = env.step(np.zeros(env.action_space.shape))
        assert obs.shape == env.observation_space.shape
        instance = env.instance_id
        with moreau.Client(tls_server.address, tls=pki / "ca.pem", token=BOB) as bob:
            with pytest.raises(moreau.MoreauError) as failure:
                bob.get_state(instance)
            assert failure.value.code == grpc.StatusCode.NOT_FOUND
    with moreau.VectorEnv("stand", 2, [tls_server.address], seed=0,
                          tls=moreau.tls_credentials(ca=pki / "ca.pem"), token=BOB) as env:
        obs, _ = env.reset()
        obs, reward, *_ = env.step(np.zeros(env.action_space.shape))
        assert obs.shape == (2, env.single_observation_space.shape[0])
        assert reward.shape == (2,)


def test_mtls_needs_a_client_certificate(mtls_server: Server, pki: Path) -> None:
    with_certificate = moreau.tls_credentials(ca=pki / "ca.pem", cert=pki / "client.pem",
                                              key=(pki / "client.key").read_bytes())
    with moreau.Client(mtls_server.address, tls=with_certificate, token=ALICE) as client:
        ids = client.create_instances("pendulum", 1).ids
        assert client.step(ids[0], np.zeros(1), 3).steps == 3
    for tls in (pki / "ca.pem",
                moreau.tls_credentials(ca=pki / "ca.pem", cert=pki / "other_client.pem",
                                       key=pki / "other_client.key")):
        with moreau.Client(mtls_server.address, tls=tls, token=ALICE, timeout=20) as client:
            with pytest.raises(moreau.MoreauError) as failure:
                client.list_models()
            assert failure.value.code == grpc.StatusCode.UNAVAILABLE


def test_tls_arguments_are_checked() -> None:
    with pytest.raises(TypeError):
        moreau.channel_credentials(42)
    with pytest.raises(ValueError):
        moreau.tls_credentials(cert=b"only a certificate")
    assert moreau.channel_credentials(None) is None
    assert moreau.channel_credentials(False) is None
    assert isinstance(moreau.channel_credentials(True), grpc.ChannelCredentials)
