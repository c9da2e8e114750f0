"""deploy/prometheus/prometheus.yml: promtool check config accepts it, and its
Kubernetes job keeps exactly the metrics port of moreaud's pods.

Debian's Prometheus is built without Kubernetes discovery, so where promtool
does not know `kubernetes_sd_configs` the file is checked without that job
(written next to a copy of rules.yml, which the check also loads), and the
job's relabelling is checked here by applying it to the labels Kubernetes
discovery gives a pod's ports.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import yaml

DEPLOY = Path(os.environ["MOREAU_DEPLOY_PROMETHEUS"])
PROMTOOL = os.environ["MOREAU_PROMTOOL"]


def promtool(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([PROMTOOL, *args], capture_output=True, text=True, timeout=60)


def load_config() -> dict:
    return yaml.safe_load((DEPLOY / "prometheus.yml").read_text())


def test_promtool_checks_the_config(tmp_path: Path) -> None:
    result = promtool("check", "config", str(DEPLOY / "prometheus.yml"))
    if "kubernetes_sd_configs not found" in result.stdout + result.stderr:
        config = load_config()
        config["scrape_configs"] = [job for job in config["scrape_configs"]
                                    if "kubernetes_sd_configs" not in job]
        assert config["scrape_configs"], "no job left to check"
        (tmp_path / "prometheus.yml").write_text(yaml.safe_dump(config))
        shutil.copy(DEPLOY / "rules.yml", tmp_path / "rules.yml")
        result = promtool("check", "config", str(tmp_path / "prometheus.yml"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 rule files found" in result.stdout + result.stderr


def test_the_local_job_scrapes_the_default_metrics_port() -> None:
    jobs = {job["job_name"]: job for job in load_config()["scrape_configs"]}
    assert jobs["moreaud"]["static_configs"] == [{"targets": ["127.0.0.1:9464"]}]


def relabel(labels: dict[str, str], configs: list[dict]) -> dict[str, str] | None:
    """Prometheus's relabelling (keep, drop, replace) of one target's labels:
    the labels kept, or None when the target is dropped."""
    labels = dict(labels)
    for config in configs:
        action = config.get("action", "replace")
        value = config.get("separator", ";").join(
            labels.get(name, "") for name in config.get("source_labels", []))
        match = re.fullmatch(config.get("regex", "(.*)"), value)
        if action == "keep" and not match:
            return None
        if action == "drop" and match:
            return None
        if action == "replace" and match:
            replacement = re.sub(r"\$\{?(\d+)\}?", r"\\\1", config.get("replacement", "$1"))
            labels[config["target_label"]] = match.expand(replacement)
    return {name: value for name, value in labels.items() if not name.startswith("__meta_")}


def pod_port(app: str, port: int, phase: str = "Running") -> dict[str, str]:
    """The labels Kubernetes pod discovery gives one declared port of a pod."""
    return {
        "__address__": f"10.0.0.7:{port}",
        "__meta_kubernetes_namespace": "sim",
        "__meta_kubernetes_pod_name": "moreaud-0",
        "__meta_kubernetes_pod_label_app_kubernetes_io_name": app,
        "__meta_kubernetes_pod_container_port_number": str(port),
        "__meta_kubernetes_pod_phase": phase,
    }


def test_the_kubernetes_job_keeps_only_moreaud_pods_metrics_port() -> None:
    jobs = {job["job_name"]: job for job in load_config()["scrape_configs"]}
    job = jobs["moreaud-pods"]
    assert job["kubernetes_sd_configs"] == [{"role": "pod"}]
    configs = job["relabel_configs"]
    kept = relabel(pod_port("moreaud", 9464), configs)
    assert kept == {"__address__": "10.0.0.7:9464", "namespace": "sim", "pod": "moreaud-0"}
    assert relabel(pod_port("moreaud", 50051), configs) is None
    assert relabel(pod_port("prometheus", 9464), configs) is None
    assert relabel(pod_port("moreaud-client", 9464), configs) is None
    assert relabel(pod_port("moreaud", 9464, phase="Pending"), configs) is None
    # The alerts cover both jobs.
    rules = (DEPLOY / "rules.yml").read_text()
    assert re.search(r'up\{job=~"moreaud\.\*"\}', rules)
