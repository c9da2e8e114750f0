'use strict';
// The dashboard's server: static files (public/, three.js from node_modules)
// over HTTP and a WebSocket endpoint, /ws, bridging browsers to one moreaud
// through the JavaScript client (clients/js); with `foxglovePort`, also the
// Foxglove WebSocket protocol on that port (lib/foxglove.js).
//
// Browser → bridge (JSON, one object per message, `type` naming it):
//   list                                  → {type: 'instances', instances}
//   create {model, contactModel, controller, collision, excludeLinks}
//                                         → {type: 'created', id, spec}
//   reset {id}                            → {type: 'reset', id, time} (to every browser)
//   destroy {id}                          → {type: 'destroyed', id}
//   spec {id}                             → {type: 'spec', id, spec}
//   watch {id, rateHz ≤ 60}               → {type: 'watching', id, rateHz}, then frames
//   unwatch                               → {type: 'unwatched'}
//   run {id, realtime: true} / pause {id} → {type: 'running', id, running} (to every browser)
//   command {id, forward, lateral, yaw}   → {type: 'command', id, command, applied}
//   push {id, force: [x, y, z], duration} → {type: 'pushed', id, queued, start, time, force, duration}
// A request may carry `ref`, echoed in its answer. Every failure answers
// {type: 'error', message, ref} naming the problem.
// On connection a browser gets {type: 'running', id, running: true} for each
// run going on. A run whose step fails (the instance diverged) stops:
// {type: 'running', id, running: false, reason} to every browser; a reset
// makes the instance steppable again.
//
// Frames: {type: 'frame', id, time, steps, bodies: [{name, position,
// quaternion}], contactForces, contactFlags, baseVelocity, command}, each
// state once, from the instance's Watch stream (lib/watch_frames.js: the
// base velocity differenced between frames); command: {target, applied} of
// an instance this bridge commands, else null. Each browser gets the newest
// frame only: while its socket has more than MAX_BUFFERED_BYTES unsent, frames
// wait as one pending frame that every newer frame replaces (lib/outbox.js),
// so a slow browser never holds up the server's stream or another browser.
//
// Running: the bridge steps an instance in real time, every STEP_PERIOD_MS one
// Step of (elapsed wall time / dt) sub-steps with the instance's current
// command as the action. Only instances this bridge created with a
// controller, under control mode "command", and the demo arm. Runs but the
// demo's stop when the last browser disconnects. The command applied ramps
// toward the one asked for at each element's bound per second of simulated
// time (lib/command_ramp.js).

const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { WebSocketServer } = require('ws');
const { Client } = require('../../js/lib');
const { Outbox, MAX_BUFFERED_BYTES } = require('./outbox');
const { watchFrames } = require('./watch_frames');
const { rampCommand } = require('./command_ramp');
const { FoxgloveEndpoint } = require('./foxglove');

/** @typedef {import('./watch_frames').FrameWatch} FrameWatch */
/**
 * @typedef {{body: string, force: number[], duration: number}} Push
 * @typedef {{push: Push, resolve: (at: {start: number, time: number}) => void,
 *   reject: (error: Error) => void}} QueuedPush
 * @typedef {{id: string, dt: number, pushes: QueuedPush[], busy: boolean, last: number,
 *   timer: NodeJS.Timeout | null, owed: number, pinned: boolean,
 *   motion: ((time: number) => number[]) | null, time: number}} Run
 *   a real-time run: pushes wait for its next step; pinned runs (the demo's)
 *   go on without browsers; a motion gives the action of a step ending at
 *   simulated time `time` (the demo arm's joint targets), else the action
 *   is the instance's command
 */

/**
 * The demo's quadruped: a Mini Cheetah whose whole body collides, so that a
 * push that topples it leaves it lying on its trunk rather than sinking
 * through the floor; its shanks keep only their toes (their inertia boxes
 * reach past the toes, docs/collision.md).
 */
const DEMO_ROBOT = Object.freeze({
  model: 'mini_cheetah',
  collision: 'all',
  excludeLinks: Object.freeze(['shank_fr', 'shank_fl', 'shank_hr', 'shank_hl']),
});

