#!/usr/bin/env node
'use strict';
// What browsers watching cost the server: one moreaud (--workers 1, pinned to
// core 0 with taskset), `--instances` trotting Mini Cheetahs stepped flat out
// by a client process, a dashboard (bin/moreau-dashboard.js) and headless
// Chromium pages, each watching one of the instances at 30 Hz; the client,
// this process, the dashboard and Chromium on core 1. The client keeps
// STEPPERS StepBatch calls in flight and runs at nice -10, so that the pages
// rendering on core 1 do not starve the server of steps to make (its CPU
// share is reported: near 1 when it never waits). Phases alternate 0 and
// `--viewers` viewers (A/B/A/B…); each measures, after a warm-up, the
// server's steps/s (from its Prometheus /metrics, moreau_steps_total) and CPU
// share, and each page's frames/s (window.dashboard.frames). Progress goes to
// stderr, the result, one JSON object, to stdout.
//
//   node bench/viewers.js [--moreaud PATH] [--viewers 8] [--instances 8]
//        [--pairs 3] [--phase-s 10] [--warmup-s 3] [--substeps 100]
//        [--max-s 600] [--chromium /usr/bin/chromium]
//
// --moreaud defaults to $MOREAUD_BIN, else build/server/moreaud of the
// checkout; --max-s bounds the whole run (it stops with an error past it).
// Needs two cores (taskset -c 0 and -c 1) and clients/js, clients/web's
// node_modules (npm ci).

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { Client } = require('../../js/lib');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const DASHBOARD = path.join(__dirname, '..', 'bin', 'moreau-dashboard.js');
const USAGE = 'usage: node bench/viewers.js [--moreaud PATH] [--viewers 8] [--instances 8] [--pairs 3]\n' +
  '       [--phase-s 10] [--warmup-s 3] [--substeps 100] [--max-s 600] [--chromium PATH]';

/**
 * @typedef {{moreaud: string, viewers: number, instances: number, pairs: number, phaseS: number,
 *   warmupS: number, substeps: number, maxS: number, chromium: string}} Options
 * @typedef {{viewers: number, seconds: number, steps: number, stepsPerSecond: number,
 *   serverCpu: number, stepsPerServerCpuSecond: number, core0Busy: number, core0Interrupts: number,
 *   clientCpu: number, framesPerSecond: number[]}} Phase
 *   serverCpu: moreaud's CPU time over the phase's wall time (1: all of core 0);
 *   stepsPerServerCpuSecond: steps per second of moreaud's CPU time (what
 *   serving the watchers costs it, whatever else took core 0); core0Busy: the
 *   share of core 0's time anything ran (less serverCpu: what other processes
 *   and the kernel took from the server), core0Interrupts: of it, interrupts
 *   and softirqs (e.g. loopback networking); clientCpu: the
 *   stepping client's CPU time over the wall time (of core 1)
 */

/** @param {string[]} argv @returns {Options} */
function parse(argv) {
  /** @type {Options} */
  const options = {
    moreaud: process.env.MOREAUD_BIN || path.join(ROOT, 'build', 'server', 'moreaud'),
    viewers: 8, instances: 8, pairs: 3, phaseS: 10, warmupS: 3, substeps: 100, maxS: 600,
    chromium: process.env.MOREAU_CHROMIUM || '/usr/bin/chromium',
  };
  const numbers = { '--viewers': 'viewers', '--instances': 'instances', '--pairs': 'pairs',
    '--phase-s': 'phaseS', '--warmup-s': 'warmupS', '--substeps': 'substeps', '--max-s': 'maxS' };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '-h' || flag === '--help') {
      console.log(USAGE);
      process.exit(0);
    }
    const value = argv[++i];
    if (value === undefined) throw new Error(`${flag}: give a value`);
    if (flag === '--moreaud') options.moreaud = value;
    else if (flag === '--chromium') options.chromium = value;
    else if (flag in numbers) {
      const number = Number(value);
      if (!(number >= 0) || !Number.isFinite(number)) throw new Error(`${flag}: not a number ≥ 0: ${value}`);
      options[/** @type {'viewers'} */ (numbers[/** @type {keyof numbers} */ (flag)])] = number;
    } else {
      throw new Error(`unknown flag ${flag}`);
    }
  }
  if (!(options.instances >= 1)) throw new Error('--instances: at least 1');
  if (!(options.pairs >= 1)) throw new Error('--pairs: at least 1');
  if (!(options.substeps >= 1)) throw new Error('--substeps: at least 1');
  return options;
}

