'use strict';
// Client: every RPC of moreau.v1.Simulator, and the health check, against
// one moreaud.
//
// Every call takes a `timeout` option in seconds (the client's default, 10 s,
// when omitted; Infinity for no deadline) and rejects with MoreauError
// carrying the gRPC code and the server's message when it fails. Calls never
// wait for a server that is down: they fail at once with UNAVAILABLE, or with
// DEADLINE_EXCEEDED when the server stops answering.

const { grpc } = require('./grpc_modules');
const { loadSimulator, loadHealth } = require('./proto');
const { MoreauError, fromGrpcError } = require('./errors');
const { channelCredentials, resolveToken, callMetadata } = require('./security');
const requests = require('./requests');
const results = require('./results');
const { Session } = require('./session');
const { Watch } = require('./watch');

/** The default deadline of every call, in seconds. */
const DEFAULT_TIMEOUT_S = 10;

/** The largest message sent or received (the server's default limit is 16 MiB). */
const MAX_MESSAGE_BYTES = 64 << 20;

/** The health service name moreaud reports for the simulator. */
const SIMULATOR_SERVICE = 'moreau.v1.Simulator';

/**
 * @typedef {object} ClientOptions
 * @property {number} [timeout] the default deadline of every call, in seconds (10)
 * @property {import('./security').TlsOption} [tls] plaintext unless given
 * @property {string} [token] bearer token (default: $MOREAU_TOKEN; '' for none)
 * @property {string} [proto] path of simulator.proto (default: $MOREAU_PROTO,
 *   else the repository's proto/moreau/v1/simulator.proto)
 * @property {Record<string, any>} [channelOptions] extra gRPC channel options
 */

/** @typedef {{timeout?: number}} CallOptions */

class Client {
  /**
   * A client of the moreaud at `address`. Does not connect until the first call.
   * @param {string} address host:port
   * @param {ClientOptions} [options]
   */
  constructor(address, options = {}) {
    if (typeof address !== 'string' || !address) {
      throw new TypeError(`Client: give the server's address as 'host:port', got ${address}`);
    }
    requests.checkOptions(options, ['timeout', 'tls', 'token', 'proto', 'channelOptions'],
      'Client');
    /** @type {string} */
    this.address = address;
    /** @type {number} the default deadline, in seconds */
    this.timeout = checkTimeout(options.timeout === undefined ? DEFAULT_TIMEOUT_S : options.timeout);
    const definition = loadSimulator(options.proto);
    /** @type {string} the simulator.proto this client was built from */
    this.protoPath = definition.protoPath;
    this._packageDefinition = definition.packageDefinition;
    this._token = resolveToken(options.token);
    const credentials = channelCredentials(options.tls);
    const channelOptions = {
      'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
      'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
      ...options.channelOptions,
    };
    /** @type {import('@grpc/grpc-js').Client & Record<string, Function>} */
    this._stub = /** @type {any} */ (new definition.Simulator(address, credentials, channelOptions));
    const Health = loadHealth();
    /** @type {import('@grpc/grpc-js').Client & Record<string, Function>} */
    this._health = /** @type {any} */ (new Health(address, credentials,
      { channelOverride: this._stub.getChannel() }));
  }

  // ------------------------------------------------------------ plumbing --

  /** Closes the channel; calls in flight are cancelled. */
  close() {
    this._stub.close();
  }

  /**
   * The gRPC deadline of a call's `timeout` (seconds; the client's default
   * when undefined; Infinity: none).
   * @param {number | undefined} timeout
   * @returns {number} milliseconds since the epoch, or Infinity
   */
  _deadline(timeout) {
    const seconds = timeout === undefined ? this.timeout : checkTimeout(timeout);
    return Number.isFinite(seconds) ? Date.now() + seconds * 1000 : Infinity;
  }

