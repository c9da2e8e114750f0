"""moreaud's security flags and `moreau remote` against them: the start-up
line names the transport; bad certificate, key or tokens files stop the
server with a clear error; `moreau remote` over TLS and mTLS with --token or
$MOREAU_TOKEN; health checking and reflection need no token; SIGHUP reloads
the tokens, and a bad file keeps the old ones. Certificates are made at test
time by make_test_pki.sh (Debian's openssl)."""
import hashlib
import json
import os
import queue
import re
import signal
import subprocess
import threading
import time

import grpc
import pytest

MOREAUD = os.environ["MOREAUD_BIN"]
MOREAU = os.environ["MOREAU_BIN"]
ALICE = "alice-91c2-token"
BOB = "bob-6e07-token"
CAROL = "carol-a3f5-token"


def token_line(tenant, token, option=""):
    return f"{tenant} {hashlib.sha256(token.encode()).hexdigest()} {option}\n"


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pki")
    subprocess.run(["bash", os.environ["MOREAU_TEST_PKI"], str(folder)], check=True, timeout=60)
    return folder


@pytest.fixture
def tokens(tmp_path):
    path = tmp_path / "tokens"
    path.write_text("# the test's tenants\n" + token_line("alice", ALICE) + token_line("bob", BOB))
    return path


