"""``moreau.ReplicaSet``: instances spread over several moreaud replicas.

An instance lives on the server that created it, so a client of many
servers spreads its instances over them and sends each call to the
instance's owner. ``servers`` is one of

* a ``host:port`` address, or a list of them (kept in the given order);
* a ``dns:///NAME:PORT`` target (``dns:NAME:PORT`` too), resolved with the
  system resolver into one ``host:port`` per distinct address, sorted (IPv4
  before IPv6, by number): what a Kubernetes headless Service's name gives,
  one record per pod;
* a list mixing both.

Instances are spread in contiguous blocks whose sizes differ by at most one:
of ``n`` over ``s`` replicas, replica k holds ``[k·n//s, (k+1)·n//s)``.
"""

from __future__ import annotations

import ipaddress
import socket
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Iterable, Mapping, Sequence

import grpc
import numpy as np

from moreau._proto import pb
from moreau.local import LocalServer
from moreau.client import (DEFAULT_TIMEOUT_S, Client, Instances, MoreauError, QueryResult, State,
                           TlsArgument, make_settings, model_source)
from moreau.observation import Observation, ObservationBatch

# (name, port) → the IP addresses (text) the name resolves to.
Resolver = Callable[[str, int], Iterable[str]]

_DNS_PREFIXES = ("dns:///", "dns:")


def system_resolver(name: str, port: int) -> list[str]:
    """The addresses ``socket.getaddrinfo`` gives for ``name`` (TCP)."""
    return [info[4][0] for info in socket.getaddrinfo(name, port, type=socket.SOCK_STREAM)]


def _split_host_port(text: str, target: str) -> tuple[str, int]:
    """``NAME:PORT`` or ``[V6]:PORT`` → (name, port); ValueError naming ``target``."""
    if text.startswith("["):
        host, bracket, rest = text[1:].partition("]")
        port_text = rest[1:] if bracket and rest.startswith(":") else ""
    else:
        host, _, port_text = text.rpartition(":")
    if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(f"{target!r}: expected dns:///NAME:PORT with a port in [1, 65535]")
    return host, int(port_text)