  /**
   * Calls the unary RPC `method` and resolves with its response message.
   * @param {string} method e.g. 'Step'
   * @param {Record<string, any>} request
   * @param {number | undefined} timeout
   * @returns {Promise<Record<string, any>>}
   */
  _call(method, request, timeout) {
    const deadline = this._deadline(timeout);
    return new Promise((resolve, reject) => {
      this._stub[method](request, callMetadata(this._token), { deadline }, (error, response) => {
        if (error) reject(fromGrpcError(error, method, this.address));
        else resolve(response);
      });
    });
  }

  // ------------------------------------------------------------ health --

  /**
   * The health service's status of `service` (default: the simulator; ''
   * asks about the server as a whole): 'SERVING', or 'NOT_SERVING' from the
   * moment the server is told to stop. Needs no token.
   * @param {string} [service]
   * @param {CallOptions} [options]
   * @returns {Promise<string>}
   */
  async checkHealth(service = SIMULATOR_SERVICE, options = {}) {
    requests.checkOptions(options, ['timeout'], 'checkHealth');
    const deadline = this._deadline(options.timeout);
    return new Promise((resolve, reject) => {
      this._health.Check({ service }, callMetadata(''), { deadline }, (error, response) => {
        if (error) reject(fromGrpcError(error, 'grpc.health.v1.Health/Check', this.address));
        else resolve(response.status);
      });
    });
  }

  /**
   * Waits until the channel is connected to the server (for a server that is
   * still starting); rejects with UNAVAILABLE after `timeout` seconds.
   * @param {number} [timeout] seconds (the client's default)
   * @returns {Promise<void>}
   */
  async waitForServer(timeout) {
    const deadline = this._deadline(timeout);
    return new Promise((resolve, reject) => {
      this._stub.waitForReady(deadline, (/** @type {Error | undefined} */ error) => {
        if (!error) resolve();
        else {
          reject(new MoreauError(grpc.status.UNAVAILABLE,
            `the server did not answer in time (${error.message})`,
            { method: 'waitForServer', address: this.address, cause: error }));
        }
      });
    });
  }

  // ------------------------------------------------------------ models --

  /**
   * The built-in models' specs (moreau.v1.ModelSpec: name, nq, nv, joints,
   * actuators, contact points, the default pose, …).
   * @param {CallOptions} [options]
   * @returns {Promise<Record<string, any>[]>}
   */
  async listModels(options = {}) {
    requests.checkOptions(options, ['timeout'], 'listModels');
    return (await this._call('ListModels', {}, options.timeout)).models;
  }

  /**
   * The spec of a built-in (`model`, e.g. 'mini_cheetah') or of URDF text
   * (`options.urdf` / `options.urdfPath`), without creating anything.
   * @param {string | Record<string, any>} model a built-in name or a ModelSource object
   * @param {requests.ModelSourceOptions & CallOptions} [options]
   * @returns {Promise<Record<string, any>>}
   */
  async getModel(model, options = {}) {
    requests.checkOptions(options, ['timeout', ...requests.MODEL_SOURCE_OPTIONS], 'getModel');
    const { timeout, ...source } = options;
    const request = { model: requests.modelSource(this._packageDefinition, model, source) };
    return (await this._call('GetModel', request, timeout)).spec;
  }

  /**
   * The bytes of mesh file `mesh` (as a shape names it: `shapes[i].mesh` or
   * `visualShapes[i].mesh` of the model's spec) of the built-in model `model`,
   * compiled into the server, and its format ('stl' or 'obj'). Rejects with
   * NOT_FOUND for a mesh or model the server does not hold.
   * @param {string} model a built-in model's name, e.g. 'ur10'
   * @param {string} mesh e.g. 'meshes/ur10/collision/base.stl'
   * @param {CallOptions} [options]
   * @returns {Promise<{data: Buffer, format: string}>}
   */
  async getMesh(model, mesh, options = {}) {
    requests.checkOptions(options, ['timeout'], 'getMesh');
    for (const [name, value] of /** @type {const} */ ([['model', model], ['mesh', mesh]])) {
      if (typeof value !== 'string') {
        throw new TypeError(`getMesh: give ${name} as a string, got ${value}`);
      }
    }
    const response = await this._call('GetMesh', { model, mesh }, options.timeout);
    return { data: response.data, format: response.format };
  }

