'use strict';
// The Foxglove endpoint of the dashboard: the Foxglove WebSocket protocol
// (subprotocol foxglove.websocket.v1) on a port of its own, so that
// Foxglove-compatible viewers can watch every instance of the moreaud.
//
// Channels, JSON messages with JSON Schemas, two per instance of the server
// (ListInstances every LIST_PERIOD_MS; advertised when an instance appears,
// unadvertised when it goes):
//   /moreau/<id>/transforms  foxglove.FrameTransforms: world → <id>/<body>
//   /moreau/<id>/scene       foxglove.SceneUpdate: each body's shapes in its
//                            frame (sent on subscribe), contact force arrows
//                            (sent when they change)
// (lib/foxglove_messages.js). The data comes from one Watch stream per
// instance (lib/watch_frames.js, at RATE_HZ), opened at the instance's first
// subscription and cancelled when its last one goes. While a client's socket
// is backed up, only the newest message per subscription waits for it
// (lib/outbox.js), so a slow client holds up neither the stream nor other
// clients. Message timestamps are simulated time.
//
// Client → server: subscribe, unsubscribe. Anything else, a malformed
// message, an unknown channel or subscription, is answered by a status
// message (level error) naming the problem; the connection stays.

const http = require('node:http');
const { WebSocketServer } = require('ws');
const { Outbox } = require('./outbox');
const { watchFrames } = require('./watch_frames');
const { SCHEMAS } = require('./foxglove_schemas');
const messages = require('./foxglove_messages');

/** @typedef {import('./watch_frames').Frame} Frame */
/** @typedef {import('./watch_frames').FrameWatch} FrameWatch */

const SUBPROTOCOL = 'foxglove.websocket.v1';
/** The Watch rate of the instances' streams. */
const RATE_HZ = 30;
/** How often the instances are listed while a client is connected. */
const LIST_PERIOD_MS = 1000;
/** The largest message accepted from a client. */
const MAX_MESSAGE_BYTES = 64 * 1024;
const STATUS = { info: 0, warning: 1, error: 2 };
/** Binary opcode of a Message Data frame (server → client). */
const MESSAGE_DATA = 1;
/** Ops of the protocol this server does not offer (no capability for them). */
const UNSUPPORTED_OPS = new Set(['advertise', 'unadvertise', 'getParameters', 'setParameters',
  'subscribeParameterUpdates', 'unsubscribeParameterUpdates', 'subscribeConnectionGraph',
  'unsubscribeConnectionGraph', 'fetchAsset']);

/**
 * @typedef {{id: number, instanceId: string, kind: 'transforms' | 'scene', topic: string,
 *   schemaName: string}} Channel
 * @typedef {{id: string, channels: Channel[], subscriptions: Set<Subscription>,
 *   watch: FrameWatch | null, retryAt: number, frame: Frame | null, spec: Promise<any> | null,
 *   drawing: any, contacts: string | null}} Instance
 * @typedef {{id: number, channel: Channel, client: ClientState}} Subscription
 * @typedef {{socket: import('ws').WebSocket, outbox: Outbox, subscriptions: Map<number, Subscription>,
 *   byChannel: Map<number, Subscription>, known: Set<number>, dropped: Set<number>,
 *   advertised: boolean}} ClientState
 * @typedef {{timeNs: bigint, payload: Buffer | Record<string, any>}} Pending
 */