def _address_key(address: str) -> tuple[int, int, str]:
    """Sort key of an IP address text: IPv4 first, then by number."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return (9, 0, address)
    return (ip.version, int(ip), address)


def resolve_dns_target(target: str, resolver: Resolver | None = None) -> list[str]:
    """The ``host:port`` of every distinct address of a ``dns:///NAME:PORT``
    target, sorted. MoreauError (UNAVAILABLE) naming the target when the
    name resolves to nothing."""
    rest = target[len("dns:///"):] if target.startswith("dns:///") else target[len("dns:"):]
    if rest.startswith("//"):
        raise ValueError(f"{target!r}: a DNS server authority is not supported "
                         "(use dns:///NAME:PORT: the system resolver)")
    name, port = _split_host_port(rest, target)
    try:
        found = set((resolver or system_resolver)(name, port))
    except OSError as error:  # socket.gaierror: no such name
        raise MoreauError(grpc.StatusCode.UNAVAILABLE, f"cannot resolve {name!r}: {error}",
                          method="resolve", address=target) from None
    if not found:
        raise MoreauError(grpc.StatusCode.UNAVAILABLE, f"{name!r} resolves to no address",
                          method="resolve", address=target)
    return [f"[{a}]:{port}" if ":" in a else f"{a}:{port}"
            for a in sorted(found, key=_address_key)]


def resolve_servers(servers: str | LocalServer | Sequence[str | LocalServer],
                    resolver: Resolver | None = None) -> list[str | LocalServer]:
    """One ``host:port`` per replica: ``dns:`` targets expanded (see the
    module docstring), other addresses and LocalServers kept as given."""
    if isinstance(servers, (str, LocalServer)):
        servers = [servers]
    if not servers:
        raise ValueError("give at least one server address")
    addresses: list[str | LocalServer] = []
    for target in servers:
        if isinstance(target, LocalServer):
            addresses.append(target)
            continue
        if not isinstance(target, str):
            raise TypeError(f"a server address is a string or a moreau.LocalServer, got "
                            f"{type(target).__name__}")
        if target.startswith(_DNS_PREFIXES):
            addresses.extend(resolve_dns_target(target, resolver))
        else:
            addresses.append(target)
    return addresses


def spread(count: int, replicas: int) -> list[tuple[int, int]]:
    """The block [start, stop) of each replica when ``count`` instances are
    spread over ``replicas``: contiguous, sizes differing by at most one."""
    if replicas < 1:
        raise ValueError("spread over at least one replica")
    return [(k * count // replicas, (k + 1) * count // replicas) for k in range(replicas)]


class ReplicaSet:
    """One :class:`Client` (one channel) per replica, and the owner of every
    instance it created.

    Args:
        servers: addresses and/or ``dns:///NAME:PORT`` targets (see the
            module docstring), or :class:`moreau.LocalServer` s.
        timeout, tls, token: as for :class:`Client`, for every replica.
        resolver: ``(name, port) → addresses`` in place of the system
            resolver.

    :meth:`create_instances` spreads the instances; the per-instance calls
    (``reset``, ``step``, ``get_state``, ``set_state``, ``query``) go to the
    owner, and ``step_batch``/``destroy_instances`` send one call per owner,
    all at once. A failing replica raises MoreauError with its ``address``
    and the ``method``.
    """

    def __init__(self, servers: str | LocalServer | Sequence[str | LocalServer], *, timeout: float = DEFAULT_TIMEOUT_S,
                 tls: TlsArgument = None, token: str | None = None,
                 resolver: Resolver | None = None) -> None:
        self.addresses = resolve_servers(servers, resolver)
        self.clients = [Client(a, timeout=timeout, tls=tls, token=token) for a in self.addresses]
        self._owner: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self.clients)

    def close(self) -> None:
        for client in self.clients:
            client.close()

    def __enter__(self) -> "ReplicaSet":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"moreau.ReplicaSet({self.addresses!r})"

    # -- placement --

    def adopt(self, instance_ids: Sequence[str], replica: int) -> None:
        """Records instances made on replica ``replica`` by other means."""
        for instance_id in instance_ids:
            self._owner[instance_id] = replica

    def owner(self, instance_id: str) -> Client:
        """The client of the replica that holds ``instance_id``."""
        try:
            return self.clients[self._owner[instance_id]]
        except KeyError:
            raise KeyError(f"instance {instance_id!r} was not created through this "
                           "ReplicaSet") from None

    def create_instances(self, model: str | Any = "", count: int = 1, *,
                         settings: Any | Mapping[str, Any] | None = None, seed: int = 0,
                         noise: float = 0.0, timeout: float | None = None,
                         **source: Any) -> Instances:
        """``count`` instances spread over the replicas, created on all of
        them at once; ids and observations in replica order. Instance k's
        noise seed is ``seed + k`` wherever it lives (as on one server)."""
        source_message = model_source(model, **source)
        settings_message = make_settings(settings)
        blocks = [(k, start, stop) for k, (start, stop) in
                  enumerate(spread(count, len(self.clients))) if stop > start]
        pending = [(k, self.clients[k].call_async(
            "CreateInstances",
            pb.CreateInstancesRequest(model=source_message, settings=settings_message,
                                      count=stop - start, seed=seed + start, noise=noise),
            timeout)) for k, start, stop in blocks]
        made: list[tuple[int, Any]] = []
        try:
            for k, call in pending:
                made.append((k, call.result()))
        except MoreauError:
            for k, response in made:  # all or nothing
                try:
                    self.clients[k].destroy_instances(response.instance_ids, timeout=2.0)
                except MoreauError:
                    pass
            raise
        ids: list[str] = []
        observations = []
        for k, response in made:
            self.adopt(response.instance_ids, k)
            ids.extend(response.instance_ids)
            observations.extend(response.observations)
        return Instances(ids, made[0][1].spec, ObservationBatch.from_protos(observations))

    def _by_owner(self, instance_ids: Sequence[str]) -> dict[int, list[int]]:
        """Replica → positions in ``instance_ids`` of the instances it holds."""
        groups: dict[int, list[int]] = {}
        for i, instance_id in enumerate(instance_ids):
            self.owner(instance_id)  # KeyError for an unknown id
            groups.setdefault(self._owner[instance_id], []).append(i)
        return groups

    def destroy_instances(self, instance_ids: Sequence[str], *,
                          timeout: float | None = None) -> tuple[int, list[str]]:
        """Frees instances on their owners; (how many were destroyed, the ids
        their owner did not know)."""
        groups = self._by_owner(instance_ids)
        pending = [self.clients[k].call_async(
            "DestroyInstances",
            pb.DestroyInstancesRequest(instance_ids=[instance_ids[i] for i in rows]), timeout)
            for k, rows in groups.items()]
        destroyed, not_found = 0, []
        for call in pending:
            response = call.result()
            destroyed += response.destroyed
            not_found.extend(response.not_found)
        for instance_id in instance_ids:
            self._owner.pop(instance_id, None)
        return destroyed, not_found

    # -- per-instance calls, on the owner --

    def reset(self, instance_id: str, **kwargs: Any) -> Observation:
        return self.owner(instance_id).reset(instance_id, **kwargs)

    def step(self, instance_id: str, action: Any, substeps: int = 1, **kwargs: Any) -> Observation:
        return self.owner(instance_id).step(instance_id, action, substeps, **kwargs)

    def get_state(self, instance_id: str, **kwargs: Any) -> State:
        return self.owner(instance_id).get_state(instance_id, **kwargs)

    def set_state(self, instance_id: str, state: State | bytes, **kwargs: Any) -> Observation:
        return self.owner(instance_id).set_state(instance_id, state, **kwargs)

    def query(self, instance_id: str, **kwargs: Any) -> QueryResult:
        return self.owner(instance_id).query(instance_id, **kwargs)

    def step_batch(self, instance_ids: Sequence[str], actions: Any,
                   substeps: int = 1, *, timeout: float | None = None) -> ObservationBatch:
        """Many instances, one StepBatch per owner, all owners at once; rows
        in the order of ``instance_ids``. A failing instance does not fail the
        call (see ``status_code`` of its row); a failing replica does."""
        actions = np.asarray(actions, dtype=np.float64)
        if actions.ndim != 2 or actions.shape[0] != len(instance_ids):
            raise ValueError(f"actions must have shape ({len(instance_ids)}, actuators), got "
                             f"{actions.shape}")
        groups = list(self._by_owner(instance_ids).items())
        if len(groups) == 1:
            k, rows = groups[0]
            batches = [self.clients[k].step_batch([instance_ids[i] for i in rows],
                                                  actions[rows], substeps, timeout=timeout)]
        else:
            with ThreadPoolExecutor(len(groups)) as pool:
                futures = [pool.submit(self.clients[k].step_batch,
                                       [instance_ids[i] for i in rows], actions[rows], substeps,
                                       timeout=timeout) for k, rows in groups]
                batches = [f.result() for f in futures]
        order = np.argsort(np.concatenate([rows for _, rows in groups]), kind="stable")
        observations = [batch[j] for batch in batches for j in range(len(batch))]
        return ObservationBatch.stack([observations[j] for j in order])
