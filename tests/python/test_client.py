"""moreau.Client against a real moreaud: RPCs, numpy conversion, errors."""

from __future__ import annotations

import copy

import math
import threading

import grpc
import numpy as np
import pytest

import moreau
from moreau import _wire
from moreau._proto import pb

PD = {"control_mode": "pd"}


@pytest.fixture(params=["remote", "in-process"])
def address(request, server, local_server):
    """Every test against a moreaud and against the in-process engine."""
    return server.address if request.param == "remote" else local_server


@pytest.fixture
def client(address: str):
    with moreau.Client(address) as c:
        yield c


def test_list_and_get_models(client: moreau.Client) -> None:
    names = [m.name for m in client.list_models()]
    assert "mini_cheetah" in names and "pendulum" in names
    spec = client.get_model("mini_cheetah")
    assert (spec.nq, spec.nv, spec.floating_base, len(spec.actuators)) == (19, 18, True, 12)


# A robot no test has seen: a base with a coloured box, an arm drawn by a
# mesh that no server holds.
VISUAL_URDF = """<robot name="lamp">
  <material name="brass"><color rgba="0.8 0.6 0.2 1"/></material>
  <link name="base">
    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/>
    </inertial>
    <visual><origin xyz="0 0 0.1"/><geometry><box size="0.2 0.2 0.2"/></geometry>
      <material name="brass"/></visual>
    <collision><geometry><sphere radius="0.1"/></geometry></collision>
  </link>
  <joint name="hinge" type="revolute"><parent link="base"/><child link="arm"/>
    <axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="5" velocity="2"/></joint>
  <link name="arm">
    <inertial><mass value="0.5"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/>
    </inertial>
    <visual><geometry><mesh filename="meshes/arm.stl" scale="0.001 0.001 0.001"/></geometry>
      <material name="nowhere"/></visual>
  </link>
</robot>"""


def test_visual_shapes_and_meshes(client: moreau.Client, ur10_urdf) -> None:
    spec = client.get_model("ur10")
    assert len(spec.visual_shapes) == 7
    assert {shape.role for shape in spec.visual_shapes} == {"visual"}
    assert {shape.role for shape in spec.shapes} == {"collision"}
    for shape in spec.visual_shapes:
        assert shape.type == "mesh" and list(shape.rgba) == [0.7, 0.7, 0.7, 1.0]
        data = client.get_mesh("ur10", shape.mesh)
        assert isinstance(data, bytes)
        assert data == (ur10_urdf.parent / shape.mesh).read_bytes()

    lamp = client.get_model(urdf=VISUAL_URDF)
    box, arm = lamp.visual_shapes
    assert (box.type, box.link, box.role) == ("box", "base", "visual")
    assert list(box.size) == [0.2, 0.2, 0.2] and list(box.position) == [0, 0, 0.1]
    assert list(box.rgba) == pytest.approx([0.8, 0.6, 0.2, 1.0])
    assert (arm.type, arm.mesh, list(arm.rgba)) == ("mesh", "meshes/arm.stl", [])
    assert any("material 'nowhere' is not defined" in w for w in lamp.warnings)
    # Its mesh is not on the server: only built-in models' are.
    with pytest.raises(moreau.MoreauError) as info:
        client.get_mesh("lamp", "meshes/arm.stl")
    assert info.value.code == grpc.StatusCode.NOT_FOUND
    assert "no compiled-in meshes" in info.value.message and "ur10" in info.value.message


def test_get_mesh_errors(client: moreau.Client) -> None:
    with pytest.raises(moreau.MoreauError) as info:
        client.get_mesh("ur10", "meshes/ur10/collision/gripper.stl")
    assert info.value.code == grpc.StatusCode.NOT_FOUND and info.value.method == "GetMesh"
    assert "gripper.stl" in info.value.message
    assert "meshes/ur10/collision/wrist3.stl" in info.value.message  # the meshes it has
    with pytest.raises(moreau.MoreauError) as info:
        client.get_mesh("mini_cheetah", "meshes/mini_body.obj")
    assert info.value.code == grpc.StatusCode.NOT_FOUND
    assert "built-in model 'mini_cheetah' has no compiled-in meshes" in info.value.message
    for model, mesh in (("", "meshes/ur10/collision/base.stl"), ("ur10", "")):
        with pytest.raises(moreau.MoreauError) as info:
            client.get_mesh(model, mesh)
        assert info.value.code == grpc.StatusCode.INVALID_ARGUMENT