/** StepBatch calls the client keeps in flight (on as many groups of instances). */
const STEPPERS = 4;

const log = (/** @type {string} */ text) => process.stderr.write(`viewers: ${text}\n`);
const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Spawns `command` and resolves with the child and the first match of
 * `pattern` in its stdout (within 30 s).
 * @param {string} command
 * @param {string[]} args
 * @param {RegExp} pattern
 * @returns {Promise<{child: import('node:child_process').ChildProcess, match: RegExpExecArray}>}
 */
function spawnUntil(command, args, pattern) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text) => { err = (err + text).slice(-4096); });
  return new Promise((resolve, reject) => {
    const fail = (/** @type {string} */ why) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')}: ${why}; stdout '${out}', stderr '${err}'`));
    };
    const timer = setTimeout(() => fail('printed nothing expected in 30 s'), 30000);
    child.once('error', (error) => fail(error.message));
    child.once('exit', (code, signal) => fail(`exited (code ${code}, signal ${signal})`));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', function onData(text) {
      out += text;
      const match = pattern.exec(out);
      if (!match) return;
      child.stdout.off('data', onData);
      child.stdout.resume();
      child.removeAllListeners('exit');
      clearTimeout(timer);
      resolve({ child, match });
    });
  });
}

/** GET `url`: its body. */
function get(url) {
  return new Promise((resolve, reject) => {
    http.get(url, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => { body += chunk; });
      response.on('end', () => resolve(body));
    }).on('error', reject);
  });
}

/** The server's steps so far: the sum of its moreau_steps_total series. */
async function stepsTotal(metricsUrl) {
  const text = /** @type {string} */ (await get(metricsUrl));
  let total = 0;
  for (const line of text.split('\n')) {
    const match = /^moreau_steps_total(?:\{[^}]*\})?\s+(\S+)/.exec(line);
    if (match) total += Number(match[1]);
  }
  return total;
}

/** Clock ticks per second of /proc/PID/stat's times. */
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** The CPU seconds (user and system) process `pid` has used, from /proc. */
function cpuSeconds(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;  // utime, stime
}

/** Core 0's busy, interrupt (irq and softirq) and total jiffies so far, from /proc/stat. */
function core0() {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n').find((l) => l.startsWith('cpu0 '));
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, interrupts: irq + softirq, total: busy + idle + iowait };
}

/** This process's CPU affinity as taskset prints it (e.g. "1"), or null without taskset. */
function affinity() {
  const result = spawnSync('taskset', ['-c', '-p', String(process.pid)], { encoding: 'utf8' });
  if (result.status !== 0) return null;
  const match = /:\s*(\S+)\s*$/.exec(result.stdout);
  return match ? match[1] : null;
}

/**
 * The client (`--stepper ADDRESS SUBSTEPS ID…`): steps its instances flat out,
 * forward at 0.3 m/s, in STEPPERS groups each one StepBatch after another,
 * until killed; prints "stepping" once the first calls are back.
 */
async function stepper([address, substeps, ...ids]) {
  const client = new Client(address, { timeout: 60 });
  const groups = [];
  for (let i = 0; i < Math.min(STEPPERS, ids.length); i++) {
    groups.push(ids.filter((_, k) => k % STEPPERS === i));
  }
  let first = groups.length;
  await Promise.all(groups.map(async (group) => {
    const actions = group.map(() => [0.3, 0, 0]);
    for (;;) {
      await client.stepBatch(group, actions, Number(substeps));
      if (first > 0 && --first === 0) console.log('stepping');
    }
  }));
}

