'use strict';
// Shared by the browser tests: headless Chromium through playwright-core
// (/usr/bin/chromium, or $MOREAU_CHROMIUM), the dashboard's page in it, and
// waits on what the page reads (window.dashboard). Waits on the simulation
// are on its simulated time, read from the page's frames, so that a loaded
// machine (real-time runs falling behind) slows them without failing them.

const fs = require('node:fs');
const path = require('node:path');

const CHROMIUM = process.env.MOREAU_CHROMIUM || '/usr/bin/chromium';
/** Where the screenshots go: $MOREAU_SCREENSHOT_DIR, else the docs' images. */
const IMAGES = process.env.MOREAU_SCREENSHOT_DIR ||
  path.resolve(__dirname, '..', '..', '..', 'docs', 'images');
/** Why the browser tests are skipped, or false. */
const skipBrowser = !fs.existsSync(CHROMIUM) && `no Chromium at ${CHROMIUM} (apt-get install chromium)`;
/** The wall time a wait on simulated time may take: generous, for loaded machines. */
const SIM_WAIT_MS = 90000;

/**
 * Whether a console message of the page is a problem: an error, except the
 * 404 of a mesh the server does not have, which the page expects (it draws
 * the body's shapes instead).
 * @param {import('playwright-core').ConsoleMessage} message
 */
function isProblem(message) {
  if (message.type() !== 'error') return false;
  return !(/^Failed to load resource: .*404/.test(message.text()) &&
    /\/mesh\?/.test(message.location().url || ''));
}

/** Launches headless Chromium (WebGL in software). */
function launchBrowser() {
  const { chromium } = require('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, timeout: 60000,
    args: ['--no-sandbox', '--use-gl=swiftshader', '--enable-unsafe-swiftshader'] });
}

/**
 * Opens the dashboard at `url` in a new page of `browser`; `problems` collects
 * the page's errors (uncaught, console.error).
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 */
async function openPage(browser, url) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  /** @type {string[]} */
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => { if (isProblem(message)) problems.push(message.text()); });
  await page.goto(url, { timeout: 30000 });
  await page.waitForFunction(() => window.dashboard && window.dashboard.connected, null, { timeout: 15000 });
  return { page, problems };
}

/** What the page shows, for a failure's message. */
function describe(page) {
  return page.evaluate(() => JSON.stringify({
    selected: window.dashboard.selected, frames: window.dashboard.frames,
    time: window.dashboard.lastFrame && window.dashboard.lastFrame.time,
    spec: Boolean(window.dashboard.spec), running: [...window.dashboard.running],
    message: document.querySelector('#message').textContent,
  })).catch((error) => `(unreadable: ${error.message})`);
}

/**
 * Waits until `predicate(arg)` holds in the page, failing with what the page
 * shows.
 * @param {import('playwright-core').Page} page
 * @param {(arg: any) => any} predicate
 * @param {any} [arg]
 * @param {number} [timeoutMs]
 * @param {string} [what]
 */
async function waitInPage(page, predicate, arg = null, timeoutMs = 15000, what = 'the page') {
  try {
    await page.waitForFunction(predicate, arg, { timeout: timeoutMs, polling: 50 });
  } catch (error) {
    throw new Error(`waiting for ${what}: ${/** @type {Error} */ (error).message.split('\n')[0]}; ` +
      `the page: ${await describe(page)}`);
  }
}

/** The selected instance's simulated time in the page's last frame. */
function simTime(page) {
  return page.evaluate(() => window.dashboard.lastFrame.time);
}

/**
 * Waits until the page has a frame of the selected instance at simulated
 * time `time` or later; resolves with that frame's time.
 * @param {import('playwright-core').Page} page
 * @param {number} time
 */
async function waitForSimTime(page, time) {
  await waitInPage(page, (t) => window.dashboard.lastFrame && window.dashboard.lastFrame.time >= t,
    time, SIM_WAIT_MS, `simulated time ${time.toFixed(3)} s`);
  return simTime(page);
}

/**
 * Creates an instance with the page's form (a trotting mini_cheetah by
 * default), which selects it; resolves once it has its spec and a frame,
 * with its id and that first frame.
 * @param {import('playwright-core').Page} page
 * @param {{model?: string, controller?: string}} [options]
 */
async function createWithForm(page, { model = 'mini_cheetah', controller = 'trot' } = {}) {
  const before = await page.evaluate(() => window.dashboard.selected);
  await page.selectOption('#create-form select[name=model]', model);
  await page.selectOption('#create-form select[name=controller]', controller);
  await page.click('#create-form button[type=submit]');
  await waitInPage(page, (previous) => window.dashboard.selected && window.dashboard.selected !== previous &&
    window.dashboard.spec && window.dashboard.frames > 0, before, 15000, `the created ${model}`);
  return page.evaluate(() => ({ id: window.dashboard.selected, first: window.dashboard.lastFrame }));
}

/** Clicks Run and waits until the page says the selected instance runs. */
async function run(page) {
  await page.click('#run');
  await waitInPage(page, () => /running/.test(document.querySelector('#run-state').textContent),
    null, 10000, 'running');
}

/** Clicks Pause and waits until the page says the selected instance is paused. */
async function pause(page) {
  await page.click('#pause');
  await waitInPage(page, () => document.querySelector('#run-state').textContent === 'paused',
    null, 10000, 'paused');
}

/** Clicks Destroy and waits until the page has no instance selected. */
async function destroy(page) {
  await page.click('#destroy');
  await waitInPage(page, () => window.dashboard.selected === null, null, 10000, 'the instance destroyed');
}

/**
 * The page's trace entries (window.dashboard.trace) with `from` ≤ time ≤ `to`.
 * @param {import('playwright-core').Page} page
 * @param {number} from
 * @param {number} to
 * @returns {Promise<Array<Record<string, any>>>}
 */
function traceBetween(page, from, to) {
  return page.evaluate(([a, b]) => window.dashboard.trace.filter((e) => e.time >= a && e.time <= b),
    [from, to]);
}

module.exports = { CHROMIUM, IMAGES, skipBrowser, isProblem, launchBrowser, openPage, waitInPage, simTime,
  waitForSimTime, createWithForm, run, pause, destroy, traceBetween };