def test_get_mesh_past_the_message_limit_is_resource_exhausted() -> None:
    # base.stl is 18384 bytes, wrist3.stl 24384; the replies here, 20000 at most.
    with moreau.LocalServer(workers=1, max_message_bytes=20000) as server:
        client = moreau.Client(server)
        assert len(client.get_mesh("ur10", "meshes/ur10/collision/base.stl")) == 18384
        with pytest.raises(moreau.MoreauError) as info:
            client.get_mesh("ur10", "meshes/ur10/collision/wrist3.stl")
        assert info.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "--max-message-bytes (20000)" in info.value.message


def test_create_step_destroy_with_numpy(client: moreau.Client) -> None:
    created = client.create_instances("mini_cheetah", 2, settings=PD)
    assert len(created.ids) == 2
    assert created.spec.control_mode == "pd" and created.spec.action.size == 12
    assert created.observations.q.shape == (2, 19)
    targets = np.tile([0.0, -0.8, 1.6], 4)
    obs = client.step(created.ids[0], targets, substeps=5)
    assert isinstance(obs.q, np.ndarray) and obs.q.shape == (19,)
    assert obs.joint_positions.shape == (12,) and obs.base_pose.shape == (7,)
    assert obs.contact_flags.dtype == bool and obs.contact_normal_forces.shape == (4,)
    assert obs.ok and obs.substeps_done == 5 and obs.steps == 5
    assert math.isclose(obs.time, 5 * created.spec.dt)
    destroyed, not_found = client.destroy_instances(created.ids + ["no-such-id"])
    assert destroyed == 2 and not_found == ["no-such-id"]


def test_list_instances_pages_through_the_callers_instances(client: moreau.Client) -> None:
    created = client.create_instances("pendulum", 3)
    client.step(created.ids[1], np.zeros(1), substeps=4)
    listed = {info.instance_id: info for info in client.list_instances(page_size=2)}
    try:
        assert set(created.ids) <= set(listed)
        assert [listed[i].steps for i in created.ids] == [0, 4, 0]
        assert all(listed[i].model == "pendulum" and listed[i].status.code == 0
                   for i in created.ids)
        assert listed[created.ids[1]].last_stepped_unix_s >= listed[created.ids[1]].created_unix_s
    finally:
        client.destroy_instances(created.ids)
    with pytest.raises(moreau.MoreauError) as error:
        client.list_instances(page_size=5000)
    assert error.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert "page_size" in error.value.message


def test_a_push_changes_the_momentum_by_force_times_duration(client: moreau.Client) -> None:
    """A free 1 kg sphere with the ground 10 m below, held up against gravity
    and pushed with 10 N along x for 0.05 s."""
    created = client.create_instances(
        "sphere", 1, settings={"dt": 0.001, "terrain": {"flat": {"height": -10.0}}})
    try:
        obs = client.step(created.ids[0], [], 50,
                          pushes=[{"body": "sphere", "force": [10.0, 0.0, 9.81],
                                   "duration": 0.05}])
        assert math.isclose(obs.v[0], 0.5, abs_tol=1e-9)
        assert math.isclose(obs.v[2], 0.0, abs_tol=1e-9)
        with pytest.raises(moreau.MoreauError) as error:
            client.step(created.ids[0], [], 1, pushes=[{"body": "nowhere", "force": [1, 0, 0],
                                                         "duration": 1}])
        assert error.value.code == grpc.StatusCode.INVALID_ARGUMENT
        assert "pushes[0].body 'nowhere'" in error.value.message
    finally:
        client.destroy_instances(created.ids)


