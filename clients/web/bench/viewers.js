#!/usr/bin/env node
'use strict';
// What browsers watching cost the server: one moreaud (--workers 1, pinned to
// core 1 with taskset, at nice -20: processes the scheduler moves onto its
// core, e.g. from a loaded core 0, take little from it), `--instances` trotting Mini Cheetahs stepped flat out
// by a client process, a dashboard (bin/moreau-dashboard.js) and headless
// Chromium pages, each watching one of the instances at 30 Hz; the client,
// this process, the dashboard and Chromium pinned to core 0, in every phase,
// so that the browsers (which in use run on the viewers' own machines) take
// no CPU from the server. The client keeps STEPPERS StepBatch calls in flight
// and runs at nice -20, so that the pages rendering beside it do not starve
// the server of steps to make (the server's CPU share is reported: near 1
// when it never waits). Phases go in ABBA rounds (0, `--viewers`,
// `--viewers`, 0 viewers); each measures, after a warm-up, the server's
// steps/s (from its Prometheus /metrics, moreau_steps_total) and CPU share,
// and each page's frames/s (window.dashboard.frames). The summary gives the
// median steps/s of each side, their ratio, and the pages' frames/s against
// the rate they ask for. Progress goes to stderr, the result, one JSON
// object, to stdout.
//
//   node bench/viewers.js [--moreaud PATH] [--viewers 8] [--instances 8]
//        [--rounds 3] [--phase-s 10] [--warmup-s 3] [--substeps 300]
//        [--max-s 900] [--chromium /usr/bin/chromium]
//
// --moreaud defaults to $MOREAUD_BIN, else build/server/moreaud of the
// checkout; --max-s bounds the whole run (it stops with an error past it).
// Needs two cores (taskset -c 1 and -c 0) and clients/js, clients/web's
// node_modules (npm ci).

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { Client } = require('../../js/lib');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const DASHBOARD = path.join(__dirname, '..', 'bin', 'moreau-dashboard.js');
const USAGE = 'usage: node bench/viewers.js [--moreaud PATH] [--viewers 8] [--instances 8] [--rounds 3]\n' +
  '       [--phase-s 10] [--warmup-s 3] [--substeps 300] [--max-s 900] [--chromium PATH]';

/** The core of the server, and the core of everything else. */
const SERVER_CORE = 1;
const OTHERS_CORE = 0;
/** The Watch rate each page asks for (public/app.js). */
const RATE_HZ = 30;

/**
 * @typedef {{moreaud: string, viewers: number, instances: number, rounds: number, phaseS: number,
 *   warmupS: number, substeps: number, maxS: number, chromium: string}} Options
 * @typedef {{round: number, viewers: number, seconds: number, steps: number, stepsPerSecond: number,
 *   serverCpu: number, stepsPerServerCpuSecond: number, serverCoreBusy: number, serverCoreInterrupts: number,
 *   clientCpu: number, framesPerSecond: number[]}} Phase
 *   serverCpu: moreaud's CPU time over the phase's wall time (1: all of its
 *   core); stepsPerServerCpuSecond: steps per second of moreaud's CPU time
 *   (what serving the watchers costs it, whatever else took its core);
 *   serverCoreBusy: the share of the server's core's time anything ran (less
 *   serverCpu: what other processes and the kernel took from the server),
 *   serverCoreInterrupts: of it, interrupts and softirqs (e.g. loopback
 *   networking); clientCpu: the stepping client's CPU time over the wall time
 */

