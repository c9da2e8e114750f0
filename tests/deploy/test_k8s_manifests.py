"""deploy/k8s: every file is valid YAML listed by kustomization.yaml,
`kubectl kustomize` renders it, and the rendered objects fit together and
with moreaud (its flags exist, the grace period covers the drain, the
resources match --workers, probes use the gRPC health service)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml

from conftest import REPO, render_k8s

K8S = REPO / "deploy" / "k8s"


@pytest.fixture(scope="module")
def objects() -> dict[str, dict]:
    rendered = render_k8s()
    by_kind = {doc["kind"]: doc for doc in rendered}
    assert len(by_kind) == len(rendered), "one object of each kind"
    return by_kind


def flag_values(args: list[str]) -> dict[str, str]:
    return dict(arg[2:].split("=", 1) for arg in args)


def test_every_file_is_yaml_and_listed():
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    listed = kustomization["resources"]
    files = sorted(p.name for p in K8S.glob("*.yaml") if p.name != "kustomization.yaml")
    assert sorted(listed) == files
    for name in files:
        for doc in yaml.safe_load_all((K8S / name).read_text()):
            assert doc["apiVersion"] and doc["kind"] and doc["metadata"]["name"], name


def test_renders_every_object(objects):
    assert set(objects) == {"Service", "StatefulSet", "PodDisruptionBudget", "NetworkPolicy",
                            "ServiceMonitor"}
    container = objects["StatefulSet"]["spec"]["template"]["spec"]["containers"][0]
    assert container["image"] == "localhost/moreau:latest"


def test_service_is_headless_and_selects_the_pods(objects):
    service, sts = objects["Service"], objects["StatefulSet"]
    assert service["spec"]["clusterIP"] == "None"
    assert sts["spec"]["serviceName"] == service["metadata"]["name"]
    labels = sts["spec"]["template"]["metadata"]["labels"]
    for selector in (service["spec"]["selector"], sts["spec"]["selector"]["matchLabels"],
                     objects["PodDisruptionBudget"]["spec"]["selector"]["matchLabels"],
                     objects["NetworkPolicy"]["spec"]["podSelector"]["matchLabels"]):
        assert selector.items() <= labels.items(), selector
    ports = {p["name"]: p["port"] for p in service["spec"]["ports"]}
    assert ports == {"grpc": 50051, "metrics": 9464}
    monitor = objects["ServiceMonitor"]["spec"]
    assert monitor["endpoints"][0]["port"] == "metrics"
    assert monitor["selector"]["matchLabels"].items() <= service["metadata"]["labels"].items()


def test_args_are_moreaud_flags():
    binary = os.environ.get("MOREAUD_BIN", str(REPO / "build" / "server" / "moreaud"))
    if not Path(binary).is_file():
        pytest.fail(f"moreaud not found at {binary}; build it or set MOREAUD_BIN")
    known = subprocess.run([binary, "--helpfull"], capture_output=True, text=True,
                           timeout=30).stdout
    container = yaml.safe_load((K8S / "statefulset.yaml").read_text())["spec"]["template"][
        "spec"]["containers"][0]
    for name in flag_values(container["args"]):
        assert re.search(rf"-{name.replace('-', '_')}\b", known), name


def test_probes_use_the_grpc_health_service(objects):
    container = objects["StatefulSet"]["spec"]["template"]["spec"]["containers"][0]
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert container[probe]["grpc"]["port"] == 50051, probe
    assert container["readinessProbe"]["grpc"]["service"] == "moreau.v1.Simulator"


def test_grace_period_covers_the_drain(objects):
    pod = objects["StatefulSet"]["spec"]["template"]["spec"]
    container = pod["containers"][0]
    flags = flag_values(container["args"])
    pre_stop = container["lifecycle"]["preStop"]["exec"]["command"]
    assert pre_stop[0] == "sleep"
    # preStop, then SIGTERM: the drain delay, in-flight calls, then at least
    # 10 s for the final checkpoints.
    needed = (float(pre_stop[1]) + float(flags["drain-delay-s"]) +
              float(flags["shutdown-grace-s"]) + 10)
    assert pod["terminationGracePeriodSeconds"] >= needed


def test_resources_match_the_workers(objects):
    container = objects["StatefulSet"]["spec"]["template"]["spec"]["containers"][0]
    workers = int(flag_values(container["args"])["workers"])
    resources = container["resources"]
    assert resources["requests"] == resources["limits"]
    assert int(resources["limits"]["cpu"]) == workers


def test_security_context(objects):
    pod = objects["StatefulSet"]["spec"]["template"]["spec"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] != 0
    assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
    context = pod["containers"][0]["securityContext"]
    assert context["readOnlyRootFilesystem"] is True
    assert context["allowPrivilegeEscalation"] is False
    assert context["capabilities"]["drop"] == ["ALL"]


def test_state_dir_is_on_the_claimed_volume(objects):
    sts = objects["StatefulSet"]["spec"]
    container = sts["template"]["spec"]["containers"][0]
    (claim,) = sts["volumeClaimTemplates"]
    (mount,) = [m for m in container["volumeMounts"] if m["name"] == claim["metadata"]["name"]]
    state_dir = flag_values(container["args"])["state-dir"]
    assert state_dir == mount["mountPath"] or state_dir.startswith(mount["mountPath"] + "/")


def test_network_policy_opens_only_the_two_ports(objects):
    rules = objects["NetworkPolicy"]["spec"]["ingress"]
    opened = {}
    for rule in rules:
        (peer,) = rule["from"]
        for port in rule["ports"]:
            opened[port["port"]] = peer["podSelector"]["matchLabels"]
    assert opened == {50051: {"moreau.io/client": "true"},
                      9464: {"app.kubernetes.io/name": "prometheus"}}
