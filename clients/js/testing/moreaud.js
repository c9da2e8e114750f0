'use strict';
// Real moreaud servers for the tests: child processes on free loopback ports.
//
// The binary is $MOREAUD_BIN (ctest sets it). A server is started with
//   --host 127.0.0.1 --port 0 --metrics-port -1 --drain-delay-s 0
// plus the test's flags (later flags win), and its port is read from the
// first line it prints: "moreaud: listening on 127.0.0.1:PORT, …".

const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const LISTENING = /moreaud: listening on ([^\s,]+):(\d+)/;

/** Servers started and temporary directories made by this process. */
const started = new Set();
const directories = new Set();

// A safety net for a test process that ends without its after hooks (a
// crash): no server outlives it, no temporary directory stays behind.
process.on('exit', () => {
  for (const child of started) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  for (const dir of directories) fs.rmSync(dir, { recursive: true, force: true });
});

/** How long a server may take to print its first line. */
const START_TIMEOUT_MS = 20000;
/** How long a server may take to exit after SIGTERM before it is killed. */
const STOP_TIMEOUT_MS = 15000;

/**
 * The moreaud binary: $MOREAUD_BIN, which must be a file (the tests fail
 * rather than skip without it).
 * @returns {string}
 */
function moreaudBinary() {
  const binary = process.env.MOREAUD_BIN;
  if (!binary || !fs.existsSync(binary) || !fs.statSync(binary).isFile()) {
    throw new Error(`set MOREAUD_BIN to the moreaud binary (ctest does); got '${binary || ''}'`);
  }
  return binary;
}

class Server {
  /**
   * @param {import('node:child_process').ChildProcess} child
   * @param {string} host
   * @param {number} port
   * @param {() => string} stderr what the server printed on stderr so far
   */
  constructor(child, host, port, stderr) {
    this.process = child;
    this.host = host;
    this.port = port;
    this.address = `${host}:${port}`;
    this.stderr = stderr;
    /** @type {Promise<{code: number | null, signal: string | null}>} */
    this.exited = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        resolve({ code: child.exitCode, signal: child.signalCode });
      } else {
        child.once('exit', (code, signal) => resolve({ code, signal }));
      }
    });
  }

  /** Whether the process is still running. */
  get running() {
    return this.process.exitCode === null && this.process.signalCode === null;
  }

  /**
   * Sends SIGTERM (a graceful stop: drain, then exit) and waits for the exit;
   * SIGKILL after STOP_TIMEOUT_MS.
   * @returns {Promise<{code: number | null, signal: string | null}>}
   */
  async stop() {
    if (this.running) this.process.kill('SIGTERM');
    const timer = setTimeout(() => { if (this.running) this.process.kill('SIGKILL'); },
      STOP_TIMEOUT_MS);
    const result = await this.exited;
    clearTimeout(timer);
    return result;
  }

  /** Kills the server at once (as a crash would) and waits for the exit. */
  async kill() {
    if (this.running) this.process.kill('SIGKILL');
    return this.exited;
  }
}

/**
 * Starts a moreaud with `flags` added to the defaults and resolves once it
 * listens.
 * @param {string[]} [flags]
 * @returns {Promise<Server>}
 */
function startServer(flags = []) {
  const binary = moreaudBinary();
  const args = ['--host', '127.0.0.1', '--port', '0', '--metrics-port', '-1',
    '--drain-delay-s', '0', ...flags];
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  child.once('exit', () => started.delete(child));
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text) => { stderr = (stderr + text).slice(-8192); });
  return new Promise((resolve, reject) => {
    let stdout = '';
    const fail = (/** @type {string} */ why) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`moreaud ${args.join(' ')}: ${why}; stdout '${stdout}', stderr '${stderr}'`));
    };
    const timer = setTimeout(() => fail(`printed no line in ${START_TIMEOUT_MS} ms`),
      START_TIMEOUT_MS);
    child.once('error', (error) => fail(`could not run: ${error.message}`));
    const onExit = (/** @type {number | null} */ code, /** @type {string | null} */ signal) =>
      fail(`exited (code ${code}, signal ${signal})`);
    child.once('exit', onExit);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', function onData(text) {
      stdout += text;
      const newline = stdout.indexOf('\n');
      if (newline < 0) return;
      child.stdout.off('data', onData);
      child.stdout.resume();  // keep draining whatever else it prints
      child.off('exit', onExit);
      clearTimeout(timer);
      const match = LISTENING.exec(stdout.slice(0, newline));
      if (!match) {
        fail('did not print its "listening on" line');
        return;
      }
      resolve(new Server(child, match[1], Number(match[2]), () => stderr));
    });
  });
}

/**
 * A fresh temporary directory, for token files and certificates; removed when
 * the process exits.
 * @returns {string}
 */
function temporaryDirectory() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moreau-js-test-'));
  directories.add(dir);
  return dir;
}

/**
 * Writes a --auth-tokens-file: one line 'TENANT SHA256_HEX [OPTIONS]' per
 * entry, and returns its path.
 * @param {string} dir
 * @param {{tenant: string, token: string, options?: string}[]} entries
 * @returns {string}
 */
function writeTokensFile(dir, entries) {
  const lines = entries.map(({ tenant, token, options }) => [tenant,
    crypto.createHash('sha256').update(token).digest('hex'), options || ''].join(' ').trim());
  const file = path.join(dir, 'tokens.txt');
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

module.exports = { startServer, Server, temporaryDirectory, writeTokensFile, moreaudBinary };
