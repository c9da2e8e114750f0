'use strict';
// The page's view of motion, in headless Chromium (playwright-core) against a
// real moreaud and a dashboard running the demo, everything measured from
// window.dashboard (the frames' poses, the base velocity the bridge
// differences between them, the page's trace of the base): the demo listed
// and turning; a push's jump of the measured lateral velocity, a run stopped
// by a push it diverges from (said on the page, Reset and Run going on), and
// the recovery from a gentler one; Reset bringing every body back to its pose at
// creation; Q and E turning the trot (by at least half the heading its applied
// command asked for over 3 s), the command ramping up. Waits are on
// simulated time. Skipped, saying so, without Chromium.
//
// The trot's base wobbles at its gait period (about 0.8 s): its heading by
// ±0.1 rad, its tilt up to 10-15° and its height by ±3 cm even unpushed. So
// headings are compared as means over a gait period (GAIT_S) centred the
// stated time apart, and a recovery is judged on means over 1.5-2 s.

const test = require('node:test');
const assert = require('node:assert/strict');
const { startStack } = require('../testing/stack');
const { skipBrowser, launchBrowser, openPage, waitInPage, simTime, waitForSimTime, createWithForm,
  run, pause, destroy, traceBetween } = require('../testing/browser');

/** @type {Awaited<ReturnType<typeof startStack>>} */
let stack;
/** @type {import('playwright-core').Browser} */
let browser;
/** @type {import('playwright-core').Page} */
let page;
/** @type {string[]} */
let problems;
/** @type {string} */
let demo;

const DEG = Math.PI / 180;
/** The window of a mean over the trot's gait period, in s of simulated time. */
const GAIT_S = 0.8;
/** How long Q or E is held, in s of simulated time from the first step with its command. */
const HOLD_S = 3;
const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;

/** The mean heading of the page's trace over the gait period centred on `time`. */
async function headingAround(page, time) {
  const trace = await traceBetween(page, time - GAIT_S / 2, time + GAIT_S / 2);
  assert.ok(trace.length >= 10, `${trace.length} frames around t = ${time} s`);
  return mean(trace.map((e) => e.heading));
}

test.before(async () => {
  if (skipBrowser) return;
  stack = await startStack();
  demo = await stack.dashboard.startDemo();
  browser = await launchBrowser();
  ({ page, problems } = await openPage(browser, stack.dashboard.url));
});

test.after(async () => {
  if (browser) await browser.close();
  if (stack) await stack.stop();
});

/**
 * A trotting mini_cheetah made with the form, running, with `seconds` of
 * simulated time behind it (the trot started); resolves with its id and
 * first frame.
 */
async function trotting(seconds = 2) {
  const created = await createWithForm(page);
  await run(page);
  await waitForSimTime(page, seconds);
  return created;
}

test('the page lists the demo instance, which trots in a circle', { skip: skipBrowser, timeout: 180000 },
  async (t) => {
    const row = page.locator(`#instances tbody tr[data-id="${demo}"]`);
    await row.waitFor({ timeout: 15000 });
    assert.match(await row.textContent(), /mini_cheetah.*running/);
    await row.click();
    await waitInPage(page, (id) => window.dashboard.selected === id && window.dashboard.spec &&
      window.dashboard.trace.length > 1, demo, 15000, 'the demo selected');
    // Its run began before the page connected: shown as running all the same.
    assert.equal(await page.textContent('#run-state'), 'running in real time');
    assert.ok(await page.isDisabled('#run') && !(await page.isDisabled('#pause')), 'Run disabled, Pause enabled');
    // Its heading turns, left (0.2 rad/s asked for), over 4 s of simulated
    // time: by 0.4-0.8 rad; by less than 0.15 rad with none asked for.
    const start = (await simTime(page)) + GAIT_S / 2;
    await waitForSimTime(page, start + 4 + GAIT_S / 2);
    const turned = (await headingAround(page, start + 4)) - (await headingAround(page, start));
    t.diagnostic(`the demo turned ${turned.toFixed(3)} rad in 4 s from t = ${start.toFixed(2)} s`);
    assert.ok(turned > 0.3, `the demo's heading changed by ${turned} rad in 4 s (0.2 rad/s asked for)`);
    // Not needed any more: it would only load the machine.
    await destroy(page);
    assert.deepEqual(problems, []);
  });

