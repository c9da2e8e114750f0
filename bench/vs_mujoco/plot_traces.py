#!/usr/bin/python3
"""Plots the traces moreau_vs_mujoco writes: DIR/<scenario>.csv -> DIR/<scenario>.png.

Three panels, both engines: trunk height, trunk pitch, and the normal force of
one foot (the front-left one when there is one).

usage: plot_traces.py DIR
"""
import csv
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    return {name: [float(r[i]) for r in body] for i, name in enumerate(header)}


def foot_column(columns):
    feet = [c[len("moreau_fn_"):] for c in columns if c.startswith("moreau_fn_")]
    front_left = [f for f in feet if f.upper().startswith("FL") or "front_left" in f.lower()]
    return (front_left or feet or [None])[0]


def plot(path):
    data = read(path)
    t = data["time"]
    foot = foot_column(data)
    panels = [("trunk height (m)", "z"), ("trunk pitch (deg)", "pitch")]
    if foot is not None:
        panels.append((f"normal force {foot} (N)", f"fn_{foot}"))
    fig, axes = plt.subplots(len(panels), 1, figsize=(9, 2.4 * len(panels)), sharex=True)
    for ax, (label, column) in zip(axes, panels):
        ax.plot(t, data[f"mujoco_{column}"], label="MuJoCo", color="tab:orange", linewidth=1.2)
        ax.plot(t, data[f"moreau_{column}"], label="Moreau", color="tab:blue", linewidth=1.0,
                linestyle="--")
        ax.set_ylabel(label)
        ax.grid(True, alpha=0.3)
    axes[0].legend(loc="best")
    axes[0].set_title(f"{path.stem}: Moreau against MuJoCo")
    axes[-1].set_xlabel("time (s)")
    fig.tight_layout()
    out = path.with_suffix(".png")
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    folder = pathlib.Path(argv[1])
    traces = sorted(folder.glob("*.csv"))
    if not traces:
        print(f"plot_traces.py: no traces (*.csv) in {folder}", file=sys.stderr)
        return 1
    for path in traces:
        print(f"vs_mujoco: plot {plot(path)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
