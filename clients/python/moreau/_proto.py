"""The generated messages and stub of moreau/v1/simulator.proto.

They are generated at build time as ``moreau/v1/simulator_pb2{,_grpc}.py``:
into the wheel by ``pip install ./clients/python`` (clients/python/backend),
or into the build tree by the CMake target ``moreau_python``, whose folder
``moreau/__init__.py`` then joins to the source tree's package.
"""

try:
    from moreau.v1 import simulator_pb2 as pb
    from moreau.v1 import simulator_pb2_grpc as pb_grpc
except ImportError as error:  # pragma: no cover - a set-up problem, not a bug
    raise ImportError(
        "moreau: the generated gRPC stubs (moreau/v1/simulator_pb2.py) were not found. "
        "Install the package (pip install ./clients/python), or build the `moreau_python` "
        "target and put both folders on PYTHONPATH: "
        "export PYTHONPATH=$PWD/clients/python:$PWD/build/clients/python"
    ) from error

__all__ = ["pb", "pb_grpc"]
