'use strict';
// The standard health service (grpc.health.v1) and waitForServer.

const assert = require('node:assert/strict');
const { test } = require('node:test');

const { Client } = require('..');
const { serverFixture, TEST_TIMEOUT_MS } = require('../testing/fixtures');
const { rejectsWith } = require('../testing/assertions');
const { startServer } = require('../testing/moreaud');

const fixture = serverFixture();

test('the simulator and the server report SERVING', { timeout: TEST_TIMEOUT_MS }, async () => {
  assert.equal(await fixture.client.checkHealth(), 'SERVING');
  assert.equal(await fixture.client.checkHealth('moreau.v1.Simulator'), 'SERVING');
  assert.equal(await fixture.client.checkHealth(''), 'SERVING');
  await rejectsWith(fixture.client.checkHealth('no.such.Service'), 'NOT_FOUND', /service name unknown/,
    { method: 'grpc.health.v1.Health/Check' });
});

test('waitForServer resolves once the channel is connected', { timeout: TEST_TIMEOUT_MS },
  async () => {
    const client = new Client(fixture.server.address);
    try {
      await client.waitForServer(5);
      assert.equal((await client.listModels()).length > 0, true);
    } finally {
      client.close();
    }
  });

test('a draining server reports NOT_SERVING while it still serves calls, then ends streams',
  { timeout: TEST_TIMEOUT_MS }, async () => {
    const server = await startServer(['--drain-delay-s', '4']);
    const client = new Client(server.address);
    try {
      const { ids } = await client.createBuiltin('pendulum', 1);
      assert.equal(await client.checkHealth(), 'SERVING');
      const watch = client.watch(ids[0], { rateHz: 5 });
      assert.equal((await watch.next()).done, false);
      server.process.kill('SIGTERM');
      let health = 'SERVING';
      const until = Date.now() + 3000;
      while (health === 'SERVING' && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        health = await client.checkHealth();
      }
      assert.equal(health, 'NOT_SERVING');
      assert.equal((await client.step(ids[0], [0], 1)).steps, 1);
      // After the drain delay it stops by itself.
      const exit = await server.exited;
      assert.equal(exit.code, 0, `moreaud's exit: ${JSON.stringify(exit)}`);
      // Open streams were ended by the shutdown: an error, not a clean end.
      const drained = (async () => { for await (const frame of watch) assert.ok(frame); })();
      await rejectsWith(drained, 'UNAVAILABLE', /the server is shutting down/, { method: 'Watch' });
    } finally {
      client.close();
      await server.kill();
    }
  });
