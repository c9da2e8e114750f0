'use strict';
// Session: closed-loop control over one bidirectional Session stream. Each
// step() writes one SessionRequest; the server answers every request, in
// order, with one SessionResponse, so the n-th response settles the n-th
// step()'s promise. Steps may be pipelined (several sent before the first
// answer arrives).

const { grpc } = require('./grpc_modules');
const { MoreauError, fromGrpcError } = require('./errors');
const { observation } = require('./results');
const { checkOptions, stepRequest } = require('./requests');

/** The longest delay setTimeout honours (ms). */
const MAX_TIMER_MS = 2 ** 31 - 1;

class Session {
  /**
   * Made by Client.session(); not constructed directly.
   * @param {import('@grpc/grpc-js').ClientDuplexStream<any, any>} call
   * @param {string} address
   * @param {number} closeTimeoutMs how long close() waits for the server to end
   *   the stream before cancelling it (Infinity: as long as it takes)
   */
  constructor(call, address, closeTimeoutMs) {
    this._call = call;
    this._address = address;
    this._closeTimeoutMs = closeTimeoutMs;
    /** @type {{resolve: (value: any) => void, reject: (error: Error) => void}[]} steps awaiting their answer, oldest first */
    this._waiting = [];
    /** @type {import('./errors').MoreauError | null} why the stream failed, once it has */
    this._failure = null;
    this._closed = false;
    this._ended = false;
    /** @type {Promise<void>} settles (always resolves) when the stream has ended */
    this.ended = new Promise((resolve) => { this._resolveEnded = resolve; });

    call.on('data', (response) => {
      const waiter = this._waiting.shift();
      if (waiter) waiter.resolve(observation(response.observation));
    });
    call.on('error', (error) => {
      this._failure = fromGrpcError(error, 'Session', address);
    });
    // Every answer has been delivered by 'end'; 'status' alone may precede
    // buffered answers, so it finishes one turn of the event loop later.
    call.on('end', () => this._finish());
    call.on('status', () => setImmediate(() => this._finish()));
  }

  /**
   * Sends one step and resolves with its observation. A failed instance step
   * (unknown id, bad action, divergence) comes back in the observation's
   * `status` (the stream goes on); a failed stream rejects with MoreauError.
   * @param {string} instanceId
   * @param {ArrayLike<number>} action per actuator
   * @param {number} [substeps] how many steps, at least 1 (1)
   * @param {{pushes?: Record<string, any>[]}} [options] pushes: moreau.v1.Push
   *   objects ({body, force, point, torque, duration}) that start with this step
   * @returns {Promise<import('./results').Observation>}
   */
  step(instanceId, action, substeps = 1, options = {}) {
    if (this._failure) return Promise.reject(this._failure);
    if (this._closed || this._ended) {
      return Promise.reject(new Error('Session.step: the session is closed'));
    }
    checkOptions(options, ['pushes'], 'Session.step');
    const request = { step: stepRequest(instanceId, action, substeps, options.pushes) };
    return new Promise((resolve, reject) => {
      this._waiting.push({ resolve, reject });
      this._call.write(request);
    });
  }

  /**
   * Half-closes the stream (no more steps) and resolves once the server has
   * answered every step sent and ended it; after the close timeout the
   * stream is cancelled instead. Never rejects: failures reach step().
   * @returns {Promise<void>}
   */
  close() {
    if (!this._closed && !this._ended) {
      this._closed = true;
      this._call.end();
      // A timer longer than setTimeout's 2^31 − 1 ms would fire at once: none.
      if (this._closeTimeoutMs <= MAX_TIMER_MS) {
        const timer = setTimeout(() => this.cancel(), this._closeTimeoutMs);
        this.ended.then(() => clearTimeout(timer));
      }
    }
    return this.ended;
  }

  /** Cancels the stream at once; steps still unanswered reject with CANCELLED. */
  cancel() {
    if (this._ended) return;
    this._closed = true;
    this._call.cancel();
  }

  /** Rejects what is still waiting and marks the stream ended (idempotent). */
  _finish() {
    if (this._ended) return;
    this._ended = true;
    const reason = this._failure || new MoreauError(grpc.status.UNAVAILABLE,
      'the session stream ended before answering', { method: 'Session', address: this._address });
    for (const waiter of this._waiting.splice(0)) waiter.reject(reason);
    /** @type {() => void} */ (this._resolveEnded)();
  }
}

module.exports = { Session };
