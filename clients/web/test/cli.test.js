'use strict';
// bin/moreau-dashboard.js: its flags, and a dashboard process serving the page.

const test = require('node:test');
const assert = require('node:assert/strict');
const { spawn, spawnSync } = require('node:child_process');
const path = require('node:path');

const BIN = path.join(__dirname, '..', 'bin', 'moreau-dashboard.js');

/**
 * Resolves with the first match of `pattern` in what `child` prints on
 * stdout (once `also`, when given, has been printed too); rejects when it
 * exits first or after `seconds`.
 * @param {import('node:child_process').ChildProcess} child
 * @param {RegExp} pattern @param {number} seconds @param {RegExp} [also]
 * @returns {Promise<RegExpExecArray>}
 */
function waitForLine(child, pattern, seconds, also) {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no ${pattern} printed in ${seconds} s: '${out}'`)),
      seconds * 1000);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text) => {
      out += text;
      const match = pattern.exec(out);
      if (match && (!also || also.test(out))) {
        clearTimeout(timer);
        resolve(match);
      }
    });
    child.once('exit', (code) => reject(new Error(`exited (${code}): '${out}'`)));
  });
}

/**
 * SIGTERM to `child` (SIGKILL 10 s later) and its exit code.
 * @param {import('node:child_process').ChildProcess} child
 * @returns {Promise<number | null>}
 */
async function stop(child) {
  const exited = child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}

test('without --server it says what is missing and exits 2', () => {
  const result = spawnSync(process.execPath, [BIN], { encoding: 'utf8', timeout: 20000 });
  assert.equal(result.status, 2);
  assert.match(result.stderr, /--server HOST:PORT is required/);
  const bad = spawnSync(process.execPath, [BIN, '--server', '127.0.0.1:1', '--port', 'x'],
    { encoding: 'utf8', timeout: 20000 });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--port: not a port: x/);
  const foxglove = spawnSync(process.execPath, [BIN, '--server', '127.0.0.1:1', '--foxglove-port', '-1'],
    { encoding: 'utf8', timeout: 20000 });
  assert.equal(foxglove.status, 2);
  assert.match(foxglove.stderr, /--foxglove-port: not a port: -1/);
  const origin = spawnSync(process.execPath, [BIN, '--server', '127.0.0.1:1', '--foxglove-origin', 'https://a.example'],
    { encoding: 'utf8', timeout: 20000 });
  assert.equal(origin.status, 2);
  assert.match(origin.stderr, /--foxglove-origin needs --foxglove-port/);
});

test('bench/viewers.js: its usage, and an unknown flag exits 2', () => {
  const bench = path.join(__dirname, '..', 'bench', 'viewers.js');
  const help = spawnSync(process.execPath, [bench, '--help'], { encoding: 'utf8', timeout: 20000 });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /--viewers 8.*--rounds 3/s);
  const bad = spawnSync(process.execPath, [bench, '--fly', '1'], { encoding: 'utf8', timeout: 20000 });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /unknown flag --fly/);
  const negative = spawnSync(process.execPath, [bench, '--rounds', '0'], { encoding: 'utf8', timeout: 20000 });
  assert.equal(negative.status, 2);
  assert.match(negative.stderr, /--rounds: at least 1/);
});

test('--foxglove-port serves the Foxglove protocol on the port it prints', { timeout: 60000 }, async () => {
  const WebSocket = require('ws');
  const child = spawn(process.execPath,
    [BIN, '--server', '127.0.0.1:1', '--port', '0', '--foxglove-port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const [, url] = await waitForLine(child, /Foxglove WebSocket protocol at (ws:\/\/127\.0\.0\.1:\d+\/)/, 20);
    // No moreaud behind it: server info, then an empty advertise once the listing fails.
    const socket = new WebSocket(url, ['foxglove.websocket.v1']);
    const ops = await new Promise((resolve, reject) => {
      const seen = [];
      const timer = setTimeout(() => reject(new Error(`got ${JSON.stringify(seen)} in 20 s`)), 20000);
      socket.on('message', (data) => {
        seen.push(JSON.parse(data.toString()));
        if (seen.some((m) => m.op === 'advertise')) {
          clearTimeout(timer);
          resolve(seen);
        }
      });
      socket.once('error', reject);
    });
    socket.terminate();
    assert.equal(ops[0].op, 'serverInfo');
    assert.deepEqual(ops.find((m) => m.op === 'advertise').channels, []);
  } finally {
    assert.equal(await stop(child), 0);
  }
});

test('it serves the page on the port it prints and stops on SIGTERM', { timeout: 60000 }, async () => {
  // No moreaud is needed to serve the page: the bridge connects on the first request.
  const child = spawn(process.execPath, [BIN, '--server', '127.0.0.1:1', '--port', '0'],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const [, url] = await waitForLine(child, /serving (http:\/\/127\.0\.0\.1:\d+\/)/, 20);
    const response = await fetch(url, { signal: AbortSignal.timeout(10000) });
    assert.equal(response.status, 200);
    assert.match(await response.text(), /Moreau dashboard/);
  } finally {
    assert.equal(await stop(child), 0);
  }
});

test('--demo trots a Mini Cheetah and moves an arm in real time with no browser watching', { timeout: 90000 },
  async () => {
    const { startServer } = require('../../js/testing/moreaud');
    const { Client } = require('../../js/lib');
    const server = await startServer();
    const client = new Client(server.address);
    const child = spawn(process.execPath, [BIN, '--server', server.address, '--port', '0', '--demo'],
      { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const [, id, arm] = await waitForLine(child,
        /demo instance ([0-9a-f]{32}): a Mini Cheetah[^]*demo instance ([0-9a-f]{32}): a UR10/, 30,
        /serving http/);
      // Real time: after 3 s of wall time, about 3 s simulated and the robot
      // on its way (bounded wait).
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const info = (await client.listInstances()).find((i) => i.instanceId === id);
      assert.ok(info, 'the demo instance is listed');
      assert.equal(info.model, 'mini_cheetah');
      assert.equal(info.controller, 'trot');
      assert.ok(info.time > 1.5 && info.time < 4.5, `simulated ${info.time} s in 3 s`);
      const query = await client.query(id, { bodyPoses: true });
      assert.ok(query.bodyPoses[0].position[2] > 0.15, 'standing');
      const armInfo = (await client.listInstances()).find((i) => i.instanceId === arm);
      assert.ok(armInfo, 'the demo arm is listed');
      assert.equal(armInfo.model, 'ur10');
      assert.ok(armInfo.time > 1.5 && armInfo.time < 4.5, `the arm simulated ${armInfo.time} s in 3 s`);
      const before = (await client.getState(arm)).q;
      await new Promise((resolve) => setTimeout(resolve, 300));
      const after = (await client.getState(arm)).q;
      assert.ok(after.some((q, k) => Math.abs(q - before[k]) > 1e-3), 'the arm moves');
    } finally {
      await stop(child);
      client.close();
      await server.stop();
    }
  });
