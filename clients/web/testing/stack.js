'use strict';
// Shared by the tests: a real moreaud (clients/js/testing/moreaud.js, on
// 127.0.0.1 port 0), a dashboard on 127.0.0.1 port 0 bridging to it (with
// its Foxglove endpoint on 127.0.0.1 when asked), and a WebSocket client of
// the bridge that awaits answers with timeouts.

const WebSocket = require('ws');
const { startServer } = require('../../js/testing/moreaud');
const { Client } = require('../../js/lib');
const { startDashboard } = require('../lib/bridge');

/**
 * Starts moreaud and a dashboard; `stop()` ends both.
 * @param {{foxglovePort?: number, foxgloveOrigins?: string[]}} [options] the
 *   dashboard's Foxglove endpoint (port 0: any free one; none without)
 */
async function startStack(options = {}) {
  const server = await startServer();
  const dashboard = await startDashboard({ server: server.address, host: '127.0.0.1', port: 0,
    ...options });
  const client = new Client(server.address);
  return {
    server, dashboard, client,
    async stop() {
      client.close();
      await dashboard.close();
      await server.stop();
    },
  };
}

/** A WebSocket client of the bridge: `request(message)` resolves with the answer of the same ref. */
class BridgeClient {
  constructor(url) {
    this.socket = new WebSocket(url);
    this.messages = [];
    this.waiters = [];
    this.ref = 1;
    this.socket.on('message', (data) => {
      const message = JSON.parse(data.toString());
      this.messages.push(message);
      for (const waiter of [...this.waiters]) {
        if (waiter.match(message)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          clearTimeout(waiter.timer);
          waiter.resolve(message);
        }
      }
    });
  }

  open() {
    return new Promise((resolve, reject) => {
      if (this.socket.readyState === WebSocket.OPEN) resolve(undefined);
      this.socket.once('open', resolve);
      this.socket.once('error', reject);
    });
  }

  /** The next message `match` accepts (among those still to come), within `timeoutMs`. */
  waitFor(match, timeoutMs = 10000, what = 'a message') {
    return new Promise((resolve, reject) => {
      const waiter = { match, resolve, timer: null };
      waiter.timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`no ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Sends `message` with a ref; resolves with its answer (an error answer included). */
  request(message, timeoutMs = 10000) {
    const ref = this.ref++;
    const answer = this.waitFor((m) => m.ref === ref, timeoutMs, `answer to ${message.type}`);
    this.socket.send(JSON.stringify({ ...message, ref }));
    return answer;
  }

  close() {
    this.socket.terminate();
  }
}

/** Resolves after `ms`. */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

module.exports = { startStack, BridgeClient, sleep };
