"""The image builds from the repository (deploy/container/build-image.sh) and
is configured as a server image should be: a numeric non-root user, the two
ports, moreaud as an exec-form entrypoint on 0.0.0.0, a health check through
`moreau remote health`, OCI labels; a second run reuses it."""

from __future__ import annotations

import json
import re

from conftest import IMAGE, REPO, build_image, podman


def inspect() -> dict:
    return json.loads(podman("image", "inspect", IMAGE).stdout)[0]


def config() -> dict:
    return inspect()["Config"]


def test_image_builds_and_a_second_run_reuses_it():
    build_image()
    image_id = podman("image", "inspect", "--format", "{{.Id}}", IMAGE).stdout.strip()
    again = build_image()
    assert "built from these sources" in again.stdout
    assert podman("image", "inspect", "--format", "{{.Id}}", IMAGE).stdout.strip() == image_id


def test_runs_moreaud_as_a_numeric_non_root_user():
    cfg = config()
    user = cfg["User"].split(":")
    assert all(part.isdigit() for part in user) and int(user[0]) != 0, cfg["User"]
    assert set(cfg["ExposedPorts"]) == {"50051/tcp", "9464/tcp"}
    # Exec form: moreaud itself is PID 1 and receives SIGTERM.
    entrypoint = cfg["Entrypoint"]
    assert entrypoint[0] == "moreaud" and entrypoint[1:3] == ["--host", "0.0.0.0"], entrypoint


def test_health_check_asks_the_health_service():
    # podman shows the Docker-format health check beside Config, Docker inside it.
    image = inspect()
    test = (image.get("Healthcheck") or image["Config"]["Healthcheck"])["Test"]
    assert test[0] == "CMD" and test[1:4] == ["moreau", "remote", "health"], test


def test_oci_labels():
    labels = config()["Labels"]
    version = re.search(r"project\(moreau VERSION ([\d.]+)",
                        (REPO / "CMakeLists.txt").read_text()).group(1)
    assert labels["org.opencontainers.image.version"] == version
    for key in ("source", "licenses", "revision"):
        assert labels[f"org.opencontainers.image.{key}"], key
