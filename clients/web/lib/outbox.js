'use strict';
// Newest-only sending to one WebSocket: a message goes at once unless the
// socket has more than `maxBufferedBytes` unsent; then it waits under its
// key, replacing the one waiting there (or merged with it), and goes when
// the socket drains. So a slow reader gets fewer, newer messages, and its
// socket's buffer stays bounded whatever the rate of what is put.

/** Unsent bytes on a socket above which messages wait (newest only). */
const MAX_BUFFERED_BYTES = 256 * 1024;
/** How often waiting messages are retried while the socket is backed up. */
const FLUSH_PERIOD_MS = 15;

/**
 * @typedef {{readyState: number, bufferedAmount: number,
 *   send: (data: string | Buffer) => void}} Sendable
 */

class Outbox {
  /**
   * @param {Sendable} socket
   * @param {(key: any, message: any) => string | Buffer} encode what goes on the wire
   * @param {{maxBufferedBytes?: number, flushPeriodMs?: number}} [options]
   */
  constructor(socket, encode, options = {}) {
    this.socket = socket;
    this.encode = encode;
    this.maxBufferedBytes = options.maxBufferedBytes ?? MAX_BUFFERED_BYTES;
    this.flushPeriodMs = options.flushPeriodMs ?? FLUSH_PERIOD_MS;
    /** Messages waiting, by key, in the order their keys were first put. */
    this.pending = new Map();
    /** @type {NodeJS.Timeout | null} */
    this.timer = null;
  }

  /**
   * Queues `message` under `key` and sends what the socket takes.
   * @param {any} key
   * @param {any} message
   * @param {(older: any, newer: any) => any} [merge] how a message still
   *   waiting under `key` and the new one combine (default: the new one)
   */
  put(key, message, merge) {
    const older = this.pending.get(key);
    this.pending.set(key, older !== undefined && merge ? merge(older, message) : message);
    if (!this.timer) this.flush();
  }

  /** The message waiting under `key`, if any. */
  peek(key) {
    return this.pending.get(key);
  }

  /** Drops the message waiting under `key`. */
  delete(key) {
    this.pending.delete(key);
  }

  /** Sends waiting messages while the socket is not backed up. */
  flush() {
    this.timer = null;
    if (this.socket.readyState !== 1) return;
    for (const [key, message] of this.pending) {
      if (this.socket.bufferedAmount > this.maxBufferedBytes) {
        this.timer = setTimeout(() => this.flush(), this.flushPeriodMs);
        return;
      }
      this.pending.delete(key);
      this.socket.send(this.encode(key, message));
    }
  }

  /** Drops everything waiting and stops retrying. */
  close() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending.clear();
  }
}

module.exports = { Outbox, MAX_BUFFERED_BYTES, FLUSH_PERIOD_MS };