/**
 * The demo arm's joint targets (rad, the ur10's six actuators) at simulated
 * time t: each joint swings about a working pose at its own rate, the swing
 * growing from the default pose (all zeros) over the first 3 s.
 * @param {number} t
 * @returns {number[]}
 */
function armTargets(t) {
  const start = Math.min(1, t / 3);
  return ARM_MOTION.map(([centre, amplitude, rate, phase]) =>
    start * (centre + amplitude * Math.sin(rate * t + phase)));
}

/** Per ur10 joint (pan, lift, elbow, wrist 1–3): centre, amplitude (rad), rate (rad/s), phase. */
const ARM_MOTION = [[0, 0.9, 0.4, 0], [-1.3, 0.35, 0.6, 0], [1.6, 0.45, 0.8, 1],
  [-1.8, 0.6, 0.9, 0], [-1.57, 0.5, 0.7, 0.5], [0, 1.2, 0.5, 0]];

const PUBLIC_DIR = path.join(__dirname, '..', 'public');
const THREE_DIR = path.dirname(require.resolve('three'));  // three/build
/** Files of three.js the page may load, under /vendor/, by their path there. */
const VENDOR_FILES = new Map([
  ['three.module.js', path.join(THREE_DIR, 'three.module.js')],
  ['three.core.js', path.join(THREE_DIR, 'three.core.js')],
  ['addons/loaders/STLLoader.js', path.join(THREE_DIR, '..', 'examples', 'jsm', 'loaders', 'STLLoader.js')],
]);
/** The most mesh bytes kept in memory for the page (GetMesh replies, by model and mesh). */
const MESH_CACHE_BYTES = 64 * 1024 * 1024;
/** The longest model or mesh name /mesh accepts. */
const MAX_NAME_LENGTH = 256;
const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** The largest push force component the server takes, N. */
const MAX_PUSH_N = 1e6;

/** The highest Watch rate a browser may ask for. */
const MAX_RATE_HZ = 60;
/** The real-time stepping period. */
const STEP_PERIOD_MS = 20;
/** The most simulated time one real-time Step catches up on, in s. */
const MAX_CATCH_UP_S = 0.1;
/** The shortest wall time between the listings steps/s is computed from, in s. */
const MIN_RATE_WINDOW_S = 0.8;
/** The largest message accepted from a browser. */
const MAX_MESSAGE_BYTES = 64 * 1024;

/**
 * @typedef {{server: string, host?: string, port?: number, token?: string,
 *   foxglovePort?: number, foxgloveOrigins?: string[]}} DashboardOptions
 *   foxglovePort: also serve the Foxglove WebSocket protocol on this port
 *   (lib/foxglove.js; 0: any free one); foxgloveOrigins: pages of these
 *   origins may connect to it too
 */

class Dashboard {
  /**
   * @param {DashboardOptions} options
   */
  constructor(options) {
    if (!options || typeof options.server !== 'string' || !options.server) {
      throw new TypeError('Dashboard: give the moreaud address as server: "host:port"');
    }
    this.serverAddress = options.server;
    this.host = options.host || '127.0.0.1';
    this.requestedPort = options.port === undefined ? 8080 : options.port;
    /** @type {Record<string, any>} */
    const clientOptions = { timeout: 10 };
    if (options.token !== undefined) clientOptions.token = options.token;
    this.client = new Client(this.serverAddress, clientOptions);
    /** ModelSpecs and Specs of instances, by id (kept from create, or fetched). */
    this.specs = new Map();
    /** Real-time runs by instance id. */
    this.runs = new Map();
    /** Commands asked for (targets) by instance id: [forward, lateral, yaw]. */
    this.commands = new Map();
    /** Commands applied by instance id, ramping toward this.commands. */
    this.applied = new Map();
    /** The previous listing: steps by id and when, for steps/s. */
    this.previousListing = { at: 0, steps: new Map() };
    this.sockets = new Set();
    /** Motions of the instances that run one (the demo arm), by id. */
    this.motions = new Map();
    /** GetMesh replies by model and mesh, and their bytes in all (serveMesh). */
    this.meshes = new Map();
    this.meshBytes = 0;
    this.http = http.createServer((request, response) => this.serveFile(request, response));
    this.wss = new WebSocketServer({ server: this.http, path: '/ws', maxPayload: MAX_MESSAGE_BYTES,
      verifyClient: (/** @type {{origin: string, req: http.IncomingMessage}} */ info) =>
        this.sameOrigin(info.origin, info.req.headers.host) });
    this.wss.on('connection', (socket) => this.onConnection(socket));
    const foxgloveOrigins = options.foxgloveOrigins || [];
    /** @type {FoxgloveEndpoint | null} */
    this.foxglove = options.foxglovePort === undefined ? null : new FoxgloveEndpoint({
      client: this.client, server: this.serverAddress, host: this.host, port: options.foxglovePort,
      specOf: (id) => this.spec(id),
      verifyClient: (origin, host) => this.sameOrigin(origin, host, foxgloveOrigins),
    });
  }

