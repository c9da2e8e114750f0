"""The in-process engine (moreau.LocalServer) against a real moreaud: the same
rollouts bit for bit, the same errors, snapshots that cross between the two,
streams, the GIL released while stepping, and a closed server's clear error.

test_client.py and test_env.py also run every one of their tests both ways.
"""

from __future__ import annotations

import threading
import time

import grpc
import numpy as np
import pytest

import moreau
from moreau._proto import pb

from conftest import Server


def random_rollout(env: moreau.VectorEnv, steps: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    out = [obs]
    for _ in range(steps):
        obs, reward, terminated, truncated, _ = env.step(
            rng.uniform(-1, 1, env.action_space.shape))
        out += [obs, reward, terminated, truncated]
    return out


@pytest.mark.parametrize("task", ["walk", "stand"])
def test_seeded_rollout_is_bit_identical_in_process_and_remote(address: str,
                                                               local_server, task: str) -> None:
    # Short episodes, so that autoreset happens inside the rollout too.
    with moreau.VectorEnv(task, 4, servers=[address], max_episode_steps=15) as remote, \
            moreau.VectorEnv(task, 4, servers=[local_server], max_episode_steps=15) as local:
        a = random_rollout(remote, 40, seed=3)
        b = random_rollout(local, 40, seed=3)
    assert len(a) == len(b)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)


def test_servers_none_runs_in_process() -> None:
    with moreau.VectorEnv("stand", 2) as env:
        assert env.addresses == ["in-process"] * 2
        obs, _ = env.reset(seed=0)
        obs, *_ = env.step(np.zeros((2, env.single_action_space.shape[0])))
        assert obs.shape == (2, env.single_observation_space.shape[0])
    assert moreau.default_server() is moreau.default_server()


def failing_calls(client: moreau.Client, existing: str):
    """Calls that fail on the server's validation, one per kind of problem."""
    return {
        "unknown model": lambda: client.create_instances("no_such_robot"),
        "bad settings": lambda: client.create_instances("pendulum", settings={"dt": -1.0}),
        "unknown instance": lambda: client.step("nope", [0.0]),
        "wrong action size": lambda: client.step(existing, [0.0, 0.0, 0.0]),
        "non-finite action": lambda: client.step(existing, [float("nan")]),
        "too many sub-steps": lambda: client.step(existing, [0.0], substeps=10**6),
        "bad state blob": lambda: client.set_state(existing, b"not a state"),
        "bad URDF": lambda: client.create_instances(urdf="<robot"),
    }


def test_errors_have_the_same_codes_and_messages(address: str, local_server) -> None:
    with moreau.Client(address) as remote, moreau.Client(local_server) as local:
        outcomes = []
        for client in (remote, local):
            existing = client.create_instances("pendulum").ids[0]
            seen = {}
            for name, call in failing_calls(client, existing).items():
                with pytest.raises(moreau.MoreauError) as error:
                    call()
                # Instance ids differ between the two; the rest must not.
                seen[name] = (error.value.code, error.value.message.replace(existing, "ID"))
            outcomes.append(seen)
            client.destroy_instances([existing])
    assert outcomes[0] == outcomes[1]
    assert outcomes[1]["unknown instance"][0] == grpc.StatusCode.NOT_FOUND
    assert outcomes[1]["wrong action size"][0] == grpc.StatusCode.INVALID_ARGUMENT


def test_a_snapshot_crosses_both_ways(address: str, local_server) -> None:
    settings = {"control_mode": "pd"}
    targets = np.tile([0.1, -0.9, 1.7], 4)
    with moreau.Client(address) as remote, moreau.Client(local_server) as local:
        here = local.create_instances("mini_cheetah", settings=settings).ids[0]
        there = remote.create_instances("mini_cheetah", settings=settings).ids[0]
        local.step(here, targets, substeps=150)
        # In process → remote: both continue identically.
        remote.set_state(there, local.get_state(here))
        a = local.step(here, targets, substeps=100)
        b = remote.step(there, targets, substeps=100)
        np.testing.assert_array_equal(a.q, b.q)
        np.testing.assert_array_equal(a.v, b.v)
        # And back, after the remote one moved on alone.
        remote.step(there, -targets, substeps=80)
        local.set_state(here, remote.get_state(there))
        a = local.step(here, targets, substeps=50)
        b = remote.step(there, targets, substeps=50)
        np.testing.assert_array_equal(a.q, b.q)
        assert a.time == b.time
        local.destroy_instances([here])
        remote.destroy_instances([there])


