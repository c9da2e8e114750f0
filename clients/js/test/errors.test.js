'use strict';
// Every gRPC code moreaud answers with, as a MoreauError naming the code, the
// server's message, the method and the address: INVALID_ARGUMENT, NOT_FOUND,
// FAILED_PRECONDITION, RESOURCE_EXHAUSTED, DEADLINE_EXCEEDED, UNAVAILABLE
// (UNAUTHENTICATED: security.test.js).

const assert = require('node:assert/strict');
const { test } = require('node:test');

const { Client } = require('..');
const { serverFixture, TEST_TIMEOUT_MS } = require('../testing/fixtures');
const { rejectsWith } = require('../testing/assertions');
const { startServer } = require('../testing/moreaud');

// At most 3 instances, one Session and one Watch open at once.
const fixture = serverFixture(['--max-instances', '3', '--max-sessions', '1',
  '--max-watches', '1', '--max-substeps', '20000']);

const UNKNOWN_ID = '0123456789abcdef0123456789abcdef';

test('INVALID_ARGUMENT names the bad argument', { timeout: TEST_TIMEOUT_MS }, async () => {
  const { client, server } = fixture;
  await rejectsWith(client.getModel('no_such_robot'), 'INVALID_ARGUMENT', /no_such_robot/,
    { method: 'GetModel', address: server.address });
  await rejectsWith(client.createBuiltin('mini_cheetah', 1,
    { contactModel: 'spring-damper', contactParameters: { stiffnes: 1e4 } }),
  'INVALID_ARGUMENT', /unknown contact parameter 'stiffnes'/, { method: 'CreateInstances' });
  const { ids } = await client.createBuiltin('pendulum', 1);
  try {
    const error = await rejectsWith(client.step(ids[0], [0, 0], 1), 'INVALID_ARGUMENT',
      /action has size 2, expected 1/, { method: 'Step' });
    assert.match(error.message, /^Step on 127\.0\.0\.1:\d+: INVALID_ARGUMENT: action has size 2/);
    await rejectsWith(client.step(ids[0], [NaN], 1), 'INVALID_ARGUMENT',
      /action\[0\] \(hinge\) is nan, expected a finite number/);
    await rejectsWith(client.step(ids[0], [0], 20001), 'INVALID_ARGUMENT',
      /substeps must be in \[1, 20000\] \(the server's --max_substeps\), got 20001/);
    await rejectsWith(client.setState(ids[0], Buffer.from('garbage')), 'INVALID_ARGUMENT',
      /state blob: not a Moreau state/, { method: 'SetState' });
    await rejectsWith(client.query(ids[0], { q: [0, 0, 0] }), 'INVALID_ARGUMENT',
      /q has 3 values, the model has nq 1/,
      { method: 'Query' });
    const watch = client.watch(ids[0], { rateHz: 5000 });
    await rejectsWith(watch.next(), 'INVALID_ARGUMENT', /rate/, { method: 'Watch' });
  } finally {
    await client.destroyInstances(ids);
  }
});

test('NOT_FOUND names the unknown instance id', { timeout: TEST_TIMEOUT_MS }, async () => {
  const { client } = fixture;
  const unknown = new RegExp(`no instance with id '${UNKNOWN_ID}'`);
  await rejectsWith(client.step(UNKNOWN_ID, [0], 1), 'NOT_FOUND', unknown, { method: 'Step' });
  await rejectsWith(client.reset(UNKNOWN_ID), 'NOT_FOUND', unknown, { method: 'Reset' });
  await rejectsWith(client.getState(UNKNOWN_ID), 'NOT_FOUND', unknown, { method: 'GetState' });
  await rejectsWith(client.query(UNKNOWN_ID, { energies: true }), 'NOT_FOUND', unknown,
    { method: 'Query' });
  await rejectsWith(client.watch(UNKNOWN_ID).next(), 'NOT_FOUND', unknown, { method: 'Watch' });
});

test('FAILED_PRECONDITION for a diverged instance, until it is reset',
  { timeout: TEST_TIMEOUT_MS }, async () => {
    const { client } = fixture;
    const { ids } = await client.createBuiltin('pendulum', 1);
    // An absurd torque spins the pendulum past the divergence speed.
    await rejectsWith(client.step(ids[0], [1e12], 10), 'FAILED_PRECONDITION', /diverged/);
    await rejectsWith(client.step(ids[0], [0], 1), 'FAILED_PRECONDITION', /Reset/);
    await client.reset(ids[0]);
    const after = await client.step(ids[0], [0], 10);
    assert.equal(after.steps, 10);
    await client.destroyInstances(ids);
  });

test('RESOURCE_EXHAUSTED past the instance, session and watch limits',
  { timeout: TEST_TIMEOUT_MS }, async () => {
    const { client } = fixture;
    const { ids } = await client.createBuiltin('pendulum', 3);
    try {
      await rejectsWith(client.createBuiltin('pendulum', 1), 'RESOURCE_EXHAUSTED',
        /3 live of at most 3 \(the server's --max_instances\)/, { method: 'CreateInstances' });

      const open = client.session();
      assert.equal((await open.step(ids[0], [0], 1)).status.codeName, 'OK');
      const second = client.session();
      await rejectsWith(second.step(ids[0], [0], 1), 'RESOURCE_EXHAUSTED',
        /1 open Session streams, at most 1 \(the server's --max-sessions\)/,
        { method: 'Session' });
      await open.close();

      const watching = client.watch(ids[0], { rateHz: 100 });
      assert.equal((await watching.next()).done, false);
      await rejectsWith(client.watch(ids[1]).next(), 'RESOURCE_EXHAUSTED',
        /1 open Watch streams, at most 1 \(the server's --max-watches\)/,
        { method: 'Watch' });
      watching.cancel();
    } finally {
      await client.destroyInstances(ids);
    }
  });

test('DEADLINE_EXCEEDED when a step outlasts the call\'s timeout', { timeout: TEST_TIMEOUT_MS },
  async () => {
    const { client } = fixture;
    const { ids } = await client.createBuiltin('mini_cheetah', 1, { controlMode: 'pd' });
    const started = Date.now();
    // The server stops stepping short of the deadline and says how far it got
    // (or, on a slow machine, the client's own deadline message comes first).
    await rejectsWith(client.step(ids[0], Array(12).fill(0), 20000, { timeout: 0.05 }),
      'DEADLINE_EXCEEDED', /stepped \d+ of 20000 sub-steps before the call's deadline|Deadline exceeded/,
      { method: 'Step' });
    assert.ok(Date.now() - started < 5000, 'the call ended near its deadline');
    await client.destroyInstances(ids);
  });

test('UNAVAILABLE at once from a server that is down', { timeout: TEST_TIMEOUT_MS }, async () => {
  const server = await startServer();
  await server.stop();
  const client = new Client(server.address, { timeout: 20 });
  try {
    const started = Date.now();
    await rejectsWith(client.listModels(), 'UNAVAILABLE',
      new RegExp(`ECONNREFUSED ${server.address.replace(/\./g, '\\.')}`),
      { method: 'ListModels', address: server.address });
    // No waiting for the server to come back: far less than the 20 s timeout.
    assert.ok(Date.now() - started < 5000, `failed after ${Date.now() - started} ms`);
    await rejectsWith(client.waitForServer(0.5), 'UNAVAILABLE', /did not answer in time/,
      { address: server.address });
  } finally {
    client.close();
  }
});
