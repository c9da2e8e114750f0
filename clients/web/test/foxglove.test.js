'use strict';
// The dashboard's Foxglove endpoint against a real moreaud, read with the
// Foxglove WebSocket protocol's own client (@foxglove/ws-protocol).

const test = require('node:test');
const assert = require('node:assert/strict');
const { EventEmitter } = require('node:events');
const WebSocket = require('ws');
const { FoxgloveClient } = require('@foxglove/ws-protocol');
const { startStack, sleep } = require('../testing/stack');
const { nanoseconds } = require('../lib/foxglove_messages');

/** @type {Awaited<ReturnType<typeof startStack>>} */
let stack;
/** @type {string} */
let url;
/** Pages of this origin may connect besides the dashboard's own. */
const ALLOWED_ORIGIN = 'https://viewer.example';
const TEXT = new TextDecoder();

/** A Foxglove viewer: the protocol's client, its events kept and awaitable. */
class Viewer {
  constructor() {
    this.client = new FoxgloveClient({ ws: new WebSocket(url, [FoxgloveClient.SUPPORTED_SUBPROTOCOL]) });
    /** @type {Map<number, any>} advertised channels by id */
    this.channels = new Map();
    /** @type {{kind: string, value: any}[]} */
    this.events = [];
    /** @type {{match: (e: {kind: string, value: any}) => boolean, resolve: Function}[]} */
    this.waiters = [];
    const record = (/** @type {string} */ kind) => (/** @type {any} */ value) => {
      if (kind === 'advertise') for (const channel of value) this.channels.set(channel.id, channel);
      if (kind === 'unadvertise') for (const id of value) this.channels.delete(id);
      if (kind === 'message') {
        value = { subscriptionId: value.subscriptionId, timestamp: value.timestamp,
          body: JSON.parse(TEXT.decode(value.data)) };
      }
      const event = { kind, value };
      this.events.push(event);
      for (const waiter of [...this.waiters]) {
        if (waiter.match(event)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve(event.value);
        }
      }
    };
    for (const kind of ['serverInfo', 'status', 'advertise', 'unadvertise', 'message', 'close']) {
      this.client.on(/** @type {any} */ (kind), record(kind));
    }
    this.client.on('error', () => {});
  }

  /**
   * The next event of `kind` that `match` accepts (among those still to
   * come, or, with `past`, already received), within `timeoutMs`.
   */
  waitFor(kind, match = () => true, timeoutMs = 10000, past = false) {
    if (past) {
      const seen = this.events.find((e) => e.kind === kind && match(e.value));
      if (seen) return Promise.resolve(seen.value);
    }
    return new Promise((resolve, reject) => {
      const waiter = { match: (/** @type {any} */ e) => e.kind === kind && match(e.value), resolve };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`no ${kind} within ${timeoutMs} ms`));
      }, timeoutMs);
      waiter.resolve = (/** @type {any} */ value) => {
        clearTimeout(timer);
        resolve(value);
      };
      this.waiters.push(waiter);
    });
  }

  /** The channel of `topic`, once advertised. */
  async channel(topic, timeoutMs = 10000) {
    for (const channel of this.channels.values()) if (channel.topic === topic) return channel;
    const channels = await this.waitFor('advertise', (list) => list.some((c) => c.topic === topic),
      timeoutMs);
    return channels.find((/** @type {any} */ c) => c.topic === topic);
  }

  /** Subscribes to `topic`; resolves with the subscription id. */
  async subscribe(topic) {
    return this.client.subscribe((await this.channel(topic)).id);
  }

  /** The next message of subscription `id` that `match` accepts. */
  message(id, match = () => true, timeoutMs = 10000) {
    return this.waitFor('message', (m) => m.subscriptionId === id && match(m.body), timeoutMs);
  }

  /** Messages of subscription `id` received so far. */
  count(id) {
    return this.events.filter((e) => e.kind === 'message' && e.value.subscriptionId === id).length;
  }

  close() {
    this.client.close();
  }
}

/** A mini_cheetah trotting under the bridge's control (command mode); its id. */
async function createTrot() {
  const created = await stack.dashboard.create({ model: 'mini_cheetah', controller: 'trot' });
  return created.id;
}

