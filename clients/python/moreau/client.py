"""``moreau.Client``: every RPC of moreau.v1.Simulator with numpy in and out.

Every call takes a ``timeout=`` keyword (seconds; the client's default, 10 s,
when omitted; ``None`` on the call itself means the default, pass
``float("inf")`` for no deadline) and raises :class:`MoreauError` carrying the
gRPC code and the server's message when it fails. Calls never wait for a
server that is down (``wait_for_ready=False``): they fail at once with
UNAVAILABLE, or with DEADLINE_EXCEEDED when the server stops answering.

Security: ``tls=`` connects over TLS (see :func:`channel_credentials`;
:func:`tls_credentials` adds a client certificate for servers that require
one), and ``token=`` (default: the ``MOREAU_TOKEN`` environment variable) is
sent as ``authorization: Bearer TOKEN`` with every call.
"""

from __future__ import annotations

import os
import queue
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

import grpc
import numpy as np

from moreau import _wire
from moreau._proto import pb, pb_grpc
from moreau.local import LocalServer
from moreau.observation import Observation, ObservationBatch

DEFAULT_TIMEOUT_S = 10.0
_MAX_MESSAGE_BYTES = 64 << 20
_CODES = {code.value[0]: code for code in grpc.StatusCode}
TOKEN_ENVIRONMENT_VARIABLE = "MOREAU_TOKEN"

# What ``tls=`` accepts: None/False (plaintext), True (TLS trusting the
# system's roots), PEM root certificates as bytes or a file path, or any
# grpc.ChannelCredentials.
TlsArgument = Any


def status_code(value: int) -> grpc.StatusCode:
    """The grpc.StatusCode of a google.rpc.Code number."""
    return _CODES.get(int(value), grpc.StatusCode.UNKNOWN)


class MoreauError(Exception):
    """A failed call: the gRPC ``code`` (grpc.StatusCode), the server's
    ``message``, and the ``method`` and server ``address`` it concerns."""

    def __init__(self, code: grpc.StatusCode, message: str, *, method: str = "",
                 address: str = "") -> None:
        self.code = code
        self.message = message
        self.method = method
        self.address = address
        where = " ".join(part for part in (method, f"on {address}" if address else "") if part)
        super().__init__(f"{where + ': ' if where else ''}{code.name}: {message}")


# ------------------------------------------------------------------ inputs --


def model_source(model: str | Any = "", *, urdf: str | None = None,
                 urdf_path: str | Path | None = None, base: str = "",
                 contact_links: Sequence[str] = (), collision: str = "",
                 collide_links: Sequence[str] = (),
                 exclude_links: Sequence[str] = ()) -> Any:
    """A ``moreau.v1.ModelSource``.

    Args:
        model: a built-in name (``mini_cheetah``, ``pendulum``, …) or an
            existing ModelSource (returned unchanged).
        urdf: URDF text instead of a built-in.
        urdf_path: a URDF file to read instead of a built-in.
        base: ``""`` (from the description), ``"floating"`` or ``"fixed"``.
        contact_links: links whose sphere geoms are contact points.
        collision: ``""``/``"feet"`` (the foot spheres) or ``"all"`` (every
            collision shape of every link).
        collide_links, exclude_links: per-link overrides of ``collision``.
    """
    if isinstance(model, pb.ModelSource):
        return model
    source = pb.ModelSource(base=base, contact_links=list(contact_links),
                            collision=collision, collide_links=list(collide_links),
                            exclude_links=list(exclude_links))
    if urdf_path is not None:
        urdf = Path(urdf_path).read_text()
    if urdf is not None:
        source.urdf = urdf
    elif model:
        source.builtin = model
    else:
        raise ValueError("model_source: give a built-in name, urdf= or urdf_path=")
    return source