  /**
   * Whether a WebSocket may connect: a browser's page must come from this
   * dashboard (its Origin naming the Host it connects to), so that another
   * site open in the browser cannot drive the simulator; and the Host must be
   * the address served or a loopback name (no DNS rebinding). Clients that
   * are not browsers send no Origin. Pages of `origins` may connect too.
   * @param {string | undefined} origin
   * @param {string | undefined} host
   * @param {string[]} [origins]
   */
  sameOrigin(origin, host, origins = []) {
    if (!host) return false;
    let hostname;
    try {
      hostname = new URL(`http://${host}`).hostname;
    } catch {
      return false;
    }
    const allowed = ['127.0.0.1', 'localhost', '[::1]', this.host,
      this.host.includes(':') ? `[${this.host}]` : this.host];
    if (this.host !== '0.0.0.0' && this.host !== '::' && !allowed.includes(hostname)) return false;
    if (!origin || origins.includes(origin)) return true;
    try {
      return new URL(origin).host === host;
    } catch {
      return false;
    }
  }

  /** Starts listening (and the Foxglove endpoint); resolves with the port. */
  async listen() {
    await new Promise((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(this.requestedPort, this.host, () => {
        this.http.off('error', reject);
        const address = /** @type {import('node:net').AddressInfo} */ (this.http.address());
        this.port = address.port;
        this.url = `http://${this.host}:${this.port}/`;
        resolve(this.port);
      });
    });
    if (this.foxglove) {
      try {
        this.foxglovePort = await this.foxglove.listen();
      } catch (error) {
        this.http.close();
        throw error;
      }
      this.foxgloveUrl = this.foxglove.url;
    }
    return this.port;
  }

  /** Stops the runs, watches, sockets, the Foxglove endpoint and the HTTP server. */
  async close() {
    for (const id of [...this.runs.keys()]) this.stopRun(id);
    for (const socket of this.sockets) {
      stopWatch(socket);
      socket.terminate();
    }
    await new Promise((resolve) => this.wss.close(() => resolve(undefined)));
    this.http.closeAllConnections();
    await new Promise((resolve) => this.http.close(() => resolve(undefined)));
    if (this.foxglove) await this.foxglove.close();
    this.client.close();
  }

  // --------------------------------------------------------------- HTTP --

