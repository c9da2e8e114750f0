'use strict';
// Query: the mass matrix, bias forces, energies, body poses, contacts and
// contact Jacobians, of the instance's state or of a given configuration.

const assert = require('node:assert/strict');
const { test } = require('node:test');

const { serverFixture, TEST_TIMEOUT_MS } = require('../testing/fixtures');
const { assertClose } = require('../testing/assertions');

const fixture = serverFixture();

const GRAVITY = 9.81;

/** A fresh mini cheetah: its id and ModelSpec. */
async function cheetah() {
  const { ids, spec } = await fixture.client.createBuiltin('mini_cheetah', 1);
  return { id: ids[0], model: spec.model };
}

test('Query returns the nv × nv mass matrix, symmetric, with the mass on the base block',
  { timeout: TEST_TIMEOUT_MS }, async () => {
    const { id, model } = await cheetah();
    const result = await fixture.client.query(id, { massMatrix: true, biasForces: true });
    assert.equal(result.nv, 18);
    assert.equal(result.massMatrix.length, 18);
    for (const row of result.massMatrix) assert.equal(row.length, 18);
    for (let i = 0; i < 18; i += 1) {
      assert.ok(result.massMatrix[i][i] > 0, `M[${i}][${i}] > 0`);
      for (let j = 0; j < i; j += 1) {
        assertClose(result.massMatrix[i][j], result.massMatrix[j][i], 1e-9, `M[${i}][${j}]`);
      }
    }
    // The free joint's linear block is the total mass times the identity.
    for (let i = 0; i < 3; i += 1) assertClose(result.massMatrix[i][i], model.totalMass, 1e-9, 'M[i][i]');
    // At rest h = g: the world z force holding the whole robot up.
    assert.equal(result.biasForces.length, 18);
    assertClose(result.biasForces[2], model.totalMass * GRAVITY, 1e-6, 'h_z');
    // Nothing else was asked for.
    assert.deepEqual(result.bodyPoses, []);
    assert.deepEqual(result.contactJacobians, []);
    await fixture.client.destroyInstances([id]);
  });

test('Query returns body poses, energies, contacts and their Jacobians',
  { timeout: TEST_TIMEOUT_MS }, async () => {
    const { id, model } = await cheetah();
    const result = await fixture.client.query(id, {
      bodyPoses: true, energies: true, contacts: true, contactJacobians: true,
    });
    assert.deepEqual(result.bodyPoses.map((pose) => pose.name), model.bodyNames.slice(1));
    for (const pose of result.bodyPoses) {
      assert.equal(pose.position.length, 3);
      assertClose(Math.hypot(...pose.quaternion), 1, 1e-9, `|quaternion| of ${pose.name}`);
    }
    assert.equal(result.kineticEnergy, 0);
    assert.equal(result.contacts.length, 4);
    assert.deepEqual(result.contacts.map((contact) => contact.index), [0, 1, 2, 3]);
    assert.equal(result.contactJacobians.length, 4);
    for (const jacobian of result.contactJacobians) {
      assert.equal(jacobian.length, 3);
      for (const row of jacobian) assert.equal(row.length, 18);
    }
    await fixture.client.destroyInstances([id]);
  });

test('Query of a given configuration leaves the instance as it is',
  { timeout: TEST_TIMEOUT_MS }, async () => {
    const { id, model } = await cheetah();
    const here = await fixture.client.query(id, { energies: true });
    const raised = [...model.qDefault];
    raised[2] += 1;  // the base 1 m higher
    const there = await fixture.client.query(id, { energies: true, q: raised });
    assertClose(there.potentialEnergy - here.potentialEnergy, model.totalMass * GRAVITY, 1e-6,
      'potential energy gained 1 m up');
    const after = await fixture.client.query(id, { energies: true });
    assert.equal(after.potentialEnergy, here.potentialEnergy);
    await fixture.client.destroyInstances([id]);
  });