test('a 120 N push makes the measured lateral velocity jump by 0.9 m/s within 0.25 s',
  { skip: skipBrowser, timeout: 180000 }, async (t) => {
    await trotting(2);
    await page.fill('#push-force', '120');
    const asked = await simTime(page);
    await page.click('#push');
    await waitInPage(page, (after) => window.dashboard.lastPush && window.dashboard.lastPush.time > after,
      asked, 15000, 'the push answered');
    const push = await page.evaluate(() => window.dashboard.lastPush);
    assert.ok(Math.abs(Math.hypot(...push.force) - 120) < 1e-9, `force ${push.force}`);
    await waitForSimTime(page, push.start + 0.3);
    const before = (await traceBetween(page, push.start - 0.5, push.start))
      .filter((e) => e.lateral !== null).map((e) => e.lateral);
    const after = (await traceBetween(page, push.start + 1e-9, push.start + 0.25))
      .filter((e) => e.lateral !== null);
    assert.ok(before.length >= 5 && after.length >= 3, `frames: ${before.length} before, ${after.length} after`);
    const baseline = mean(before);
    const jump = Math.max(...after.map((e) => e.lateral)) - baseline;
    t.diagnostic(`lateral ${baseline.toFixed(3)} m/s before; after: ${after.map((e) =>
      `${(e.time - push.start).toFixed(3)} s ${e.lateral.toFixed(3)}`).join(', ')}`);
    assert.ok(jump >= 0.9, `the measured lateral velocity jumped by ${jump} m/s in 0.25 s`);
    await destroy(page);
    assert.deepEqual(problems, []);
  });

test('a push that makes the trot diverge stops its run, the page saying so; Reset, then Run, go on',
  { skip: skipBrowser, timeout: 180000 }, async () => {
    await trotting(1);
    await page.fill('#push-force', '1000000');
    await page.click('#push');
    await waitInPage(page, () => /^stopped: .*diverged.*Reset, then Run\.$/.test(
      document.querySelector('#run-state').textContent), null, 30000, 'the run stopped, saying why');
    assert.ok(!(await page.isDisabled('#run')) && (await page.isDisabled('#pause')), 'Run enabled, Pause disabled');
    await page.click('#reset');
    await waitInPage(page, () => document.querySelector('#run-state').textContent === 'paused', null, 10000,
      'paused after the reset');
    await run(page);
    // Stepping again from the reset state: a frame near t = 0, then one past 0.5 s.
    await waitInPage(page, () => {
      const trace = window.dashboard.trace;
      const reset = trace.findLastIndex((e) => e.time < 0.1);
      return reset >= 0 && trace.slice(reset).some((e) => e.time >= 0.5);
    }, null, 60000, '0.5 s simulated since the reset');
    await destroy(page);
    assert.deepEqual(problems, []);
  });