  /**
   * @param {http.IncomingMessage} request
   * @param {http.ServerResponse} response
   */
  serveFile(request, response) {
    const url = new URL(request.url || '/', 'http://localhost');
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { 'content-type': 'text/plain' }).end('method not allowed\n');
      return;
    }
    if (url.pathname === '/mesh') {
      this.serveMesh(url, request, response);
      return;
    }
    let file = null;
    if (url.pathname.startsWith('/vendor/')) {
      file = VENDOR_FILES.get(url.pathname.slice('/vendor/'.length)) || null;
    } else {
      const name = url.pathname === '/' ? 'index.html' : url.pathname.slice(1);
      const resolved = path.resolve(PUBLIC_DIR, name);
      if (resolved.startsWith(PUBLIC_DIR + path.sep)) file = resolved;
    }
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    fs.readFile(file, (error, data) => {
      if (error) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
        return;
      }
      const type = CONTENT_TYPES[/** @type {keyof CONTENT_TYPES} */ (path.extname(file))] ||
        'application/octet-stream';
      response.writeHead(200, { 'content-type': type, 'cache-control': 'no-cache' });
      response.end(request.method === 'HEAD' ? undefined : data);
    });
  }

  /**
   * GET /mesh?model=M&mesh=N: the bytes of a model's mesh, from the server's
   * GetMesh (compiled-in meshes only), kept in memory up to MESH_CACHE_BYTES.
   * 400 for a missing or overlong name, 404 with the server's message when it
   * has no such mesh, 502 for any other failure.
   * @param {URL} url @param {http.IncomingMessage} request @param {http.ServerResponse} response
   */
  async serveMesh(url, request, response) {
    const model = url.searchParams.get('model') || '';
    const mesh = url.searchParams.get('mesh') || '';
    const text = (/** @type {number} */ status, /** @type {string} */ message) =>
      response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${message}\n`);
    if (!model || !mesh || model.length > MAX_NAME_LENGTH || mesh.length > MAX_NAME_LENGTH) {
      text(400, `give model and mesh, each 1 to ${MAX_NAME_LENGTH} characters: /mesh?model=M&mesh=N`);
      return;
    }
    const key = `${model}\n${mesh}`;
    let reply = this.meshes.get(key);
    if (!reply) {
      try {
        reply = await this.client.getMesh(model, mesh);
      } catch (error) {
        const status = /** @type {any} */ (error).codeName === 'NOT_FOUND' ? 404
          : /** @type {any} */ (error).codeName === 'INVALID_ARGUMENT' ? 400 : 502;
        text(status, /** @type {any} */ (error).details || /** @type {Error} */ (error).message);
        return;
      }
      if (this.meshBytes + reply.data.length <= MESH_CACHE_BYTES) {
        this.meshes.set(key, reply);
        this.meshBytes += reply.data.length;
      }
    }
    response.writeHead(200, {
      'content-type': reply.format === 'stl' ? 'model/stl' : 'application/octet-stream',
      'content-length': reply.data.length, 'cache-control': 'no-cache' });
    response.end(request.method === 'HEAD' ? undefined : reply.data);
  }

  // ---------------------------------------------------------- WebSocket --

  /** @param {import('ws').WebSocket & Record<string, any>} socket */
  onConnection(socket) {
    this.sockets.add(socket);
    socket.watch = null;
    // The runs going on (the demo's, or another browser's), started before
    // this browser came.
    for (const id of this.runs.keys()) send(socket, { type: 'running', id, running: true });
    socket.on('message', (data, isBinary) => {
      let message;
      try {
        if (isBinary) throw new Error('binary');
        message = JSON.parse(data.toString());
        if (!message || typeof message !== 'object' || Array.isArray(message)) throw new Error('not an object');
      } catch {
        send(socket, { type: 'error', message: 'malformed message: expected a JSON object with a "type"' });
        return;
      }
      this.handle(socket, message).then((answer) => {
        if (answer) send(socket, { ...answer, ...(message.ref !== undefined ? { ref: message.ref } : {}) });
      }, (error) => {
        send(socket, { type: 'error', request: String(message.type),
          message: `${message.type}: ${error && error.message ? error.message : error}`,
          ...(message.ref !== undefined ? { ref: message.ref } : {}) });
      });
    });
    socket.on('close', () => {
      stopWatch(socket);
      this.sockets.delete(socket);
      if (this.sockets.size === 0) {
        // The demo's runs go on without viewers.
        for (const [id, run] of [...this.runs]) if (!run.pinned) this.stopRun(id);
      }
    });
    socket.on('error', () => {});
  }

  /**
   * One browser request; resolves with the answer (or null for none).
   * @param {any} socket
   * @param {Record<string, any>} m
   */
  async handle(socket, m) {
    switch (m.type) {
      case 'list': return { type: 'instances', instances: await this.list() };
      case 'create': return this.create(m);
      case 'reset': {
        const id = instanceId(m);
        const observation = await this.client.reset(id);
        // The trot starts afresh: its command ramps up again from rest.
        if (this.applied.has(id)) this.applied.set(id, this.applied.get(id).map(() => 0));
        // Every browser: a page showing why the run stopped shows it no more.
        this.broadcast({ type: 'reset', id, time: observation.time }, socket);
        return { type: 'reset', id, time: observation.time };
      }
      case 'destroy': {
        const id = instanceId(m);
        this.stopRun(id);
        const result = await this.client.destroyInstances([id]);
        if (result.notFound.length) throw new Error(`no instance ${id}`);
        this.specs.delete(id);
        this.commands.delete(id);
        this.applied.delete(id);
        return { type: 'destroyed', id };
      }
      case 'spec': {
        const id = instanceId(m);
        return { type: 'spec', id, spec: await this.spec(id) };
      }
      case 'watch': return this.watch(socket, m);
      case 'unwatch':
        stopWatch(socket);
        return { type: 'unwatched' };
      case 'run': return this.run(socket, m);
      case 'pause': {
        const id = instanceId(m);
        this.stopRun(id, socket);
        return { type: 'running', id, running: false };
      }
      case 'command': return this.command(m);
      case 'push': return this.push(m);
      default:
        throw new Error(m.type === undefined ? 'malformed message: no "type"'
          : `unknown message type '${m.type}'`);
    }
  }

  /**
   * ListInstances, each with stepsPerSecond: its steps since the baseline
   * listing over the wall time since (null until there is one). Every browser
   * lists; the baseline moves on at most every MIN_RATE_WINDOW_S, so that
   * listings close together still get a rate over a fair window.
   */
  async list() {
    const infos = await this.client.listInstances();
    const now = Date.now();
    const baseline = this.previousListing;
    const seconds = (now - baseline.at) / 1000;
    const steps = new Map();
    const instances = infos.map((info) => {
      const count = Number(info.steps);
      steps.set(info.instanceId, count);
      const before = baseline.steps.get(info.instanceId);
      const rate = before !== undefined && count >= before && seconds >= MIN_RATE_WINDOW_S / 4
        ? (count - before) / seconds : null;
      return {
        id: info.instanceId,
        model: info.model,
        contactModel: info.contactModel,
        controller: info.controller,
        time: info.time,
        steps: count,
        stepsPerSecond: rate,
        status: info.status && info.status.code ? `error: ${info.status.message}` : 'ok',
        watchers: info.watchers,
        running: this.runs.has(info.instanceId),
      };
    });
    if (seconds >= MIN_RATE_WINDOW_S) this.previousListing = { at: now, steps };
    return instances;
  }

  /** @param {Record<string, any>} m */
  async create(m) {
    const model = typeof m.model === 'string' && m.model ? m.model : 'mini_cheetah';
    /** @type {Record<string, any>} */
    const settings = {};
    if (m.contactModel !== undefined) {
      if (typeof m.contactModel !== 'string') throw new Error('contactModel: give a string');
      settings.contactModel = m.contactModel;
    }
    const controller = m.controller === undefined ? '' : m.controller;
    if (typeof controller !== 'string') throw new Error('controller: give a string');
    if (controller && controller !== 'none') {
      settings.controller = { kind: controller };
      settings.controlMode = 'command';
    }
    /** @type {Record<string, any>} */
    const source = {};
    if (m.collision !== undefined) {
      if (typeof m.collision !== 'string') throw new Error('collision: give "feet" or "all"');
      source.collision = m.collision;
    }
    if (m.excludeLinks !== undefined) {
      if (!Array.isArray(m.excludeLinks) || !m.excludeLinks.every((l) => typeof l === 'string')) {
        throw new Error('excludeLinks: give an array of link names');
      }
      source.excludeLinks = m.excludeLinks;
    }
    const created = await this.client.createInstances(model, 1, { settings, ...source });
    const id = created.ids[0];
    const spec = drawingSpec(created.spec.model, created.spec);
    this.specs.set(id, spec);
    return { type: 'created', id, spec };
  }

  /** The drawing spec of an instance: kept from create, else GetModel of its model. */
  async spec(id) {
    const known = this.specs.get(id);
    if (known) return known;
    const info = (await this.client.listInstances()).find((i) => i.instanceId === id);
    if (!info) throw new Error(`no instance ${id}`);
    let spec;
    try {
      spec = drawingSpec(await this.client.getModel(info.model), null);
    } catch (error) {
      // Not a built-in (made from URDF text elsewhere): only its bodies'
      // names, from a Query; the page draws each as a small cube.
      if (!/unknown built-in model/.test(String(/** @type {Error} */ (error).message))) throw error;
      const query = await this.client.query(id, { bodyPoses: true });
      spec = {
        name: info.model, bodyNames: ['world', ...query.bodyPoses.map((/** @type {any} */ b) => b.name)],
        floatingBase: null, shapes: [], bodies: [], contactPoints: [], actuators: null,
        controlMode: null, controller: false, actionSize: undefined, actionLower: [], actionUpper: [],
        dt: null, partial: 'not a built-in model: bodies drawn as cubes',
      };
    }
    this.specs.set(id, spec);
    return spec;
  }

  /** @param {any} socket @param {Record<string, any>} m */
  async watch(socket, m) {
    const id = instanceId(m);
    const rateHz = m.rateHz === undefined ? 30 : m.rateHz;
    if (typeof rateHz !== 'number' || !(rateHz > 0) || rateHz > MAX_RATE_HZ) {
      throw new Error(`rateHz: give a rate in (0, ${MAX_RATE_HZ}] Hz, got ${rateHz}`);
    }
    stopWatch(socket);
    /** @type {{id: string, outbox: Outbox, frames: FrameWatch | null}} */
    const watch = { id, outbox: new Outbox(socket, (key, frame) => JSON.stringify(frame)), frames: null };
    socket.watch = watch;
    watch.frames = watchFrames(this.client, id, rateHz,
      (frame) => watch.outbox.put('frame', { type: 'frame', ...frame, command: this.commandOf(id) }),
      (error) => {
        if (socket.watch !== watch) return;
        stopWatch(socket);
        send(socket, error
          ? { type: 'error', request: 'watch', message: `watch: ${error.message}` }
          : { type: 'unwatched', id, reason: 'the stream ended' });
      });
    return { type: 'watching', id, rateHz };
  }

  /** @param {any} socket the requester (answered; the other browsers are told) @param {Record<string, any>} m */
  async run(socket, m) {
    const id = instanceId(m);
    if (m.realtime !== undefined && m.realtime !== true) {
      throw new Error('realtime: only real-time runs (realtime: true) are supported');
    }
    const spec = this.specs.get(id);
    const motion = this.motions.get(id) || null;
    if (!spec || (!motion && (spec.controlMode !== 'command' || !spec.controller))) {
      throw new Error(`instance ${id} was not created here with a controller under control mode ` +
        '"command"; only such instances (and the demo arm) can run');
    }
    if (this.runs.has(id)) return { type: 'running', id, running: true };
    /** @type {Run} */
    const run = { id, dt: spec.dt, pushes: [], busy: false, last: performance.now(), timer: null,
      owed: 0, pinned: false, motion, time: 0 };
    if (motion) run.time = (await this.client.query(id, {})).time;
    run.timer = setInterval(() => this.stepRun(run), STEP_PERIOD_MS);
    this.runs.set(id, run);
    this.broadcast({ type: 'running', id, running: true }, socket);
    return { type: 'running', id, running: true };
  }

  /**
   * The demo: a Mini Cheetah trotting in a circle under the server's own
   * controller (0.3 m/s forward, 0.2 rad/s turning), run in real time
   * whether or not a browser watches.
   * @returns {Promise<string>} its instance id
   */
  async startDemo() {
    const created = await this.create({ ...DEMO_ROBOT, controller: 'trot' });
    await this.command({ id: created.id, forward: 0.3, lateral: 0, yaw: 0.2 });
    await this.run(null, { id: created.id, realtime: true });
    /** @type {Run} */ (this.runs.get(created.id)).pinned = true;
    return created.id;
  }

  /**
   * The demo arm: a UR10 (the built-in ur10, drawn from its meshes) under
   * inverse-dynamics control (control mode "id") tracking armTargets, run in
   * real time whether or not a browser watches.
   * @returns {Promise<string>} its instance id
   */
  async startArmDemo() {
    const created = await this.client.createBuiltin('ur10', 1, { controlMode: 'id' });
    const id = created.ids[0];
    this.specs.set(id, { ...drawingSpec(created.spec.model, created.spec), motion: true });
    this.motions.set(id, armTargets);
    await this.run(null, { id, realtime: true });
    /** @type {Run} */ (this.runs.get(id)).pinned = true;
    return id;
  }

  /**
   * One real-time Step of `run`: the simulated time owed since the last one,
   * the command ramped over it, and the pushes queued since.
   * @param {Run} run
   */
  async stepRun(run) {
    if (run.busy) return;
    const now = performance.now();
    run.owed = Math.min(run.owed + (now - run.last) / 1000, MAX_CATCH_UP_S);
    run.last = now;
    const substeps = Math.floor(run.owed / run.dt + 1e-9);
    if (substeps < 1) return;
    run.owed -= substeps * run.dt;
    run.busy = true;
    const queued = run.pushes.splice(0);
    const pushes = queued.map((q) => q.push);
    try {
      const action = run.motion ? run.motion(run.time + substeps * run.dt)
        : this.action(run.id, substeps * run.dt);
      const observation = await this.client.step(run.id, action, substeps,
        pushes.length ? { pushes } : {});
      run.time = observation.time;
      const start = observation.time - substeps * run.dt;
      for (const q of queued) q.resolve({ start, time: observation.time });
    } catch (error) {
      for (const q of queued) q.reject(error);
      if (this.runs.get(run.id) === run) {
        // E.g. the instance diverged: stepping is refused until it is reset.
        const reason = /** @type {any} */ (error).details || /** @type {Error} */ (error).message;
        this.stopRun(run.id, null, reason);
        this.broadcast({ type: 'error', request: 'run',
          message: `run ${run.id}: ${/** @type {Error} */ (error).message}` });
      }
    } finally {
      run.busy = false;
    }
  }

  /**
   * Stops the run of `id`, telling every browser but `except` (with `reason`
   * when the run failed).
   * @param {string} id
   * @param {any} [except]
   * @param {string} [reason]
   */
  stopRun(id, except = null, reason = undefined) {
    const run = this.runs.get(id);
    if (!run) return;
    clearInterval(run.timer);
    this.runs.delete(id);
    for (const q of run.pushes.splice(0)) q.reject(new Error('the run stopped before the push began'));
    this.broadcast({ type: 'running', id, running: false, ...(reason ? { reason } : {}) }, except);
  }

  /**
   * The action of an instance's next step, of `seconds` of simulated time:
   * its applied command, ramped over them toward the one asked for, sized to
   * the Spec's action.
   * @param {string} id
   * @param {number} seconds
   */
  action(id, seconds) {
    const spec = this.specs.get(id);
    const size = spec && spec.actionSize !== undefined ? spec.actionSize : 3;
    const target = this.commands.get(id);
    let command = [0, 0, 0];
    if (target && spec) {
      command = rampCommand(this.applied.get(id) || [0, 0, 0], target, spec.actionLower,
        spec.actionUpper, seconds);
      this.applied.set(id, command);
    }
    return command.slice(0, size).concat(new Array(Math.max(0, size - command.length)).fill(0));
  }

  /**
   * The command of an instance commanded here: the one asked for and the one
   * applied at the last step; null for others.
   * @param {string} id
   * @returns {{target: number[], applied: number[]} | null}
   */
  commandOf(id) {
    const target = this.commands.get(id);
    if (!target) return null;
    return { target, applied: this.applied.get(id) || [0, 0, 0] };
  }

  /** @param {Record<string, any>} m */
  async command(m) {
    const id = instanceId(m);
    const values = ['forward', 'lateral', 'yaw'].map((name) => {
      const value = m[name] === undefined ? 0 : m[name];
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw new Error(`${name}: give a finite number, got ${JSON.stringify(value)}`);
      }
      return value;
    });
    const spec = this.specs.get(id);
    if (!spec || spec.controlMode !== 'command') {
      throw new Error(`instance ${id} was not created here under control mode "command"`);
    }
    // Clamped as the server clamps (Spec.action_lower/upper), to show what applies.
    const command = values.map((v, i) => (i < spec.actionLower.length
      ? Math.min(Math.max(v, spec.actionLower[i]), spec.actionUpper[i]) : v));
    this.commands.set(id, command);
    if (!this.applied.has(id)) this.applied.set(id, [0, 0, 0]);
    return { type: 'command', id, command, applied: this.applied.get(id) };
  }

  /** @param {Record<string, any>} m */
  async push(m) {
    const id = instanceId(m);
    const force = m.force;
    // The server's bound: a push it refuses would fail a run's step, and so stop the run.
    if (!Array.isArray(force) || force.length !== 3 ||
        !force.every((f) => typeof f === 'number' && Number.isFinite(f) && Math.abs(f) <= MAX_PUSH_N)) {
      throw new Error(`force: give three finite numbers of magnitude ≤ ${MAX_PUSH_N} (N, world frame), ` +
        `got ${JSON.stringify(force)}`);
    }
    const duration = m.duration === undefined ? 0.1 : m.duration;
    if (typeof duration !== 'number' || !(duration > 0) || duration > 60) {
      throw new Error(`duration: give seconds in (0, 60], got ${JSON.stringify(duration)}`);
    }
    const push = { body: typeof m.body === 'string' ? m.body : '', force, duration };
    const run = this.runs.get(id);
    if (run) {
      // With the run's next step; answered once it is made.
      const { start, time } = await new Promise((resolve, reject) =>
        run.pushes.push({ push, resolve, reject }));
      return { type: 'pushed', id, queued: true, start, time, force, duration };
    }
    // Not running: one step starts the push (the action: the command, or zeros).
    const spec = await this.spec(id);
    const start = (await this.client.query(id, {})).time;
    const action = spec.controlMode === 'command' ? this.action(id, spec.dt)
      : new Array(spec.actionSize === undefined ? spec.actuators : spec.actionSize).fill(0);
    const observation = await this.client.step(id, action, 1, { pushes: [push] });
    return { type: 'pushed', id, queued: false, start, time: observation.time, force, duration };
  }

  broadcast(message, except = null) {
    for (const socket of this.sockets) if (socket !== except) send(socket, message);
  }
}

/**
 * What the page needs of a model to draw it: body names, shapes, bodies
 * (inertia boxes), contact points; with the instance's Spec, its control
 * mode, action bounds and dt.
 * @param {Record<string, any>} model moreau.v1.ModelSpec
 * @param {Record<string, any> | null} spec moreau.v1.Spec
 */
function drawingSpec(model, spec) {
  return {
    name: model.name,
    bodyNames: model.bodyNames,
    floatingBase: model.floatingBase,
    shapes: model.shapes,
    visualShapes: model.visualShapes || [],
    bodies: model.bodies,
    contactPoints: model.contactPoints,
    actuators: model.actuators.length,
    controlMode: spec ? spec.controlMode : null,
    controller: spec ? spec.controlMode === 'command' : false,
    actionSize: spec ? spec.actionLower.length : undefined,
    actionLower: spec ? spec.actionLower : [],
    actionUpper: spec ? spec.actionUpper : [],
    dt: spec ? spec.dt : null,
  };
}

/** @param {Record<string, any>} m */
function instanceId(m) {
  if (typeof m.id !== 'string' || !m.id) throw new Error('give the instance as id: "…"');
  return m.id;
}

function stopWatch(socket) {
  const watch = socket.watch;
  if (!watch) return;
  socket.watch = null;
  watch.outbox.close();
  if (watch.frames) watch.frames.cancel();
}

function send(socket, message) {
  if (socket.readyState === 1) socket.send(JSON.stringify(message));
}

/**
 * Starts a dashboard; resolves once it listens.
 * @param {DashboardOptions} options
 * @returns {Promise<Dashboard>}
 */
async function startDashboard(options) {
  const dashboard = new Dashboard(options);
  await dashboard.listen();
  return dashboard;
}

module.exports = {
  Dashboard, startDashboard, armTargets, DEMO_ROBOT, MAX_RATE_HZ, MAX_BUFFERED_BYTES,
};
