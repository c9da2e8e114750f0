"""The in-process engine: a moreaud inside this Python process.

:class:`LocalServer` hosts instances in the calling process on the server's
own worker pool and stepping code (the compiled module ``moreau._local``,
built by the CMake target ``moreau_local``). Calls reach it as the same
serialized messages a remote server gets, through gRPC's in-process
transport, with the GIL released while they run: settings, specs,
observations, snapshots and errors are the service's, bit for bit.

A :class:`moreau.Client`, :class:`moreau.ReplicaSet`,
:class:`moreau.VectorEnv` or :class:`moreau.Env` given a LocalServer (or,
for the environments, ``servers=None``) runs on it::

    env = moreau.VectorEnv("walk", 64)            # in process
    env = moreau.VectorEnv("walk", 64, servers=["127.0.0.1:50051"])  # remote

:func:`default_server` is the process's shared LocalServer, made at its first
use with one worker per core.
"""

from __future__ import annotations

import atexit
import threading
from typing import Any, Callable, Iterable, Iterator

import grpc

_BUILD_HINT = (
    "build the CMake target `moreau_local` (scripts/build.sh does) and put both folders on "
    "PYTHONPATH: export PYTHONPATH=$PWD/clients/python:$PWD/build/clients/python; or give "
    "server addresses (servers=[\"host:port\"]) to run remotely")


def _module() -> Any:
    try:
        from moreau import _local
    except ImportError as error:
        raise ImportError(f"moreau: the in-process engine (moreau/_local*.so) was not found "
                          f"({error}); {_BUILD_HINT}") from error
    return _local


class LocalServer:
    """A moreaud in this process.

    Args:
        workers: stepping threads (0: one per core).
        max_instances, max_substeps, max_batch, max_create: as moreaud's
            flags of those names.
        max_message_bytes: the largest request or reply.

    ``close()`` frees every instance; a closed server's calls fail.
    """

    address = "in-process"

    def __init__(self, *, workers: int = 0, max_instances: int = 1024,
                 max_substeps: int = 10000, max_batch: int = 4096, max_create: int = 1024,
                 max_message_bytes: int = 16 << 20) -> None:
        self._server = _module().Server(workers=workers, max_instances=max_instances,
                                        max_substeps=max_substeps, max_batch=max_batch,
                                        max_create=max_create,
                                        max_message_bytes=max_message_bytes)
        self._closed = False

    @property
    def workers(self) -> int:
        """The stepping threads."""
        return self._server.workers

    def channel(self) -> "LocalChannel":
        """A channel (in grpc.Channel's shape) to this server."""
        return LocalChannel(self._server)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._server.close()

    def __enter__(self) -> "LocalServer":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"moreau.LocalServer(workers={self.workers})" if not self._closed else \
            "moreau.LocalServer(closed)"


_default: LocalServer | None = None
_default_lock = threading.Lock()


def default_server() -> LocalServer:
    """The process's shared LocalServer (one worker per core), made now if
    there is none; closed when the interpreter exits."""
    global _default
    with _default_lock:
        if _default is None or _default._closed:
            _default = LocalServer()
            atexit.register(_default.close)
        return _default


class LocalRpcError(grpc.RpcError):
    """A failed in-process call, with grpc.Call's ``code()`` and
    ``details()``."""

    def __init__(self, code: int, message: str) -> None:
        from moreau.client import status_code
        self._code = status_code(code)
        self._details = message
        super().__init__(f"{self._code.name}: {message}")

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._details


def _reply(outcome: tuple[int, str, bytes | None],
           deserializer: Callable[[bytes], Any] | None) -> Any:
    code, message, reply = outcome
    if code != 0:
        raise LocalRpcError(code, message)
    return reply if deserializer is None else deserializer(reply)


class _Future:
    """A unary call in flight, in grpc.Future's shape."""

    def __init__(self, call: Any, deserializer: Callable[[bytes], Any] | None) -> None:
        self._call = call
        self._deserializer = deserializer

    def result(self, timeout: float | None = None) -> Any:
        if not self._call.wait(timeout):
            raise grpc.FutureTimeoutError()
        return _reply(self._call.outcome(), self._deserializer)

    def exception(self, timeout: float | None = None) -> BaseException | None:
        try:
            self.result(timeout)
        except LocalRpcError as error:
            return error
        return None

    def done(self) -> bool:
        return self._call.done()

    def cancel(self) -> bool:
        self._call.cancel()
        return True


