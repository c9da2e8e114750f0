#!/usr/bin/python3
"""The Mini Cheetah trotting, driven at 50 Hz from Python.

A joint-space trot: diagonal leg pairs (front-right + hind-left, front-left +
hind-right) swing half a period apart. Every 20 ms the script computes joint
position targets — hips swinging fore and aft, knees folding during swing —
and the server's joint PD tracks them at 1 kHz for 20 sub-steps.

    export PYTHONPATH=$PWD/clients/python:$PWD/build/clients/python
    build/server/moreaud --port 50051 &
    /usr/bin/python3 examples/trot_mini_cheetah.py --server 127.0.0.1:50051
"""

from __future__ import annotations

import argparse

import numpy as np

import moreau

# Per leg (actuator order FR, FL, HR, HL): the trot phase offset.
PHASE_OFFSETS = np.array([0.0, 0.5, 0.5, 0.0])


class Trot:
    """Joint targets of a trot at ``frequency_hz`` around the standing pose.

    Leg phase ψ ∈ [0, 1): stance for ψ < ½ (the hip sweeps backward, pushing
    the body forward), swing for ψ ≥ ½ (the hip sweeps forward and the knee
    folds by up to ``knee_lift`` to clear the ground).
    """

    def __init__(self, stand_pose: np.ndarray, frequency_hz: float = 2.0,
                 hip_swing: float = 0.25, knee_lift: float = 0.6) -> None:
        self.stand_pose = np.asarray(stand_pose, dtype=np.float64)
        self.frequency_hz = frequency_hz
        self.hip_swing = hip_swing
        self.knee_lift = knee_lift

    def targets(self, t: float) -> np.ndarray:
        psi = (self.frequency_hz * t + PHASE_OFFSETS) % 1.0
        stance = psi < 0.5
        # Hip: +swing → −swing through stance (a line), back through swing (a cosine).
        s = np.where(stance, psi / 0.5, (psi - 0.5) / 0.5)
        hip = np.where(stance, 1.0 - 2.0 * s, -np.cos(np.pi * s))
        knee = np.where(stance, 0.0, np.sin(np.pi * s))
        q = self.stand_pose.reshape(4, 3).copy()
        # Mini Cheetah hip and knee axes are −y: a positive hip offset swings
        # the foot forward, a positive knee offset folds the leg.
        q[:, 1] += self.hip_swing * hip
        q[:, 2] += self.knee_lift * knee
        return q.reshape(-1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="127.0.0.1:50051")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--frequency", type=float, default=2.0, help="gait cycles per second")
    args = parser.parse_args()

    with moreau.Env("walk", args.server, command=0.5,
                    max_episode_steps=int(args.seconds * 50) + 1) as env:
        env.reset(seed=0)
        gait = Trot(env.task.stand_pose, args.frequency)
        dt = 1.0 / env.task.policy_hz
        steps = int(args.seconds * env.task.policy_hz)
        for k in range(steps):
            t = k * dt
            # Ease in over the first second from the standing pose.
            blend = min(1.0, t)
            targets = (1 - blend) * env.task.stand_pose + blend * gait.targets(t)
            obs, reward, terminated, truncated, info = env.step(env.action_for_targets(targets))
            if k % 50 == 49 or terminated:
                raw = env.observation
                print(f"t = {t + dt:5.2f} s  x = {raw.base_pose[0]:6.3f} m  "
                      f"height = {raw.base_pose[2]:.3f} m  "
                      f"forward velocity = {info['forward_velocity']:6.3f} m/s")
            if terminated:
                print("fell")
                break


if __name__ == "__main__":
    main()