/** @param {string[]} argv @returns {Options} */
function parse(argv) {
  /** @type {Options} */
  const options = {
    moreaud: process.env.MOREAUD_BIN || path.join(ROOT, 'build', 'server', 'moreaud'),
    viewers: 8, instances: 8, rounds: 3, phaseS: 10, warmupS: 3, substeps: 300, maxS: 900,
    chromium: process.env.MOREAU_CHROMIUM || '/usr/bin/chromium',
  };
  const numbers = { '--viewers': 'viewers', '--instances': 'instances', '--rounds': 'rounds',
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
  if (!(options.rounds >= 1)) throw new Error('--rounds: at least 1');
  if (!(options.viewers >= 1)) throw new Error('--viewers: at least 1');
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

/** Core `core`'s busy, interrupt (irq and softirq) and total jiffies so far, from /proc/stat. */
function coreTimes(core) {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n').find((l) => l.startsWith(`cpu${core} `));
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, interrupts: irq + softirq, total: busy + idle + iowait };
}

/** This process's CPU affinity as taskset prints it (e.g. "0"), or null without taskset. */
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

const median = (/** @type {number[]} */ values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const half = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2;
};

/**
 * The summary of the phases: per side (0 and `viewers` viewers) the median
 * steps/s and steps per server CPU second, their ratios (with viewers /
 * without), each ABBA round's ratio (the mean of its two B phases over the
 * mean of its two A phases), and the pages' frames/s against RATE_HZ.
 * @param {Phase[]} phases
 * @param {number} viewers
 */
function summarize(phases, viewers) {
  const side = (/** @type {number} */ n, /** @type {(p: Phase) => number} */ f) =>
    phases.filter((p) => p.viewers === n).map(f);
  const mean = (/** @type {number[]} */ values) => values.reduce((a, b) => a + b, 0) / values.length;
  const steps = { [0]: median(side(0, (p) => p.stepsPerSecond)), [viewers]: median(side(viewers, (p) => p.stepsPerSecond)) };
  const perCpu = { [0]: median(side(0, (p) => p.stepsPerServerCpuSecond)),
    [viewers]: median(side(viewers, (p) => p.stepsPerServerCpuSecond)) };
  const rounds = [...new Set(phases.map((p) => p.round))];
  const roundRatios = rounds.map((round) => {
    const of = (/** @type {number} */ n) =>
      mean(phases.filter((p) => p.round === round && p.viewers === n).map((p) => p.stepsPerSecond));
    return of(viewers) / of(0);
  });
  const frames = side(viewers, (p) => p.framesPerSecond).flat();
  return {
    stepsPerSecond: steps, ratio: steps[viewers] / steps[0], drop: 1 - steps[viewers] / steps[0],
    roundRatios,
    stepsPerServerCpuSecond: perCpu, ratioPerServerCpuSecond: perCpu[viewers] / perCpu[0],
    serverCpu: { [0]: median(side(0, (p) => p.serverCpu)), [viewers]: median(side(viewers, (p) => p.serverCpu)) },
    framesPerSecondPerPage: { rateHz: RATE_HZ, median: median(frames), min: Math.min(...frames),
      max: Math.max(...frames) },
  };
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
  // This process and its children (the dashboard, Chromium, the client) on
  // OTHERS_CORE; the server on SERVER_CORE.
  if (os.cpus().length < 2) throw new Error('needs two cores (the server on core 1, the rest on core 0)');
  if (affinity() !== String(OTHERS_CORE)) {
    const child = spawn('taskset', ['-c', String(OTHERS_CORE), process.execPath, __filename, ...process.argv.slice(2)],
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
    log(`moreaud ${options.moreaud} --workers 1 at nice -20 on core ${SERVER_CORE}, the rest on core ${OTHERS_CORE}`);
    const server = await spawnUntil('nice', ['-n', '-20', 'taskset', '-c', String(SERVER_CORE), options.moreaud, '--host', '127.0.0.1', '--port', '0',
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
    const stepping = await spawnUntil('nice', ['-n', '-20', process.execPath, __filename, '--stepper', address,
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
    for (let round = 0; round < options.rounds; round++) {
      for (const viewers of [0, options.viewers, options.viewers, 0]) {
        const left = (deadline - Date.now()) / 1000;
        if (left < options.warmupS + options.phaseS + 10) {
          throw new Error(`--max-s ${options.maxS} s too short for phase ${phases.length + 1}`);
        }
        if (pages.length !== viewers) {
          // The client stopped meanwhile, so that the pages, on its core, open
          // quickly (the phase's warm-up follows).
          stepping.child.kill('SIGSTOP');
          try {
            for (const page of pages) await page.close();
            pages = [];
            if (viewers) await openPages(viewers);
          } finally {
            stepping.child.kill('SIGCONT');
          }
        }
        await sleep(options.warmupS * 1000);
        const [steps0, frames0, cpu0, busy0, client0, t0] = [await stepsTotal(metricsUrl), await framesSeen(),
          cpuSeconds(server.child.pid), coreTimes(SERVER_CORE), cpuSeconds(stepping.child.pid), performance.now()];
        const failure = await Promise.race([sleep(options.phaseS * 1000).then(() => null), failed]);
        if (failure) throw failure;
        const [steps1, frames1, cpu1, busy1, client1, t1] = [await stepsTotal(metricsUrl), await framesSeen(),
          cpuSeconds(server.child.pid), coreTimes(SERVER_CORE), cpuSeconds(stepping.child.pid), performance.now()];
        const seconds = (t1 - t0) / 1000;
        const phase = { round: round + 1, viewers, seconds, steps: steps1 - steps0,
          stepsPerSecond: (steps1 - steps0) / seconds,
          serverCpu: (cpu1 - cpu0) / seconds, stepsPerServerCpuSecond: (steps1 - steps0) / (cpu1 - cpu0),
          serverCoreBusy: (busy1.busy - busy0.busy) / (busy1.total - busy0.total),
          serverCoreInterrupts: (busy1.interrupts - busy0.interrupts) / (busy1.total - busy0.total),
          clientCpu: (client1 - client0) / seconds, framesPerSecond: frames1.map((f, i) => (f - frames0[i]) / seconds) };
        phases.push(phase);
        log(`round ${round + 1}/${options.rounds}, ${viewers} viewers: ${Math.round(phase.stepsPerSecond)} steps/s, ` +
          `${Math.round(phase.stepsPerServerCpuSecond)} per server CPU s, server CPU ` +
          `${(100 * phase.serverCpu).toFixed(0)} % (its core busy ${(100 * phase.serverCoreBusy).toFixed(0)} %, ` +
          `interrupts ${(100 * phase.serverCoreInterrupts).toFixed(0)} %), ` +
          `client CPU ${(100 * phase.clientCpu).toFixed(0)} %` +
          (viewers ? `, frames/s per page ${phase.framesPerSecond.map((f) => f.toFixed(1)).join(' ')}` : ''));
      }
    }
    for (const page of pages) await page.close();
    pages = [];

    const result = {
      benchmark: 'dashboard viewers', date: new Date().toISOString(), host: os.hostname(),
      cpus: os.cpus().length, cpu: os.cpus()[0] && os.cpus()[0].model,
      options: { ...options, rateHz: RATE_HZ, serverCore: SERVER_CORE, othersCore: OTHERS_CORE },
      phases,
      summary: summarize(phases, options.viewers),
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
