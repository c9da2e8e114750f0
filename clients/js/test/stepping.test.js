'use strict';
// Step, StepBatch (one observation per instance, and packed) and Reset.

const assert = require('node:assert/strict');
const { test } = require('node:test');

const { serverFixture, TEST_TIMEOUT_MS } = require('../testing/fixtures');
const { assertClose } = require('../testing/assertions');

const fixture = serverFixture();

const DT = 0.002;

test('Step holds the action for substeps steps of dt', { timeout: TEST_TIMEOUT_MS }, async () => {
  const { ids } = await fixture.client.createBuiltin('pendulum', 1, { dt: DT });
  const first = await fixture.client.step(ids[0], [0.5], 25);
  assertClose(first.time, 25 * DT, 1e-12, 'time after 25 steps');
  assert.equal(first.steps, 25);
  assert.equal(first.substepsDone, 25);
  assert.deepEqual(first.jointTorques, [0.5]);
  // From rest, a positive torque turns the pendulum the positive way.
  assert.ok(first.v[0] > 0, `v = ${first.v[0]}`);
  assert.ok(first.q[0] > 0, `q = ${first.q[0]}`);
  const second = await fixture.client.step(ids[0], new Float64Array([0.5]), 5);
  assertClose(second.time, 30 * DT, 1e-12, 'time after 30 steps');
  assert.equal(second.steps, 30);
  await fixture.client.destroyInstances(ids);
});

test('StepBatch steps each instance with its own action and sub-steps',
  { timeout: TEST_TIMEOUT_MS }, async () => {
    const { ids } = await fixture.client.createBuiltin('pendulum', 2, { dt: DT });
    const unknown = 'ffffffffffffffffffffffffffffffff';
    const observations = await fixture.client.stepBatch([ids[0], unknown, ids[1]],
      [[1], [0], [-1]], [2, 1, 6]);
    assert.deepEqual(observations.map((obs) => obs.instanceId), [ids[0], unknown, ids[1]]);
    const [a, missing, b] = observations;
    assertClose(a.time, 2 * DT, 1e-12, 'time of the first');
    assertClose(b.time, 6 * DT, 1e-12, 'time of the third');
    assert.deepEqual([a.steps, b.steps], [2, 6]);
    assert.ok(a.v[0] > 0 && b.v[0] < 0, `opposite torques: v ${a.v[0]}, ${b.v[0]}`);
    // The unknown id fails alone; the batch goes on.
    assert.equal(a.status.codeName, 'OK');
    assert.equal(b.status.codeName, 'OK');
    assert.equal(missing.status.codeName, 'NOT_FOUND');
    assert.match(missing.status.message, new RegExp(unknown));
    await fixture.client.destroyInstances(ids);
  });

test('StepBatch packed answers one array per quantity, instances as rows',
  { timeout: TEST_TIMEOUT_MS }, async () => {
    const { ids } = await fixture.client.createBuiltin('double_pendulum', 3, { dt: DT });
    const batch = await fixture.client.stepBatchPacked(ids, [[1, 0], [0, 0], [-1, 0]], 4);
    assert.equal(batch.count, 3);
    assert.equal(batch.nq, 2);
    assert.equal(batch.nv, 2);
    assert.equal(batch.numActuators, 2);
    assert.equal(batch.floatingBase, false);
    assert.deepEqual(batch.instanceIds, ids);
    assert.deepEqual(batch.statusCodes, [0, 0, 0]);
    assert.deepEqual(batch.steps, [4, 4, 4]);
    for (const time of batch.time) assertClose(time, 4 * DT, 1e-12, 'time');
    assert.equal(batch.q.length, 3 * 2);
    assert.equal(batch.jointTorques.length, 3 * 2);
    // Row k holds instance k: its first joint's torque is its action's.
    assert.deepEqual([batch.jointTorques[0], batch.jointTorques[2], batch.jointTorques[4]], [1, 0, -1]);
    await fixture.client.destroyInstances(ids);
  });

test('Reset returns to the default pose, or to a seeded perturbation of it',
  { timeout: TEST_TIMEOUT_MS }, async () => {
    const { ids, spec } = await fixture.client.createBuiltin('acrobot', 1, { dt: DT });
    const [id] = ids;
    await fixture.client.step(id, Array(spec.action.size).fill(0.3), 50);
    const reset = await fixture.client.reset(id);
    assert.equal(reset.time, 0);
    assert.equal(reset.steps, 0);
    assert.deepEqual(reset.q, spec.model.qDefault);
    assert.deepEqual(reset.v, [0, 0]);
    const noisy = await fixture.client.reset(id, { seed: 3, noise: 0.2 });
    const same = await fixture.client.reset(id, { seed: 3, noise: 0.2 });
    const other = await fixture.client.reset(id, { seed: 4, noise: 0.2 });
    assert.notDeepEqual(noisy.q, spec.model.qDefault);
    assert.deepEqual(same.q, noisy.q);
    assert.deepEqual(same.v, noisy.v);
    assert.notDeepEqual(other.q, noisy.q);
    await fixture.client.destroyInstances(ids);
  });

test('Step with a push changes the momentum by force times duration',
  { timeout: TEST_TIMEOUT_MS }, async () => {
    // A free 1 kg sphere with the ground 10 m below, held up against gravity
    // and pushed along x with 10 N for 0.05 s.
    const { ids } = await fixture.client.createBuiltin('sphere', 1,
      { dt: 0.001, terrain: { flat: { height: -10 } } });
    const push = { body: 'sphere', force: [10, 0, 9.81], duration: 0.05 };
    const pushed = await fixture.client.step(ids[0], [], 50, { pushes: [push] });
    assertClose(pushed.v[0], 0.5, 1e-9, 'v_x = F t / m');
    assertClose(pushed.v[2], 0, 1e-9, 'gravity cancelled');
    const after = await fixture.client.step(ids[0], [], 10);
    assertClose(after.v[0], 0.5, 1e-9, 'the push has ended');
    await fixture.client.destroyInstances(ids);
  });