test('after a 25 N push the trot recovers: upright, at its height, still walking forward',
  { skip: skipBrowser, timeout: 180000 }, async (t) => {
    await createWithForm(page);
    await run(page);
    // Walking forward at 0.1 m/s (the slider), long enough to settle. (Faster,
    // 0.2-0.68 m/s, a 25 N push topples this trot at 3-16 % of the moments it
    // may come: a matter of the controller, not the page.)
    await page.locator('#slider-forward').fill('0.1');
    await waitInPage(page, () => window.dashboard.command[0] === 0.1, null, 5000, 'the slider\'s command');
    const settled = await waitForSimTime(page, 4);
    await page.fill('#push-force', '25');
    await page.click('#push');
    await waitInPage(page, (after) => window.dashboard.lastPush && window.dashboard.lastPush.time > after,
      settled, 15000, 'the push answered');
    const push = await page.evaluate(() => window.dashboard.lastPush);
    assert.ok(Math.abs(Math.hypot(...push.force) - 25) < 1e-9, `force ${push.force}`);
    await waitForSimTime(page, push.start + 3);
    // The trot unpushed: the 1.5 s before the push; recovered: 1 to 3 s after.
    const unpushed = await traceBetween(page, push.start - 1.5, push.start);
    const during = await traceBetween(page, push.start, push.start + 0.5);
    const recovered = await traceBetween(page, push.start + 1, push.start + 3);
    assert.ok(unpushed.length > 20 && recovered.length > 20, `frames: ${unpushed.length}, ${recovered.length}`);
    /**
     * Means over `entries` of the height, tilt and lateral velocity; forward:
     * the way made along the heading over the time (frames come at uneven
     * intervals of simulated time).
     */
    const means = (entries) => {
      let way = 0;
      for (let i = 1; i < entries.length; i++) {
        const [a, b] = [entries[i - 1], entries[i]];
        way += (b.x - a.x) * Math.cos(b.heading) + (b.y - a.y) * Math.sin(b.heading);
      }
      return { height: mean(entries.map((e) => e.height)), tilt: mean(entries.map((e) => e.tilt)),
        forward: way / (entries[entries.length - 1].time - entries[0].time),
        lateral: mean(entries.filter((e) => e.lateral !== null).map((e) => e.lateral)) };
    };
    const [before, after] = [means(unpushed), means(recovered)];
    const lateralJump = Math.max(...during.filter((e) => e.lateral !== null).map((e) => e.lateral)) -
      before.lateral;
    const describe = (m) => `height ${m.height.toFixed(3)} m, tilt ${(m.tilt / DEG).toFixed(1)}°, ` +
      `forward ${m.forward.toFixed(3)} m/s`;
    t.diagnostic(`unpushed: ${describe(before)}; the push at t = ${push.start.toFixed(2)} s: ` +
      `lateral +${lateralJump.toFixed(3)} m/s; 1-3 s after: ${describe(after)}`);
    assert.ok(before.forward > 0.04, `the unpushed trot walks forward at ${before.forward} m/s`);
    assert.ok(lateralJump > 0.1, `the push moved it sideways: +${lateralJump} m/s`);
    assert.ok(after.tilt < 10 * DEG, `tilted by ${after.tilt / DEG}° on average after the push`);
    assert.ok(Math.abs(after.height - before.height) <= 0.03,
      `height ${after.height} m on average after the push, ${before.height} m unpushed`);
    assert.ok(after.forward > 0.5 * before.forward,
      `forward ${after.forward} m/s after the push, ${before.forward} m/s unpushed`);
    await destroy(page);
    assert.deepEqual(problems, []);
  });

test('Reset brings every body back to its pose at creation', { skip: skipBrowser, timeout: 180000 },
  async () => {
    const { id, first } = await createWithForm(page);
    assert.equal(first.time, 0);
    await run(page);
    await page.keyboard.down('w');
    await waitForSimTime(page, 1.5);
    await page.keyboard.up('w');
    await page.fill('#push-force', '60');
    await page.click('#push');
    await waitForSimTime(page, 2);
    const moved = await page.evaluate(() => window.dashboard.lastFrame);
    const distance = (a, b) => Math.hypot(...a.position.map((p, i) => p - b.position[i]));
    assert.ok(distance(moved.bodies[0], first.bodies[0]) > 0.1, 'the base moved before the reset');
    await pause(page);
    await page.click('#reset');
    await waitInPage(page, (i) => window.dashboard.lastFrame.id === i && window.dashboard.lastFrame.time === 0,
      id, 15000, 'a frame of the reset state');
    const reset = await page.evaluate(() => window.dashboard.lastFrame);
    assert.deepEqual(reset.bodies.map((b) => b.name), first.bodies.map((b) => b.name));
    reset.bodies.forEach((body, i) => {
      const initial = first.bodies[i];
      for (let k = 0; k < 3; k++) {
        assert.ok(Math.abs(body.position[k] - initial.position[k]) < 1e-9,
          `${body.name} position ${body.position}, at creation ${initial.position}`);
      }
      for (let k = 0; k < 4; k++) {
        assert.ok(Math.abs(body.quaternion[k] - initial.quaternion[k]) < 1e-9,
          `${body.name} quaternion ${body.quaternion}, at creation ${initial.quaternion}`);
      }
    });
    await destroy(page);
    assert.deepEqual(problems, []);
  });