class FoxgloveEndpoint {
  /**
   * @param {{client: any, server: string, host: string, port: number,
   *   specOf: (id: string) => Promise<any>,
   *   verifyClient: (origin: string | undefined, host: string | undefined) => boolean,
   *   rateHz?: number}} options
   *   client: the bridge's Client of moreaud; specOf: an instance's drawing
   *   spec; verifyClient: whether a connection's Origin and Host may connect
   */
  constructor(options) {
    const port = options.port;
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new TypeError(`foxglovePort: give a port (0 for any free one), got ${port}`);
    }
    this.client = options.client;
    this.serverAddress = options.server;
    this.host = options.host;
    this.requestedPort = options.port;
    this.specOf = options.specOf;
    this.rateHz = options.rateHz || RATE_HZ;
    /** @type {Map<string, Instance>} */
    this.instances = new Map();
    /** @type {Map<number, Channel>} */
    this.channels = new Map();
    this.nextChannelId = 1;
    /** @type {Set<ClientState>} */
    this.clients = new Set();
    /** @type {Promise<void> | null} the listing in flight */
    this.listing = null;
    this.listedAt = 0;
    this.listFailed = false;
    /** @type {NodeJS.Timeout | null} */
    this.timer = null;
    this.sessionId = String(Date.now());
    this.http = http.createServer((request, response) => {
      response.writeHead(426, { 'content-type': 'text/plain', upgrade: 'websocket' })
        .end(`a Foxglove WebSocket endpoint (subprotocol ${SUBPROTOCOL}): connect a Foxglove viewer\n`);
    });
    this.wss = new WebSocketServer({
      server: this.http, maxPayload: MAX_MESSAGE_BYTES,
      handleProtocols: (protocols) => (protocols.has(SUBPROTOCOL) ? SUBPROTOCOL : false),
      verifyClient: (/** @type {{origin: string, req: http.IncomingMessage}} */ info,
        /** @type {(ok: boolean, code?: number, message?: string) => void} */ done) => {
        if (!options.verifyClient(info.origin, info.req.headers.host)) {
          done(false, 401);
          return;
        }
        const offered = String(info.req.headers['sec-websocket-protocol'] || '').split(',')
          .map((p) => p.trim());
        if (!offered.includes(SUBPROTOCOL)) {
          done(false, 400, `offer the WebSocket subprotocol ${SUBPROTOCOL}`);
          return;
        }
        done(true);
      },
    });
    this.wss.on('connection', (socket) => this.onConnection(socket));
  }

  /** Starts listening; resolves with the port. */
  listen() {
    return new Promise((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(this.requestedPort, this.host, () => {
        this.http.off('error', reject);
        const address = /** @type {import('node:net').AddressInfo} */ (this.http.address());
        this.port = address.port;
        const host = this.host.includes(':') ? `[${this.host}]` : this.host;
        this.url = `ws://${host}:${this.port}/`;
        resolve(this.port);
      });
    });
  }

  /** Closes the connections, the Watch streams and the server. */
  async close() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const state of this.clients) {
      state.outbox.close();
      state.socket.terminate();
    }
    this.clients.clear();
    for (const instance of this.instances.values()) stopWatch(instance);
    await new Promise((resolve) => this.wss.close(() => resolve(undefined)));
    this.http.closeAllConnections();
    await new Promise((resolve) => this.http.close(() => resolve(undefined)));
  }

  // -------------------------------------------------------- connections --

  /** @param {import('ws').WebSocket} socket */
  onConnection(socket) {
    /** @type {ClientState} */
    const state = {
      socket, subscriptions: new Map(), byChannel: new Map(), known: new Set(), dropped: new Set(),
      advertised: false,
      outbox: new Outbox(socket, (subscriptionId, /** @type {Pending} */ pending) =>
        messageData(subscriptionId, pending.timeNs, pending.payload)),
    };
    this.clients.add(state);
    send(state, {
      op: 'serverInfo', name: `moreau-dashboard: moreaud at ${this.serverAddress}`,
      capabilities: [], metadata: { moreaud: this.serverAddress }, sessionId: this.sessionId,
    });
    if (!this.timer) this.timer = setInterval(() => this.list(), LIST_PERIOD_MS);
    // Its first advertise lists the channels of a listing at most a period old.
    const fresh = Date.now() - this.listedAt < LIST_PERIOD_MS;
    (fresh ? Promise.resolve() : this.list()).then(() => {
      if (this.clients.has(state)) this.advertise(state, true);
    });
    socket.on('message', (data, isBinary) => this.onMessage(state, data, isBinary));
    socket.on('close', () => {
      this.clients.delete(state);
      state.outbox.close();
      for (const subscription of [...state.subscriptions.values()]) this.unsubscribe(subscription);
      if (this.clients.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    });
    socket.on('error', () => {});
  }

  /**
   * @param {ClientState} state
   * @param {import('ws').RawData} data
   * @param {boolean} isBinary
   */
  onMessage(state, data, isBinary) {
    if (isBinary) {
      status(state, STATUS.error, 'binary message: this server takes no client publishing ' +
        '(its capabilities do not include clientPublish)');
      return;
    }
    let m;
    try {
      m = JSON.parse(data.toString());
    } catch (error) {
      status(state, STATUS.error, `malformed message: not JSON (${/** @type {Error} */ (error).message})`);
      return;
    }
    if (!m || typeof m !== 'object' || Array.isArray(m) || typeof m.op !== 'string') {
      status(state, STATUS.error, 'malformed message: expected a JSON object with an "op"');
      return;
    }
    if (m.op === 'subscribe') {
      if (!Array.isArray(m.subscriptions)) {
        status(state, STATUS.error, 'subscribe: give subscriptions: [{id, channelId}, …]');
        return;
      }
      for (const s of m.subscriptions) this.subscribe(state, s);
    } else if (m.op === 'unsubscribe') {
      if (!Array.isArray(m.subscriptionIds)) {
        status(state, STATUS.error, 'unsubscribe: give subscriptionIds: [id, …]');
        return;
      }
      for (const id of m.subscriptionIds) {
        const subscription = state.subscriptions.get(id);
        if (subscription) this.unsubscribe(subscription);
        else if (!state.dropped.delete(id)) {
          status(state, STATUS.error, `unsubscribe: no subscription ${JSON.stringify(id)}`);
        }
      }
    } else if (UNSUPPORTED_OPS.has(m.op)) {
      status(state, STATUS.error, `${m.op}: not supported by this server (it offers subscribe and unsubscribe)`);
    } else {
      status(state, STATUS.error, `unknown op '${m.op}'`);
    }
  }

  // ------------------------------------------------------ subscriptions --

  /** @param {ClientState} state @param {any} s */
  subscribe(state, s) {
    if (!s || typeof s !== 'object' || !isUint32(s.id) || !isUint32(s.channelId)) {
      status(state, STATUS.error, `subscribe: give each subscription as {id, channelId}, ` +
        `non-negative 32-bit integers; got ${JSON.stringify(s)}`);
      return;
    }
    const channel = this.channels.get(s.channelId);
    if (!channel) {
      status(state, STATUS.error, `subscribe: no channel ${s.channelId} (not advertised, or unadvertised)`);
      return;
    }
    if (state.subscriptions.has(s.id)) {
      status(state, STATUS.error, `subscribe: subscription id ${s.id} is in use`);
      return;
    }
    const existing = state.byChannel.get(channel.id);
    if (existing) {
      status(state, STATUS.error, `subscribe: channel ${channel.id} (${channel.topic}) already has ` +
        `subscription ${existing.id}`);
      return;
    }
    const instance = /** @type {Instance} */ (this.instances.get(channel.instanceId));
    /** @type {Subscription} */
    const subscription = { id: s.id, channel, client: state };
    state.dropped.delete(s.id);
    state.subscriptions.set(s.id, subscription);
    state.byChannel.set(channel.id, subscription);
    instance.subscriptions.add(subscription);
    if (!instance.watch) this.startWatch(instance);
    if (channel.kind === 'transforms') {
      if (instance.frame) state.outbox.put(s.id, transformsMessage(instance.frame));
    } else {
      this.sendScene(instance, subscription);
    }
  }

  /** @param {Subscription} subscription */
  unsubscribe(subscription) {
    const state = subscription.client;
    state.subscriptions.delete(subscription.id);
    state.byChannel.delete(subscription.channel.id);
    state.outbox.delete(subscription.id);
    const instance = this.instances.get(subscription.channel.instanceId);
    if (!instance) return;
    instance.subscriptions.delete(subscription);
    if (instance.subscriptions.size === 0) stopWatch(instance);
  }

  /**
   * The bodies' entities (and the latest contacts) to a new scene subscription.
   * @param {Instance} instance
   * @param {Subscription} subscription
   */
  sendScene(instance, subscription) {
    if (!instance.spec) {
      instance.spec = this.specOf(instance.id).then((spec) => {
        instance.drawing = spec;
        return spec;
      });
      instance.spec.catch(() => { instance.spec = null; });
    }
    instance.spec.then((spec) => {
      const state = subscription.client;
      if (state.subscriptions.get(subscription.id) !== subscription) return;
      const time = instance.frame ? instance.frame.time : 0;
      const entities = messages.bodyEntities(instance.id, spec, time);
      if (instance.frame) entities.push(messages.contactEntity(instance.id, spec, instance.frame));
      state.outbox.put(subscription.id,
        { timeNs: messages.nanoseconds(time), payload: { deletions: [], entities } }, mergeScenes);
    }, (error) => {
      status(subscription.client, STATUS.error,
        `scene of ${instance.id}: ${/** @type {Error} */ (error).message}`);
    });
  }

  // ---------------------------------------------------------- instances --

  /** Lists the instances, advertising new ones' channels and unadvertising gone ones'. */
  list() {
    if (this.listing) return this.listing;
    this.listing = (async () => {
      let infos;
      try {
        infos = await this.client.listInstances();
      } catch (error) {
        if (!this.listFailed) {
          for (const state of this.clients) {
            status(state, STATUS.warning, `listing the instances of moreaud at ${this.serverAddress}: ` +
              `${/** @type {Error} */ (error).message}`);
          }
        }
        this.listFailed = true;
        return;
      }
      this.listFailed = false;
      this.listedAt = Date.now();
      const present = new Set(infos.map((/** @type {any} */ info) => info.instanceId));
      for (const instance of [...this.instances.values()]) {
        if (!present.has(instance.id)) this.removeInstance(instance);
      }
      let added = false;
      for (const id of present) {
        const instance = this.instances.get(id);
        if (!instance) {
          this.addInstance(id);
          added = true;
        } else if (instance.subscriptions.size && !instance.watch && Date.now() >= instance.retryAt) {
          this.startWatch(instance);
        }
      }
      if (added) for (const state of this.clients) if (state.advertised) this.advertise(state, false);
    })().finally(() => { this.listing = null; });
    return this.listing;
  }

  /** @param {string} id */
  addInstance(id) {
    /** @type {Instance} */
    const instance = { id, channels: [], subscriptions: new Set(), watch: null, retryAt: 0,
      frame: null, spec: null, drawing: null, contacts: null };
    for (const [kind, schemaName] of /** @type {const} */ ([['transforms', 'foxglove.FrameTransforms'],
      ['scene', 'foxglove.SceneUpdate']])) {
      const channel = { id: this.nextChannelId++, instanceId: id, kind, topic: `/moreau/${id}/${kind}`, schemaName };
      instance.channels.push(channel);
      this.channels.set(channel.id, channel);
    }
    this.instances.set(id, instance);
  }

  /** @param {Instance} instance */
  removeInstance(instance) {
    stopWatch(instance);
    this.instances.delete(instance.id);
    const ids = instance.channels.map((channel) => channel.id);
    for (const id of ids) this.channels.delete(id);
    for (const subscription of instance.subscriptions) {
      const state = subscription.client;
      state.subscriptions.delete(subscription.id);
      state.byChannel.delete(subscription.channel.id);
      state.outbox.delete(subscription.id);
      state.dropped.add(subscription.id);
    }
    instance.subscriptions.clear();
    for (const state of this.clients) {
      const known = ids.filter((id) => state.known.delete(id));
      if (known.length) send(state, { op: 'unadvertise', channelIds: known });
    }
  }

  /**
   * Advertises to a client the channels it has not been told of; `first`:
   * its first advertise, sent even when there are none.
   * @param {ClientState} state
   * @param {boolean} first
   */
  advertise(state, first) {
    const channels = [...this.channels.values()].filter((channel) => !state.known.has(channel.id));
    if (!channels.length && !first) return;
    state.advertised = true;
    for (const channel of channels) state.known.add(channel.id);
    send(state, {
      op: 'advertise',
      channels: channels.map((channel) => ({
        id: channel.id, topic: channel.topic, encoding: 'json', schemaName: channel.schemaName,
        schema: SCHEMA_TEXT[channel.schemaName], schemaEncoding: 'jsonschema',
      })),
    });
  }

  /** Opens the instance's Watch stream, its frames going to every subscription. */
  startWatch(instance) {
    instance.watch = watchFrames(this.client, instance.id, this.rateHz,
      (frame) => this.onFrame(instance, frame),
      (error) => {
        instance.watch = null;
        instance.frame = null;
        instance.contacts = null;
        if (error) {
          // Opened again by a listing at least a period later.
          instance.retryAt = Date.now() + LIST_PERIOD_MS;
          for (const state of clientsOf(instance)) {
            status(state, STATUS.error, `watching ${instance.id}: ${error.message}`);
          }
        }
        // A stream the server ended: the instance is gone, which a listing
        // unadvertises.
        this.list();
      });
  }

  /** @param {Instance} instance @param {Frame} frame */
  onFrame(instance, frame) {
    instance.frame = frame;
    const transforms = transformsMessage(frame);
    /** @type {Pending | null} */
    let contacts = null;
    if (instance.drawing) {
      const entity = messages.contactEntity(instance.id, instance.drawing, frame);
      const key = JSON.stringify(entity.arrows);
      if (key !== instance.contacts) {
        instance.contacts = key;
        contacts = { timeNs: transforms.timeNs, payload: { deletions: [], entities: [entity] } };
      }
    }
    for (const subscription of instance.subscriptions) {
      const outbox = subscription.client.outbox;
      if (subscription.channel.kind === 'transforms') outbox.put(subscription.id, transforms);
      else if (contacts) outbox.put(subscription.id, contacts, mergeScenes);
    }
  }
}

