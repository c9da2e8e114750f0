'use strict';
// The WebSocket bridge against a real moreaud.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { startStack, BridgeClient, sleep } = require('../testing/stack');
const { armTargets, DEMO_ROBOT } = require('../lib/bridge');

/** The repository's copy of the ur10's meshes (models/ur10/meshes/ur10/collision). */
const UR10_MODELS = path.resolve(__dirname, '..', '..', '..', 'models', 'ur10');

/** @type {Awaited<ReturnType<typeof startStack>>} */
let stack;
/** @type {BridgeClient} */
let browser;

test.before(async () => {
  stack = await startStack();
  browser = new BridgeClient(`ws://127.0.0.1:${stack.dashboard.port}/ws`);
  await browser.open();
});

test.after(async () => {
  if (browser) browser.close();
  if (stack) await stack.stop();
});

/** Creates a trotting mini_cheetah under control mode "command"; resolves with its id. */
async function createTrot() {
  const answer = await browser.request({ type: 'create', model: 'mini_cheetah', controller: 'trot' });
  assert.equal(answer.type, 'created', JSON.stringify(answer));
  assert.equal(answer.spec.controlMode, 'command');
  return answer.id;
}

/** GET `path` of the dashboard: {status, type, body}. */
function get(path) {
  return new Promise((resolve, reject) => {
    http.get(`${stack.dashboard.url}${path.replace(/^\//, '')}`, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => { body += chunk; });
      response.on('end', () => resolve({ status: response.statusCode,
        type: response.headers['content-type'], body }));
    }).on('error', reject);
  });
}

