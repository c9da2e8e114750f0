"""`pip install ./clients/python` into a fresh virtual environment, offline,
gives a self-contained `moreau`: imported from outside the repository with no
PYTHONPATH, it drives a real moreaud, and the README's Python example runs."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
PROJECT = REPOSITORY / "clients" / "python"

# Run in the virtual environment, from a folder outside the repository.
SCRIPT = """
import json, sys
import moreau
from moreau.tasks import default_ur10_urdf
results = {"module": moreau.__file__, "urdf": str(default_ur10_urdf())}
for task in ("stand", "reach"):
    with moreau.Env(task, sys.argv[1]) as env:
        env.reset(seed=0)
        obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
        results[task] = {"obs": len(obs), "reward": reward, "time": env.observation.time}
print(json.dumps(results))
"""


def run(command: list[str], cwd: Path, env: dict[str, str], timeout: float) -> str:
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                            timeout=timeout)
    assert result.returncode == 0, (f"{' '.join(command)} exited {result.returncode}:\n"
                                    f"{result.stdout}\n{result.stderr}")
    return result.stdout


def test_pip_install_offline_gives_a_self_contained_package(address: str,
                                                            tmp_path: Path) -> None:
    # No PYTHONPATH (the build tree's stubs, the source tree), no robot file
    # override; pip may not reach any index and keeps no cache.
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "MOREAU_UR10_URDF")}
    env.update(PIP_NO_INDEX="1", PIP_NO_CACHE_DIR="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    venv = tmp_path / "venv"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], elsewhere, env, 120)
    python = venv / "bin" / "python"
    run([str(python), "-m", "pip", "install", str(PROJECT)], elsewhere, env, 300)

    results = json.loads(run([str(python), "-c", SCRIPT, address], elsewhere, env, 120))
    site = str(venv.resolve())
    assert results["module"].startswith(site), results["module"]
    assert results["urdf"].startswith(site), results["urdf"]  # the wheel's UR10
    assert results["stand"]["obs"] == 46 and results["reach"]["obs"] == 27
    assert results["stand"]["time"] > 0 and results["reach"]["time"] > 0

    # The README's Python example, as written but for the server's address.
    readme = (REPOSITORY / "README.md").read_text()
    example = re.search(r"```python\n(.*?)```", readme, re.S).group(1)
    assert "127.0.0.1:50051" in example
    example = example.replace("127.0.0.1:50051", address)
    run([str(python), "-c", example + "print('example done')\n"], elsewhere, env, 300)