def test_session_and_watch_streams_in_process(local_server) -> None:
    with moreau.Client(local_server) as client:
        ids = client.create_instances("pendulum").ids
        with client.session() as session:
            for k in range(1, 4):
                obs = session.step(ids[0], [0.0], substeps=10)
                assert obs.steps == 10 * k
            failed = session.step("nope", [0.0])
            assert moreau.client.status_code(failed.status_code) == grpc.StatusCode.NOT_FOUND
        with client.watch(ids[0], rate_hz=50.0) as watch:
            frames = []
            for _ in range(3):
                client.step(ids[0], [0.0], substeps=20)
                frames.append(next(watch))
            assert frames[-1].steps > frames[0].steps
        client.destroy_instances(ids)


def test_the_gil_is_released_while_stepping(local_server) -> None:
    with moreau.Client(local_server) as client:
        ids = client.create_instances("mini_cheetah", 8).ids
        actions = np.zeros((8, 12))
        counted = [0]
        stop = threading.Event()

        def count() -> None:
            while not stop.is_set():
                counted[0] += 1

        thread = threading.Thread(target=count)
        thread.start()
        start = time.perf_counter()
        before = counted[0]
        while time.perf_counter() - start < 0.5:
            client.step_batch(ids, actions, substeps=200)
        during = counted[0] - before
        stop.set()
        thread.join()
        client.destroy_instances(ids)
    # A thread that never got the GIL back would count (almost) nothing.
    assert during > 10000, f"{during} counts in 0.5 s"


def test_a_closed_server_says_so() -> None:
    server = moreau.LocalServer(workers=1)
    client = moreau.Client(server)
    client.create_instances("pendulum")
    server.close()
    with pytest.raises(RuntimeError, match="in-process server is closed"):
        client.list_models()
    assert "closed" in repr(server)


def test_bad_limits_are_named() -> None:
    with pytest.raises(ValueError, match="max_batch must be ≥ 1"):
        moreau.LocalServer(max_batch=0)
    with pytest.raises(ValueError, match="workers must be ≥ 0"):
        moreau.LocalServer(workers=-2)


def test_futures_run_calls_at_once(local_server) -> None:
    with moreau.Client(local_server) as client:
        ids = client.create_instances("pendulum", 2).ids
        pending = [client.call_async("Reset", pb.ResetRequest(instance_id=i, seed=1))
                   for i in ids]
        for p in pending:
            assert p.result().observation.time == 0.0
        missing = client.call_async("Reset", pb.ResetRequest(instance_id="nope"))
        with pytest.raises(moreau.MoreauError) as error:
            missing.result()
        assert error.value.code == grpc.StatusCode.NOT_FOUND
        client.destroy_instances(ids)