test('Q and E turn the walking trot left and right, the command ramping', { skip: skipBrowser,
  timeout: 240000 }, async (t) => {
  await trotting(1);
  // Keys steer with a slider focused too.
  await page.focus('#slider-yaw');
  // Walking forward (W): the trot turns on the spot only sluggishly.
  await page.keyboard.down('w');
  await waitForSimTime(page, (await simTime(page)) + 1.5);
  const bound = await page.evaluate(() => window.dashboard.spec.actionUpper[2]);
  for (const [key, sign] of [['q', 1], ['e', -1]]) {
    const pressed = await simTime(page);
    await page.keyboard.down(key);
    // From the first frame of a step made with the key's command.
    await waitInPage(page, () => window.dashboard.applied && window.dashboard.applied[2] !== 0, null,
      30000, `the command of ${key}`);
    const start = await page.evaluate(() => window.dashboard.trace.find((e, i, trace) =>
      e.applied && e.applied[2] !== 0 && trace.slice(i).every((later) => later.applied[2] !== 0)).time);
    await waitForSimTime(page, start + HOLD_S + GAIT_S / 2);
    await page.keyboard.up(key);
    const turned = (await headingAround(page, start + HOLD_S)) - (await headingAround(page, start));
    // The heading the applied yaw rate asked for over the same time: the
    // rate applied at each frame's step times the time since the frame before.
    const held = (await traceBetween(page, start, start + HOLD_S)).filter((e) => e.applied);
    let asked = 0;
    for (let i = 1; i < held.length; i++) asked += held[i].applied[2] * (held[i].time - held[i - 1].time);
    t.diagnostic(`${key.toUpperCase()}: heading ${turned.toFixed(3)} rad in ${HOLD_S} s from t = ` +
      `${start.toFixed(2)} s (pressed at ${pressed.toFixed(2)} s), ${asked.toFixed(3)} rad asked for`);
    assert.ok(sign * asked > 0, `${key.toUpperCase()} asked for ${asked} rad`);
    // At least half of it (the trot turns while walking, not at once).
    assert.ok(turned / asked > 0.5,
      `${key.toUpperCase()} turned the heading by ${turned} rad in ${HOLD_S} s, ${asked} rad asked for`);
    // The applied yaw rate rose at most at its bound per second (a real-time
    // Step of up to 0.1 s at once), to 70 % of the bound.
    const applied = held.map((e) => [e.time, sign * e.applied[2]]);
    const target = 0.7 * bound;
    assert.ok(applied.some(([, a]) => a > 0 && a < target - 0.05), 'the applied command ramped');
    assert.ok(Math.abs(applied[applied.length - 1][1] - target) < 1e-9,
      `applied ${applied[applied.length - 1][1]}, asked ${target}`);
    for (let i = 1; i < applied.length; i++) {
      const [[t0, a0], [t1, a1]] = [applied[i - 1], applied[i]];
      assert.ok(a1 - a0 <= bound * (t1 - t0) + bound * 0.1 + 1e-9, `applied ${a0} → ${a1} from ${t0} to ${t1} s`);
    }
    // Back to 0 before the other way.
    await waitInPage(page, () => window.dashboard.applied && window.dashboard.applied[2] === 0,
      null, 30000, 'the command back to 0');
    await waitForSimTime(page, (await simTime(page)) + 0.5);
  }
  await page.keyboard.up('w');
  await destroy(page);
  assert.deepEqual(problems, []);
});