async function main() {
  if (process.argv[2] === '--stepper') {
    await stepper(process.argv.slice(3));
    return;
  }
  let options;
  try {
    options = parse(process.argv.slice(2));
  } catch (error) {
    console.error(`viewers: ${/** @type {Error} */ (error).message}\n${USAGE}`);
    process.exit(2);
  }
  // This process and its children (the dashboard, Chromium) on core 1; the
  // server on core 0.
  if (os.cpus().length < 2) throw new Error('needs two cores (server on core 0, the rest on core 1)');
  if (affinity() !== '1') {
    const child = spawn('taskset', ['-c', '1', process.execPath, __filename, ...process.argv.slice(2)],
      { stdio: 'inherit' });
    child.on('exit', (code, signal) => process.exit(code === null ? 1 : code));
    for (const name of ['SIGINT', 'SIGTERM']) process.on(name, () => child.kill(name));
    return;
  }
  if (!fs.existsSync(options.moreaud)) throw new Error(`no moreaud at ${options.moreaud} (--moreaud)`);
  if (!fs.existsSync(options.chromium)) throw new Error(`no Chromium at ${options.chromium} (--chromium)`);
  const deadline = Date.now() + options.maxS * 1000;
  const overdue = setTimeout(() => {
    log(`stopping: past --max-s ${options.maxS} s`);
    cleanup().finally(() => process.exit(3));
  }, options.maxS * 1000);

  /** @type {import('node:child_process').ChildProcess[]} */
  const children = [];
  /** @type {any} */
  let browser = null;
  /** @type {any} */
  let client = null;
  const cleanup = async () => {
    if (browser) await browser.close().catch(() => {});
    if (client) client.close();
    for (const child of children.reverse()) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    }
  };
  process.on('exit', () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  try {
    log(`moreaud ${options.moreaud} --workers 1 on core 0`);
    const server = await spawnUntil('taskset', ['-c', '0', options.moreaud, '--host', '127.0.0.1', '--port', '0',
      '--metrics-port', '0', '--workers', '1', '--drain-delay-s', '0'],
    /moreaud: listening on ([^\s,]+):(\d+).*metrics on (http:\/\/[^\s)]+)/);
    children.push(server.child);
    const address = `${server.match[1]}:${server.match[2]}`;
    const metricsUrl = server.match[3];
    const dashboard = await spawnUntil(process.execPath, [DASHBOARD, '--server', address, '--port', '0'],
      /serving (http:\/\/\S+) /);
    children.push(dashboard.child);
    const url = dashboard.match[1];
    log(`moreaud at ${address} (metrics ${metricsUrl}), dashboard at ${url}`);

    client = new Client(address, { timeout: 60 });
    const created = await client.createBuiltin('mini_cheetah', options.instances,
      { controller: { kind: 'trot' }, controlMode: 'command' });
    const ids = created.ids;
    const dt = created.spec.dt;
    log(`${ids.length} trotting mini_cheetah instances (dt ${dt} s), ${options.substeps} sub-steps a call, ` +
      `${Math.min(STEPPERS, ids.length)} calls in flight`);
    const stepping = await spawnUntil('nice', ['-n', '-10', process.execPath, __filename, '--stepper', address,
      String(options.substeps), ...ids], /stepping/);
    children.push(stepping.child);
    const failed = new Promise((resolve) => stepping.child.once('exit', (code, signal) =>
      resolve(new Error(`the stepping client exited (code ${code}, signal ${signal})`))));

    const { chromium } = require('playwright-core');
    browser = await chromium.launch({ executablePath: options.chromium, timeout: 60000,
      args: ['--no-sandbox', '--use-gl=swiftshader', '--enable-unsafe-swiftshader'] });

    /** @type {any[]} */
    let pages = [];
    /** Opens `count` pages, each watching one instance. */
    const openPages = async (count) => {
      pages = [];
      for (let i = 0; i < count; i++) {
        const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
        await page.goto(url, { timeout: 30000 });
        // A click on the instance's row (dispatched: the table is redrawn every second).
        await page.waitForFunction((id) => {
          const row = document.querySelector(`#instances tbody tr[data-id="${id}"]`);
          if (row && window.dashboard.selected !== id) row.click();
          return window.dashboard.selected === id && window.dashboard.frames > 0;
        }, ids[i % ids.length], { timeout: 90000, polling: 500 }).catch((error) => {
          throw new Error(`page ${i + 1} watching ${ids[i % ids.length]}: ${error.message}`);
        });
        pages.push(page);
      }
    };
    const framesSeen = () => Promise.all(pages.map((page) => page.evaluate(() => window.dashboard.frames)));

    /** @type {Phase[]} */
    const phases = [];
    for (let pair = 0; pair < options.pairs; pair++) {
      for (const viewers of [0, options.viewers]) {
        const left = (deadline - Date.now()) / 1000;
        if (left < options.warmupS + options.phaseS + 10) {
          throw new Error(`--max-s ${options.maxS} s too short for phase ${phases.length + 1}`);
        }
        for (const page of pages) await page.close();
        pages = [];
        if (viewers) await openPages(viewers);
        await sleep(options.warmupS * 1000);
        const [steps0, frames0, cpu0, busy0, client0, t0] = [await stepsTotal(metricsUrl), await framesSeen(),
          cpuSeconds(server.child.pid), core0(), cpuSeconds(stepping.child.pid), performance.now()];
        const failure = await Promise.race([sleep(options.phaseS * 1000).then(() => null), failed]);
        if (failure) throw failure;
        const [steps1, frames1, cpu1, busy1, client1, t1] = [await stepsTotal(metricsUrl), await framesSeen(),
          cpuSeconds(server.child.pid), core0(), cpuSeconds(stepping.child.pid), performance.now()];
        const seconds = (t1 - t0) / 1000;
        const phase = { viewers, seconds, steps: steps1 - steps0, stepsPerSecond: (steps1 - steps0) / seconds,
          serverCpu: (cpu1 - cpu0) / seconds, stepsPerServerCpuSecond: (steps1 - steps0) / (cpu1 - cpu0),
          core0Busy: (busy1.busy - busy0.busy) / (busy1.total - busy0.total),
          core0Interrupts: (busy1.interrupts - busy0.interrupts) / (busy1.total - busy0.total),
          clientCpu: (client1 - client0) / seconds, framesPerSecond: frames1.map((f, i) => (f - frames0[i]) / seconds) };
        phases.push(phase);
        log(`pair ${pair + 1}/${options.pairs}, ${viewers} viewers: ${Math.round(phase.stepsPerSecond)} steps/s, ` +
          `${Math.round(phase.stepsPerServerCpuSecond)} per server CPU s, server CPU ` +
          `${(100 * phase.serverCpu).toFixed(0)} % (core 0 busy ${(100 * phase.core0Busy).toFixed(0)} %, ` +
          `interrupts ${(100 * phase.core0Interrupts).toFixed(0)} %), ` +
          `client CPU ${(100 * phase.clientCpu).toFixed(0)} %` +
          (viewers ? `, frames/s per page ${phase.framesPerSecond.map((f) => f.toFixed(1)).join(' ')}` : ''));
      }
    }
    for (const page of pages) await page.close();
    pages = [];

    const mean = (/** @type {number[]} */ values) => values.reduce((a, b) => a + b, 0) / values.length;
    const rates = (/** @type {number} */ viewers) =>
      phases.filter((p) => p.viewers === viewers).map((p) => p.stepsPerSecond);
    const without = mean(rates(0));
    const withViewers = mean(rates(options.viewers));
    const perCpu = (/** @type {number} */ viewers) =>
      mean(phases.filter((p) => p.viewers === viewers).map((p) => p.stepsPerServerCpuSecond));
    const pairDrops = [];
    for (let i = 0; i + 1 < phases.length; i += 2) {
      pairDrops.push(1 - phases[i + 1].stepsPerSecond / phases[i].stepsPerSecond);
    }
    const frames = phases.filter((p) => p.viewers).flatMap((p) => p.framesPerSecond);
    const result = {
      benchmark: 'dashboard viewers', date: new Date().toISOString(), host: os.hostname(),
      cpus: os.cpus().length, cpu: os.cpus()[0] && os.cpus()[0].model,
      options: { ...options, rateHz: 30 },
      phases,
      summary: {
        stepsPerSecond: { [0]: without, [options.viewers]: withViewers },
        drop: 1 - withViewers / without,
        stepsPerServerCpuSecond: { [0]: perCpu(0), [options.viewers]: perCpu(options.viewers) },
        dropPerServerCpuSecond: 1 - perCpu(options.viewers) / perCpu(0),
        dropPerPair: pairDrops,
        framesPerSecondPerPage: frames.length
          ? { mean: mean(frames), min: Math.min(...frames), max: Math.max(...frames) } : null,
      },
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    clearTimeout(overdue);
    await cleanup();
  }
}

main().catch((error) => {
  console.error(`viewers: ${error && error.stack ? error.stack : error}`);
  process.exit(1);
});