const SCHEMA_TEXT = Object.fromEntries(Object.entries(SCHEMAS)
  .map(([name, schema]) => [name, JSON.stringify(schema)]));

/** @param {Frame} frame @returns {Pending} */
function transformsMessage(frame) {
  return { timeNs: messages.nanoseconds(frame.time),
    payload: Buffer.from(JSON.stringify(messages.frameTransforms(frame))) };
}

/**
 * Two SceneUpdates as one: the deletions of both, and per entity id the newer entity.
 * @param {Pending} older @param {Pending} newer @returns {Pending}
 */
function mergeScenes(older, newer) {
  const a = /** @type {Record<string, any>} */ (older.payload);
  const b = /** @type {Record<string, any>} */ (newer.payload);
  const entities = new Map(a.entities.map((/** @type {any} */ e) => [e.id, e]));
  for (const e of b.entities) entities.set(e.id, e);
  return { timeNs: newer.timeNs,
    payload: { deletions: [...a.deletions, ...b.deletions], entities: [...entities.values()] } };
}

/**
 * A Message Data frame: opcode, subscription id (uint32 LE), timestamp
 * (uint64 ns LE), payload.
 * @param {number} subscriptionId
 * @param {bigint} timeNs
 * @param {Buffer | Record<string, any>} payload
 */
