'use strict';
// GetState and SetState (and Reset to a state): a saved state restores q, v
// and time exactly and continues bit-exactly.

const assert = require('node:assert/strict');
const { test } = require('node:test');

const { serverFixture, TEST_TIMEOUT_MS } = require('../testing/fixtures');

const fixture = serverFixture();

// Standing targets of the mini cheetah's legs (hip, thigh, knee per leg).
const STAND = [0, -0.8, 1.6, 0, -0.8, 1.6, 0, -0.8, 1.6, 0, -0.8, 1.6];

test('GetState returns the portable blob with q, v and time', { timeout: TEST_TIMEOUT_MS },
  async () => {
    const { ids } = await fixture.client.createBuiltin('mini_cheetah', 1, { controlMode: 'pd' });
    const stepped = await fixture.client.step(ids[0], STAND, 30);
    const state = await fixture.client.getState(ids[0]);
    assert.ok(Buffer.isBuffer(state.blob));
    assert.equal(state.blob.subarray(0, 4).toString('latin1'), 'MRST');
    assert.deepEqual(state.q, stepped.q);
    assert.deepEqual(state.v, stepped.v);
    assert.equal(state.time, stepped.time);
    await fixture.client.destroyInstances(ids);
  });

test('SetState restores a saved state exactly and continues bit-exactly',
  { timeout: TEST_TIMEOUT_MS }, async () => {
    const { ids } = await fixture.client.createInstances('mini_cheetah', 2,
      { settings: { controlMode: 'pd' }, seed: 1, noise: 0.1 });
    const [a, b] = ids;
    await fixture.client.step(a, STAND, 50);
    const saved = await fixture.client.getState(a);
    const onward = await fixture.client.step(a, STAND, 40);

    // Back in time on the same instance.
    const restored = await fixture.client.setState(a, saved);
    assert.deepEqual(restored.q, saved.q);
    assert.deepEqual(restored.v, saved.v);
    assert.equal(restored.time, saved.time);
    const replay = await fixture.client.step(a, STAND, 40);
    assert.deepEqual(replay.q, onward.q);
    assert.deepEqual(replay.v, onward.v);

    // Onto another instance, from the bare blob.
    const copied = await fixture.client.setState(b, saved.blob);
    assert.deepEqual(copied.q, saved.q);
    const copyOnward = await fixture.client.step(b, STAND, 40);
    assert.deepEqual(copyOnward.q, onward.q);
    assert.notDeepEqual(onward.q, saved.q, 'the 40 steps moved the robot');
    await fixture.client.destroyInstances(ids);
  });

test('Reset with a state restores it', { timeout: TEST_TIMEOUT_MS }, async () => {
  const { ids } = await fixture.client.createBuiltin('double_pendulum', 1);
  await fixture.client.step(ids[0], [1, -1], 100);
  const saved = await fixture.client.getState(ids[0]);
  await fixture.client.step(ids[0], [0, 0], 100);
  const reset = await fixture.client.reset(ids[0], { state: saved });
  assert.deepEqual(reset.q, saved.q);
  assert.deepEqual(reset.v, saved.v);
  assert.equal(reset.time, saved.time);
  assert.equal(reset.steps, 100);
  await fixture.client.destroyInstances(ids);
});