/** The Watch streams open on instance `id`, from ListInstances. */
async function watchers(id) {
  const info = (await stack.client.listInstances()).find((i) => i.instanceId === id);
  return info ? info.watchers : null;
}

/** Polls `condition` every 50 ms until it holds, within `timeoutMs`. */
async function until(condition, timeoutMs, what) {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await sleep(50);
  }
}

/** Resolves when `socket` is open (within 10 s). @param {WebSocket} socket */
function opened(socket) {
  if (socket.readyState === WebSocket.OPEN) return Promise.resolve();
  return within(new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  }), 10000, 'the connection open');
}

/** `promise`, or a rejection naming `what` after `timeoutMs`. */
function within(promise, timeoutMs, what) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const timeout = new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`not within ${timeoutMs} ms: ${what}`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const close = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-9, `${what}: ${a} vs ${b}`);

test.before(async () => {
  stack = await startStack({ foxglovePort: 0, foxgloveOrigins: [ALLOWED_ORIGIN] });
  url = `ws://127.0.0.1:${stack.dashboard.foxglovePort}`;
});

test.after(async () => {
  if (stack) await stack.stop();
});

test('the endpoint is on its own port of 127.0.0.1', () => {
  assert.ok(stack.dashboard.foxglovePort > 0);
  assert.notEqual(stack.dashboard.foxglovePort, stack.dashboard.port);
  assert.equal(stack.dashboard.foxgloveUrl, `ws://127.0.0.1:${stack.dashboard.foxglovePort}/`);
});

test('server info, and two channels per instance with Foxglove schemas', { timeout: 30000 }, async () => {
  const cheetah = await createTrot();
  const biped = (await stack.client.createBuiltin('biped', 1)).ids[0];
  const viewer = new Viewer();
  try {
    const info = await viewer.waitFor('serverInfo', () => true, 10000, true);
    assert.match(info.name, /moreau/);
    assert.ok(Array.isArray(info.capabilities));
    for (const id of [cheetah, biped]) {
      const transforms = await viewer.channel(`/moreau/${id}/transforms`);
      assert.equal(transforms.encoding, 'json');
      assert.equal(transforms.schemaEncoding, 'jsonschema');
      assert.equal(transforms.schemaName, 'foxglove.FrameTransforms');
      const item = JSON.parse(transforms.schema).properties.transforms.items;
      assert.deepEqual(Object.keys(item.properties).sort(),
        ['child_frame_id', 'parent_frame_id', 'rotation', 'timestamp', 'translation']);
      assert.deepEqual(Object.keys(item.properties.rotation.properties).sort(), ['w', 'x', 'y', 'z']);
      assert.deepEqual(Object.keys(item.properties.timestamp.properties).sort(), ['nsec', 'sec']);

      const scene = await viewer.channel(`/moreau/${id}/scene`);
      assert.equal(scene.encoding, 'json');
      assert.equal(scene.schemaEncoding, 'jsonschema');
      assert.equal(scene.schemaName, 'foxglove.SceneUpdate');
      const schema = JSON.parse(scene.schema);
      assert.deepEqual(Object.keys(schema.properties).sort(), ['deletions', 'entities']);
      const entity = schema.properties.entities.items.properties;
      for (const field of ['timestamp', 'frame_id', 'id', 'lifetime', 'frame_locked', 'metadata',
        'arrows', 'cubes', 'spheres', 'cylinders', 'lines', 'triangles', 'texts', 'models']) {
        assert.ok(entity[field], `SceneEntity.${field}`);
      }
      assert.deepEqual(Object.keys(entity.cubes.items.properties).sort(), ['color', 'pose', 'size']);
      assert.deepEqual(Object.keys(entity.cylinders.items.properties).sort(),
        ['bottom_scale', 'color', 'pose', 'size', 'top_scale']);
      assert.deepEqual(Object.keys(entity.arrows.items.properties).sort(),
        ['color', 'head_diameter', 'head_length', 'pose', 'shaft_diameter', 'shaft_length']);
    }
    // An instance made later is advertised to the connected viewer.
    const later = (await stack.client.createBuiltin('mini_cheetah', 1)).ids[0];
    const began = Date.now();
    await viewer.channel(`/moreau/${later}/transforms`, 5000);
    assert.ok(Date.now() - began < 3000, `advertised after ${Date.now() - began} ms`);
    const ids = [...viewer.channels.keys()];
    assert.equal(new Set(ids).size, ids.length);
  } finally {
    viewer.close();
  }
});

