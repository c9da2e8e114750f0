'use strict';
// Watch: the frames of a Watch server stream as an async iterator. The
// iteration ends cleanly when the caller cancels (cancel(), an AbortSignal,
// or leaving a for-await loop early) and when the server ends the stream (the
// instance was destroyed); any other end of the stream throws MoreauError.

const { fromGrpcError } = require('./errors');

/** Frames buffered before the stream is paused until the reader catches up. */
const MAX_BUFFERED_FRAMES = 64;

class Watch {
  /**
   * Made by Client.watch(); not constructed directly.
   * @param {import('@grpc/grpc-js').ClientReadableStream<any> | null} call null: the caller's
   *   signal was aborted before the call, which was therefore not made
   * @param {string} address
   * @param {AbortSignal} [signal] cancels the stream when aborted
   */
  constructor(call, address, signal) {
    this._call = call;
    /** @type {import('./results').WatchFrame[]} frames received, not yet read */
    this._frames = [];
    /** @type {((result: IteratorResult<any>) => void) | null} a reader waiting for a frame */
    this._resolveNext = null;
    /** @type {((error: Error) => void) | null} */
    this._rejectNext = null;
    /** @type {Error | null} why the stream failed (not set for a cancel or a clean end) */
    this._failure = null;
    this._cancelled = call === null;
    this._done = call === null;
    this._signal = signal;
    this._onAbort = () => this.cancel();
    if (call === null) return;

    call.on('data', (frame) => {
      if (this._cancelled) return;
      if (this._resolveNext) {
        this._settle({ value: frame, done: false });
      } else {
        this._frames.push(frame);
        if (this._frames.length >= MAX_BUFFERED_FRAMES) call.pause();
      }
    });
    call.on('error', (error) => {
      // After the caller's cancel() the stream ends as asked (CANCELLED, or
      // whatever status crossed the cancel): not a failure.
      if (!this._cancelled) {
        this._failure = fromGrpcError(error, 'Watch', address);
      }
      this._end();
    });
    call.on('end', () => this._end());
    if (signal) signal.addEventListener('abort', this._onAbort, { once: true });
  }

  /** Cancels the stream: the iteration ends (without an error) at its next read. */
  cancel() {
    if (this._done) return;
    this._cancelled = true;
    this._frames.length = 0;
    if (this._call) this._call.cancel();
    this._end();
  }

  /** @returns {AsyncIterator<import('./results').WatchFrame>} */
  [Symbol.asyncIterator]() {
    return this;
  }

  /**
   * The next frame; done when the stream has ended; rejects with MoreauError
   * when it failed.
   * @returns {Promise<IteratorResult<import('./results').WatchFrame>>}
   */
  next() {
    if (this._frames.length) {
      const frame = /** @type {import('./results').WatchFrame} */ (this._frames.shift());
      const call = /** @type {import('@grpc/grpc-js').ClientReadableStream<any>} */ (this._call);
      if (this._frames.length < MAX_BUFFERED_FRAMES / 2 && call.isPaused()) call.resume();
      return Promise.resolve({ value: frame, done: false });
    }
    if (this._failure) return Promise.reject(this._failure);
    if (this._done) return Promise.resolve({ value: undefined, done: true });
    if (this._resolveNext) return Promise.reject(new Error('Watch.next: a read is already waiting'));
    return new Promise((resolve, reject) => {
      this._resolveNext = resolve;
      this._rejectNext = reject;
    });
  }

  /**
   * Called when a for-await loop is left early (break, return, throw): cancels.
   * @returns {Promise<IteratorResult<any>>}
   */
  return() {
    this.cancel();
    return Promise.resolve({ value: undefined, done: true });
  }

  /** Hands `result` to the waiting reader. */
  _settle(result) {
    const resolve = /** @type {(result: IteratorResult<any>) => void} */ (this._resolveNext);
    this._resolveNext = null;
    this._rejectNext = null;
    resolve(result);
  }

  /** Marks the stream over and wakes a waiting reader (idempotent). */
  _end() {
    if (this._signal) this._signal.removeEventListener('abort', this._onAbort);
    this._done = true;
    if (!this._resolveNext) return;
    if (this._failure) {
      const reject = /** @type {(error: Error) => void} */ (this._rejectNext);
      this._resolveNext = null;
      this._rejectNext = null;
      reject(this._failure);
    } else {
      this._settle({ value: undefined, done: true });
    }
  }
}

module.exports = { Watch };
