'use strict';
// CreateInstances (and createBuiltin) and DestroyInstances.

const assert = require('node:assert/strict');
const { test } = require('node:test');

const { serverFixture, TEST_TIMEOUT_MS } = require('../testing/fixtures');
const { rejectsWith } = require('../testing/assertions');

const fixture = serverFixture();

test('CreateInstances makes count instances with their spec and first observations',
  { timeout: TEST_TIMEOUT_MS }, async () => {
    const created = await fixture.client.createInstances('pendulum', 3,
      { settings: { dt: 0.002, controlMode: 'pd', kp: 30 } });
    assert.equal(created.ids.length, 3);
    assert.equal(new Set(created.ids).size, 3);
    for (const id of created.ids) assert.match(id, /^[0-9a-f]{32}$/);
    assert.equal(created.spec.dt, 0.002);
    assert.equal(created.spec.controlMode, 'pd');
    assert.equal(created.spec.model.name, 'pendulum');
    assert.equal(created.spec.action.size, 1);
    assert.deepEqual(created.observations.map((obs) => obs.instanceId), created.ids);
    for (const obs of created.observations) {
      assert.equal(obs.time, 0);
      assert.equal(obs.steps, 0);
      assert.deepEqual(obs.q, created.spec.model.qDefault);
      assert.equal(obs.status.codeName, 'OK');
    }
    await fixture.client.destroyInstances(created.ids);
  });

test('CreateInstances with noise starts each instance from its seeded pose',
  { timeout: TEST_TIMEOUT_MS }, async () => {
    const options = { seed: 7, noise: 0.1 };
    const first = await fixture.client.createInstances('double_pendulum', 2, options);
    const again = await fixture.client.createInstances('double_pendulum', 2, options);
    const other = await fixture.client.createInstances('double_pendulum', 1, { seed: 9, noise: 0.1 });
    const [a, b] = first.observations;
    // Instance k starts from seed + k: the two differ, the same seed repeats.
    assert.notDeepEqual(a.q, b.q);
    assert.deepEqual(again.observations.map((obs) => obs.q), [a.q, b.q]);
    assert.notDeepEqual(other.observations[0].q, a.q);
    for (const obs of first.observations) {
      obs.q.forEach((value, i) => assert.ok(Math.abs(value - first.spec.model.qDefault[i]) <= 0.1,
        `q[${i}] = ${value} within the noise of the default pose`));
    }
    await fixture.client.destroyInstances([...first.ids, ...again.ids, ...other.ids]);
  });

test('createBuiltin makes instances of a built-in with settings', { timeout: TEST_TIMEOUT_MS },
  async () => {
    const created = await fixture.client.createBuiltin('mini_cheetah', 2,
      { controlMode: 'pd', contactModel: 'spring-damper' });
    assert.equal(created.ids.length, 2);
    assert.equal(created.spec.controlMode, 'pd');
    assert.equal(created.spec.action.size, 12);
    const [obs] = created.observations;
    assert.equal(obs.q.length, 19);
    assert.equal(obs.v.length, 18);
    assert.equal(obs.basePose.length, 7);
    assert.equal(obs.contactFlags.length, 4);
    await fixture.client.destroyInstances(created.ids);
  });

test('DestroyInstances frees instances and lists unknown ids', { timeout: TEST_TIMEOUT_MS },
  async () => {
    const { ids } = await fixture.client.createBuiltin('pendulum', 2);
    const unknown = '0123456789abcdef0123456789abcdef';
    const result = await fixture.client.destroyInstances([...ids, unknown]);
    assert.deepEqual(result, { destroyed: 2, notFound: [unknown] });
    await rejectsWith(fixture.client.getState(ids[0]), 'NOT_FOUND', new RegExp(ids[0]));
    // A second destroy finds none of them.
    assert.deepEqual(await fixture.client.destroyInstances(ids), { destroyed: 0, notFound: ids });
  });

test('nested settings (terrain, controller, parameter maps) reach the server',
  { timeout: TEST_TIMEOUT_MS }, async () => {
    const created = await fixture.client.createBuiltin('mini_cheetah', 1, {
      dt: 0.001,
      contactModel: 'moreau-sor',
      contactParameters: { mu: 0.8, max_iterations: 200 },
      controlMode: 'pd',
      gravity: [0, 0, -9.81],
      terrain: { incline: { angleDeg: 5 } },
      controller: { kind: 'hold', periodSteps: 2, parameters: { kp: 50 } },
      observedLinks: ['shank_fr'],
    });
    assert.equal(created.ids.length, 1);
    // Every observation carries the observed link's x y z.
    assert.equal(created.observations[0].linkPositions.length, 3);
    await fixture.client.destroyInstances(created.ids);
    // The server judges what it was sent: each bad nested value is named.
    await rejectsWith(fixture.client.createBuiltin('mini_cheetah', 1,
      { controller: { kind: 'hold', parameters: { kq: 1 } } }), 'INVALID_ARGUMENT',
    /unknown parameter 'kq' for controller 'hold'/);
    await rejectsWith(fixture.client.createBuiltin('mini_cheetah', 1,
      { terrain: { rough: { amplitude: 0.5 } } }), 'INVALID_ARGUMENT',
    /the roughness amplitude must be in \[0, 0\.1\] m, got 0\.5/);
    await rejectsWith(fixture.client.createBuiltin('mini_cheetah', 1,
      { contactModel: 'moreau-sor', contactParameters: { max_iterations: 0 } }),
    'INVALID_ARGUMENT', /contact parameter 'max_iterations' must be an integer in \[1, 100000\], got 0/);
  });

test('ListInstances pages through the caller\'s instances in id order',
  { timeout: TEST_TIMEOUT_MS }, async () => {
    const created = await fixture.client.createInstances('pendulum', 3);
    await fixture.client.step(created.ids[1], [0], 4);
    const listed = await fixture.client.listInstances({ pageSize: 2 });
    const byId = new Map(listed.map((info) => [info.instanceId, info]));
    const ids = listed.map((info) => info.instanceId);
    assert.deepEqual(ids, [...ids].sort());
    assert.deepEqual(created.ids.map((id) => byId.get(id).steps), [0, 4, 0]);
    for (const id of created.ids) {
      assert.equal(byId.get(id).model, 'pendulum');
      assert.equal(byId.get(id).status.code, 0);
    }
    await fixture.client.destroyInstances(created.ids);
    await rejectsWith(fixture.client.listInstances({ pageSize: 5000 }), 'INVALID_ARGUMENT',
      /page_size must be in \[0, 1000\]/);
  });