test('transforms are the server\'s Query body poses, stamped with simulated time', { timeout: 30000 },
  async () => {
    const id = await createTrot();
    // A non-trivial state, then still: the frame and the Query see the same one.
    await stack.client.step(id, [0.2, 0, 0.1], 300);
    const viewer = new Viewer();
    try {
      const subscription = await viewer.subscribe(`/moreau/${id}/transforms`);
      const message = await viewer.message(subscription);
      const query = await stack.client.query(id, { bodyPoses: true });
      assert.ok(query.time > 0.1, `time ${query.time}`);
      assert.equal(message.timestamp, nanoseconds(query.time));
      const transforms = message.body.transforms;
      assert.equal(transforms.length, query.bodyPoses.length);
      assert.equal(new Set(transforms.map((t) => t.child_frame_id)).size, transforms.length);
      query.bodyPoses.forEach((body, i) => {
        const t = transforms[i];
        assert.equal(t.parent_frame_id, 'world');
        assert.equal(t.child_frame_id, `${id}/${body.name}`);
        close(t.timestamp.sec + t.timestamp.nsec * 1e-9, query.time, 'timestamp');
        ['x', 'y', 'z'].forEach((axis, k) => close(t.translation[axis], body.position[k], `${body.name} ${axis}`));
        ['w', 'x', 'y', 'z'].forEach((axis, k) =>
          close(t.rotation[axis], body.quaternion[k], `${body.name} q${axis}`));
      });
      const base = transforms[0].translation;
      assert.ok(Math.hypot(base.x, base.y) > 1e-3, `the base moved: ${JSON.stringify(base)}`);
      // Stepping: later frames follow.
      await stack.client.step(id, [0.2, 0, 0.1], 50);
      const later = await viewer.message(subscription,
        (body) => body.transforms[0].timestamp.sec + body.transforms[0].timestamp.nsec * 1e-9 > query.time);
      const now = await stack.client.query(id, { bodyPoses: true });
      assert.equal(later.timestamp, nanoseconds(now.time));
      close(later.body.transforms[0].translation.x, now.bodyPoses[0].position[0], 'later base x');
    } finally {
      viewer.close();
    }
  });

