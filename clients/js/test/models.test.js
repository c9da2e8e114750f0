'use strict';
// ListModels and GetModel: the built-ins' specs, and a URDF's spec from text
// and from a file.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');

const { serverFixture, TEST_TIMEOUT_MS } = require('../testing/fixtures');
const { temporaryDirectory } = require('../testing/moreaud');

const fixture = serverFixture();

// A 1 kg base and, through one revolute joint, a 2 kg arm whose limits are
// read back from the spec. No root link named `world`: the base floats unless
// the request fixes it.
const ARM_URDF = `<?xml version="1.0"?>
<robot name="one_joint_arm">
  <link name="base">
    <inertial>
      <mass value="1"/>
      <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/>
    </inertial>
  </link>
  <joint name="shoulder" type="revolute">
    <parent link="base"/>
    <child link="upper_arm"/>
    <origin xyz="0 0 0.1"/>
    <axis xyz="0 1 0"/>
    <limit lower="-1.5" upper="1.25" effort="20" velocity="3"/>
  </joint>
  <link name="upper_arm">
    <inertial>
      <origin xyz="0 0 0.25"/>
      <mass value="2"/>
      <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/>
    </inertial>
  </link>
</robot>
`;

test('ListModels lists every built-in with its spec', { timeout: TEST_TIMEOUT_MS }, async () => {
  const models = await fixture.client.listModels();
  const names = models.map((model) => model.name);
  for (const name of ['mini_cheetah', 'pendulum', 'double_pendulum', 'cartpole', 'acrobot',
    'sphere', 'box', 'biped', 'four_bar']) {
    assert.ok(names.includes(name), `${name} in ${names}`);
  }
  const cheetah = models.find((model) => model.name === 'mini_cheetah');
  // A floating base: q = [x y z, qw qx qy qz, 12 joints], v = [6, 12 joints].
  assert.equal(cheetah.floatingBase, true);
  assert.equal(cheetah.nq, 19);
  assert.equal(cheetah.nv, 18);
  assert.equal(cheetah.actuators.length, 12);
  assert.equal(cheetah.contactPoints.length, 4);
  assert.equal(cheetah.qDefault.length, 19);
  assert.equal(cheetah.bodyNames[0], 'world');
  assert.ok(cheetah.totalMass > 5 && cheetah.totalMass < 20, `mass ${cheetah.totalMass}`);
  const pendulum = models.find((model) => model.name === 'pendulum');
  assert.equal(pendulum.floatingBase, false);
  assert.equal(pendulum.nq, 1);
  assert.equal(pendulum.nv, 1);
});

test('GetModel of a built-in matches its ListModels entry', { timeout: TEST_TIMEOUT_MS }, async () => {
  const listed = (await fixture.client.listModels()).find((m) => m.name === 'double_pendulum');
  const spec = await fixture.client.getModel('double_pendulum');
  assert.deepEqual(spec, listed);
  assert.equal(spec.nq, 2);
  assert.deepEqual(spec.joints.map((joint) => joint.qIndex), [0, 1]);
});

test('GetModel reads URDF text and a URDF file', { timeout: TEST_TIMEOUT_MS }, async () => {
  const spec = await fixture.client.getModel(undefined, { urdf: ARM_URDF });
  assert.equal(spec.name, 'one_joint_arm');
  // A floating base: 7 coordinates of the free joint and the shoulder's.
  assert.equal(spec.floatingBase, true);
  assert.equal(spec.nq, 8);
  assert.equal(spec.nv, 7);
  assert.equal(spec.totalMass, 3);
  assert.deepEqual(spec.bodyNames, ['world', 'base', 'upper_arm']);
  const shoulder = spec.joints.find((joint) => joint.name === 'shoulder');
  assert.equal(shoulder.type, 'revolute');
  assert.equal(shoulder.lower, -1.5);
  assert.equal(shoulder.upper, 1.25);
  assert.equal(shoulder.effortLimit, 20);
  assert.deepEqual(spec.actuators.map((actuator) => actuator.joint), ['shoulder']);

  const file = path.join(temporaryDirectory(), 'arm.urdf');
  fs.writeFileSync(file, ARM_URDF);
  assert.deepEqual(await fixture.client.getModel(undefined, { urdfPath: file }), spec);
  // `base: 'fixed'` welds the root link to the world: the shoulder alone moves.
  const fixed = await fixture.client.getModel(undefined, { urdf: ARM_URDF, base: 'fixed' });
  assert.equal(fixed.floatingBase, false);
  assert.equal(fixed.nq, 1);
  assert.equal(fixed.nv, 1);
});
