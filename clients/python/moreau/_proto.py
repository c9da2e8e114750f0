"""The generated messages and stub of moreau/v1/simulator.proto.

They are generated at build time (clients/python/CMakeLists.txt) into the
build tree as ``moreau/v1/simulator_pb2{,_grpc}.py``; ``moreau/__init__.py``
extends the package path so that both halves import as one package.
"""

try:
    from moreau.v1 import simulator_pb2 as pb
    from moreau.v1 import simulator_pb2_grpc as pb_grpc
except ImportError as error:  # pragma: no cover - a set-up problem, not a bug
    raise ImportError(
        "moreau: the generated gRPC stubs (moreau/v1/simulator_pb2.py) were not found. "
        "Build the `moreau_python` target and put its folder on PYTHONPATH, e.g. "
        "export PYTHONPATH=$PWD/clients/python:$PWD/build/clients/python"
    ) from error

__all__ = ["pb", "pb_grpc"]