test('scene: an entity per body in its frame, with the model\'s shapes', { timeout: 30000 }, async () => {
  const cheetah = await createTrot();
  await stack.client.step(cheetah, [0, 0, 0], 200);
  const biped = (await stack.client.createBuiltin('biped', 1)).ids[0];
  const viewer = new Viewer();
  /** @type {Map<string, number>} */
  const subscriptions = new Map();
  try {
    for (const [id, name] of [[cheetah, 'mini_cheetah'], [biped, 'biped']]) {
      const model = await stack.client.getModel(name);
      const subscription = await viewer.subscribe(`/moreau/${id}/scene`);
      subscriptions.set(id, subscription);
      const message = await viewer.message(subscription, (body) => body.entities.length > 1);
      const entities = new Map(message.body.entities.map((e) => [e.id, e]));
      model.bodyNames.forEach((bodyName, index) => {
        if (index === 0) return;
        const entity = entities.get(`${id}/${bodyName}`);
        assert.ok(entity, `${name}: an entity of ${bodyName}`);
        assert.equal(entity.frame_id, `${id}/${bodyName}`);
        assert.equal(entity.frame_locked, true);
        assert.deepEqual(entity.lifetime, { sec: 0, nsec: 0 });
        const shapes = model.shapes.filter((s) => s.body === index && s.type !== 'mesh');
        const drawn = entity.cubes.length + entity.spheres.length + entity.cylinders.length;
        if (shapes.length) {
          assert.equal(drawn, shapes.length, `${name} ${bodyName}: shapes`);
          assert.equal(entity.cubes.length, shapes.filter((s) => s.type === 'box').length);
          assert.equal(entity.spheres.length, shapes.filter((s) => s.type === 'sphere').length);
          assert.equal(entity.cylinders.length, shapes.filter((s) => s.type === 'cylinder').length);
          const box = shapes.find((s) => s.type === 'box');
          if (box) {
            const cube = entity.cubes[0];
            assert.deepEqual([cube.size.x, cube.size.y, cube.size.z], box.size);
            assert.deepEqual([cube.pose.position.x, cube.pose.position.y, cube.pose.position.z], box.position);
            assert.deepEqual([cube.pose.orientation.w, cube.pose.orientation.x, cube.pose.orientation.y,
              cube.pose.orientation.z], box.rotation);
          }
          const cylinder = shapes.find((s) => s.type === 'cylinder');
          if (cylinder) {
            const c = entity.cylinders[0];
            assert.deepEqual([c.size.x, c.size.y, c.size.z], [2 * cylinder.size[0], 2 * cylinder.size[0], cylinder.size[1]]);
          }
        } else {
          // No primitive shape: its inertia box.
          assert.equal(entity.cubes.length, 1, `${name} ${bodyName}: the inertia box`);
          const box = model.bodies[index].inertiaBoxSize;
          assert.deepEqual([entity.cubes[0].size.x, entity.cubes[0].size.y, entity.cubes[0].size.z], box);
        }
      });
      assert.ok(message.body.entities.some((e) => e.cubes.length + e.spheres.length + e.cylinders.length > 0));
    }
    // The cheetah stands: contact arrows, up from the ground, in world.
    const contacts = await viewer.waitFor('message', (m) => m.subscriptionId === subscriptions.get(cheetah) &&
      m.body.entities.some((e) => e.id === `${cheetah}/contacts`), 5000, true);
    const entity = contacts.body.entities.find((e) => e.id === `${cheetah}/contacts`);
    assert.equal(entity.frame_id, 'world');
    assert.ok(entity.arrows.length >= 1, `${entity.arrows.length} contact arrows`);
    for (const arrow of entity.arrows) {
      assert.ok(Math.abs(arrow.pose.position.z) < 0.03, `arrow at z ${arrow.pose.position.z}`);
    }
  } finally {
    viewer.close();
  }
});

test('unsubscribing stops the messages and cancels the Watch', { timeout: 30000 }, async () => {
  const id = await createTrot();
  await stack.dashboard.command({ id, forward: 0.3 });
  await stack.dashboard.run(null, { id, realtime: true });
  const viewer = new Viewer();
  try {
    assert.equal(await watchers(id), 0);
    const transforms = await viewer.subscribe(`/moreau/${id}/transforms`);
    const scene = await viewer.subscribe(`/moreau/${id}/scene`);
    await viewer.message(transforms);
    await viewer.message(scene);
    // One Watch for the instance, whatever its subscriptions.
    await until(async () => (await watchers(id)) === 1, 3000, 'one Watch stream');
    await until(() => viewer.count(transforms) >= 10, 3000, 'ten transform messages');
    viewer.client.unsubscribe(transforms);
    await sleep(200);
    const counted = viewer.count(transforms);
    await sleep(600);
    assert.equal(viewer.count(transforms), counted, 'no messages after unsubscribing');
    assert.equal(await watchers(id), 1, 'the scene subscription keeps the Watch');
    viewer.client.unsubscribe(scene);
    await until(async () => (await watchers(id)) === 0, 3000, 'the Watch cancelled');
    assert.equal(stack.dashboard.foxglove.instances.get(id).watch, null);
  } finally {
    stack.dashboard.stopRun(id);
    viewer.close();
  }
});

test('a destroyed instance\'s channels are unadvertised', { timeout: 30000 }, async () => {
  const id = await createTrot();
  const viewer = new Viewer();
  try {
    const transforms = await viewer.channel(`/moreau/${id}/transforms`);
    const scene = await viewer.channel(`/moreau/${id}/scene`);
    const subscription = viewer.client.subscribe(transforms.id);
    await viewer.message(subscription);
    const unadvertised = viewer.waitFor('unadvertise', (ids) => ids.includes(transforms.id), 5000);
    await stack.client.destroyInstances([id]);
    assert.deepEqual((await unadvertised).sort(), [transforms.id, scene.id].sort());
    assert.ok(!viewer.channels.has(transforms.id) && !viewer.channels.has(scene.id));
    assert.equal(stack.dashboard.foxglove.instances.has(id), false);
    // Its channel is gone for a new subscription.
    const refused = viewer.waitFor('status', (s) => s.level === 2, 5000);
    viewer.client.subscribe(transforms.id);
    assert.match((await refused).message, new RegExp(`no channel ${transforms.id}`));
  } finally {
    viewer.close();
  }
});