def step_batch_outcomes(client: moreau.Client) -> dict[str, tuple]:
    """StepBatch calls the service refuses whole (code, message) or answers
    with a failed entry (its row's status), ids replaced by their position."""
    cheetahs = client.create_instances("mini_cheetah", 3, settings={"control_mode": "pd"}).ids
    pendulum = client.create_instances("pendulum").ids
    names = {i: f"ID{k}" for k, i in enumerate(cheetahs + pendulum)}

    def scrub(text: str) -> str:
        for i, name in names.items():
            text = text.replace(i, name)
        return text

    calls = {
        "a duplicate": lambda: client.step_batch([cheetahs[0], cheetahs[0]],
                                                 np.zeros((2, 12)), 5, packed=True),
        "too many sub-steps": lambda: client.step_batch(cheetahs, np.zeros((3, 12)), 10**6),
        "above the batch limit": lambda: client.step_batch(cheetahs + pendulum,
                                                           np.zeros((4, 12)), 5),
        "two shapes packed": lambda: client.step_batch([cheetahs[0], pendulum[0]],
                                                       np.zeros((2, 12)), 5, packed=True),
    }
    seen: dict[str, tuple] = {}
    for name, call in calls.items():
        with pytest.raises(moreau.MoreauError) as error:
            call()
        seen[name] = (error.value.code, scrub(error.value.message))
    for packed in (False, True):
        batch = client.step_batch([cheetahs[1], "nope", cheetahs[2]], np.zeros((3, 12)), 25,
                                  packed=packed)
        seen[f"an unknown entry, packed={packed}"] = (
            batch.status_code.tolist(), [scrub(m) for m in batch.status_message],
            batch.substeps_done.tolist(), batch.steps.tolist())
    client.destroy_instances(cheetahs + pendulum)
    return seen


def test_step_batch_errors_are_the_services(local_server) -> None:
    # In process, StepBatch bypasses gRPC's transport (the caller steps too):
    # its refusals and failed entries must still be the remote server's.
    remote_server = Server("--workers", "2", "--max-batch", "3")
    try:
        with moreau.Client(remote_server.address) as remote, \
                moreau.LocalServer(workers=2, max_batch=3) as server:
            there = step_batch_outcomes(remote)
            here = step_batch_outcomes(moreau.Client(server))
    finally:
        remote_server.stop()
    assert here == there
    assert here["a duplicate"][0] == grpc.StatusCode.INVALID_ARGUMENT
    assert "appears twice" in here["a duplicate"][1]
    assert here["above the batch limit"][0] == grpc.StatusCode.INVALID_ARGUMENT
    assert here["an unknown entry, packed=True"][0] == [0, 5, 0]
    assert here["an unknown entry, packed=True"][2] == [25, 0, 25]


def test_step_batch_past_the_message_limit_is_resource_exhausted() -> None:
    # 40 packed Mini Cheetah rows are about 31.7 kB; the request, 40 × 0.1 kB.
    with moreau.LocalServer(workers=2, max_message_bytes=30000) as server:
        client = moreau.Client(server)
        ids = [client.create_instances("mini_cheetah").ids[0] for _ in range(40)]
        assert len(client.step_batch(ids[:30], np.zeros((30, 12)), 5, packed=True)) == 30
        for call in (lambda: client.step_batch(ids, np.zeros((40, 12)), 5, packed=True),
                     lambda: client.step_batch(ids * 8, np.zeros((320, 12)), 5)):
            with pytest.raises(moreau.MoreauError) as info:
                call()
            assert info.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert "larger than max" in info.value.message and "vs. 30000" in info.value.message


def test_a_step_batch_future_and_a_blocking_call_agree(local_server) -> None:
    with moreau.Client(local_server) as client:
        ids = client.create_instances("mini_cheetah", 6, settings={"control_mode": "pd"}).ids
        batch = client.prepare_step_batch(ids, 12, 30, packed=True)
        targets = np.tile([0.1, -0.9, 1.7], (6, 4))
        blocking = batch(targets)
        client.step_batch(ids, np.zeros((6, 12)), 1)  # moves on: then back to the same start
        state = [client.get_state(i) for i in ids]
        for i, s in zip(ids, state):
            client.set_state(i, s)
        first = batch(targets)
        for i, s in zip(ids, state):
            client.set_state(i, s)
        later = batch.future(targets).result()
        np.testing.assert_array_equal(first.q, later.q)
        np.testing.assert_array_equal(first.v, later.v)
        assert blocking.steps.tolist() == [30] * 6 and later.steps.tolist() == [61] * 6
        client.destroy_instances(ids)


