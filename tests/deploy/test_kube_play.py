"""The StatefulSet's pod, rendered from deploy/k8s, runs under
`podman kube play` (as a Pod: podman plays no StatefulSet) and answers
health; `podman kube down` removes it.

Changes to the rendered pod, for one host: the host's network and free
loopback ports (--host/--port/--metrics-port appended to its args, where the
last value of a flag wins; no port list, which podman refuses on the host's
network), a unique name, and a host folder for the state volume that the
cluster would claim."""

from __future__ import annotations

import copy
import os
import uuid

import yaml

from conftest import free_port, podman, render_k8s, wait_serving


def pod_manifest(statefulset: dict, name: str, grpc_port: int, metrics_port: int,
                 state_dir: str) -> dict:
    template = copy.deepcopy(statefulset["spec"]["template"])
    spec = template["spec"]
    spec["hostNetwork"] = True
    container = spec["containers"][0]
    # On the host's network the ports are the host's: podman refuses mappings.
    del container["ports"]
    container["args"] += ["--host=127.0.0.1", f"--port={grpc_port}",
                          f"--metrics-port={metrics_port}"]
    spec["volumes"] = [{"name": claim["metadata"]["name"],
                        "hostPath": {"path": state_dir, "type": "Directory"}}
                       for claim in statefulset["spec"]["volumeClaimTemplates"]]
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "labels": template["metadata"]["labels"]},
            "spec": spec}


def test_statefulset_pod_plays_and_answers_health(image, tmp_path):
    (statefulset,) = [doc for doc in render_k8s() if doc["kind"] == "StatefulSet"]
    user = statefulset["spec"]["template"]["spec"]["securityContext"]["runAsUser"]
    state_dir = tmp_path / "state"
    state_dir.mkdir()
    os.chown(state_dir, user, user)
    grpc_port, metrics_port = free_port(), free_port()
    name = f"{statefulset['metadata']['name']}-0-{uuid.uuid4().hex[:8]}"
    manifest = tmp_path / "pod.yaml"
    manifest.write_text(yaml.safe_dump(
        pod_manifest(statefulset, name, grpc_port, metrics_port, str(state_dir))))
    played = podman("kube", "play", str(manifest), timeout=180, check=False)
    try:
        assert played.returncode == 0, played.stdout + played.stderr
        answer = wait_serving(f"127.0.0.1:{grpc_port}", 60)
        logs = podman("pod", "logs", name, check=False)
        assert answer.stdout == "SERVING\n", answer.stderr + logs.stdout + logs.stderr
        # The pod's moreaud runs as the manifest's user.
        pid = podman("inspect", "--format", "{{.State.Pid}}", f"{name}-moreaud").stdout.strip()
        with open(f"/proc/{pid}/status") as status:
            uid = next(line for line in status if line.startswith("Uid:")).split()[1]
        assert int(uid) == user
    finally:
        down = podman("kube", "down", str(manifest), timeout=120, check=False)
    assert down.returncode == 0, down.stderr
    assert podman("pod", "exists", name, check=False).returncode != 0