def test_step_batch_reports_each_instance(client: moreau.Client) -> None:
    created = client.create_instances("pendulum", 2, settings={"control_mode": "torque"})
    ids = [created.ids[0], "missing-instance", created.ids[1]]
    batch = client.step_batch(ids, np.zeros((3, 1)), substeps=3)
    assert list(batch.status_code) == [0, grpc.StatusCode.NOT_FOUND.value[0], 0]
    assert "missing-instance" in batch.status_message[1]
    assert np.isnan(batch.q[1]).all() and np.isfinite(batch.q[[0, 2]]).all()
    assert list(batch.substeps_done) == [3, 0, 3]
    client.destroy_instances(created.ids)


def test_step_batch_encoder_matches_generated_classes(client: moreau.Client) -> None:
    """The StepBatch request encoder writes what protobuf reads; the unpacked
    reply becomes the stacked observations, an unknown instance's rows NaN."""
    created = client.create_instances("mini_cheetah", 3, settings=PD, seed=4, noise=0.1)
    ids = [created.ids[0], "missing-instance", created.ids[1], created.ids[2]]
    actions = np.random.default_rng(0).uniform(-0.5, 0.5, (4, 12))
    encoder = _wire.StepBatchEncoder(ids, 12, [1, 3, 7, 20])
    request = pb.StepBatchRequest.FromString(encoder.encode(actions))
    assert [s.instance_id for s in request.steps] == ids and not request.packed
    assert [s.substeps for s in request.steps] == [1, 3, 7, 20]
    np.testing.assert_array_equal([list(s.action) for s in request.steps], actions)

    raw = client._step_batch_raw(encoder.encode(actions), timeout=10)
    expected = pb.StepBatchResponse.FromString(raw)
    decoded = encoder.decode(raw)
    assert decoded.q.shape == (4, 19) and np.isnan(decoded.q[1]).all()
    assert decoded.contact_flags.dtype == bool and not decoded.contact_flags[1].any()
    assert decoded.status_code.dtype == np.int32 and decoded.steps.dtype == np.int64
    for i, message in enumerate(expected.observations):
        reference = moreau.Observation.from_proto(message)
        row = decoded[i]
        for name in moreau.ObservationBatch.ARRAY_FIELDS:
            if i != 1 or np.size(getattr(reference, name)):
                np.testing.assert_array_equal(getattr(row, name), getattr(reference, name),
                                              name)
        assert row.instance_id == reference.instance_id
        assert row.status_message == reference.status_message
    assert decoded.status_code[1] == grpc.StatusCode.NOT_FOUND.value[0]
    client.destroy_instances(created.ids)