test('a malformed message gets an error status; another client keeps receiving', { timeout: 30000 },
  async () => {
    const id = await createTrot();
    await stack.dashboard.run(null, { id, realtime: true });
    const viewer = new Viewer();
    const raw = new WebSocket(url, [FoxgloveClient.SUPPORTED_SUBPROTOCOL]);
    try {
      const subscription = await viewer.subscribe(`/moreau/${id}/transforms`);
      await viewer.message(subscription);
      /** @type {any[]} */
      const statuses = [];
      raw.on('message', (data, isBinary) => {
        if (!isBinary) {
          const message = JSON.parse(data.toString());
          if (message.op === 'status') statuses.push(message);
        }
      });
      await opened(raw);
      assert.equal(raw.protocol, 'foxglove.websocket.v1');
      const counted = viewer.count(subscription);
      const sent = [
        ['{not json', /malformed message: not JSON/],
        ['[1, 2]', /malformed message: expected a JSON object with an "op"/],
        [JSON.stringify({ op: 'fly' }), /unknown op 'fly'/],
        [JSON.stringify({ op: 'subscribe' }), /subscribe: give subscriptions/],
        [JSON.stringify({ op: 'subscribe', subscriptions: [{ id: 1, channelId: 999999 }] }), /subscribe: no channel 999999/],
        [JSON.stringify({ op: 'subscribe', subscriptions: [{ id: -1, channelId: 1 }] }), /subscribe: give each subscription as \{id, channelId\}/],
        [JSON.stringify({ op: 'unsubscribe', subscriptionIds: [42] }), /unsubscribe: no subscription 42/],
        [JSON.stringify({ op: 'setParameters', parameters: [] }), /setParameters: not supported/],
        [Buffer.from([1, 0, 0, 0, 0]), /binary message/],
      ];
      for (const [data] of sent) raw.send(data);
      await until(() => statuses.length >= sent.length, 5000, `${sent.length} statuses`);
      sent.forEach(([, pattern], i) => {
        assert.equal(statuses[i].level, 2, JSON.stringify(statuses[i]));
        assert.match(statuses[i].message, pattern);
      });
      // The viewer goes on receiving; the malformed client is still served.
      await until(() => viewer.count(subscription) >= counted + 10, 5000, 'ten more messages');
      const channel = await viewer.channel(`/moreau/${id}/transforms`);
      const received = new Promise((resolve) => raw.on('message', (data, isBinary) => {
        if (isBinary && data.readUInt32LE(1) === 7) resolve(undefined);
      }));
      raw.send(JSON.stringify({ op: 'subscribe', subscriptions: [{ id: 7, channelId: channel.id }] }));
      await within(received, 5000, 'a message of subscription 7');
      const duplicate = statuses.length;
      raw.send(JSON.stringify({ op: 'subscribe', subscriptions: [{ id: 8, channelId: channel.id }] }));
      await until(() => statuses.length > duplicate, 5000, 'a status');
      assert.match(statuses[duplicate].message, /already has subscription 7/);
    } finally {
      stack.dashboard.stopRun(id);
      raw.terminate();
      viewer.close();
    }
  });