  // --------------------------------------------------------- instances --

  /**
   * Creates `count` instances of one model with one Settings. With `noise > 0`
   * instance k starts from the default pose perturbed by seeded noise
   * (seed + k).
   * @param {string | Record<string, any>} model a built-in name or a ModelSource object
   * @param {number} [count] how many, at least 1
   * @param {requests.ModelSourceOptions & CallOptions & {settings?: Record<string, any>,
   *   seed?: number, noise?: number}} [options] `settings` in the proto's
   *   camelCase names ({dt, contactModel, controlMode, kp, …})
   * @returns {Promise<results.Instances>}
   */
  async createInstances(model, count = 1, options = {}) {
    requests.checkOptions(options,
      ['timeout', 'settings', 'seed', 'noise', ...requests.MODEL_SOURCE_OPTIONS], 'createInstances');
    const { timeout, settings, seed = 0, noise = 0, ...source } = options;
    const request = {
      model: requests.modelSource(this._packageDefinition, model, source),
      settings: requests.settingsMessage(this._packageDefinition, settings),
      count,
      seed,
      noise,
    };
    return results.instances(await this._call('CreateInstances', request, timeout));
  }

  /**
   * `count` instances of the built-in model `name` with `settings`.
   * @param {string} name e.g. 'pendulum'
   * @param {number} [count]
   * @param {Record<string, any>} [settings]
   * @param {CallOptions} [options]
   * @returns {Promise<results.Instances>}
   */
  async createBuiltin(name, count = 1, settings = {}, options = {}) {
    requests.checkOptions(options, ['timeout'], 'createBuiltin');
    if (typeof name !== 'string' || !name) {
      throw new TypeError(`createBuiltin: give a built-in model's name, got ${name}`);
    }
    return this.createInstances(name, count, { settings, timeout: options.timeout });
  }

  /**
   * Frees instances; unknown ids are listed in `notFound`, the others are
   * still freed.
   * @param {string[]} instanceIds
   * @param {CallOptions} [options]
   * @returns {Promise<{destroyed: number, notFound: string[]}>}
   */
  async destroyInstances(instanceIds, options = {}) {
    requests.checkOptions(options, ['timeout'], 'destroyInstances');
    if (!Array.isArray(instanceIds)) {
      throw new TypeError('destroyInstances: give an array of instance ids');
    }
    const response = await this._call('DestroyInstances', { instanceIds }, options.timeout);
    return { destroyed: response.destroyed, notFound: response.notFound };
  }

  /**
   * Every instance of the caller (InstanceInfo objects in id order: model,
   * tenant, contactModel, controller, time, steps, status, watchers,
   * createdUnixS, lastSteppedUnixS), fetched `pageSize` at a time (0: the
   * server's default page).
   * @param {CallOptions & {pageSize?: number}} [options]
   * @returns {Promise<Record<string, any>[]>}
   */
  async listInstances(options = {}) {
    requests.checkOptions(options, ['timeout', 'pageSize'], 'listInstances');
    const { timeout, pageSize = 0 } = options;
    if (!Number.isInteger(pageSize)) throw new TypeError(`pageSize: give an integer, got ${pageSize}`);
    const infos = [];
    let pageToken = '';
    do {
      const page = await this._call('ListInstances', { pageSize, pageToken }, timeout);
      infos.push(...page.instances);
      pageToken = page.nextPageToken;
    } while (pageToken);
    return infos;
  }

  /**
   * Back to the default pose (perturbed by seeded noise when `noise > 0`) or
   * to `state`; clears a diverged instance.
   * @param {string} instanceId
   * @param {CallOptions & {seed?: number, noise?: number,
   *   state?: results.State | Uint8Array}} [options]
   * @returns {Promise<results.Observation>}
   */
  async reset(instanceId, options = {}) {
    requests.checkOptions(options, ['timeout', 'seed', 'noise', 'state'], 'reset');
    const { timeout, seed = 0, noise = 0, state } = options;
    /** @type {Record<string, any>} */
    const request = { instanceId, seed, noise };
    if (state !== undefined) request.state = { data: requests.stateBytes(state) };
    return results.observation((await this._call('Reset', request, timeout)).observation);
  }

