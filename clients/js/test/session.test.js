'use strict';
// Session: several steps in one bidirectional stream, answered in order.

const assert = require('node:assert/strict');
const { test } = require('node:test');

const { Client } = require('..');
const { serverFixture, TEST_TIMEOUT_MS } = require('../testing/fixtures');
const { assertClose, rejectsWith } = require('../testing/assertions');

const fixture = serverFixture();

const DT = 0.001;

test('a Session steps request after request, each answered by its observation',
  { timeout: TEST_TIMEOUT_MS }, async () => {
    const { ids } = await fixture.client.createBuiltin('pendulum', 1, { dt: DT });
    const session = fixture.client.session();
    let steps = 0;
    for (const substeps of [1, 2, 3, 4, 5]) {
      const obs = await session.step(ids[0], [0.2], substeps);
      steps += substeps;
      assert.equal(obs.instanceId, ids[0]);
      assert.equal(obs.steps, steps);
      assertClose(obs.time, steps * DT, 1e-12, `time after ${steps} steps`);
    }
    await session.close();
    // The stream's steps are the instance's: a unary call carries on from them.
    const after = await fixture.client.step(ids[0], [0.2], 1);
    assert.equal(after.steps, steps + 1);
    await fixture.client.destroyInstances(ids);
  });

test('pipelined steps of two instances come back in request order',
  { timeout: TEST_TIMEOUT_MS }, async () => {
    const { ids } = await fixture.client.createBuiltin('pendulum', 2, { dt: DT });
    const session = fixture.client.session();
    // Ten steps sent before any answer is read, alternating the instances.
    const sent = Array.from({ length: 10 }, (_, k) => ({ id: ids[k % 2], substeps: 1 + k }));
    const answers = await Promise.all(sent.map(({ id, substeps }) => session.step(id, [0], substeps)));
    const done = { [ids[0]]: 0, [ids[1]]: 0 };
    answers.forEach((obs, k) => {
      done[sent[k].id] += sent[k].substeps;
      assert.equal(obs.instanceId, sent[k].id, `answer ${k} is of request ${k}`);
      assert.equal(obs.steps, done[sent[k].id], `answer ${k}'s step count`);
      assert.equal(obs.substepsDone, sent[k].substeps);
    });
    await session.close();
    await fixture.client.destroyInstances(ids);
  });

test('a failing step comes back in its observation and the stream goes on',
  { timeout: TEST_TIMEOUT_MS }, async () => {
    const { ids } = await fixture.client.createBuiltin('pendulum', 1, { dt: DT });
    const session = fixture.client.session();
    const unknown = await session.step('00000000000000000000000000000000', [0], 1);
    assert.equal(unknown.status.codeName, 'NOT_FOUND');
    assert.match(unknown.status.message, /no instance with id '0{32}'/);
    const wrongSize = await session.step(ids[0], [0, 0, 0], 1);
    assert.equal(wrongSize.status.codeName, 'INVALID_ARGUMENT');
    assert.match(wrongSize.status.message, /action has size 3, expected 1/);
    const fine = await session.step(ids[0], [0], 2);
    assert.equal(fine.status.codeName, 'OK');
    assert.equal(fine.steps, 2);
    await session.close();
    await assert.rejects(session.step(ids[0], [0], 1), /the session is closed/);
    await fixture.client.destroyInstances(ids);
  });

test('cancelling a Session rejects the steps still unanswered', { timeout: TEST_TIMEOUT_MS },
  async () => {
    const { ids } = await fixture.client.createBuiltin('mini_cheetah', 1);
    const session = fixture.client.session();
    const long = session.step(ids[0], Array(12).fill(0), 10000);
    session.cancel();
    await rejectsWith(long, 'CANCELLED', /Cancelled on client/, { method: 'Session' });
    await session.ended;
    // The server is unharmed.
    assert.equal((await fixture.client.step(ids[0], Array(12).fill(0), 1)).status.codeName, 'OK');
    await fixture.client.destroyInstances(ids);
  });

test('close waits for the answers still due, also without a timeout',
  { timeout: TEST_TIMEOUT_MS }, async () => {
    const client = new Client(fixture.server.address, { timeout: Infinity });
    try {
      const { ids } = await client.createBuiltin('mini_cheetah', 1);
      const session = client.session();
      // Sent, then closed at once: the server still steps and answers it.
      const long = session.step(ids[0], Array(12).fill(0), 500);
      await session.close();
      const obs = await long;
      assert.equal(obs.status.codeName, 'OK');
      assert.equal(obs.steps, 500);
      await client.destroyInstances(ids);
    } finally {
      client.close();
    }
  });

test('a Session step carries pushes: the momentum changes by force times duration',
  { timeout: TEST_TIMEOUT_MS }, async () => {
    // A free 1 kg sphere with the ground 10 m below, held up against gravity
    // and pushed along x with 10 N for 0.05 s over two pipelined steps.
    const { ids } = await fixture.client.createBuiltin('sphere', 1,
      { dt: 0.001, terrain: { flat: { height: -10 } } });
    const session = fixture.client.session();
    const push = { body: 'sphere', force: [10, 0, 9.81], duration: 0.05 };
    const [during, after] = await Promise.all([
      session.step(ids[0], [], 25, { pushes: [push] }),
      session.step(ids[0], [], 35),
    ]);
    assertClose(during.v[0], 0.25, 1e-9, 'v_x = F t / m half way through the push');
    assertClose(after.v[0], 0.5, 1e-9, 'v_x = F t / m once the push has ended');
    assertClose(during.v[2], 0, 1e-9, 'gravity cancelled while pushed');
    assertClose(after.v[2], -9.81 * 0.01, 1e-9, 'falling for the 10 ms after the push');
    assert.throws(() => session.step(ids[0], [], 1, { push }), /unknown option 'push'/);
    assert.throws(() => session.step(ids[0], [], 1, { pushes: push }), /give an array of pushes/);
    await session.close();
    await fixture.client.destroyInstances(ids);
  });
