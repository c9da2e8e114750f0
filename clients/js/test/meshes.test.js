'use strict';
// Visual shapes in ModelSpec and GetMesh: the built-in ur10's meshes are the
// files of models/ur10 byte for byte; a URDF's visuals come back with their
// colours; unknown meshes, models without meshes, empty names and replies
// past --max-message-bytes are refused with their codes.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');

const { serverFixture, TEST_TIMEOUT_MS } = require('../testing/fixtures');
const { rejectsWith } = require('../testing/assertions');

// base.stl is 18384 bytes and wrist3.stl 24384: replies of at most 20000
// bytes carry the first and not the second.
const fixture = serverFixture(['--max-message-bytes', '20000']);

/** models/ur10 of the repository (the files the server's meshes are built from). */
const UR10_DIR = path.resolve(__dirname, '..', '..', '..', 'models', 'ur10');

// A robot no test has seen: a base with a coloured box, an arm drawn by a
// mesh no server holds, under a material that is not defined.
const LAMP_URDF = `<robot name="lamp">
  <material name="brass"><color rgba="0.8 0.6 0.2 1"/></material>
  <link name="base">
    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><origin xyz="0 0 0.1"/><geometry><box size="0.2 0.2 0.2"/></geometry><material name="brass"/></visual>
    <collision><geometry><sphere radius="0.1"/></geometry></collision>
  </link>
  <joint name="hinge" type="revolute"><parent link="base"/><child link="arm"/>
    <axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="5" velocity="2"/></joint>
  <link name="arm">
    <inertial><mass value="0.5"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><mesh filename="meshes/arm.stl"/></geometry><material name="nowhere"/></visual>
  </link>
</robot>`;

test('the ur10 is drawn by its compiled-in meshes', { timeout: TEST_TIMEOUT_MS }, async () => {
  const { client } = fixture;
  const spec = await client.getModel('ur10');
  assert.equal(spec.visualShapes.length, 7);
  assert.deepEqual(new Set(spec.visualShapes.map((shape) => shape.role)), new Set(['visual']));
  assert.deepEqual(new Set(spec.shapes.map((shape) => shape.role)), new Set(['collision']));
  const base = spec.visualShapes.find((shape) => shape.link === 'base_link');
  assert.equal(base.type, 'mesh');
  assert.equal(base.mesh, 'meshes/ur10/collision/base.stl');
  assert.deepEqual(base.rgba, [0.7, 0.7, 0.7, 1]);
  const { data, format } = await client.getMesh('ur10', base.mesh);
  assert.equal(format, 'stl');
  assert.ok(Buffer.isBuffer(data));
  assert.ok(data.equals(fs.readFileSync(path.join(UR10_DIR, base.mesh))), 'bytes of the file');
});

test('a URDF\'s visual shapes carry their colours', { timeout: TEST_TIMEOUT_MS }, async () => {
  const { client } = fixture;
  const spec = await client.getModel(undefined, { urdf: LAMP_URDF });
  assert.equal(spec.visualShapes.length, 2);
  const [box, arm] = spec.visualShapes;
  assert.equal(box.type, 'box');
  assert.deepEqual(box.size, [0.2, 0.2, 0.2]);
  assert.deepEqual(box.position, [0, 0, 0.1]);
  assert.deepEqual(box.rgba, [0.8, 0.6, 0.2, 1]);
  assert.equal(arm.mesh, 'meshes/arm.stl');
  assert.deepEqual(arm.rgba, []);
  assert.ok(spec.warnings.some((w) => /material 'nowhere' is not defined/.test(w)), spec.warnings);
  await rejectsWith(client.getMesh('lamp', 'meshes/arm.stl'), 'NOT_FOUND',
    /model 'lamp' has no compiled-in meshes.*ur10/, { method: 'GetMesh' });
});

test('GetMesh refuses what it does not hold', { timeout: TEST_TIMEOUT_MS }, async () => {
  const { client } = fixture;
  await rejectsWith(client.getMesh('ur10', 'meshes/ur10/collision/gripper.stl'), 'NOT_FOUND',
    /no mesh 'meshes\/ur10\/collision\/gripper.stl'.*meshes\/ur10\/collision\/wrist3.stl/);
  await rejectsWith(client.getMesh('mini_cheetah', 'meshes/mini_body.obj'), 'NOT_FOUND',
    /built-in model 'mini_cheetah' has no compiled-in meshes/);
  await rejectsWith(client.getMesh('', 'meshes/ur10/collision/base.stl'), 'INVALID_ARGUMENT',
    /model is empty/);
  await rejectsWith(client.getMesh('ur10', ''), 'INVALID_ARGUMENT', /mesh is empty/);
  await rejectsWith(client.getMesh('ur10', 'meshes/ur10/collision/wrist3.stl'),
    'RESOURCE_EXHAUSTED', /--max-message-bytes \(20000\)/);
  await assert.rejects(client.getMesh('ur10', 7), TypeError);
});