  // ---------------------------------------------------------- stepping --

  /**
   * One instance, `action` (per actuator) held for `substeps` steps. The
   * instance's failure (e.g. FAILED_PRECONDITION when diverged) rejects.
   * @param {string} instanceId
   * @param {ArrayLike<number>} action
   * @param {number} [substeps] how many steps, at least 1 (1)
   * @param {CallOptions & {pushes?: Record<string, any>[]}} [options] pushes:
   *   moreau.v1.Push objects ({body, force, point, torque, duration}) that
   *   start with this step
   * @returns {Promise<results.Observation>}
   */
  async step(instanceId, action, substeps = 1, options = {}) {
    requests.checkOptions(options, ['timeout', 'pushes'], 'step');
    const request = requests.stepRequest(instanceId, action, substeps, options.pushes);
    return results.observation((await this._call('Step', request, options.timeout)).observation);
  }

  /**
   * The StepBatchRequest entries of stepBatch's arguments.
   * @param {string[]} instanceIds
   * @param {ArrayLike<number>[]} actions one per instance
   * @param {number | number[]} substeps one for all, or one per instance
   */
  _batchSteps(instanceIds, actions, substeps) {
    if (!Array.isArray(instanceIds) || !Array.isArray(actions) ||
        instanceIds.length !== actions.length) {
      throw new TypeError('stepBatch: give arrays of instance ids and of actions of one length');
    }
    if (Array.isArray(substeps) && substeps.length !== instanceIds.length) {
      throw new TypeError(`stepBatch: ${substeps.length} substeps for ${instanceIds.length} ` +
        'instances');
    }
    return instanceIds.map((id, i) => requests.stepRequest(id, actions[i],
      Array.isArray(substeps) ? substeps[i] : substeps));
  }

  /**
   * Many instances in one call, stepped in parallel on the server. A failing
   * instance does not fail the call: each observation carries its `status`.
   * @param {string[]} instanceIds
   * @param {ArrayLike<number>[]} actions one per instance
   * @param {number | number[]} [substeps] one for all, or one per instance
   * @param {CallOptions} [options]
   * @returns {Promise<results.Observation[]>} in request order
   */
  async stepBatch(instanceIds, actions, substeps = 1, options = {}) {
    requests.checkOptions(options, ['timeout'], 'stepBatch');
    const request = { steps: this._batchSteps(instanceIds, actions, substeps), packed: false };
    const response = await this._call('StepBatch', request, options.timeout);
    return response.observations.map(results.observation);
  }

  /**
   * stepBatch answered as one moreau.v1.ObservationBatch: one flat array per
   * quantity with the instances as rows (q is count × nq, row-major;
   * statusCodes and statusMessages per instance). Every instance must have
   * the same observation sizes (e.g. one model).
   * @param {string[]} instanceIds
   * @param {ArrayLike<number>[]} actions
   * @param {number | number[]} [substeps]
   * @param {CallOptions} [options]
   * @returns {Promise<Record<string, any>>}
   */
  async stepBatchPacked(instanceIds, actions, substeps = 1, options = {}) {
    requests.checkOptions(options, ['timeout'], 'stepBatchPacked');
    const request = { steps: this._batchSteps(instanceIds, actions, substeps), packed: true };
    return (await this._call('StepBatch', request, options.timeout)).packed;
  }

  /**
   * A closed-loop Session stream: `await session.step(id, action, substeps)`
   * per step, then `await session.close()`. Its deadline covers the whole
   * stream: none by default.
   * @param {CallOptions} [options]
   * @returns {Session}
   */
  session(options = {}) {
    requests.checkOptions(options, ['timeout'], 'session');
    const timeout = options.timeout === undefined ? Infinity : options.timeout;
    const call = this._stub.Session(callMetadata(this._token), { deadline: this._deadline(timeout) });
    return new Session(call, this.address, this.timeout * 1000);
  }

