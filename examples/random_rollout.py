#!/usr/bin/python3
"""A random-policy rollout on a VectorEnv; prints env-steps/s.

    /usr/bin/python3 examples/random_rollout.py --servers 127.0.0.1:50051 \\
        --task walk --num-envs 64 --steps 500

One env-step is one policy step of one environment (for ``walk``: 20 sub-steps
of 1 ms, a 50 Hz policy). Autoreset is on, so episodes that end restart.
``--policy zero`` holds the nominal pose instead (action 0): no falls, the same
work as the C++ in-process reference ``moreau_loadgen --mode=inprocess``.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

import moreau


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", default="127.0.0.1:50051", help="comma-separated host:port")
    parser.add_argument("--task", default="walk", choices=sorted(moreau.TASKS))
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--steps", type=int, default=500, help="policy steps (timed)")
    parser.add_argument("--warmup", type=int, default=20, help="policy steps before timing")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--policy", default="random", choices=["random", "zero"],
                        help="random actions in [-1, 1], or 0 (hold the nominal pose)")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args()

    servers = args.servers.split(",")
    with moreau.VectorEnv(args.task, args.num_envs, servers=servers, seed=args.seed) as env:
        rng = np.random.default_rng(args.seed)
        env.reset()
        shape = (args.warmup + args.steps, *env.action_space.shape)
        actions = (rng.uniform(-1.0, 1.0, shape) if args.policy == "random"
                   else np.zeros(shape))
        for k in range(args.warmup):
            env.step(actions[k])
        episodes = 0
        start = time.perf_counter()
        for k in range(args.warmup, args.warmup + args.steps):
            _, _, terminated, truncated, _ = env.step(actions[k])
            episodes += int(np.count_nonzero(terminated | truncated))
        elapsed = time.perf_counter() - start
    env_steps = args.num_envs * args.steps
    result = {
        "task": args.task, "policy": args.policy, "num_envs": args.num_envs,
        "servers": len(servers),
        "substeps": env.task.substeps, "env_steps": env_steps, "seconds": elapsed,
        "env_steps_per_s": env_steps / elapsed,
        "sim_steps_per_s": env_steps * env.task.substeps / elapsed,
        "episodes_ended": episodes,
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{args.task}: {args.num_envs} envs on {len(servers)} server(s), "
              f"{env_steps} env-steps in {elapsed:.2f} s: "
              f"{result['env_steps_per_s']:.0f} env-steps/s "
              f"({result['sim_steps_per_s']:.0f} simulation steps/s), "
              f"{episodes} episodes ended")


if __name__ == "__main__":
    main()