test('a backed-up client keeps only the newest message; the stream goes on', { timeout: 30000 },
  async () => {
    const id = await createTrot();
    const foxglove = stack.dashboard.foxglove;
    await foxglove.list();
    const channel = foxglove.instances.get(id).channels.find((c) => c.kind === 'transforms');
    /** @type {(string | Buffer)[]} */
    const sent = [];
    // A socket whose peer reads nothing: everything stays buffered.
    const socket = Object.assign(new EventEmitter(), {
      readyState: 1, bufferedAmount: 10 * 1024 * 1024,
      send: (/** @type {string | Buffer} */ data) => sent.push(data), terminate() {},
    });
    foxglove.onConnection(/** @type {any} */ (socket));
    try {
      socket.emit('message', Buffer.from(JSON.stringify({ op: 'subscribe',
        subscriptions: [{ id: 5, channelId: channel.id }] })), false);
      const state = [...foxglove.clients].find((c) => c.socket === socket);
      const watch = foxglove.instances.get(id).watch;
      assert.ok(watch, 'a Watch for the subscription');
      for (let i = 0; i < 10; i++) {
        await stack.client.step(id, [0, 0, 0], 50);
        await sleep(40);
      }
      const binary = () => sent.filter((d) => Buffer.isBuffer(d));
      assert.equal(binary().length, 0, 'nothing sent while the socket is backed up');
      const last = nanoseconds((await stack.client.query(id, {})).time);
      await until(() => state.outbox.peek(5) && state.outbox.peek(5).timeNs === last, 3000,
        'the newest frame pending');
      assert.equal(state.outbox.pending.size, 1);
      assert.ok(watch.frames >= 10, `the stream delivered ${watch.frames} frames`);
      socket.bufferedAmount = 0;  // the peer catches up
      await until(() => binary().length > 0, 3000, 'a message');
      await sleep(100);
      // The newest message only, not the backlog.
      assert.deepEqual(binary().map((d) => d.readBigUInt64LE(5)), [last]);
      assert.equal(binary()[0].readUInt8(0), 1);
      assert.equal(binary()[0].readUInt32LE(1), 5);
    } finally {
      socket.readyState = 3;
      socket.emit('close');
    }
    await until(async () => (await watchers(id)) === 0, 3000, 'the Watch cancelled');
  });

test('a stalled reader slows no other viewer', { timeout: 30000 }, async (t) => {
  const id = await createTrot();
  await stack.dashboard.command({ id, forward: 0.3 });
  const viewer = new Viewer();
  const slow = new WebSocket(url, [FoxgloveClient.SUPPORTED_SUBPROTOCOL]);
  try {
    await opened(slow);
    const channel = await viewer.channel(`/moreau/${id}/transforms`);
    slow.send(JSON.stringify({ op: 'subscribe', subscriptions: [{ id: 1, channelId: channel.id }] }));
    slow.pause();
    const subscription = viewer.client.subscribe(channel.id);
    await stack.dashboard.run(null, { id, realtime: true });
    await viewer.message(subscription);
    const counted = viewer.count(subscription);
    await sleep(1500);
    const received = viewer.count(subscription) - counted;
    t.diagnostic(`the viewer got ${received} messages in 1.5 s`);
    // 30 Hz for 1.5 s: about 45.
    assert.ok(received >= 30, `the viewer got ${received} messages in 1.5 s`);
    for (const state of stack.dashboard.foxglove.clients) {
      assert.ok(state.socket.bufferedAmount < 4 * 1024 * 1024, `a socket buffers ${state.socket.bufferedAmount} bytes`);
    }
  } finally {
    stack.dashboard.stopRun(id);
    slow.terminate();
    viewer.close();
  }
});

test('pages of other sites, other hosts and clients without the subprotocol are refused', { timeout: 30000 },
  async () => {
    const attempt = (/** @type {string[]} */ protocols, /** @type {any} */ options) => new Promise((resolve) => {
      const socket = new WebSocket(url, protocols, options);
      const timer = setTimeout(() => { socket.terminate(); resolve('timeout'); }, 5000);
      socket.once('open', () => { clearTimeout(timer); socket.close(); resolve('open'); });
      socket.once('unexpected-response', (request, response) => {
        clearTimeout(timer); socket.terminate(); resolve(response.statusCode);
      });
      socket.once('error', () => { clearTimeout(timer); resolve('error'); });
    });
    const v1 = [FoxgloveClient.SUPPORTED_SUBPROTOCOL];
    const port = stack.dashboard.foxglovePort;
    assert.equal(await attempt(v1, { origin: 'http://evil.example' }), 401);
    assert.equal(await attempt(v1, { headers: { host: `rebound.example:${port}` } }), 401);
    assert.equal(await attempt([], {}), 400);
    assert.equal(await attempt(['other.v1'], {}), 400);
    assert.equal(await attempt(v1, {}), 'open');
    assert.equal(await attempt(v1, { origin: `http://127.0.0.1:${port}` }), 'open');
    assert.equal(await attempt(v1, { origin: ALLOWED_ORIGIN }), 'open');
    const page = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(5000) });
    assert.equal(page.status, 426);
  });