def test_compiled_legged_terms_are_numpys_bits() -> None:
    from moreau import _local
    from moreau.tasks import projected_gravity, quat_rotate_inverse
    rng = np.random.default_rng(5)
    pose = rng.normal(size=(257, 7))
    pose[:, 3:7] /= np.linalg.norm(pose[:, 3:7], axis=1, keepdims=True)
    pose[3] = np.nan  # a diverged row stays NaN
    twist = rng.normal(scale=3.0, size=(257, 6))
    block = _local.legged_base_terms(pose, twist)
    quat = pose[:, 3:7]
    expected = np.concatenate([pose[:, 2:3], projected_gravity(quat),
                               quat_rotate_inverse(quat, twist[:, :3]), twist[:, 3:6]], axis=1)
    assert block.shape == (257, 10)
    np.testing.assert_array_equal(block, expected)
    assert np.isnan(block[3, :7]).all()
    with pytest.raises(ValueError, match="base poses"):
        _local.legged_base_terms(pose[:, :6], twist)


def test_walk_observes_the_same_with_and_without_the_compiled_terms(local_server) -> None:
    with moreau.VectorEnv("walk", 3, servers=[local_server], seed=2) as env:
        obs, _ = env.reset()
        obs, *_ = env.step(np.full((3, 12), 0.3))
        assert env.task._native_terms is not None
        compiled = env.task.outputs(env.observation_batch, env._actions, env._last_actions,
                                    env._last_actions)
        env.task._native_terms = None
        numpy_only = env.task.outputs(env.observation_batch, env._actions, env._last_actions,
                                      env._last_actions)
    for a, b in zip(compiled[:2] + compiled[3:], numpy_only[:2] + numpy_only[3:]):
        np.testing.assert_array_equal(a, b)
    assert compiled[2].keys() == numpy_only[2].keys()
    for key in compiled[2]:
        np.testing.assert_array_equal(compiled[2][key], numpy_only[2][key])


def written_into(client: moreau.Client) -> list:
    """Packed StepBatch replies written into rows of an ObservationBatch (a
    slice, then indices), with an unknown entry, then with every entry
    unknown; the rows and labels after each, ids replaced by their position."""
    made = client.create_instances("mini_cheetah", 4, settings={"control_mode": "pd"})
    ids = made.ids
    out = made.observations
    targets = np.tile([0.1, -0.9, 1.7], (4, 4))
    seen = []

    def look() -> None:
        arrays = [getattr(out, name).copy() for name in out.ARRAY_FIELDS]
        labels = [ids.index(i) if i in ids else i for i in out.instance_ids]
        seen.append((arrays, labels, list(out.status_message)))

    client.prepare_step_batch(ids, 12, 7, packed=True)(targets, into=(out, slice(0, 4)))
    look()
    mixed = [ids[2], "nope", ids[0]]
    client.prepare_step_batch(mixed, 12, 9, packed=True)(targets[:3],
                                                         into=(out, np.array([3, 1, 0])))
    look()
    client.prepare_step_batch(["gone", "lost"], 12, 3, packed=True)(targets[:2],
                                                                     into=(out, slice(1, 3)))
    look()
    client.destroy_instances(ids)
    return seen


def test_replies_written_into_rows_are_the_remote_ones(address: str, local_server) -> None:
    # In process, a blocking packed StepBatch writes the server's arrays
    # straight into the rows; over the network the reply bytes are decoded.
    with moreau.Client(address) as remote, moreau.Client(local_server) as local:
        there = written_into(remote)
        here = written_into(local)
    for (a, labels_a, messages_a), (b, labels_b, messages_b) in zip(here, there):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)
        assert labels_a == labels_b and messages_a == messages_b
    arrays, labels, messages = here[1]
    assert labels == [0, "nope", 2, 2] and messages[3] == "" and "nope" in messages[1]
    arrays, labels, messages = here[2]
    assert labels[1:3] == ["gone", "lost"] and np.isnan(arrays[2][1:3]).all()  # q
