"""Debian's Prometheus (/usr/bin/prometheus) on loopback scraping a real
moreaud every second with deploy/prometheus/rules.yml: through Prometheus's
HTTP API it sees up == 1 and, after a VectorEnv rollout, the steps-per-second
recording rule above 0. Every wait is bounded; both processes and the
temporary storage are removed at the end."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Callable, Iterator

import numpy as np
import pytest
import yaml

import moreau

DEPLOY = Path(os.environ["MOREAU_DEPLOY_PROMETHEUS"])
PROMETHEUS = os.environ["MOREAU_PROMETHEUS"]
MOREAUD = os.environ["MOREAUD_BIN"]
_LISTENING = re.compile(
    r"listening on ([\d.]+:\d+).*metrics on http://[\d.]+:(\d+)/metrics")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)


@pytest.fixture
def moreaud() -> Iterator[tuple[str, int]]:
    """A moreaud on free loopback ports: (gRPC address, metrics port)."""
    process = subprocess.Popen(
        [MOREAUD, "--host", "127.0.0.1", "--port", "0", "--metrics-port", "0",
         "--drain-delay-s", "0"], stdout=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        match = _LISTENING.search(line)
        assert match, f"moreaud did not start: {line!r}"
        yield match.group(1), int(match.group(2))
    finally:
        stop(process)


@pytest.fixture
def prometheus(tmp_path: Path, moreaud: tuple[str, int]) -> Iterator[str]:
    """Prometheus scraping `moreaud` every second, evaluating rules.yml every
    second: its base URL once ready."""
    config = {
        "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
        "rule_files": [str(DEPLOY / "rules.yml")],
        "scrape_configs": [{"job_name": "moreaud",
                            "static_configs": [{"targets": [f"127.0.0.1:{moreaud[1]}"]}]}],
    }
    (tmp_path / "prometheus.yml").write_text(yaml.safe_dump(config))
    port = free_port()
    log = (tmp_path / "prometheus.log").open("w")
    process = subprocess.Popen(
        [PROMETHEUS, f"--config.file={tmp_path / 'prometheus.yml'}",
         f"--storage.tsdb.path={tmp_path / 'data'}", f"--web.listen-address=127.0.0.1:{port}",
         "--log.level=warn"], stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: ready(url), 30, "Prometheus ready", process, tmp_path / "prometheus.log")
        yield url
    finally:
        stop(process)
        log.close()


def ready(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/-/ready", timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, ConnectionError):
        return False


def query(url: str, expr: str) -> list[tuple[dict, float]]:
    """An instant query through /api/v1/query: (labels, value) of each series."""
    with urllib.request.urlopen(
            f"{url}/api/v1/query?{urllib.parse.urlencode({'query': expr})}", timeout=5) as r:
        body = json.load(r)
    assert body["status"] == "success", body
    return [(s["metric"], float(s["value"][1])) for s in body["data"]["result"]]


def wait_for(condition: Callable[[], bool], seconds: float, what: str,
             process: subprocess.Popen | None = None, log: Path | None = None) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        if process is not None and process.poll() is not None:
            break
        time.sleep(0.2)
    details = log.read_text()[-2000:] if log is not None and log.exists() else ""
    pytest.fail(f"no {what} within {seconds} s\n{details}")


def test_prometheus_sees_moreaud_up_and_its_steps_per_second(
        moreaud: tuple[str, int], prometheus: str) -> None:
    address, _ = moreaud
    wait_for(lambda: [v for _, v in query(prometheus, 'up{job="moreaud"}')] == [1.0], 30,
             'up{job="moreaud"} == 1')
    with moreau.VectorEnv("stand", 4, servers=[address], seed=0) as env:
        rng = np.random.default_rng(0)
        env.reset(seed=0)
        env.step(rng.uniform(-1, 1, env.action_space.shape))
        # The steps counter exists once the first step is taken: wait for a
        # scrape of it, so that the rollout below is an increase to rate().
        wait_for(lambda: bool(query(prometheus, "moreau_steps_total")), 20,
                 "moreau_steps_total scraped")
        deadline = time.monotonic() + 3.0  # a few scrapes' worth of steps
        while time.monotonic() < deadline:
            env.step(rng.uniform(-1, 1, env.action_space.shape))

    def stepping() -> bool:
        values = query(prometheus, 'job:moreau_steps:rate1m{job="moreaud"}')
        return len(values) == 1 and values[0][1] > 0.0
    wait_for(stepping, 30, "job:moreau_steps:rate1m > 0")
    per_instance = query(prometheus, "instance:moreau_steps:rate1m")
    assert len(per_instance) == 1 and per_instance[0][1] > 0.0
    # The alerts loaded with the rules, none firing for a healthy server.
    with urllib.request.urlopen(f"{prometheus}/api/v1/rules?type=alert", timeout=5) as r:
        groups = json.load(r)["data"]["groups"]
    alerts = {rule["name"]: rule["state"] for g in groups for rule in g["rules"]}
    assert set(alerts) == {"MoreauDown", "MoreauHighStepLatency", "MoreauErrorsHigh",
                           "MoreauInstancesNearLimit", "MoreauQueueBacklog"}
    assert alerts["MoreauDown"] == "inactive"