def make_settings(settings: Any | Mapping[str, Any] | None = None, **overrides: Any) -> Any:
    """A ``moreau.v1.Settings`` from a message, a dict and/or keywords.

    Keys: ``dt``, ``contact_model``, ``integrator``, ``contact_parameters``
    (dict), ``control_mode`` (``"torque"``, ``"pd"``, ``"id"`` or
    ``"id-constraint"``), ``kp``, ``kd``, ``id_time_constant``, ``gear``,
    ``rotor_inertia``, ``loop_solver`` (``"prox"`` or ``"direct"``),
    ``gravity`` (3), ``terrain`` (a ``moreau.v1.Terrain``, or a dict such as
    ``{"incline": {"angle_deg": 5}}``), ``observed_links`` (URDF link names —
    bodies or links merged into them by fixed joints — whose world positions
    every observation carries as ``link_positions``), ``controller`` (a
    ``moreau.v1.ControllerSettings``, or a dict such as ``{"kind": "trot",
    "period_steps": 1, "parameters": {"kp": 60}}``: the controller the
    simulation runs inside its step; the action adds to its torques, or to its
    joint targets under a target control mode).
    """
    if isinstance(settings, pb.Settings):
        out = pb.Settings()
        out.CopyFrom(settings)
        values: dict[str, Any] = {}
    else:
        out = pb.Settings()
        values = dict(settings or {})
    values.update(overrides)
    for key, value in values.items():
        if value is None:
            continue
        if key == "contact_parameters":
            out.contact_parameters.clear()
            out.contact_parameters.update({k: float(v) for k, v in value.items()})
        elif key == "gravity":
            del out.gravity[:]
            out.gravity.extend(float(g) for g in value)
        elif key == "observed_links":
            if isinstance(value, str):
                raise ValueError("observed_links: give a list of link names")
            del out.observed_links[:]
            out.observed_links.extend(str(name) for name in value)
        elif key == "terrain":
            terrain = value if isinstance(value, pb.Terrain) else pb.Terrain(**value)
            out.terrain.CopyFrom(terrain)
        elif key == "controller":
            out.controller.CopyFrom(_controller_settings(value))
        elif key in ("dt", "kp", "kd", "id_time_constant", "gear", "rotor_inertia"):
            setattr(out, key, float(value))
        elif key in ("contact_model", "integrator", "control_mode", "loop_solver"):
            setattr(out, key, str(value))
        else:
            raise ValueError(f"unknown settings key '{key}'")
    return out


def _controller_settings(value: Any) -> Any:
    """A ``moreau.v1.ControllerSettings`` from a message or a dict with the keys
    ``kind``, ``period_steps`` and ``parameters`` (name → number)."""
    if isinstance(value, pb.ControllerSettings):
        return value
    if not isinstance(value, Mapping):
        raise ValueError("controller: give a dict such as {'kind': 'trot'} or a "
                         "moreau.v1.ControllerSettings")
    unknown = set(value) - {"kind", "period_steps", "parameters"}
    if unknown:
        raise ValueError(f"controller: unknown keys {sorted(unknown)} "
                         "(expected kind, period_steps, parameters)")
    out = pb.ControllerSettings(kind=str(value.get("kind", "")),
                                period_steps=int(value.get("period_steps", 0)))
    out.parameters.update({str(k): float(v) for k, v in (value.get("parameters") or {}).items()})
    return out


def _doubles(values: Any, name: str) -> np.ndarray:
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {array.shape}")
    return array


# ----------------------------------------------------------------- outputs --


@dataclass
class Instances:
    """What CreateInstances returns: the ids, the Spec (a ``moreau.v1.Spec``:
    observation layout, action and bounds, model) and the first observations."""

    ids: list[str]
    spec: Any
    observations: ObservationBatch


@dataclass
class State:
    """A complete instance state: the opaque portable ``blob`` (for SetState
    or Reset on any server of the same version) and q, v, time to read."""

    blob: bytes
    q: np.ndarray
    v: np.ndarray
    time: float


@dataclass
class BodyPose:
    position: np.ndarray  # (3,), world
    quaternion: np.ndarray  # (4,), w x y z, body → world


@dataclass
class QueryResult:
    """What Query returns; fields not asked for are empty."""

    time: float
    nv: int
    body_poses: dict[str, BodyPose] = field(default_factory=dict)
    contact_active: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))  # (nc,)
    contact_gap: np.ndarray = field(default_factory=lambda: np.zeros(0))  # (nc,)
    contact_position: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))  # (nc, 3)
    contact_normal: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))  # (nc, 3)
    contact_force: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))  # (nc, 3)
    kinetic_energy: float = 0.0
    potential_energy: float = 0.0
    mass_matrix: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))  # (nv, nv)
    bias_forces: np.ndarray = field(default_factory=lambda: np.zeros(0))  # (nv,)
    contact_jacobians: np.ndarray = field(default_factory=lambda: np.zeros((0, 3, 0)))
    link_positions: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))  # (links, 3)


