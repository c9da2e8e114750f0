'use strict';
// Bearer tokens (UNAUTHENTICATED without a valid one, tenants that cannot see
// each other's instances, a tenant's quota) and TLS with and without client
// certificates.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const { test, before, after } = require('node:test');

const { Client } = require('..');
const { HOOK_TIMEOUT_MS, TEST_TIMEOUT_MS } = require('../testing/fixtures');
const { rejectsWith } = require('../testing/assertions');
const { startServer, temporaryDirectory, writeTokensFile } = require('../testing/moreaud');
const { makeTestPki } = require('../testing/pki');

const ALICE = 'alice-example-token';
const BOB = 'bob-example-token';

/** @type {import('../testing/moreaud').Server} */
let tokenServer;
/** @type {Client[]} every client a test made, closed at the end */
const clients = [];

/** A client of the token server with `options`. */
function tokenClient(options = {}) {
  const client = new Client(tokenServer.address, options);
  clients.push(client);
  return client;
}

before(async () => {
  const tokens = writeTokensFile(temporaryDirectory(), [
    { tenant: 'alice', token: ALICE, options: 'max_instances=2' },
    { tenant: 'bob', token: BOB },
  ]);
  tokenServer = await startServer(['--auth-tokens-file', tokens]);
}, { timeout: HOOK_TIMEOUT_MS });

after(async () => {
  for (const client of clients) client.close();
  if (tokenServer) await tokenServer.stop();
}, { timeout: HOOK_TIMEOUT_MS });

test('UNAUTHENTICATED without a token or with a wrong one', { timeout: TEST_TIMEOUT_MS },
  async () => {
    const saved = process.env.MOREAU_TOKEN;
    delete process.env.MOREAU_TOKEN;
    try {
      await rejectsWith(tokenClient().listModels(), 'UNAUTHENTICATED',
        /this server requires a bearer token: send 'authorization: Bearer TOKEN' metadata/,
        { method: 'ListModels', address: tokenServer.address });
    } finally {
      if (saved !== undefined) process.env.MOREAU_TOKEN = saved;
    }
    await rejectsWith(tokenClient({ token: 'not-a-token' }).createBuiltin('pendulum', 1),
      'UNAUTHENTICATED', /the bearer token is not valid/, { method: 'CreateInstances' });
    await rejectsWith(tokenClient({ token: 'wrong' }).session().step('x', [0], 1),
      'UNAUTHENTICATED', /the bearer token is not valid/, { method: 'Session' });
    await rejectsWith(tokenClient({ token: 'wrong' }).watch('x').next(),
      'UNAUTHENTICATED', /the bearer token is not valid/, { method: 'Watch' });
    // Health checking needs no token.
    assert.equal(await tokenClient({ token: '' }).checkHealth(), 'SERVING');
  });

test('a valid token is sent with every call, from the option or $MOREAU_TOKEN',
  { timeout: TEST_TIMEOUT_MS }, async () => {
    const alice = tokenClient({ token: ALICE });
    const { ids } = await alice.createBuiltin('pendulum', 1);
    const session = alice.session();
    assert.equal((await session.step(ids[0], [0], 2)).steps, 2);
    await session.close();
    const watch = alice.watch(ids[0], { rateHz: 100 });
    assert.equal((await watch.next()).done, false);
    watch.cancel();

    const saved = process.env.MOREAU_TOKEN;
    process.env.MOREAU_TOKEN = ALICE;
    try {
      const fromEnvironment = tokenClient();
      assert.equal((await fromEnvironment.getState(ids[0])).time, 0.002);
    } finally {
      if (saved === undefined) delete process.env.MOREAU_TOKEN;
      else process.env.MOREAU_TOKEN = saved;
    }
    await alice.destroyInstances(ids);
  });

test('a tenant sees only its own instances and is held to its quota',
  { timeout: TEST_TIMEOUT_MS }, async () => {
    const alice = tokenClient({ token: ALICE });
    const bob = tokenClient({ token: BOB });
    const { ids } = await alice.createBuiltin('pendulum', 2);
    try {
      // To bob, alice's instance does not exist.
      await rejectsWith(bob.step(ids[0], [0], 1), 'NOT_FOUND', new RegExp(ids[0]));
      assert.deepEqual(await bob.destroyInstances([ids[0]]), { destroyed: 0, notFound: [ids[0]] });
      await rejectsWith(alice.createBuiltin('pendulum', 1), 'RESOURCE_EXHAUSTED',
        /tenant 'alice' has 2 live of its quota of 2/);
      const bobs = await bob.createBuiltin('pendulum', 3);
      await bob.destroyInstances(bobs.ids);
    } finally {
      await alice.destroyInstances(ids);
    }
  });

test('TLS: the server\'s certificate checked against a CA; client certificates for mTLS',
  { timeout: TEST_TIMEOUT_MS }, async () => {
    const pki = makeTestPki(temporaryDirectory());
    const tls = await startServer(['--tls-cert-file', pki.serverCert, '--tls-key-file', pki.serverKey]);
    const mtls = await startServer(['--tls-cert-file', pki.serverCert, '--tls-key-file',
      pki.serverKey, '--tls-client-ca-file', pki.ca]);
    const made = [];
    const client = (/** @type {string} */ address, /** @type {any} */ options) => {
      const c = new Client(address, { timeout: 5, ...options });
      made.push(c);
      return c;
    };
    try {
      // The CA as a file path and as PEM text.
      assert.equal(await client(tls.address, { tls: { ca: pki.ca } }).checkHealth(), 'SERVING');
      const models = await client(tls.address, { tls: { ca: fs.readFileSync(pki.ca, 'utf8') } })
        .listModels();
      assert.ok(models.some((model) => model.name === 'pendulum'));
      // Plaintext to a TLS port, and a server certificate from another CA, fail.
      await rejectsWith(client(tls.address, {}).listModels(), 'UNAVAILABLE',
        /No connection established/);
      await rejectsWith(client(tls.address, { tls: { ca: pki.otherCa } }).listModels(),
        'UNAVAILABLE', /certificate/);

      const withCertificate = client(mtls.address,
        { tls: { ca: pki.ca, cert: pki.clientCert, key: pki.clientKey } });
      const { ids } = await withCertificate.createBuiltin('pendulum', 1);
      assert.equal((await withCertificate.step(ids[0], [0], 3)).steps, 3);
      // Without a client certificate the handshake fails.
      await rejectsWith(client(mtls.address, { tls: { ca: pki.ca } }).listModels(),
        'UNAVAILABLE', /No connection established/);
      assert.throws(() => new Client(mtls.address, { tls: { ca: pki.ca, cert: pki.clientCert } }),
        /give both cert and key/);
    } finally {
      for (const c of made) c.close();
      await tls.stop();
      await mtls.stop();
    }
  });