/** GET `path` of the dashboard as bytes: {status, type, body: Buffer}. */
function getBytes(path) {
  return new Promise((resolve, reject) => {
    http.get(`${stack.dashboard.url}${path.replace(/^\//, '')}`, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode,
        type: response.headers['content-type'], body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

test('serves the page, three.js, and nothing outside public/', async () => {
  const page = await get('/');
  assert.equal(page.status, 200);
  assert.match(page.body, /importmap/);
  assert.match((await get('/app.js')).type, /javascript/);
  const three = await get('/vendor/three.module.js');
  assert.equal(three.status, 200);
  assert.match(three.body, /three\.core\.js/);
  assert.equal((await get('/vendor/three.core.js')).status, 200);
  const loader = await get('/vendor/addons/loaders/STLLoader.js');
  assert.equal(loader.status, 200);
  assert.match(loader.body, /class STLLoader/);
  assert.equal((await get('/vendor/addons/loaders/OBJLoader.js')).status, 404);
  assert.equal((await get('/vendor/package.json')).status, 404);
  assert.equal((await get('/..%2Fpackage.json')).status, 404);
  assert.equal((await get('/nothing.html')).status, 404);
});

test('list shows a created instance, with steps/s from successive listings', async () => {
  const id = await createTrot();
  const first = await browser.request({ type: 'list' });
  assert.equal(first.type, 'instances');
  const info = first.instances.find((i) => i.id === id);
  assert.ok(info, `instance ${id} in ${JSON.stringify(first.instances)}`);
  assert.equal(info.model, 'mini_cheetah');
  assert.equal(info.controller, 'trot');
  assert.equal(info.status, 'ok');
  await stack.client.step(id, [0, 0, 0], 200);
  await sleep(900);
  const second = await browser.request({ type: 'list' });
  const again = second.instances.find((i) => i.id === id);
  assert.equal(again.steps, info.steps + 200);
  assert.ok(again.stepsPerSecond > 0, `steps/s ${again.stepsPerSecond}`);
  const spec = await browser.request({ type: 'spec', id });
  assert.equal(spec.spec.name, 'mini_cheetah');
  assert.equal(spec.spec.bodyNames.length, spec.spec.bodies.length);
  assert.ok(spec.spec.shapes.length > 0);
});

test('spec of an instance created elsewhere comes from GetModel', async () => {
  const { ids } = await stack.client.createBuiltin('biped', 1);
  const answer = await browser.request({ type: 'spec', id: ids[0] });
  assert.equal(answer.type, 'spec', JSON.stringify(answer));
  assert.equal(answer.spec.name, 'biped');
  assert.ok(answer.spec.shapes.some((s) => s.type === 'box'));
  const run = await browser.request({ type: 'run', id: ids[0], realtime: true });
  assert.equal(run.type, 'error');
  assert.match(run.message, /control mode "command"/);
});

test('spec of an instance of URDF text made elsewhere names its bodies', async () => {
  const urdf = require('node:path').join(__dirname, '..', '..', '..', 'models', 'pendulum', 'Pendulum.urdf');
  const { ids } = await stack.client.createInstances(null, 1, { urdfPath: urdf });
  const answer = await browser.request({ type: 'spec', id: ids[0] });
  assert.equal(answer.type, 'spec', JSON.stringify(answer));
  assert.match(answer.spec.partial, /not a built-in/);
  assert.equal(answer.spec.bodyNames[0], 'world');
  assert.ok(answer.spec.bodyNames.length >= 2, JSON.stringify(answer.spec.bodyNames));
});

test('watch delivers frames whose base pose is the server\'s', async () => {
  const id = await createTrot();
  await stack.client.step(id, [0, 0, 0], 300);
  const watching = await browser.request({ type: 'watch', id, rateHz: 30 });
  assert.equal(watching.type, 'watching');
  // Not stepping: the frame and the query see the same state.
  const frame = await browser.waitFor((m) => m.type === 'frame' && m.id === id, 5000, 'frame');
  const query = await stack.client.query(id, { bodyPoses: true });
  assert.equal(frame.time, query.time);
  const base = query.bodyPoses.find((b) => b.name === 'body');
  assert.deepEqual(frame.bodies[0].name, 'body');
  for (let i = 0; i < 3; i++) assert.ok(Math.abs(frame.bodies[0].position[i] - base.position[i]) < 1e-9);
  for (let i = 0; i < 4; i++) assert.ok(Math.abs(frame.bodies[0].quaternion[i] - base.quaternion[i]) < 1e-9);
  assert.equal(frame.contactForces.length, frame.contactFlags.length);
  // Stepping: the frames advance.
  await stack.client.step(id, [0, 0, 0], 100);
  const later = await browser.waitFor((m) => m.type === 'frame' && m.id === id && m.time > frame.time,
    5000, 'a later frame');
  assert.ok(later.steps > frame.steps);
  const rate = await browser.request({ type: 'watch', id, rateHz: 500 });
  assert.equal(rate.type, 'error');
  assert.match(rate.message, /rateHz/);
  assert.equal((await browser.request({ type: 'unwatch' })).type, 'unwatched');
});

/** The frame of instance `id` at simulated time `time`: received already, or the next. */
function frameAt(id, time, what) {
  const match = (m) => m.type === 'frame' && m.id === id && m.time === time;
  const seen = browser.messages.find(match);
  return seen ? Promise.resolve(seen) : browser.waitFor(match, 5000, what);
}

/** A vector turned by a quaternion (w, x, y, z). */
function rotate([w, x, y, z], v) {
  const t = [2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])];
  return [v[0] + w * t[0] + (y * t[2] - z * t[1]), v[1] + w * t[1] + (z * t[0] - x * t[2]),
    v[2] + w * t[2] + (x * t[1] - y * t[0])];
}

test('frames carry the base velocity, the server\'s over the time between them', async () => {
  const id = await createTrot();
  // Walking and turning, then stepped one sub-step at a time, each state's
  // frame awaited: each frame's velocity is over that one sub-step.
  const action = [0.5, 0, 0.3];
  await stack.client.step(id, action, 2500);
  await browser.request({ type: 'watch', id, rateHz: 60 });
  let state = await stack.client.getState(id);
  let frame = await frameAt(id, state.time, 'the frame of the walking state');
  for (let i = 0; i < 5; i++) {
    await stack.client.step(id, action, 1);
    const next = await stack.client.getState(id);
    const nextFrame = await frameAt(id, next.time, `the frame after sub-step ${i + 1}`);
    const velocity = nextFrame.baseVelocity;
    assert.ok(velocity, `frame ${JSON.stringify(nextFrame)}`);
    assert.ok(Math.abs(velocity.interval - (next.time - state.time)) < 1e-12, `interval ${velocity.interval}`);
    // The mean of the generalized velocities before and after (v: linear in
    // the world frame; angular in the base's, turned into the world's).
    for (let k = 0; k < 3; k++) {
      const expected = (state.v[k] + next.v[k]) / 2;
      assert.ok(Math.abs(velocity.linear[k] - expected) < 1e-5,
        `linear[${k}] ${velocity.linear[k]}, the server's ${expected}`);
    }
    const spin = (s) => rotate(s.q.slice(3, 7), s.v.slice(3, 6))[2];
    const yawRate = (spin(state) + spin(next)) / 2;
    assert.ok(Math.abs(velocity.yawRate - yawRate) < 0.01, `yaw rate ${velocity.yawRate}, the server's ${yawRate}`);
    state = next;
    frame = nextFrame;
  }
  // Walking at about the commanded speed.
  assert.ok(frame.baseVelocity.linear[0] > 0.2, `vx ${frame.baseVelocity.linear[0]}`);
  // After a reset: none until the next frame.
  await stack.client.reset(id);
  const reset = await frameAt(id, 0, 'the frame of the reset state');
  assert.equal(reset.baseVelocity, null);
  assert.equal((await browser.request({ type: 'unwatch' })).type, 'unwatched');
});

test('the command applied ramps to the one asked for at its bound per second', async () => {
  const id = await createTrot();
  const spec = (await browser.request({ type: 'spec', id })).spec;
  const bound = spec.actionUpper[0];
  const target = 0.7 * bound;
  await browser.request({ type: 'watch', id, rateHz: 60 });
  const command = await browser.request({ type: 'command', id, forward: target, lateral: 0, yaw: 0 });
  assert.deepEqual(command.command, [target, 0, 0]);
  assert.deepEqual(command.applied, [0, 0, 0]);
  const first = browser.messages.length;
  await browser.request({ type: 'run', id, realtime: true });
  const reached = await browser.waitFor((m) => m.type === 'frame' && m.id === id && m.command &&
    m.command.applied[0] === target && m.time > 0.2, 30000, 'the applied command at its target');
  await browser.request({ type: 'pause', id });
  const frames = browser.messages.slice(first).filter((m) => m.type === 'frame' && m.id === id &&
    m.time <= reached.time);
  assert.ok(frames.every((m) => m.command && m.command.target[0] === target), 'frames carry the target');
  const applied = frames.map((m) => [m.time, m.command.applied[0]]);
  const ramping = applied.filter(([, a]) => a > 0 && a < target);
  assert.ok(ramping.length >= 3, `frames while ramping: ${JSON.stringify(applied)}`);
  for (let i = 1; i < applied.length; i++) {
    assert.ok(applied[i][1] >= applied[i - 1][1], `applied falls: ${JSON.stringify(applied)}`);
  }
  // From its first frame above 0 to its first at the target: target / bound
  // s, less the steps the frames lag behind (a real-time Step: 0.1 s at most).
  const rise = reached.time - ramping[0][0];
  assert.ok(rise >= target / bound - 0.15 && rise <= target / bound + 0.15,
    `rose to ${target} in ${rise} s of simulated time at ${bound} per s`);
  // A reset starts the ramp again from rest.
  await browser.request({ type: 'reset', id });
  const again = await browser.request({ type: 'command', id, forward: target, lateral: 0, yaw: 0 });
  assert.deepEqual(again.applied, [0, 0, 0]);
  assert.equal((await browser.request({ type: 'unwatch' })).type, 'unwatched');
});

test('command + run make the trot walk forward; pause stops it; reset returns time to 0', async () => {
  const id = await createTrot();
  const command = await browser.request({ type: 'command', id, forward: 0.5, lateral: 0, yaw: 0 });
  assert.equal(command.type, 'command', JSON.stringify(command));
  assert.deepEqual(command.command, [0.5, 0, 0]);
  const start = (await stack.client.query(id, { bodyPoses: true })).bodyPoses[0].position[0];
  const run = await browser.request({ type: 'run', id, realtime: true });
  assert.deepEqual([run.type, run.running], ['running', true], JSON.stringify(run));
  const began = Date.now();
  let x = start;
  let time = 0;
  for (let i = 0; i < 40 && time < 3; i++) {
    await sleep(200);
    const query = await stack.client.query(id, { bodyPoses: true });
    x = query.bodyPoses[0].position[0];
    time = query.time;
  }
  const wall = (Date.now() - began) / 1000;
  assert.ok(time >= 2.5, `simulated ${time} s in ${wall} s of wall time`);
  assert.ok(time <= wall + 0.3, `real time: simulated ${time} s in ${wall} s`);
  assert.ok(x - start > 0.5, `moved from x ${start} to ${x} in ${time} s`);

  // A push: the base velocity jumps.
  const before = (await stack.client.getState(id)).v.slice(0, 3);
  const pushed = await browser.request({ type: 'push', id, force: [0, 400, 0], duration: 0.1 });
  assert.equal(pushed.type, 'pushed', JSON.stringify(pushed));
  // Answered once the run's step that starts it is made: from `start` to `time`.
  assert.equal(pushed.queued, true);
  assert.ok(pushed.start > time - 1e-9 && pushed.time > pushed.start, `${JSON.stringify(pushed)} after t = ${time}`);
  let jump = 0;
  for (let i = 0; i < 30 && jump < 1; i++) {
    await sleep(20);
    const v = (await stack.client.getState(id)).v.slice(0, 3);
    jump = Math.max(jump, Math.hypot(v[0] - before[0], v[1] - before[1], v[2] - before[2]));
  }
  assert.ok(jump >= 1, `base velocity changed by ${jump} m/s`);

  const paused = await browser.request({ type: 'pause', id });
  assert.deepEqual([paused.type, paused.running], ['running', false]);
  await sleep(100);
  const t1 = (await stack.client.query(id, {})).time;
  await sleep(200);
  assert.equal((await stack.client.query(id, {})).time, t1, 'no steps after pause');
  const reset = await browser.request({ type: 'reset', id });
  assert.equal(reset.type, 'reset');
  assert.equal(reset.time, 0);
  const list = await browser.request({ type: 'list' });
  assert.equal(list.instances.find((i) => i.id === id).time, 0);
});

test('a push to a paused instance steps once with it', async () => {
  const id = await createTrot();
  const pushed = await browser.request({ type: 'push', id, force: [0, 0, 300], duration: 0.05 });
  assert.equal(pushed.type, 'pushed', JSON.stringify(pushed));
  assert.equal(pushed.queued, false);
  assert.equal(pushed.start, 0);
  assert.ok(Math.abs(pushed.time - pushed.start - 0.001) < 1e-12, JSON.stringify(pushed));
  const state = await stack.client.getState(id);
  assert.ok(state.v[2] > 0.01, `vertical velocity ${state.v[2]}`);
});

test('destroy removes the instance and ends its watch', async () => {
  const id = await createTrot();
  await browser.request({ type: 'watch', id, rateHz: 10 });
  const destroyed = await browser.request({ type: 'destroy', id });
  assert.equal(destroyed.type, 'destroyed');
  const list = await browser.request({ type: 'list' });
  assert.ok(!list.instances.some((i) => i.id === id));
  const again = await browser.request({ type: 'destroy', id });
  assert.equal(again.type, 'error');
  assert.match(again.message, new RegExp(`no instance ${id}`));
});

test('malformed and unknown messages get errors naming them', async () => {
  const malformed = browser.waitFor((m) => m.type === 'error' && /malformed/.test(m.message), 5000, 'error');
  browser.socket.send('{not json');
  assert.match((await malformed).message, /malformed message/);
  const unknown = await browser.request({ type: 'fly', id: 'x' });
  assert.equal(unknown.type, 'error');
  assert.match(unknown.message, /unknown message type 'fly'/);
  const noId = await browser.request({ type: 'reset' });
  assert.match(noId.message, /reset: give the instance as id/);
  const missing = await browser.request({ type: 'reset', id: 'nope' });
  assert.equal(missing.type, 'error');
  assert.match(missing.message, /^reset: /);
  const badForce = await browser.request({ type: 'push', id: 'nope', force: [1, 'x', 3] });
  assert.match(badForce.message, /force: give three finite numbers/);
  const badCommand = await browser.request({ type: 'command', id: 'nope', forward: 'fast' });
  assert.match(badCommand.message, /forward: give a finite number/);
});

test('a slow viewer gets only the newest frames and slows no other viewer', async () => {
  const id = await createTrot();
  const slow = new BridgeClient(`ws://127.0.0.1:${stack.dashboard.port}/ws`);
  const fast = new BridgeClient(`ws://127.0.0.1:${stack.dashboard.port}/ws`);
  try {
    await Promise.all([slow.open(), fast.open()]);
    // The slow viewer stops reading: its socket's buffers fill.
    await slow.request({ type: 'watch', id, rateHz: 60 });
    slow.socket.pause();
    await fast.request({ type: 'watch', id, rateHz: 60 });
    await browser.request({ type: 'command', id, forward: 0.3 });
    await browser.request({ type: 'run', id, realtime: true });
    const counted = fast.messages.length;
    await sleep(1500);
    const frames = fast.messages.slice(counted).filter((m) => m.type === 'frame');
    assert.ok(frames.length >= 40, `the fast viewer got ${frames.length} frames in 1.5 s`);
    for (const s of stack.dashboard.sockets) {
      assert.ok(s.bufferedAmount < 4 * 1024 * 1024, `a socket buffers ${s.bufferedAmount} bytes`);
    }
  } finally {
    await browser.request({ type: 'pause', id }).catch(() => {});
    slow.close();
    fast.close();
  }
});

test('a backed-up socket keeps only the newest frame pending', async () => {
  const id = await createTrot();
  const sent = [];
  // A socket whose peer reads nothing: everything stays buffered.
  const socket = { readyState: 1, bufferedAmount: 10 * 1024 * 1024, watch: null,
    send: (text) => sent.push(JSON.parse(text)) };
  await stack.dashboard.handle(socket, { type: 'watch', id, rateHz: 60 });
  for (let i = 0; i < 10; i++) {
    await stack.client.step(id, [0, 0, 0], 50);
    await sleep(40);
  }
  assert.equal(sent.length, 0, 'nothing sent while the socket is backed up');
  const pending = () => socket.watch.outbox.peek('frame');
  assert.ok(pending(), 'one frame pending');
  const last = (await stack.client.query(id, {})).time;
  for (let i = 0; i < 50 && !(pending() && pending().time === last); i++) {
    await sleep(20);
  }
  assert.equal(pending().time, last, 'the pending frame is the newest');
  socket.bufferedAmount = 0;  // the peer catches up
  for (let i = 0; i < 50 && sent.length === 0; i++) await sleep(10);
  await sleep(100);
  // The newest frame only, not the backlog, and not again while the state stays.
  assert.deepEqual(sent.map((f) => f.time), [last]);
  await stack.dashboard.handle(socket, { type: 'unwatch' });
  assert.equal(socket.watch, null);
});

test('a page of another site may not connect; this one may', async () => {
  const WebSocket = require('ws');
  const url = `ws://127.0.0.1:${stack.dashboard.port}/ws`;
  const attempt = (options) => new Promise((resolve) => {
    const socket = new WebSocket(url, options);
    const timer = setTimeout(() => { socket.terminate(); resolve('timeout'); }, 5000);
    socket.once('open', () => { clearTimeout(timer); socket.close(); resolve('open'); });
    socket.once('unexpected-response', (request, response) => {
      clearTimeout(timer); socket.terminate(); resolve(response.statusCode);
    });
    socket.once('error', () => { clearTimeout(timer); resolve('error'); });
  });
  assert.equal(await attempt({ origin: 'http://evil.example' }), 401);
  assert.equal(await attempt({ origin: `http://127.0.0.1:${stack.dashboard.port}` }), 'open');
  assert.equal(await attempt({ headers: { host: `rebound.example:${stack.dashboard.port}` } }), 401);
  assert.equal(await attempt({}), 'open');
});

test('/mesh serves a compiled-in mesh byte for byte, and says which it does not have', async () => {
  const created = await browser.request({ type: 'create', model: 'ur10' });
  assert.equal(created.type, 'created', JSON.stringify(created));
  const meshes = created.spec.visualShapes.filter((shape) => shape.type === 'mesh');
  assert.equal(meshes.length, 7);
  for (const shape of meshes) {
    assert.equal(shape.rgba.length, 4, `${shape.mesh} has a colour`);
    const served = await getBytes(`/mesh?model=ur10&mesh=${encodeURIComponent(shape.mesh)}`);
    assert.equal(served.status, 200, shape.mesh);
    assert.equal(served.type, 'model/stl');
    assert.ok(served.body.equals(fs.readFileSync(path.join(UR10_MODELS, shape.mesh))), shape.mesh);
  }
  const unknown = await get('/mesh?model=ur10&mesh=nothing.stl');
  assert.equal(unknown.status, 404);
  assert.match(unknown.body, /nothing\.stl/);
  // The Mini Cheetah's visuals name OBJ files the server does not have.
  const cheetah = await get('/mesh?model=mini_cheetah&mesh=meshes%2Fmini_body.obj');
  assert.equal(cheetah.status, 404);
  assert.match(cheetah.body, /mini_cheetah' has no compiled-in meshes/);
  assert.equal((await get('/mesh?model=ur10')).status, 400);
  assert.equal((await get(`/mesh?model=ur10&mesh=${'x'.repeat(300)}`)).status, 400);
  await browser.request({ type: 'destroy', id: created.id });
});

test('a browser that connects while runs go on is told of each, and of none that stopped', async () => {
  const [a, b] = [await createTrot(), await createTrot()];
  assert.equal((await browser.request({ type: 'run', id: a, realtime: true })).running, true);
  await browser.request({ type: 'run', id: b, realtime: true });
  await browser.request({ type: 'pause', id: b });
  const late = new BridgeClient(`ws://127.0.0.1:${stack.dashboard.port}/ws`);
  try {
    const told = late.waitFor((m) => m.type === 'running' && m.id === a, 10000, `a running message of ${a}`);
    await late.open();
    assert.deepEqual(await told, { type: 'running', id: a, running: true });
    // Its answer to a listing comes after what it was told on connection.
    await late.request({ type: 'list' });
    assert.deepEqual(late.messages.filter((m) => m.type === 'running'), [{ type: 'running', id: a, running: true }]);
  } finally {
    late.close();
    await browser.request({ type: 'pause', id: a });
    for (const id of [a, b]) await browser.request({ type: 'destroy', id });
  }
});

test('a run whose instance diverges stops, saying why, to every browser; a reset lets it run again', async () => {
  const id = await createTrot();
  const other = new BridgeClient(`ws://127.0.0.1:${stack.dashboard.port}/ws`);
  try {
    await other.open();
    await browser.request({ type: 'run', id, realtime: true });
    const stopped = (/** @type {BridgeClient} */ client) => client.waitFor(
      (m) => m.type === 'running' && m.id === id && !m.running, 30000, 'the run stopped');
    const [here, there] = [stopped(browser), stopped(other)];
    // Past the server's bound: refused by the bridge, and the run goes on.
    const refused = await browser.request({ type: 'push', id, force: [0, 1e7, 0], duration: 0.1 });
    assert.match(refused.message, /force: give three finite numbers of magnitude ≤ 1000000/);
    assert.ok(stack.dashboard.runs.has(id), 'still running');
    // A push no trot survives: 1e6 N on the base throws its state out of bounds.
    const pushed = await browser.request({ type: 'push', id, force: [0, 1e6, 0], duration: 0.1 }, 30000);
    assert.equal(pushed.type, 'error', JSON.stringify(pushed));
    for (const m of [await here, await there]) assert.match(m.reason, /diverged/, JSON.stringify(m));
    const listed = (await browser.request({ type: 'list' })).instances.find((i) => i.id === id);
    assert.equal(listed.running, false);
    assert.match(listed.status, /^error: .*diverged/);
    // Reset (the other browser told too), then the run goes on: simulated time advances.
    const toldOfReset = other.waitFor((m) => m.type === 'reset' && m.id === id, 10000, 'the reset');
    assert.equal((await browser.request({ type: 'reset', id })).type, 'reset');
    assert.equal((await toldOfReset).time, 0);
    assert.equal((await browser.request({ type: 'run', id, realtime: true })).running, true);
    let time = 0;
    for (let waited = 0; time < 0.2 && waited < 20000; waited += 100) {
      await sleep(100);
      time = (await stack.client.query(id, {})).time;
    }
    assert.ok(time >= 0.2, `simulated ${time} s since the reset`);
    assert.ok(stack.dashboard.runs.has(id), 'still running');
  } finally {
    other.close();
    await browser.request({ type: 'destroy', id });
  }
});

test('the demo arm follows its motion in real time, under inverse dynamics', async () => {
  const id = await stack.dashboard.startArmDemo();
  try {
    const spec = await stack.client.getModel('ur10');
    const qIndex = spec.actuators.map((a) => spec.joints.find((j) => j.name === a.joint).qIndex);
    // Past the 3 s the swing takes to grow (bounded wait), the joints within
    // 0.05 rad of the targets of the moment.
    let state = await stack.client.query(id, {});
    for (let waited = 0; state.time < 3.5 && waited < 20000; waited += 250) {
      await sleep(250);
      state = await stack.client.query(id, {});
    }
    assert.ok(state.time >= 3.5, `simulated ${state.time} s`);
    const snapshot = await stack.client.getState(id);
    const targets = armTargets(snapshot.time);
    qIndex.forEach((k, a) => {
      assert.ok(Math.abs(snapshot.q[k] - targets[a]) < 0.05,
        `joint ${a}: q ${snapshot.q[k]} against target ${targets[a]} at t = ${snapshot.time}`);
    });
    await sleep(300);
    const later = await stack.client.getState(id);
    assert.ok(later.time > snapshot.time, 'still running');
  } finally {
    stack.dashboard.stopRun(id);
    await stack.client.destroyInstances([id]);
  }
});

test('the demo robot, toppled by a push, lies on its trunk: it neither sinks nor diverges', async () => {
  const answer = await browser.request({ type: 'create', ...DEMO_ROBOT, controller: 'trot' });
  assert.equal(answer.type, 'created', JSON.stringify(answer));
  const id = answer.id;
  try {
    // Whole-body collision: slots beyond the four toes.
    assert.ok(answer.spec.contactPoints.length > 4, `${answer.spec.contactPoints.length} slots`);
    // The demo's command (0.3 m/s, 0.2 rad/s) for 3 s, a 300 N sideways push
    // for 0.1 s, then 5 s more: the robot falls and lies on the ground.
    const command = [0.3, 0, 0.2];
    await stack.client.step(id, command, 3000);
    let lowest = Infinity;
    let uprightZ = Infinity;
    const push = { force: [0, 300, 0], duration: 0.1 };
    for (let k = 0; k < 20; ++k) {
      const observation = await stack.client.step(id, command, 250, k === 0 ? { pushes: [push] } : {});
      const [, , z, , qx, qy] = observation.basePose;
      lowest = Math.min(lowest, z);
      // The body z axis's world z: 1 upright, below 0.5 past 60° of tilt.
      uprightZ = Math.min(uprightZ, 1 - 2 * (qx * qx + qy * qy));
    }
    assert.ok(uprightZ < 0.5, `the push did not topple it (least upright ${uprightZ})`);
    assert.ok(lowest > 0.02, `the base sank to z = ${lowest} m`);
  } finally {
    await stack.client.destroyInstances([id]);
  }
});