@dataclass
class WatchFrame:
    time: float
    steps: int
    body_poses: dict[str, BodyPose]
    contact_normal_forces: np.ndarray
    contact_flags: np.ndarray


def _poses(messages: Iterable[Any]) -> dict[str, BodyPose]:
    return {p.name: BodyPose(np.array(p.position), np.array(p.quaternion)) for p in messages}


# ---------------------------------------------------------------- security --


def _pem(value: bytes | str | os.PathLike | None, what: str) -> bytes | None:
    if value is None:
        return None
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    if isinstance(value, str) and value.lstrip().startswith("-----BEGIN "):
        return value.encode()  # PEM text rather than a path
    if isinstance(value, (str, os.PathLike)):
        return Path(value).read_bytes()
    raise TypeError(f"{what}: give PEM bytes or a file path, got {type(value).__name__}")


def tls_credentials(ca: bytes | str | os.PathLike | None = None,
                    cert: bytes | str | os.PathLike | None = None,
                    key: bytes | str | os.PathLike | None = None) -> grpc.ChannelCredentials:
    """TLS credentials from PEM (bytes or text) or file paths: ``ca`` the
    certificates the server's must chain to (None: the system's roots);
    ``cert`` and ``key`` the client's certificate chain and private key, for
    servers that require client certificates (mTLS)."""
    if (cert is None) != (key is None):
        raise ValueError("give both cert and key (the client certificate and its key), or neither")
    return grpc.ssl_channel_credentials(root_certificates=_pem(ca, "ca"),
                                        private_key=_pem(key, "key"),
                                        certificate_chain=_pem(cert, "cert"))


def channel_credentials(tls: TlsArgument) -> grpc.ChannelCredentials | None:
    """The channel credentials of a ``tls=`` argument; None for plaintext."""
    if tls is None or tls is False:
        return None
    if isinstance(tls, grpc.ChannelCredentials):
        return tls
    if tls is True:
        return grpc.ssl_channel_credentials()
    if isinstance(tls, (bytes, bytearray, str, os.PathLike)):
        return tls_credentials(ca=tls)
    raise TypeError("tls: give None, True, PEM root certificates (bytes or a path) or "
                    f"grpc.ChannelCredentials, got {type(tls).__name__}")


def bearer_metadata(token: str | None) -> tuple[tuple[str, str], ...] | None:
    """The call metadata carrying ``token`` (None: ``$MOREAU_TOKEN``; an empty
    token: no metadata)."""
    if token is None:
        token = os.environ.get(TOKEN_ENVIRONMENT_VARIABLE, "")
    return (("authorization", f"Bearer {token}"),) if token else None


# ------------------------------------------------------------------ client --


