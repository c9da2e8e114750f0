"""Finds the wire contract and the robot files of the `moreau` package, and
generates its gRPC stubs.

The package's source folder is clients/python in the repository; an sdist
carries copies of the contract and of the UR10 files at its top level
(proto/, models/). Each is looked for in that order: an environment variable,
the project folder, the repository root two levels up.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

PROTO = Path("moreau") / "v1" / "simulator.proto"
# The robot files the `reach` task reads (moreau.tasks.default_ur10_urdf).
UR10_FILES = (Path("ur10") / "ur10_robot.urdf", Path("ur10") / "LICENSE.example-robot-data")


class BuildError(RuntimeError):
    """A missing input or tool, with what to do about it."""


def _candidates(project: Path, variable: str, name: str) -> list[Path]:
    roots = [Path(os.environ[variable])] if os.environ.get(variable) else []
    return roots + [project / name, project.parent.parent / name]


def proto_root(project: Path) -> Path:
    """The folder holding moreau/v1/simulator.proto."""
    tried = _candidates(project, "MOREAU_PROTO_DIR", "proto")
    for root in tried:
        if (root / PROTO).is_file():
            return root
    raise BuildError(
        f"{PROTO} not found in {', '.join(str(r) for r in tried)}. Build from the repository "
        "(pip install ./clients/python) or from an sdist, or set MOREAU_PROTO_DIR to the "
        "folder holding moreau/v1/simulator.proto.")


def models_root(project: Path) -> Path:
    """The folder holding ur10/ur10_robot.urdf."""
    tried = _candidates(project, "MOREAU_MODELS_DIR", "models")
    for root in tried:
        if all((root / f).is_file() for f in UR10_FILES):
            return root
    raise BuildError(
        f"{UR10_FILES[0]} not found in {', '.join(str(r) for r in tried)}. Build from the "
        "repository or from an sdist, or set MOREAU_MODELS_DIR to the repository's models/.")


def _tool(variable: str, name: str, package: str) -> str:
    path = os.environ.get(variable) or shutil.which(name)
    if not path:
        raise BuildError(f"`{name}` not found on PATH (Debian: apt-get install {package}); "
                         f"or set {variable} to it")
    return path


def generate_stubs(project: Path, out: Path) -> list[Path]:
    """Writes moreau/v1/{__init__,simulator_pb2,simulator_pb2_grpc}.py under
    ``out``; returns their paths relative to ``out``."""
    protoc = _tool("PROTOC", "protoc", "protobuf-compiler")
    plugin = _tool("GRPC_PYTHON_PLUGIN", "grpc_python_plugin", "protobuf-compiler-grpc")
    root = proto_root(project)
    command = [protoc, f"--proto_path={root}", f"--python_out={out}",
               f"--grpc_python_out={out}", f"--plugin=protoc-gen-grpc_python={plugin}",
               PROTO.as_posix()]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise BuildError(f"{' '.join(command)} failed:\n{result.stderr}")
    package = Path("moreau") / "v1"
    (out / package / "__init__.py").write_text("")
    files = [package / "__init__.py", package / "simulator_pb2.py",
             package / "simulator_pb2_grpc.py"]
    missing = [str(f) for f in files if not (out / f).is_file()]
    if missing:
        raise BuildError(f"protoc did not write {', '.join(missing)}")
    return files