class Moreaud:
    """A moreaud child process; its stderr lines are collected as they come."""

    def __init__(self, *flags):
        self.process = subprocess.Popen([MOREAUD, "--port", "0", "--metrics-port", "-1",
                                         "--drain-delay-s", "0", *flags],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.errors = queue.Queue()
        threading.Thread(target=self._drain, daemon=True).start()
        self.line = self.process.stdout.readline()
        match = re.search(r"moreaud: listening on ([^\s,]+):(\d+)", self.line)
        if not match:
            self.process.kill()
            pytest.fail(f"moreaud did not start: {self.line!r}")
        self.address = f"{match.group(1)}:{match.group(2)}"

    def _drain(self):
        for line in self.process.stderr:
            self.errors.put(line)

    def wait_for_error_line(self, text, timeout=20.0):
        """The next stderr line containing ``text`` (fails after ``timeout``)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.errors.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if text in line:
                return line
        pytest.fail(f"moreaud printed no line with {text!r} in {timeout} s")

    def stop(self):
        self.process.terminate()
        assert self.process.wait(timeout=30) == 0


@pytest.fixture
def servers():
    started = []

    def start(*flags):
        started.append(Moreaud(*flags))
        return started[-1]

    yield start
    for server in started:
        server.stop()


def tls_flags(pki, mutual=False):
    flags = ["--host", "127.0.0.1", "--tls-cert-file", str(pki / "server.pem"),
             "--tls-key-file", str(pki / "server.key")]
    return flags + (["--tls-client-ca-file", str(pki / "ca.pem")] if mutual else [])


def remote(address, *args, env_token=None):
    env = dict(os.environ)
    env.pop("MOREAU_TOKEN", None)
    if env_token is not None:
        env["MOREAU_TOKEN"] = env_token
    return subprocess.run([MOREAU, "remote", *args, "--address", address],
                          capture_output=True, text=True, timeout=60, env=env)


def test_the_startup_line_names_the_transport(servers, pki, tokens):
    # No TLS and no --host: loopback only.
    assert re.match(r"moreaud: listening on 127\.0\.0\.1:\d+, plaintext, ",
                    servers().line)
    assert ", TLS, " in servers(*tls_flags(pki)).line
    assert ", mTLS, " in servers(*tls_flags(pki, mutual=True)).line
    line = servers("--host", "127.0.0.1", "--auth-tokens-file", str(tokens)).line
    assert ", plaintext, bearer tokens, " in line


def _bad_files(pki, tmp_path):
    garbage = tmp_path / "garbage.pem"
    garbage.write_text("not a certificate\n")
    bad_tokens = tmp_path / "bad_tokens"
    bad_tokens.write_text(token_line("alice", ALICE) + "bob 1234\n")
    cert, key = str(pki / "server.pem"), str(pki / "server.key")
    return [
        (["--tls-cert-file", str(tmp_path / "missing.pem"), "--tls-key-file", key],
         f"cannot read --tls-cert-file '{tmp_path / 'missing.pem'}': No such file"),
        (["--tls-cert-file", str(tmp_path), "--tls-key-file", key], "Is a directory"),
        (["--tls-cert-file", str(garbage), "--tls-key-file", key],
         f"--tls-cert-file '{garbage}' is not a PEM certificate"),
        (["--tls-cert-file", cert, "--tls-key-file", str(pki / "client.key")],
         "is not the key of the first certificate in --tls-cert-file"),
        (["--tls-cert-file", cert, "--tls-key-file", cert],
         "is not an unencrypted PEM private key"),
        (["--tls-cert-file", cert], "give both --tls-cert-file and --tls-key-file"),
        (["--tls-client-ca-file", str(pki / "ca.pem")], "--tls-client-ca-file needs"),
        (["--tls-cert-file", cert, "--tls-key-file", key, "--tls-client-ca-file", str(garbage)],
         f"--tls-client-ca-file '{garbage}' is not a PEM certificate"),
        (["--auth-tokens-file", str(bad_tokens)],
         f"{bad_tokens}:2: the token's SHA-256 must be 64 hex digits"),
        (["--auth-tokens-file", str(tmp_path / "no_tokens")], "cannot read tokens file"),
    ]


def test_bad_security_files_stop_the_server_with_a_clear_error(pki, tmp_path):
    for flags, message in _bad_files(pki, tmp_path):
        result = subprocess.run([MOREAUD, "--host", "127.0.0.1", "--port", "0",
                                 "--metrics-port", "-1", *flags],
                                capture_output=True, text=True, timeout=30)
        assert result.returncode == 1, (flags, result.stdout, result.stderr)
        assert result.stdout == "", flags
        assert "moreaud: error: " in result.stderr and message in result.stderr, \
            (flags, result.stderr)


def test_remote_over_tls_with_a_token(servers, pki, tokens):
    server = servers(*tls_flags(pki), "--auth-tokens-file", str(tokens))
    ca = ["--tls-ca-file", str(pki / "ca.pem")]
    listed = remote(server.address, "list", "--json", *ca, "--token", ALICE)
    assert listed.returncode == 0, listed.stderr
    assert "mini_cheetah" in {m["name"] for m in json.loads(listed.stdout)}
    created = remote(server.address, "create", "pendulum", *ca, env_token=ALICE)
    assert created.returncode == 0, created.stderr
    instance = created.stdout.strip()
    stepped = remote(server.address, "step", instance, "--action", "0.5", "--substeps", "4",
                     "--json", *ca, env_token=ALICE)
    assert stepped.returncode == 0, stepped.stderr
    assert json.loads(stepped.stdout)["steps"] == 4
    watched = remote(server.address, "watch", instance, "--frames", "1", *ca, env_token=ALICE)
    assert watched.returncode == 0, watched.stderr
    # Another tenant: the instance does not exist.
    theirs = remote(server.address, "state", instance, *ca, env_token=BOB)
    assert theirs.returncode != 0
    assert f"no instance with id '{instance}'" in theirs.stderr
    # --token wins over $MOREAU_TOKEN.
    assert remote(server.address, "list", *ca, "--token", BOB, env_token="wrong").returncode == 0
    for args, env_token, message in (
            (ca, None, "requires a bearer token"),
            (ca, "wrong", "the bearer token is not valid"),
            ([], ALICE, "moreaud at"),  # plaintext against TLS
            (["--tls-ca-file", str(pki / "other_ca.pem")], ALICE, "moreaud at")):
        refused = remote(server.address, "list", *args, env_token=env_token)
        assert refused.returncode != 0, args
        assert message in refused.stderr, (args, refused.stderr)
    destroyed = remote(server.address, "destroy", instance, *ca, env_token=ALICE)
    assert destroyed.returncode == 0, destroyed.stderr


def test_remote_over_mtls(servers, pki):
    server = servers(*tls_flags(pki, mutual=True))
    ca = ["--tls-ca-file", str(pki / "ca.pem")]
    mine = ["--tls-cert-file", str(pki / "client.pem"), "--tls-key-file", str(pki / "client.key")]
    created = remote(server.address, "create", "pendulum", *ca, *mine)
    assert created.returncode == 0, created.stderr
    refused = remote(server.address, "list", *ca)
    assert refused.returncode != 0 and "moreaud at" in refused.stderr
    half = remote(server.address, "list", *ca, "--tls-cert-file", str(pki / "client.pem"))
    assert half.returncode != 0 and "--tls-key-file" in half.stderr


def identity(x):
    return x


@pytest.mark.parametrize("secure", [False, True])
def test_health_and_reflection_need_no_token(servers, pki, tokens, secure):
    if secure:
        server = servers(*tls_flags(pki), "--auth-tokens-file", str(tokens))
        channel = grpc.secure_channel(server.address,
                                      grpc.ssl_channel_credentials((pki / "ca.pem").read_bytes()))
    else:
        server = servers("--host", "127.0.0.1", "--auth-tokens-file", str(tokens))
        channel = grpc.insecure_channel(server.address)
    with channel:
        check = channel.unary_unary("/grpc.health.v1.Health/Check",
                                    request_serializer=identity, response_deserializer=identity)
        name = b"moreau.v1.Simulator"
        # HealthCheckResponse{status: SERVING (1)}.
        assert check(b"\x0a" + bytes([len(name)]) + name, timeout=10) == b"\x08\x01"
        info = channel.stream_stream(
            "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
            request_serializer=identity, response_deserializer=identity)
        (services,) = list(info(iter([b"\x3a\x00"]), timeout=10))  # list_services
        assert b"moreau.v1.Simulator" in services
        # The Simulator itself does need one.
        list_models = channel.unary_unary("/moreau.v1.Simulator/ListModels",
                                          request_serializer=identity,
                                          response_deserializer=identity)
        with pytest.raises(grpc.RpcError) as failure:
            list_models(b"", timeout=10)
        assert failure.value.code() == grpc.StatusCode.UNAUTHENTICATED


def test_sighup_reloads_the_tokens_and_a_bad_file_keeps_them(servers, tokens):
    server = servers("--host", "127.0.0.1", "--auth-tokens-file", str(tokens))

    def status_of(channel, token):
        call = channel.unary_unary("/moreau.v1.Simulator/ListModels",
                                   request_serializer=identity, response_deserializer=identity)
        try:
            call(b"", timeout=10, metadata=(("authorization", f"Bearer {token}"),))
        except grpc.RpcError as error:
            return error.code()
        return grpc.StatusCode.OK

    with grpc.insecure_channel(server.address) as channel:
        assert status_of(channel, ALICE) == grpc.StatusCode.OK
        # A bad file: logged with its line, the tokens in force stay.
        tokens.write_text(token_line("carol", CAROL) + "carol zz\n")
        server.process.send_signal(signal.SIGHUP)
        line = server.wait_for_error_line("SIGHUP")
        assert "moreaud: error: SIGHUP: kept the tokens in force" in line
        assert f"{tokens}:2: " in line
        assert status_of(channel, ALICE) == grpc.StatusCode.OK
        assert status_of(channel, CAROL) == grpc.StatusCode.UNAUTHENTICATED
        # A good one: bob out, carol in, on the same open channel.
        tokens.write_text(token_line("alice", ALICE) + token_line("carol", CAROL))
        server.process.send_signal(signal.SIGHUP)
        assert "reloaded 2 token(s) of 2 tenant(s)" in server.wait_for_error_line("SIGHUP")
        assert status_of(channel, CAROL) == grpc.StatusCode.OK
        assert status_of(channel, BOB) == grpc.StatusCode.UNAUTHENTICATED
        assert status_of(channel, ALICE) == grpc.StatusCode.OK