class Client:
    """A connection to one moreaud (for several, see :class:`moreau.ReplicaSet`).

    Args:
        address: ``host:port``, or a :class:`moreau.LocalServer` (the
            in-process engine).
        timeout: the default deadline of every call, in seconds.
        options: extra gRPC channel options.
        tls: None for plaintext; True (the system's roots), PEM root
            certificates as bytes or a file path, or any
            ``grpc.ChannelCredentials`` (e.g. :func:`tls_credentials` with a
            client certificate) for TLS.
        token: the bearer token of a server with tokens (None: the
            ``MOREAU_TOKEN`` environment variable, if set).

    Usable as a context manager; :meth:`close` closes the channel.
    """

    def __init__(self, address: "str | LocalServer", *, timeout: float = DEFAULT_TIMEOUT_S,
                 options: Sequence[tuple[str, Any]] = (), tls: TlsArgument = None,
                 token: str | None = None) -> None:
        self.timeout = timeout
        if isinstance(address, LocalServer):
            # In process: the same calls over the LocalServer's channel.
            self.address = address.address
            self.tls = False
            self._metadata = None
            self._channel = address.channel()
            self._stub = pb_grpc.SimulatorStub(self._channel)
            self._step_batch_raw = self._channel.unary_unary("/moreau.v1.Simulator/StepBatch")
            return
        if not isinstance(address, str):
            raise TypeError(f"a Client is one server: give one 'host:port' or a "
                            f"moreau.LocalServer, got {type(address).__name__} (for several, "
                            f"use moreau.ReplicaSet)")
        self.address = address
        channel_options = [
            ("grpc.max_send_message_length", _MAX_MESSAGE_BYTES),
            ("grpc.max_receive_message_length", _MAX_MESSAGE_BYTES),
            *options,
        ]
        credentials = channel_credentials(tls)
        self.tls = credentials is not None
        self._metadata = bearer_metadata(token)
        if credentials is None:
            self._channel = grpc.insecure_channel(address, options=channel_options)
        else:
            self._channel = grpc.secure_channel(address, credentials, options=channel_options)
        self._stub = pb_grpc.SimulatorStub(self._channel)
        # StepBatch travels as raw bytes (see moreau._wire).
        self._step_batch_raw = self._channel.unary_unary("/moreau.v1.Simulator/StepBatch")

    # -- plumbing --

    def close(self) -> None:
        """Closes the channel; calls in flight are cancelled."""
        self._channel.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"moreau.Client({self.address!r})"

    def _deadline(self, timeout: float | None) -> float | None:
        value = self.timeout if timeout is None else timeout
        return None if value == float("inf") else value

    def error(self, error: grpc.RpcError, method: str) -> MoreauError:
        """The MoreauError of a failed call of ``method``."""
        code = error.code() if hasattr(error, "code") else grpc.StatusCode.UNKNOWN
        details = error.details() if hasattr(error, "details") else str(error)
        return MoreauError(code or grpc.StatusCode.UNKNOWN, details or "", method=method,
                           address=self.address)

    def _call(self, method: str, request: Any, timeout: float | None) -> Any:
        try:
            return getattr(self._stub, method)(request, timeout=self._deadline(timeout),
                                               wait_for_ready=False, metadata=self._metadata)
        except grpc.RpcError as error:
            raise self.error(error, method) from None

    def call_async(self, method: str, request: Any,
                   timeout: float | None = None) -> "Pending":
        """Starts ``method`` (a unary RPC name, e.g. ``"Reset"``) without
        waiting; ``.result()`` of the returned object gives the response
        message or raises MoreauError."""
        future = getattr(self._stub, method).future(
            request, timeout=self._deadline(timeout), wait_for_ready=False,
            metadata=self._metadata)
        return Pending(self, method, future, lambda response: response)

    # -- models --

    def list_models(self, *, timeout: float | None = None) -> list[Any]:
        """The built-in models' ``moreau.v1.ModelSpec`` messages."""
        return list(self._call("ListModels", pb.ListModelsRequest(), timeout).models)

    def get_model(self, model: str | Any = "", *, timeout: float | None = None,
                  **source: Any) -> Any:
        """The ``moreau.v1.ModelSpec`` of a built-in or of URDF text (see
        :func:`model_source` for the keywords)."""
        request = pb.GetModelRequest(model=model_source(model, **source))
        return self._call("GetModel", request, timeout).spec

    def get_mesh(self, model: str, mesh: str, *, timeout: float | None = None) -> bytes:
        """The bytes of mesh file ``mesh`` (as a shape names it:
        ``ShapeSpec.mesh`` of ``get_model(model).visual_shapes`` or
        ``.shapes``) of the built-in model ``model``, compiled into the
        server; NOT_FOUND for a mesh or model it does not hold."""
        request = pb.GetMeshRequest(model=model, mesh=mesh)
        return self._call("GetMesh", request, timeout).data

    # -- instances --

    def create_instances(self, model: str | Any = "", count: int = 1, *,
                         settings: Any | Mapping[str, Any] | None = None, seed: int = 0,
                         noise: float = 0.0, timeout: float | None = None,
                         **source: Any) -> Instances:
        """Creates ``count`` instances of one model with one Settings.

        With ``noise > 0`` instance k starts from the default pose perturbed by
        seeded noise (seed + k). ``source`` keywords as in :func:`model_source`.
        """
        request = pb.CreateInstancesRequest(
            model=model_source(model, **source), settings=make_settings(settings),
            count=count, seed=seed, noise=noise)
        response = self._call("CreateInstances", request, timeout)
        return Instances(list(response.instance_ids), response.spec,
                         ObservationBatch.from_protos(response.observations))

    def destroy_instances(self, instance_ids: Sequence[str], *,
                          timeout: float | None = None) -> tuple[int, list[str]]:
        """Frees instances; returns (how many were destroyed, unknown ids)."""
        response = self._call("DestroyInstances",
                              pb.DestroyInstancesRequest(instance_ids=list(instance_ids)),
                              timeout)
        return response.destroyed, list(response.not_found)

    def list_instances(self, *, page_size: int = 0,
                       timeout: float | None = None) -> list[pb.InstanceInfo]:
        """Every instance of the caller (``InstanceInfo`` messages in id
        order: model, contact model, controller, time, steps, status,
        watchers, creation and last-step times), fetched ``page_size`` at a
        time (0: the server's default page)."""
        infos: list[pb.InstanceInfo] = []
        token = ""
        while True:
            page = self._call("ListInstances",
                              pb.ListInstancesRequest(page_size=page_size, page_token=token),
                              timeout)
            infos.extend(page.instances)
            token = page.next_page_token
            if not token:
                return infos

    def reset(self, instance_id: str, *, seed: int = 0, noise: float = 0.0,
              state: State | bytes | None = None, timeout: float | None = None) -> Observation:
        """Back to the default pose (perturbed by seeded noise when
        ``noise > 0``) or to ``state``; clears a diverged instance."""
        return Observation.from_proto(
            self._call("Reset", self.reset_request(instance_id, seed, noise, state),
                       timeout).observation)

    @staticmethod
    def reset_request(instance_id: str, seed: int = 0, noise: float = 0.0,
                      state: State | bytes | None = None) -> Any:
        request = pb.ResetRequest(instance_id=instance_id, seed=seed, noise=noise)
        if state is not None:
            request.state.data = state.blob if isinstance(state, State) else bytes(state)
        return request

    # -- stepping --

    def step(self, instance_id: str, action: Any, substeps: int = 1, *,
             pushes: Iterable[Mapping[str, Any]] = (),
             timeout: float | None = None) -> Observation:
        """One instance, ``action`` (per actuator) held for ``substeps`` steps.
        ``pushes``: dicts of ``moreau.v1.Push`` fields (``body``, ``force``,
        ``point``, ``torque``, ``duration``) that start with this step and act
        for their duration of simulated time, across later calls too. The
        instance's failure (e.g. FAILED_PRECONDITION when diverged) is
        raised."""
        request = pb.StepRequest(instance_id=instance_id,
                                 action=_doubles(action, "action"), substeps=substeps,
                                 pushes=[pb.Push(**push) for push in pushes])
        return Observation.from_proto(self._call("Step", request, timeout).observation)

    def prepare_step_batch(self, instance_ids: Sequence[str], action_size: int,
                           substeps: int | Sequence[int] = 1, *,
                           packed: bool = False) -> "StepBatch":
        """A reusable StepBatch call for a fixed list of instances: the
        request layout is built once, each call only copies the actions in.
        ``packed``: the server replies with one struct-of-arrays
        ObservationBatch (much cheaper for large batches; every instance must
        then have the same observation sizes, e.g. one model)."""
        return StepBatch(self, _wire.StepBatchEncoder(list(instance_ids), action_size, substeps,
                                                      packed=packed))

    def step_batch(self, instance_ids: Sequence[str], actions: Any,
                   substeps: int | Sequence[int] = 1, *, packed: bool = False,
                   timeout: float | None = None) -> ObservationBatch:
        """Many instances in one call, stepped in parallel on the server.

        ``actions`` has shape (n, actuators). A failing instance does not fail
        the call: see ``status_code``/``status_message`` of the result.
        ``packed``: see :meth:`prepare_step_batch`.
        """
        actions = np.asarray(actions, dtype=np.float64)
        if actions.ndim != 2:
            raise ValueError(f"actions must have shape (n, actuators), got {actions.shape}")
        return self.prepare_step_batch(instance_ids, actions.shape[1], substeps, packed=packed)(
            actions, timeout=timeout)

    def session(self, *, timeout: float | None = float("inf")) -> "Session":
        """A closed-loop Session stream (see :class:`Session`). Its deadline
        covers the whole stream: none by default."""
        return Session(self, timeout)

    # -- state --

    def get_state(self, instance_id: str, *, timeout: float | None = None) -> State:
        """The complete state of an instance."""
        response = self._call("GetState", pb.GetStateRequest(instance_id=instance_id), timeout)
        return State(response.state.data, np.array(response.q), np.array(response.v),
                     response.time)

    def set_state(self, instance_id: str, state: State | bytes, *,
                  timeout: float | None = None) -> Observation:
        """Restores a state (all or nothing); continues bit-exactly."""
        blob = state.blob if isinstance(state, State) else bytes(state)
        request = pb.SetStateRequest(instance_id=instance_id, state=pb.StateBlob(data=blob))
        return Observation.from_proto(self._call("SetState", request, timeout).observation)

    # -- query --

    @staticmethod
    def query_request(instance_id: str, *, q: Any = None, **asked: bool) -> Any:
        """The ``moreau.v1.QueryRequest`` of :meth:`query` (for :meth:`call_async`)."""
        request = pb.QueryRequest(instance_id=instance_id, **asked)
        if q is not None:
            request.q.extend(_doubles(q, "q").tolist())
        return request

    def query(self, instance_id: str, *, body_poses: bool = False, contacts: bool = False,
              energies: bool = False, mass_matrix: bool = False, bias_forces: bool = False,
              contact_jacobians: bool = False, link_positions: bool = False, q: Any = None,
              timeout: float | None = None) -> QueryResult:
        """Body poses, contacts, energies, M, h, contact Jacobians and the
        positions of the instance's observed links (settings
        ``observed_links``) on request. With ``q`` (nq), all but the contacts
        are of the configuration q at rest instead of the instance's state
        (which stays as it is)."""
        r = self._call("Query", self.query_request(
            instance_id, body_poses=body_poses, contacts=contacts, energies=energies,
            mass_matrix=mass_matrix, bias_forces=bias_forces,
            contact_jacobians=contact_jacobians, link_positions=link_positions, q=q), timeout)
        nv = r.nv
        result = QueryResult(time=r.time, nv=nv, body_poses=_poses(r.body_poses),
                             kinetic_energy=r.kinetic_energy,
                             potential_energy=r.potential_energy)
        if contacts:
            result.contact_active = np.array([c.active for c in r.contacts], dtype=bool)
            result.contact_gap = np.array([c.gap for c in r.contacts])
            result.contact_position = np.array([list(c.position) for c in r.contacts]).reshape(-1, 3)
            result.contact_normal = np.array([list(c.normal) for c in r.contacts]).reshape(-1, 3)
            result.contact_force = np.array([list(c.force) for c in r.contacts]).reshape(-1, 3)
        if mass_matrix:
            result.mass_matrix = np.array(r.mass_matrix).reshape(nv, nv)
        if bias_forces:
            result.bias_forces = np.array(r.bias_forces)
        if contact_jacobians:
            result.contact_jacobians = np.array(r.contact_jacobians).reshape(-1, 3, nv)
        if link_positions:
            result.link_positions = np.array(r.link_positions).reshape(-1, 3)
        return result

    def watch(self, instance_id: str, rate_hz: float = 30.0, *,
              timeout: float | None = float("inf")) -> "Watch":
        """A stream of sampled frames (body poses, contact forces) until the
        returned :class:`Watch` is closed, its deadline passes or the instance
        is destroyed. Iterate over it; no deadline by default."""
        call = self._stub.Watch(pb.WatchRequest(instance_id=instance_id, rate_hz=rate_hz),
                                timeout=self._deadline(timeout), wait_for_ready=False,
                                metadata=self._metadata)
        return Watch(self, call)


