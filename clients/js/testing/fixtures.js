'use strict';
// Per-file fixtures of the tests: a moreaud and a Client of it, made before
// the file's tests and stopped after them, and the time bounds every test
// and hook is given.

const { before, after } = require('node:test');

const { Client } = require('..');
const { startServer } = require('./moreaud');

/** The longest any one test may run. */
const TEST_TIMEOUT_MS = 60000;
/** The longest a before/after hook may run (starting or stopping servers). */
const HOOK_TIMEOUT_MS = 30000;

/**
 * Starts a moreaud with `flags` before the file's tests and a Client of it
 * (with `clientOptions`); stops both after them.
 * @param {string[]} [flags]
 * @param {import('../lib/client').ClientOptions} [clientOptions]
 * @returns {{server: import('./moreaud').Server, client: Client}} filled in by the before hook
 */
function serverFixture(flags = [], clientOptions = {}) {
  const fixture = /** @type {{server: any, client: any}} */ ({ server: null, client: null });
  before(async () => {
    fixture.server = await startServer(flags);
    fixture.client = new Client(fixture.server.address, clientOptions);
  }, { timeout: HOOK_TIMEOUT_MS });
  after(async () => {
    if (fixture.client) fixture.client.close();
    if (fixture.server) await fixture.server.stop();
  }, { timeout: HOOK_TIMEOUT_MS });
  return fixture;
}

module.exports = { serverFixture, TEST_TIMEOUT_MS, HOOK_TIMEOUT_MS };