class _UnaryUnary:
    def __init__(self, server: Any, method: str, serializer: Callable[[Any], bytes] | None,
                 deserializer: Callable[[bytes], Any] | None) -> None:
        self._server = server
        self._method = method
        self._serializer = serializer
        self._deserializer = deserializer

    def _bytes(self, request: Any) -> bytes:
        return request if self._serializer is None else self._serializer(request)

    def __call__(self, request: Any, timeout: float | None = None, **_: Any) -> Any:
        return _reply(self._server.call(self._method, self._bytes(request), timeout),
                      self._deserializer)

    def future(self, request: Any, timeout: float | None = None, **_: Any) -> _Future:
        return _Future(self._server.start(self._method, self._bytes(request), timeout),
                       self._deserializer)


class _Stream:
    """A stream's replies, in the shape of grpcio's streaming call: an
    iterator that ``cancel()`` ends."""

    def __init__(self, stream: Any, deserializer: Callable[[bytes], Any] | None) -> None:
        self._stream = stream
        self._deserializer = deserializer

    def __iter__(self) -> Iterator[Any]:
        return self

    def __next__(self) -> Any:
        reply = self._stream.read()
        if reply is None:
            code, message = self._stream.finish()
            if code != 0:
                raise LocalRpcError(code, message)
            raise StopIteration
        return reply if self._deserializer is None else self._deserializer(reply)

    def cancel(self) -> bool:
        self._stream.cancel()
        return True

    def done(self) -> bool:
        return self._stream.done()


class _StepBatch(_UnaryUnary):
    """StepBatch without gRPC's in-process transport (the same request and
    reply bytes, validation, stepping and errors): a blocking call steps
    some of the instances on the calling thread, the GIL released, instead
    of waiting for a worker; a future runs on the worker pool alone."""

    def __call__(self, request: Any, timeout: float | None = None, **_: Any) -> Any:
        return _reply(self._server.step_batch(self._bytes(request), timeout), self._deserializer)

    def future(self, request: Any, timeout: float | None = None, **_: Any) -> _Future:
        return _Future(self._server.start_step_batch(self._bytes(request), timeout),
                       self._deserializer)

    def into(self, request: bytes, timeout: float | None, out: Any,
             where: Any) -> tuple[list[str], list[str]] | None:
        """A blocking call of a packed StepBatch whose reply is written into
        rows ``where`` of the ObservationBatch ``out``, from the server's
        arrays (no reply bytes to make and decode): None when every entry
        is OK, else the replies' (instance ids, status messages)."""
        code, message, labels = self._server.step_batch_into(request, timeout, out, where)
        if code != 0:
            raise LocalRpcError(code, message)
        return labels


class _UnaryStream(_UnaryUnary):
    def __call__(self, request: Any, timeout: float | None = None, **_: Any) -> _Stream:
        stream = self._server.open(self._method, timeout)
        stream.write(self._bytes(request))
        stream.writes_done()
        return _Stream(stream, self._deserializer)


class _StreamStream(_UnaryUnary):
    def __call__(self, requests: Iterable[Any], timeout: float | None = None,
                 **_: Any) -> _Stream:
        stream = self._server.open(self._method, timeout)

        def send() -> None:
            # As grpcio does: the requests are consumed on their own thread.
            for request in requests:
                if not stream.write(self._bytes(request)):
                    return
            stream.writes_done()

        threading.Thread(target=send, name=f"moreau-local {self._method}", daemon=True).start()
        return _Stream(stream, self._deserializer)


_STEP_BATCH = "/moreau.v1.Simulator/StepBatch"


class LocalChannel:
    """The part of grpc.Channel the generated stubs and moreau.Client use,
    over a LocalServer."""

    def __init__(self, server: Any) -> None:
        self._server = server

    def unary_unary(self, method: str, request_serializer: Callable[[Any], bytes] | None = None,
                    response_deserializer: Callable[[bytes], Any] | None = None,
                    **_: Any) -> _UnaryUnary:
        kind = _StepBatch if method == _STEP_BATCH else _UnaryUnary
        return kind(self._server, method, request_serializer, response_deserializer)

    def unary_stream(self, method: str, request_serializer: Callable[[Any], bytes] | None = None,
                     response_deserializer: Callable[[bytes], Any] | None = None,
                     **_: Any) -> _UnaryStream:
        return _UnaryStream(self._server, method, request_serializer, response_deserializer)

    def stream_stream(self, method: str,
                      request_serializer: Callable[[Any], bytes] | None = None,
                      response_deserializer: Callable[[bytes], Any] | None = None,
                      **_: Any) -> _StreamStream:
        return _StreamStream(self._server, method, request_serializer, response_deserializer)

    def stream_unary(self, method: str, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{method}: moreau.v1.Simulator has no client-streaming RPC")

    def close(self) -> None:
        """The server outlives its channels: nothing to close."""