class Pending:
    """A call in flight: ``result()`` waits for it and converts the response
    (raising MoreauError on failure)."""

    def __init__(self, client: Client, method: str, future: Any,
                 convert: Callable[[Any], Any]) -> None:
        self._client = client
        self._method = method
        self._future = future
        self._convert = convert

    def result(self) -> Any:
        try:
            response = self._future.result()
        except grpc.RpcError as error:
            raise self._client.error(error, self._method) from None
        return self._convert(response)

    def cancel(self) -> None:
        self._future.cancel()


class StepBatch:
    """A prepared StepBatch over fixed instances (``Client.prepare_step_batch``).

    ``batch(actions)`` steps and returns an ObservationBatch; ``batch.future(
    actions)`` starts the call and returns a :class:`Pending`, so that calls to
    several servers run at once.
    """

    def __init__(self, client: Client, encoder: _wire.StepBatchEncoder) -> None:
        self.client = client
        self._encoder = encoder

    def __call__(self, actions: np.ndarray, *, rows: np.ndarray | None = None,
                 timeout: float | None = None,
                 into: tuple[ObservationBatch, Any] | None = None) -> ObservationBatch | None:
        """Steps and waits (a blocking call: cheaper than a future when it
        is the only call in flight). With ``into=(batch, where)`` the reply's
        rows are written into rows ``where`` of ``batch`` (one copy fewer) and
        None is returned."""
        request = self._encoder.encode(actions, rows)
        direct = getattr(self.client._step_batch_raw, "into", None)  # in process
        try:
            if direct is not None and into is not None and self._encoder.packed:
                labels = direct(request, self.client._deadline(timeout), *into)
                ids = (self._encoder.instance_ids if rows is None else
                       [self._encoder.instance_ids[i] for i in rows])
                into[0].set_labels(into[1], *(labels or (ids, [""] * len(ids))))
                return None
            response = self.client._step_batch_raw(
                request, timeout=self.client._deadline(timeout), wait_for_ready=False,
                metadata=self.client._metadata)
        except grpc.RpcError as error:
            raise self.client.error(error, "StepBatch") from None
        return self._convert(response, rows, into)

    def future(self, actions: np.ndarray, *, rows: np.ndarray | None = None,
               timeout: float | None = None,
               into: tuple[ObservationBatch, Any] | None = None) -> Pending:
        """Starts the call; with ``rows`` (indices into the instances) only
        those instances are stepped (``actions`` still has a row for each).
        ``into`` as for a blocking call (the Pending's result is then None)."""
        request = self._encoder.encode(actions, rows)
        try:
            future = self.client._step_batch_raw.future(
                request, timeout=self.client._deadline(timeout), wait_for_ready=False,
                metadata=self.client._metadata)
        except grpc.RpcError as error:
            raise self.client.error(error, "StepBatch") from None
        return Pending(self.client, "StepBatch", future,
                       lambda response: self._convert(response, rows, into))

    def _convert(self, response: bytes, rows: np.ndarray | None,
                 into: tuple[ObservationBatch, Any] | None) -> ObservationBatch | None:
        if into is None:
            return self._encoder.decode(response, rows)
        self._encoder.decode_into(response, rows, *into)
        return None


