'use strict';
// What the client checks on its side, before any call: its options, the
// fields of settings and model sources, where simulator.proto is, and the
// shape of MoreauError. No server is needed (nothing listens on port 1).

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');

const { Client, MoreauError, codeName, status, DEFAULT_PROTO_PATH } = require('..');
const { TEST_TIMEOUT_MS } = require('../testing/fixtures');
const { temporaryDirectory } = require('../testing/moreaud');

const NOWHERE = '127.0.0.1:1';

test('MoreauError carries the code, its name, the details, method and address',
  { timeout: TEST_TIMEOUT_MS }, () => {
    const error = new MoreauError(status.NOT_FOUND, "no instance with id 'x'",
      { method: 'Step', address: 'host:5' });
    assert.ok(error instanceof Error);
    assert.equal(error.name, 'MoreauError');
    assert.equal(error.code, 5);
    assert.equal(error.codeName, 'NOT_FOUND');
    assert.equal(error.details, "no instance with id 'x'");
    assert.equal(error.method, 'Step');
    assert.equal(error.address, 'host:5');
    assert.equal(error.message, "Step on host:5: NOT_FOUND: no instance with id 'x'");
    assert.equal(codeName(status.RESOURCE_EXHAUSTED), 'RESOURCE_EXHAUSTED');
    assert.equal(codeName(99), 'UNKNOWN');
  });

test('settings and model sources with unknown fields are refused, naming the right ones',
  { timeout: TEST_TIMEOUT_MS }, async () => {
    const client = new Client(NOWHERE);
    try {
      await assert.rejects(client.createBuiltin('pendulum', 1, { contact_model: 'hertz' }),
        /settings: unknown field 'contact_model' \(did you mean 'contactModel'\?\)/);
      await assert.rejects(client.createBuiltin('pendulum', 1, { terrain: { incline: { angle: 5 } } }),
        /settings\.terrain\.incline: unknown field 'angle'; Incline has angleDeg, axis/);
      await assert.rejects(client.createBuiltin('pendulum', 1, { controller: 'trot' }),
        /settings\.controller: give an object \(a ControllerSettings message\)/);
      await assert.rejects(client.createBuiltin('pendulum', 1, { contactParameters: [1] }),
        /settings\.contactParameters: give an object of name → value/);
      await assert.rejects(client.getModel({ builtin: 'pendulum', bsae: 'fixed' }),
        /model: unknown field 'bsae'/);
      await assert.rejects(client.getModel(''), /give a built-in name/);
    } finally {
      client.close();
    }
  });

test('misspelt call options and bad arguments are refused', { timeout: TEST_TIMEOUT_MS },
  async () => {
    const client = new Client(NOWHERE);
    try {
      await assert.rejects(client.step('id', [0], 1, { timout: 1 }),
        /step: unknown option 'timout' \(expected timeout, pushes\)/);
      await assert.rejects(client.step('id', [0], 1.5), /substeps: give an integer/);
      await assert.rejects(client.step('id', ['1'], 1), /action\[0\]: give a number/);
      await assert.rejects(client.step('id', [0], 1, { timeout: 0 }), /timeout: give a positive/);
      await assert.rejects(client.stepBatch(['a', 'b'], [[0]]),
        /arrays of instance ids and of actions of one length/);
      await assert.rejects(client.query('id', { massMatrix: true, mass: true }),
        /query: unknown option 'mass'/);
      assert.throws(() => client.watch('id', { rate: 5 }), /watch: unknown option 'rate'/);
    } finally {
      client.close();
    }
  });

test('Client options are checked', { timeout: TEST_TIMEOUT_MS }, () => {
  assert.throws(() => new Client(''), /give the server's address as 'host:port'/);
  assert.throws(() => new Client(NOWHERE, { timeout: -1 }), /timeout: give a positive number/);
  assert.throws(() => new Client(NOWHERE, { tsl: true }), /Client: unknown option 'tsl'/);
  assert.throws(() => new Client(NOWHERE, { tls: { ca: '/no/such/ca.pem' } }),
    /tls\.ca: cannot read '\/no\/such\/ca\.pem'/);
  assert.throws(() => new Client(NOWHERE, { tls: { root: 'x' } }), /tls: unknown keys root/);
  assert.throws(() => new Client(NOWHERE, { token: 5 }), /token: give a string/);
  const client = new Client(NOWHERE, { timeout: Infinity });
  assert.equal(client.timeout, Infinity);
  client.close();
});

test('simulator.proto comes from the repository, the proto option or $MOREAU_PROTO',
  { timeout: TEST_TIMEOUT_MS }, () => {
    assert.ok(fs.existsSync(DEFAULT_PROTO_PATH), DEFAULT_PROTO_PATH);
    assert.equal(path.relative(path.resolve(__dirname, '..'), DEFAULT_PROTO_PATH),
      path.join('..', '..', 'proto', 'moreau', 'v1', 'simulator.proto'));
    const saved = process.env.MOREAU_PROTO;
    delete process.env.MOREAU_PROTO;
    try {
      const byDefault = new Client(NOWHERE);
      assert.equal(byDefault.protoPath, DEFAULT_PROTO_PATH);
      byDefault.close();

      const copy = path.join(temporaryDirectory(), 'simulator.proto');
      fs.copyFileSync(DEFAULT_PROTO_PATH, copy);
      const byOption = new Client(NOWHERE, { proto: copy });
      assert.equal(byOption.protoPath, copy);
      byOption.close();

      process.env.MOREAU_PROTO = copy;
      const byEnvironment = new Client(NOWHERE);
      assert.equal(byEnvironment.protoPath, copy);
      byEnvironment.close();

      process.env.MOREAU_PROTO = '/no/such/simulator.proto';
      assert.throws(() => new Client(NOWHERE),
        /\/no\/such\/simulator\.proto does not exist; pass the `proto` option or set MOREAU_PROTO/);
    } finally {
      if (saved === undefined) delete process.env.MOREAU_PROTO;
      else process.env.MOREAU_PROTO = saved;
    }
  });
