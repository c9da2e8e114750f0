#!/usr/bin/python3
"""Plots a Mini Cheetah trot: base height, forward velocity and foot normal
forces over time, to a PNG (matplotlib, Agg backend).

    /usr/bin/python3 examples/plot_trot.py --server 127.0.0.1:50051 --out trot.png
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import moreau  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from trot_mini_cheetah import Trot  # noqa: E402


def record(server: str, seconds: float) -> dict[str, np.ndarray]:
    """Trots for ``seconds``; returns time, base height, forward velocity
    (world x) and per-foot normal forces, one row per 50 Hz policy step."""
    rows: dict[str, list] = {"time": [], "height": [], "velocity": [], "forces": []}
    with moreau.Env("walk", server, command=0.5, max_episode_steps=10**6) as env:
        env.reset(seed=0)
        gait = Trot(env.task.stand_pose)
        forces = next(a for a in env.spec.observation if a.name == "contact_normal_forces")
        feet = list(forces.labels) or [f"foot {k}" for k in range(forces.size)]
        for k in range(int(seconds * env.task.policy_hz)):
            t = k / env.task.policy_hz
            blend = min(1.0, t)
            targets = (1 - blend) * env.task.stand_pose + blend * gait.targets(t)
            _, _, terminated, _, _ = env.step(env.action_for_targets(targets))
            raw = env.observation
            rows["time"].append(raw.time)
            rows["height"].append(raw.base_pose[2])
            rows["velocity"].append(raw.base_twist[0])
            rows["forces"].append(raw.contact_normal_forces)
            if terminated:
                break
    out = {key: np.array(value) for key, value in rows.items()}
    out["feet"] = np.array(feet)
    return out


def plot(data: dict[str, np.ndarray], path: Path) -> None:
    fig, axes = plt.subplots(3, 1, figsize=(9, 8), sharex=True)
    axes[0].plot(data["time"], data["height"])
    axes[0].set_ylabel("base height (m)")
    axes[1].plot(data["time"], data["velocity"])
    axes[1].set_ylabel("forward velocity (m/s)")
    for k, name in enumerate(data["feet"]):
        axes[2].plot(data["time"], data["forces"][:, k], label=str(name))
    axes[2].set_ylabel("foot normal force (N)")
    axes[2].set_xlabel("time (s)")
    axes[2].legend(loc="upper right", ncol=4, fontsize="small")
    axes[0].set_title("Mini Cheetah trot, 50 Hz policy from Python, PD at 1 kHz on moreaud")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="127.0.0.1:50051")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--out", type=Path, default=Path("trot.png"))
    args = parser.parse_args()
    data = record(args.server, args.seconds)
    plot(data, args.out)
    print(f"wrote {args.out} ({len(data['time'])} samples)")


if __name__ == "__main__":
    main()