class Session:
    """Closed-loop control over one Session stream: :meth:`step` sends one
    StepRequest and waits for its observation. A failed instance step comes
    back in ``Observation.status_code``; a failed stream raises MoreauError.
    Use as a context manager or call :meth:`close`.
    """

    _END = object()

    def __init__(self, client: Client, timeout: float | None) -> None:
        self._client = client
        self._requests: "queue.Queue[Any]" = queue.Queue()
        self._lock = threading.Lock()
        self._call = client._stub.Session(iter(self._requests.get, self._END),
                                          timeout=client._deadline(timeout),
                                          wait_for_ready=False, metadata=client._metadata)

    def step(self, instance_id: str, action: Any, substeps: int = 1) -> Observation:
        request = pb.SessionRequest(step=pb.StepRequest(
            instance_id=instance_id, action=_doubles(action, "action"), substeps=substeps))
        with self._lock:
            self._requests.put(request)
            try:
                response = next(self._call)
            except StopIteration:
                raise MoreauError(grpc.StatusCode.UNAVAILABLE, "the session stream ended",
                                  method="Session", address=self._client.address) from None
            except grpc.RpcError as error:
                raise self._client.error(error, "Session") from None
        return Observation.from_proto(response.observation)

    def close(self) -> None:
        """Ends the stream (half-close, then cancel what is left)."""
        self._requests.put(self._END)
        self._call.cancel()

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Watch:
    """An iterator of :class:`WatchFrame` over a Watch stream."""

    def __init__(self, client: Client, call: Any) -> None:
        self._client = client
        self._call = call

    def __iter__(self) -> Iterator[WatchFrame]:
        return self

    def __next__(self) -> WatchFrame:
        try:
            frame = next(self._call)
        except grpc.RpcError as error:
            if error.code() == grpc.StatusCode.CANCELLED:
                raise StopIteration from None
            raise self._client.error(error, "Watch") from None
        return WatchFrame(frame.time, frame.steps, _poses(frame.body_poses),
                          np.array(frame.contact_normal_forces),
                          np.array(frame.contact_flags, dtype=bool))

    def close(self) -> None:
        """Cancels the stream."""
        self._call.cancel()

    def __enter__(self) -> "Watch":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
