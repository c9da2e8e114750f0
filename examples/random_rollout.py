#!/usr/bin/python3
"""A random-policy rollout on a VectorEnv; prints env-steps/s.

    /usr/bin/python3 examples/random_rollout.py --servers 127.0.0.1:50051 \\
        --task walk --num-envs 64 --steps 500
    /usr/bin/python3 examples/random_rollout.py --local --workers 2   # in process

One env-step is one policy step of one environment (for ``walk``: 20 sub-steps
of 1 ms, a 50 Hz policy). Autoreset is on, so episodes that end restart.
``--policy zero`` holds the nominal pose instead (action 0): no falls, the same
work as the C++ in-process reference ``moreau_loadgen --mode=inprocess``.
``--groups K`` steps the envs as K groups with ``send``/``recv`` (EnvPool's
asynchronous mode): the servers step one group while the client reads another.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

import moreau


def grouped_rollout(env: moreau.VectorEnv, actions: np.ndarray, groups: int,
                    warmup: int) -> tuple[float, int, int]:
    """Every group runs len(actions) policy steps, all groups in flight; the
    clock starts when every group has done ``warmup`` of them. Returns the
    seconds, the episodes ended and the env-steps after the clock started."""
    members = np.array_split(np.arange(env.num_envs), groups)
    group_of = np.repeat(np.arange(groups), [len(m) for m in members])
    done = [0] * groups
    for g, rows in enumerate(members):
        env.send(actions[0][rows], rows)
    episodes, env_steps, start = 0, 0, None
    while min(done) < len(actions):
        _, _, terminated, truncated, info = env.recv()
        g = int(group_of[info["env_id"][0]])
        done[g] += 1
        if start is None and min(done) >= warmup:
            start = time.perf_counter()
        elif start is not None:
            episodes += int(np.count_nonzero(terminated | truncated))
            env_steps += len(members[g])
        if done[g] < len(actions):
            env.send(actions[done[g]][members[g]], members[g])
    return time.perf_counter() - start, episodes, env_steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", default="127.0.0.1:50051", help="comma-separated host:port")
    parser.add_argument("--local", action="store_true",
                        help="run the envs in this process (moreau.LocalServer), not on --servers")
    parser.add_argument("--workers", type=int, default=0,
                        help="--local: stepping threads (0: one per core)")
    parser.add_argument("--task", default="walk", choices=sorted(moreau.TASKS))
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--steps", type=int, default=500, help="policy steps (timed)")
    parser.add_argument("--warmup", type=int, default=20, help="policy steps before timing")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--policy", default="random", choices=["random", "zero"],
                        help="random actions in [-1, 1], or 0 (hold the nominal pose)")
    parser.add_argument("--groups", type=int, default=1,
                        help="1: env.step; K > 1: K groups of envs in flight (send/recv)")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args()
    if not 1 <= args.groups <= args.num_envs:
        parser.error(f"--groups must be in [1, --num-envs], got {args.groups}")

    servers = [moreau.LocalServer(workers=args.workers)] if args.local else args.servers.split(",")
    with moreau.VectorEnv(args.task, args.num_envs, servers=servers, seed=args.seed) as env:
        rng = np.random.default_rng(args.seed)
        env.reset()
        shape = (args.warmup + args.steps, *env.action_space.shape)
        actions = (rng.uniform(-1.0, 1.0, shape) if args.policy == "random"
                   else np.zeros(shape))
        if args.groups == 1:
            for k in range(args.warmup):
                env.step(actions[k])
            episodes = 0
            start = time.perf_counter()
            for k in range(args.warmup, args.warmup + args.steps):
                _, _, terminated, truncated, _ = env.step(actions[k])
                episodes += int(np.count_nonzero(terminated | truncated))
            elapsed = time.perf_counter() - start
            env_steps = args.num_envs * args.steps
        else:
            elapsed, episodes, env_steps = grouped_rollout(env, actions, args.groups,
                                                           args.warmup)
    result = {
        "task": args.task, "policy": args.policy, "num_envs": args.num_envs,
        "servers": len(servers), "local": args.local, "groups": args.groups,
        "substeps": env.task.substeps, "env_steps": env_steps, "seconds": elapsed,
        "env_steps_per_s": env_steps / elapsed,
        "sim_steps_per_s": env_steps * env.task.substeps / elapsed,
        "episodes_ended": episodes,
    }
    if args.json:
        print(json.dumps(result))
    else:
        where = "in process" if args.local else f"on {len(servers)} server(s)"
        print(f"{args.task}: {args.num_envs} envs {where}, "
              f"{env_steps} env-steps in {elapsed:.2f} s: "
              f"{result['env_steps_per_s']:.0f} env-steps/s "
              f"({result['sim_steps_per_s']:.0f} simulation steps/s), "
              f"{episodes} episodes ended")


if __name__ == "__main__":
    main()