function messageData(subscriptionId, timeNs, payload) {
  const body = Buffer.isBuffer(payload) ? payload : Buffer.from(JSON.stringify(payload));
  const frame = Buffer.allocUnsafe(13 + body.length);
  frame.writeUInt8(MESSAGE_DATA, 0);
  frame.writeUInt32LE(subscriptionId, 1);
  frame.writeBigUInt64LE(timeNs, 5);
  body.copy(frame, 13);
  return frame;
}

/** @param {Instance} instance */
function stopWatch(instance) {
  if (instance.watch) instance.watch.cancel();
  instance.watch = null;
  instance.frame = null;
  instance.contacts = null;
}

/** The clients subscribed to an instance. @param {Instance} instance */
function clientsOf(instance) {
  return new Set([...instance.subscriptions].map((subscription) => subscription.client));
}

/** @param {unknown} value */
function isUint32(value) {
  return Number.isInteger(value) && /** @type {number} */ (value) >= 0 && /** @type {number} */ (value) <= 0xffffffff;
}

/** @param {ClientState} state @param {Record<string, any>} message */
function send(state, message) {
  if (state.socket.readyState === 1) state.socket.send(JSON.stringify(message));
}

/** @param {ClientState} state @param {number} level @param {string} message */
function status(state, level, message) {
  send(state, { op: 'status', level, message });
}

module.exports = { FoxgloveEndpoint, SUBPROTOCOL, RATE_HZ, messageData, mergeScenes };
