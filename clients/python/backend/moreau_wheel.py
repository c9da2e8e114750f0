"""The PEP 517 build backend of the `moreau` package, needing nothing but the
standard library (so that pip builds it offline, without setuptools).

The wheel holds the hand-written package (moreau/*.py), the gRPC stubs
generated from the wire contract (moreau/v1/, see moreau_stubs) and the UR10
files of the `reach` task (moreau/models/ur10/). The sdist holds the project
folder plus copies of the contract (proto/) and of the UR10 files (models/),
so that it builds alone.
"""

from __future__ import annotations

import base64
import hashlib
import io
import tarfile
import tempfile
import zipfile
from pathlib import Path

import moreau_stubs

PROJECT = Path.cwd()  # PEP 517: hooks run in the project folder
WHEEL_TAG = "py3-none-any"


def _project_metadata() -> dict:
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        raise moreau_stubs.BuildError("building moreau needs Python ≥ 3.11 (tomllib)") from None
    with open(PROJECT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]


def _core_metadata(project: dict) -> str:
    """The METADATA (PKG-INFO) text of the [project] table."""
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}",
             f"Version: {project['version']}", f"Summary: {project['description']}",
             f"Requires-Python: {project['requires-python']}"]
    lines += [f"Requires-Dist: {d}" for d in project.get("dependencies", [])]
    return "\n".join(lines) + "\n"


def _package_files() -> list[Path]:
    """The hand-written modules, relative to the project folder."""
    files = sorted(p.relative_to(PROJECT) for p in (PROJECT / "moreau").rglob("*.py")
                   if "__pycache__" not in p.parts)
    if not files:
        raise moreau_stubs.BuildError(f"no moreau/*.py under {PROJECT}")
    return files


def _record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def _dist_info(project: dict) -> str:
    return f"{project['name']}-{project['version']}.dist-info"


def _write_wheel(directory: str, project: dict, files: dict[str, bytes]) -> str:
    """Writes {name}-{version}-py3-none-any.whl with ``files`` (archive path →
    bytes) and its .dist-info; returns the file name."""
    info = _dist_info(project)
    files = dict(files)
    files[f"{info}/METADATA"] = _core_metadata(project).encode()
    files[f"{info}/WHEEL"] = (f"Wheel-Version: 1.0\nGenerator: moreau_wheel\n"
                              f"Root-Is-Purelib: true\nTag: {WHEEL_TAG}\n").encode()
    files[f"{info}/top_level.txt"] = b"moreau\n"
    record = [_record_line(path, data) for path, data in files.items()]
    record.append(f"{info}/RECORD,,")
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    name = f"{project['name']}-{project['version']}-{WHEEL_TAG}.whl"
    with zipfile.ZipFile(Path(directory) / name, "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in files.items():
            wheel.writestr(zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0)), data,
                           zipfile.ZIP_DEFLATED)
    return name


# ------------------------------------------------------------ PEP 517 hooks --


def get_requires_for_build_wheel(config_settings=None) -> list[str]:
    return []


def get_requires_for_build_sdist(config_settings=None) -> list[str]:
    return []


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings=None) -> str:
    project = _project_metadata()
    info = Path(metadata_directory) / _dist_info(project)
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(_core_metadata(project))
    return info.name


def build_wheel(wheel_directory: str, config_settings=None,
                metadata_directory: str | None = None) -> str:
    project = _project_metadata()
    files = {p.as_posix(): (PROJECT / p).read_bytes() for p in _package_files()}
    if "moreau/v1/simulator_pb2.py" in files:
        raise moreau_stubs.BuildError(
            f"{PROJECT / 'moreau' / 'v1'} exists: the stubs are generated at build time; "
            "remove that folder")
    with tempfile.TemporaryDirectory() as out:
        for path in moreau_stubs.generate_stubs(PROJECT, Path(out)):
            files[path.as_posix()] = (Path(out) / path).read_bytes()
    models = moreau_stubs.models_root(PROJECT)
    for path in moreau_stubs.UR10_FILES:
        files[f"moreau/models/{path.as_posix()}"] = (models / path).read_bytes()
    return _write_wheel(wheel_directory, project, files)


def build_sdist(sdist_directory: str, config_settings=None) -> str:
    project = _project_metadata()
    base = f"{project['name']}-{project['version']}"
    members: dict[str, bytes] = {"pyproject.toml": (PROJECT / "pyproject.toml").read_bytes(),
                                 "PKG-INFO": _core_metadata(project).encode()}
    for path in sorted((PROJECT / "backend").glob("*.py")):
        members[f"backend/{path.name}"] = path.read_bytes()
    for path in _package_files():
        members[path.as_posix()] = (PROJECT / path).read_bytes()
    proto = moreau_stubs.proto_root(PROJECT)
    members[f"proto/{moreau_stubs.PROTO.as_posix()}"] = (proto / moreau_stubs.PROTO).read_bytes()
    models = moreau_stubs.models_root(PROJECT)
    for path in moreau_stubs.UR10_FILES:
        members[f"models/{path.as_posix()}"] = (models / path).read_bytes()
    name = f"{base}.tar.gz"
    with tarfile.open(Path(sdist_directory) / name, "w:gz") as sdist:
        for path, data in members.items():
            entry = tarfile.TarInfo(f"{base}/{path}")
            entry.size = len(data)
            entry.mode = 0o644
            sdist.addfile(entry, io.BytesIO(data))
    return name