def test_packed_step_batch_matches_the_generated_classes(client: moreau.Client,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The packed reply (one ObservationBatch) decodes to what protobuf reads,
    with and without the early stop before the strings, and fails alone for
    an unknown instance."""
    created = client.create_instances("mini_cheetah", 3, settings=PD, seed=5, noise=0.1)
    ids = [created.ids[0], "missing-instance", created.ids[1], created.ids[2]]
    actions = np.random.default_rng(1).uniform(-0.5, 0.5, (4, 12))
    encoder = _wire.StepBatchEncoder(ids, 12, 4, packed=True)
    request = pb.StepBatchRequest.FromString(encoder.encode(actions))
    assert request.packed and [s.instance_id for s in request.steps] == ids

    raw = client._step_batch_raw(encoder.encode(actions), timeout=10)
    packed = pb.StepBatchResponse.FromString(raw).packed
    assert (packed.count, packed.nq, packed.nv, packed.num_contacts) == (4, 19, 18, 4)
    for decoded in (_wire.decode_packed_step_batch(raw), encoder.decode(raw)):
        assert decoded.instance_ids == list(packed.instance_ids) == ids
        assert decoded.status_message == list(packed.status_messages)
        assert "missing-instance" in decoded.status_message[1]
        np.testing.assert_array_equal(decoded.status_code, packed.status_codes)
        np.testing.assert_array_equal(decoded.q.ravel(), packed.q)
        np.testing.assert_array_equal(decoded.base_pose.ravel(), packed.base_pose)
        np.testing.assert_array_equal(decoded.contact_flags.ravel(), packed.contact_flags)
        np.testing.assert_array_equal(decoded.steps, packed.steps)
        np.testing.assert_array_equal(decoded.substeps_done, [4, 0, 4, 4])
        assert decoded.q.shape == (4, 19) and decoded.time.shape == (4,)
        assert np.isnan(decoded.q[1]).all() and np.isfinite(decoded.q[[0, 2, 3]]).all()

    # All OK: the early stop takes the ids from the request.
    ok_rows = np.array([0, 2, 3])
    raw = client._step_batch_raw(encoder.encode(actions, ok_rows), timeout=10)
    decoded = encoder.decode(raw, ok_rows)
    assert decoded.instance_ids == created.ids and decoded.status_message == ["", "", ""]
    assert not decoded.status_code.any() and decoded.q.flags.writeable
    # It stops before the strings although link_positions (no observed
    # links) is left out of the reply: no varint is read per instance.
    assert "link_positions" not in {f.name for f, _ in
                                    pb.StepBatchResponse.FromString(raw).packed.ListFields()}
    reads = []
    read_varint = _wire._read_varint
    monkeypatch.setattr(_wire, "_read_varint", lambda *a: reads.append(1) or read_varint(*a))
    encoder.decode(raw, ok_rows)
    early = len(reads)
    _wire.decode_packed_step_batch(raw)  # no ids given: reads every string
    monkeypatch.undo()
    # Per row an id and an empty message, a key and a length each; the early
    # stop reads the first id's key.
    assert len(reads) - early == early + 4 * 3 - 1, f"{early} then {len(reads) - early} varints"

    # Decoded into rows of an existing batch: the same as decode + assign, by
    # a slice or by indices; rows of another shape are refused.
    full = encoder.decode(client._step_batch_raw(encoder.encode(actions), timeout=10))
    for where in (slice(1, 4), np.array([3, 0, 1])):
        into, expected = copy.deepcopy(full), copy.deepcopy(full)
        encoder.decode_into(raw, ok_rows, into, where)
        expected.assign(where, decoded)
        for name in moreau.ObservationBatch.ARRAY_FIELDS:
            np.testing.assert_array_equal(getattr(into, name), getattr(expected, name))
        assert into.instance_ids == expected.instance_ids
        assert into.status_message == expected.status_message
    narrow = copy.deepcopy(full)
    narrow.q = narrow.q[:, :5]
    with pytest.raises(ValueError, match=r"q rows have shape \(19,\), this batch's have \(5,\)"):
        encoder.decode_into(raw, ok_rows, narrow, slice(0, 3))

    # Two observation shapes in one packed batch: refused, with the server's message.
    with pytest.raises(moreau.MoreauError, match="same observation shape"):
        pendulum = client.create_instances("pendulum", 1)
        client.step_batch([created.ids[0], pendulum.ids[0]], np.zeros((2, 12)), packed=True)
    client.destroy_instances(created.ids)


def test_unknown_instance_raises_not_found(client: moreau.Client) -> None:
    with pytest.raises(moreau.MoreauError) as info:
        client.step("no-such-instance", [0.0])
    assert info.value.code == grpc.StatusCode.NOT_FOUND
    assert "no-such-instance" in info.value.message
    assert info.value.method == "Step" and info.value.address == client.address


def test_bad_action_raises_invalid_argument(client: moreau.Client) -> None:
    created = client.create_instances("mini_cheetah", 1, settings=PD)
    with pytest.raises(moreau.MoreauError) as info:
        client.step(created.ids[0], np.zeros(3))
    assert info.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert "3" in info.value.message and "12" in info.value.message
    with pytest.raises(moreau.MoreauError) as info:
        client.step(created.ids[0], np.full(12, np.nan))
    assert info.value.code == grpc.StatusCode.INVALID_ARGUMENT
    client.destroy_instances(created.ids)


def test_bad_settings_carry_the_server_message(client: moreau.Client) -> None:
    with pytest.raises(moreau.MoreauError) as info:
        client.create_instances("mini_cheetah", 1,
                                settings={"contact_model": "spring-damper",
                                          "contact_parameters": {"stiffnes": 1e4}})
    assert info.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert "unknown contact parameter 'stiffnes'" in info.value.message
    assert "unknown contact parameter 'stiffnes'" in str(info.value)
    with pytest.raises(moreau.MoreauError) as info:
        client.get_model("no_such_robot")
    # simulator.proto lists an unknown model under INVALID_ARGUMENT.
    assert info.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert "no_such_robot" in info.value.message


def test_deadline_is_a_keyword(client: moreau.Client) -> None:
    created = client.create_instances("mini_cheetah", 1, settings=PD)
    with pytest.raises(moreau.MoreauError) as info:
        client.step(created.ids[0], np.zeros(12), substeps=10000, timeout=1e-3)
    assert info.value.code == grpc.StatusCode.DEADLINE_EXCEEDED
    client.destroy_instances(created.ids)


def test_state_round_trip_is_bit_exact(client: moreau.Client) -> None:
    created = client.create_instances("mini_cheetah", 2, settings=PD, seed=1, noise=0.1)
    a, b = created.ids
    targets = np.tile([0.0, -0.8, 1.6], 4)
    client.step(a, targets, 50)
    state = client.get_state(a)
    assert state.q.shape == (19,) and state.time > 0 and isinstance(state.blob, bytes)
    first = client.step(a, targets, 40)
    client.set_state(b, state)
    second = client.step(b, targets, 40)
    np.testing.assert_array_equal(first.q, second.q)
    np.testing.assert_array_equal(first.v, second.v)
    reset = client.reset(a, state=state)
    np.testing.assert_array_equal(reset.q, state.q)
    client.destroy_instances(created.ids)


def test_reset_with_seed_is_reproducible(client: moreau.Client) -> None:
    created = client.create_instances("mini_cheetah", 1, settings=PD)
    first = client.reset(created.ids[0], seed=11, noise=0.1)
    second = client.reset(created.ids[0], seed=11, noise=0.1)
    other = client.reset(created.ids[0], seed=12, noise=0.1)
    np.testing.assert_array_equal(first.q, second.q)
    assert not np.array_equal(first.q, other.q)
    client.destroy_instances(created.ids)


def test_query(client: moreau.Client) -> None:
    created = client.create_instances("mini_cheetah", 1, settings=PD)
    result = client.query(created.ids[0], body_poses=True, contacts=True, energies=True,
                          mass_matrix=True, bias_forces=True, contact_jacobians=True)
    assert result.nv == 18 and result.mass_matrix.shape == (18, 18)
    np.testing.assert_allclose(result.mass_matrix, result.mass_matrix.T, atol=1e-9)
    assert result.bias_forces.shape == (18,)
    assert result.contact_jacobians.shape == (4, 3, 18)
    assert result.contact_force.shape == (4, 3)
    assert set(result.body_poses) >= {"body", "shank_fr"}
    assert result.body_poses["body"].quaternion.shape == (4,)
    client.destroy_instances(created.ids)


def test_observed_links_match_query(client: moreau.Client, ur10_urdf) -> None:
    """Observations carry the observed links' positions: those Query reports
    for the instance's state, and for the same configuration given as q; a
    body's link is at its body pose, a link merged into a body (ee_link, 92.2
    mm off wrist 3) off it."""
    links = ["forearm_link", "wrist_3_link", "ee_link"]
    created = client.create_instances(urdf=ur10_urdf.read_text(), base="fixed", count=2,
                                      settings={"control_mode": "pd", "dt": 2e-4,
                                                "kp": 1000, "kd": 5, "observed_links": links})
    spec = next(a for a in created.spec.observation if a.name == "link_positions")
    assert spec.size == 9 and list(spec.labels[:3]) == [
        "forearm_link/x", "forearm_link/y", "forearm_link/z"]
    assert created.observations.link_positions.shape == (2, 9)
    a, b = created.ids
    obs = client.step(a, [0.3, -1.0, 1.2, -0.5, 1.0, 0.7], 500)
    result = client.query(a, body_poses=True, link_positions=True)
    np.testing.assert_array_equal(obs.link_positions, result.link_positions.ravel())
    poses = result.body_poses
    for k, link in enumerate(links[:2]):
        np.testing.assert_array_equal(obs.link_positions[3 * k:3 * k + 3], poses[link].position)
    ee = obs.link_positions[6:9] - poses["wrist_3_link"].position
    assert abs(np.linalg.norm(ee) - 0.0922) < 1e-12
    # The same configuration in the other instance, which stays where it was.
    at_q = client.query(b, link_positions=True, q=obs.q)
    np.testing.assert_array_equal(at_q.link_positions.ravel(), obs.link_positions)
    assert client.get_state(b).time == 0.0
    # Packed StepBatch rows carry them too.
    batch = client.step_batch([a, b], np.zeros((2, 6)), 10, packed=True)
    assert batch.link_positions.shape == (2, 9)
    for i, instance_id in enumerate([a, b]):
        np.testing.assert_array_equal(
            batch.link_positions[i],
            client.query(instance_id, link_positions=True).link_positions.ravel())
    with pytest.raises(moreau.MoreauError, match="no link 'hand'"):
        client.create_instances(urdf=ur10_urdf.read_text(), base="fixed",
                                settings={"observed_links": ["hand"]})
    with pytest.raises(moreau.MoreauError, match="q has 2 values, the model has nq 6"):
        client.query(a, body_poses=True, q=[0.0, 0.0])
    client.destroy_instances(created.ids)


def test_session_and_watch(client: moreau.Client) -> None:
    created = client.create_instances("pendulum", 1)
    with client.session() as session:
        for k in range(1, 4):
            obs = session.step(created.ids[0], [0.0], 10)
            assert obs.steps == 10 * k
        missing = session.step("missing", [0.0])
        assert missing.status_code == grpc.StatusCode.NOT_FOUND.value[0]
    stop = threading.Event()

    def keep_stepping() -> None:  # frames are sampled from stepping
        while not stop.wait(0.01):
            client.step(created.ids[0], [0.0], 10)

    stepper = threading.Thread(target=keep_stepping)
    stepper.start()
    try:
        with client.watch(created.ids[0], rate_hz=200, timeout=20) as watch:
            frame = next(iter(watch))
            assert frame.body_poses and frame.time >= 0
    finally:
        stop.set()
        stepper.join()
    client.destroy_instances(created.ids)


def test_id_constraint_settings_reach_the_engine(client: moreau.Client) -> None:
    # id-constraint: a pendulum driven to a target at 10 ms steps (desired
    # velocity (target − q) / dt; Moreau's midpoint rule moves q by half of
    # (v_start + v_desired) dt, so the error shrinks by ≈ 0.7 per step).
    created = client.create_instances("pendulum", 1, settings={
        "control_mode": "id-constraint", "dt": 0.01})
    assert created.spec.control_mode == "id-constraint"
    assert created.spec.action.name == "joint_position_targets"
    target = created.observations.joint_positions[0, 0] + 0.05
    obs = client.step(created.ids[0], [target], substeps=1)
    assert obs.ok and 0.015 < obs.joint_positions[0] - (target - 0.05) < 0.05
    obs = client.step(created.ids[0], [target], substeps=30)
    assert obs.ok and abs(obs.joint_positions[0] - target) < 1e-3
    # A gear on every actuator: N² I_rotor on the mass matrix diagonal.
    plain = client.create_instances("pendulum", 1)
    geared = client.create_instances("pendulum", 1, settings={"gear": 10, "rotor_inertia": 1e-3})
    m_plain = client.query(plain.ids[0], mass_matrix=True).mass_matrix
    m_geared = client.query(geared.ids[0], mass_matrix=True).mass_matrix
    assert m_geared[0, 0] - m_plain[0, 0] == pytest.approx(0.1, rel=1e-9)
    # The QP contact models, the four-bar's loop solver and their parameters.
    for contact in ("least-constraint", "micro-macro"):
        box = client.create_instances("box", 1, settings={
            "contact_model": contact, "contact_parameters": {"max_iterations": 500}})
        assert client.step(box.ids[0], [], substeps=50).ok
    four_bar = client.create_instances("four_bar", 1, settings={"loop_solver": "direct"})
    assert client.step(four_bar.ids[0], np.zeros(len(four_bar.spec.model.actuators)),
                       substeps=20).ok
    for bad, words in ((({"loop_solver": "magic"}), "magic"),
                       ({"control_mode": "id-constraint", "contact_model": "hertz"}, "hertz"),
                       ({"contact_model": "micro-macro",
                         "contact_parameters": {"alpha": 0.5}}, "lambda")):
        with pytest.raises(moreau.MoreauError) as info:
            client.create_instances("pendulum", 1, settings=bad)
        assert info.value.code == grpc.StatusCode.INVALID_ARGUMENT
        assert words in info.value.message
    client.destroy_instances(created.ids + plain.ids + geared.ids + four_bar.ids)


def test_generated_terrains(client: moreau.Client, tmp_path) -> None:
    """Terrain.rough and Terrain.heightfield_csv: the engine's generators, so a
    seed or a CSV file gives the same ground as `moreau sim --terrain`."""
    def final_q(terrain) -> np.ndarray:
        created = client.create_instances("mini_cheetah", 1,
                                          settings={**PD, "terrain": terrain})
        obs = client.step(created.ids[0], np.tile([0.0, -0.8, 1.6], 4), 300)
        client.destroy_instances(created.ids)
        return obs.q

    flat = final_q({})
    rough = final_q({"rough": {"amplitude": 0.03, "seed": 3}})
    np.testing.assert_array_equal(rough, final_q({"rough": {"amplitude": 0.03, "seed": 3}}))
    assert not np.array_equal(rough, flat)
    assert not np.array_equal(rough, final_q({"rough": {"amplitude": 0.03, "seed": 4}}))

    csv = tmp_path / "step.csv"
    csv.write_text("# cell_size: 0.1\n" + "\n".join(
        ",".join("-0.05" if i >= 10 else "0" for i in range(20)) for _ in range(20)) + "\n")
    stepped = final_q({"heightfield_csv": {"text": csv.read_text()}})
    assert not np.array_equal(stepped, flat)

    with pytest.raises(moreau.MoreauError) as info:
        final_q({"heightfield_csv": {"text": "0,0\n0,x\n"}})
    assert info.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert 'line 2, value 2: "x" is not a finite height' in info.value.message


def test_controller_settings(client: moreau.Client) -> None:
    """Settings.controller from a dict or a message: the simulation runs the
    controller inside its step, a zero action leaves it in charge."""
    trot = {"kind": "trot", "period_steps": 2, "parameters": {"kp": 50, "start_delay_s": 0.1}}

    def final(settings, action=np.zeros(12)):
        created = client.create_instances("mini_cheetah", 1, settings=settings)
        obs = client.step(created.ids[0], action, 300)
        client.destroy_instances(created.ids)
        assert obs.ok
        return obs

    trotted = final({"controller": trot})
    message = pb.ControllerSettings(kind="trot", period_steps=2,
                                    parameters={"kp": 50.0, "start_delay_s": 0.1})
    np.testing.assert_array_equal(trotted.q, final({"controller": message}).q)
    assert not np.array_equal(trotted.q, final({"controller": {**trot, "period_steps": 1}}).q)
    # The controller's torques drive the joints; unset, nothing does.
    assert np.abs(trotted.joint_torques).max() > 1.0
    passive = final({})
    assert not np.array_equal(trotted.q, passive.q)
    np.testing.assert_array_equal(passive.joint_torques, np.zeros(12))
    # "stand" under pd: the action is an offset to its joint targets.
    stand = {**PD, "controller": {"kind": "stand"}}
    offset = np.tile([0.0, 0.1, 0.0], 4)
    assert not np.array_equal(final(stand).q, final(stand, offset).q)
    assert final(stand).q[2] > 0.2

    with pytest.raises(ValueError, match="period"):
        moreau.make_settings(controller={"kind": "trot", "period": 2})
    for bad, words in (({"kind": "moonwalk"}, "moonwalk"),
                       ({"kind": "stand", "parameters": {"gain": 1}}, "unknown parameter 'gain'"),
                       ({"kind": "stand", "period_steps": -1}, "period_steps")):
        with pytest.raises(moreau.MoreauError) as info:
            client.create_instances("mini_cheetah", 1, settings={"controller": bad})
        assert info.value.code == grpc.StatusCode.INVALID_ARGUMENT
        assert words in info.value.message, info.value.message
    with pytest.raises(moreau.MoreauError) as info:
        client.create_instances("pendulum", 1, settings={"controller": {"kind": "stand"}})
    assert "controller 'stand'" in info.value.message