  // ------------------------------------------------------------- state --

  /**
   * The complete state of an instance: the portable blob, and q, v, time.
   * @param {string} instanceId
   * @param {CallOptions} [options]
   * @returns {Promise<results.State>}
   */
  async getState(instanceId, options = {}) {
    requests.checkOptions(options, ['timeout'], 'getState');
    return results.state(await this._call('GetState', { instanceId }, options.timeout));
  }

  /**
   * Restores a state (all or nothing); the instance continues bit-exactly.
   * @param {string} instanceId
   * @param {results.State | Uint8Array} state a State or its blob
   * @param {CallOptions} [options]
   * @returns {Promise<results.Observation>}
   */
  async setState(instanceId, state, options = {}) {
    requests.checkOptions(options, ['timeout'], 'setState');
    const request = { instanceId, state: { data: requests.stateBytes(state) } };
    return results.observation((await this._call('SetState', request, options.timeout)).observation);
  }

  // ------------------------------------------------------------- query --

  /**
   * Body poses, contacts, energies, the mass matrix, bias forces, contact
   * Jacobians and observed links' positions, each when asked for (true).
   * With `q` (nq numbers) all but the contacts are of that configuration at
   * rest instead of the instance's state (which stays as it is).
   * @param {string} instanceId
   * @param {CallOptions & {bodyPoses?: boolean, contacts?: boolean, energies?: boolean,
   *   massMatrix?: boolean, biasForces?: boolean, contactJacobians?: boolean,
   *   linkPositions?: boolean, q?: ArrayLike<number>}} [options]
   * @returns {Promise<results.QueryResult>}
   */
  async query(instanceId, options = {}) {
    const asked = ['bodyPoses', 'contacts', 'energies', 'massMatrix', 'biasForces',
      'contactJacobians', 'linkPositions'];
    requests.checkOptions(options, ['timeout', 'q', ...asked], 'query');
    /** @type {Record<string, any>} */
    const request = { instanceId };
    for (const name of asked) request[name] = Boolean(options[/** @type {keyof typeof options} */ (name)]);
    if (options.q !== undefined) request.q = requests.doubles(options.q, 'q');
    return results.queryResult(await this._call('Query', request, options.timeout));
  }

  /**
   * A stream of sampled frames (body poses, contact forces) at up to
   * `rateHz` (in (0, 1000]; 30 by default) until cancelled — `watch.cancel()`,
   * `signal` aborted or a for-await loop left — or the instance destroyed.
   * No deadline by default.
   * @param {string} instanceId
   * @param {CallOptions & {rateHz?: number, signal?: AbortSignal}} [options]
   * @returns {Watch} an async iterator of WatchFrame
   */
  watch(instanceId, options = {}) {
    requests.checkOptions(options, ['timeout', 'rateHz', 'signal'], 'watch');
    const { rateHz = 30, signal } = options;
    const timeout = options.timeout === undefined ? Infinity : options.timeout;
    // A signal aborted already: the caller wants no frames, so no call is made.
    const call = signal && signal.aborted ? null
      : this._stub.Watch({ instanceId, rateHz }, callMetadata(this._token),
        { deadline: this._deadline(timeout) });
    return new Watch(call, this.address, signal);
  }
}

/**
 * `timeout` when it is a positive number of seconds (Infinity allowed).
 * @param {unknown} timeout
 * @returns {number}
 */
function checkTimeout(timeout) {
  if (typeof timeout !== 'number' || Number.isNaN(timeout) || timeout <= 0) {
    throw new TypeError(`timeout: give a positive number of seconds (Infinity: none), got ${timeout}`);
  }
  return timeout;
}

module.exports = { Client, DEFAULT_TIMEOUT_S, SIMULATOR_SERVICE };
