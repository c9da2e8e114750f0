'use strict';
// The page in headless Chromium (playwright-core) against a real moreaud and
// the dashboard: the instances table, the robot drawn by three.js near the
// centre of the 3D view, the base height plot advancing, the velocity plot's
// lines and the measured readout. Saves screenshots to
// docs/images/dashboard-server.png and docs/images/dashboard-instance.png.
// Skipped, saying so, without /usr/bin/chromium (scripts/packages/test.txt).

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { PNG } = require('pngjs');
const { startStack } = require('../testing/stack');
const { IMAGES, skipBrowser, isProblem, launchBrowser } = require('../testing/browser');

/** Whether an RGB pixel is the robot's orange (0xff7f00 lit, or its darker 0xb35900). */
function isRobotColour(r, g, b) {
  return r > 110 && r > g * 1.35 && g > b * 1.6 && r - b > 90;
}

test('the page shows the instances, the robot and the plots', { skip: skipBrowser,
  timeout: 120000 }, async (t) => {
  const stack = await startStack();
  let browser = null;
  fs.mkdirSync(IMAGES, { recursive: true });
  try {
    // Another client's instance, stepped a little.
    const other = (await stack.client.createBuiltin('biped', 1)).ids[0];
    const actuators = (await stack.client.getModel('biped')).actuators.length;
    await stack.client.step(other, new Array(actuators).fill(0), 300);
    browser = await launchBrowser();
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const problems = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => { if (isProblem(message)) problems.push(message.text()); });
    await page.goto(stack.dashboard.url, { timeout: 30000 });
    await page.locator(`#instances tbody tr[data-id="${other}"]`).waitFor({ timeout: 15000 });

    // The demo instance: a trotting mini_cheetah made with the create form,
    // which selects it; run in real time, walking forward while W is held.
    await page.selectOption('#create-form select[name=model]', 'mini_cheetah');
    await page.selectOption('#create-form select[name=controller]', 'trot');
    await page.click('#create-form button[type=submit]');
    await page.waitForFunction(() => window.dashboard.selected && window.dashboard.frames > 0 &&
      window.dashboard.spec, null, { timeout: 15000 }).catch(async (error) => {
      const seen = await page.evaluate(() => JSON.stringify({ ...window.dashboard, running: undefined,
        instances: window.dashboard.instances.length, spec: Boolean(window.dashboard.spec),
        message: document.querySelector('#message').textContent }));
      throw new Error(`${error.message}; the page: ${seen}; problems: ${problems}`);
    });
    const demo = await page.evaluate(() => window.dashboard.selected);
    const row = page.locator(`#instances tbody tr[data-id="${demo}"]`);
    await row.waitFor({ timeout: 15000 });
    assert.match(await row.textContent(), /mini_cheetah/);
    await page.click('#run');
    await page.waitForFunction(() => /running/.test(document.querySelector('#run-state').textContent),
      null, { timeout: 10000 });
    await page.keyboard.down('w');
    await page.waitForFunction(() => /^0\.[1-9]/.test(document.querySelector('#command').textContent),
      null, { timeout: 10000 });
    const walking = Date.now();
    const [samplesBefore, timeBefore] = await page.evaluate(() =>
      [window.dashboard.trace.length, window.dashboard.lastFrame.time]);
    await page.waitForFunction((t) => window.dashboard.lastFrame.time > t + 2.5, timeBefore,
      { timeout: 30000, polling: 200 });
    const samplesAfter = await page.evaluate(() => window.dashboard.trace.length);
    t.diagnostic(`walked from t = ${timeBefore} s, 2.5 s in ${Date.now() - walking} ms`);
    assert.ok(samplesAfter > samplesBefore + 25, `plot samples ${samplesBefore} → ${samplesAfter}`);
    const x = await page.evaluate(() => window.dashboard.lastFrame.bodies[0].position[0]);
    assert.ok(x > 0.3, `the demo walked to x = ${x} in ${timeBefore + 2.5} s`);
    // The list shows it stepping.
    await page.waitForFunction((id) => {
      const info = window.dashboard.instances.find((i) => i.id === id);
      return info && info.stepsPerSecond > 100;
    }, demo, { timeout: 10000 });
    await page.locator('#server-panel').screenshot({ path: path.join(IMAGES, 'dashboard-server.png') });
    // The plot has its orange line.
    const plotted = await page.evaluate(() => {
      const canvas = document.querySelector('#plot');
      const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      let count = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i] > 200 && data[i + 1] < 120 && data[i + 2] < 60 && data[i + 3] > 0) count++;
      return count;
    });
    assert.ok(plotted > 50, `${plotted} pixels of the plot's line`);
    // The velocity plot has its three lines (forward blue, lateral green, yaw
    // rate purple), and the measured readout a forward speed.
    const lines = await page.evaluate(() => {
      const canvas = document.querySelector('#velocity-plot');
      const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      const counts = [0, 0, 0];
      const colours = [[0x15, 0x65, 0xc0], [0x2e, 0x7d, 0x32], [0x8e, 0x24, 0xaa]];
      for (let i = 0; i < data.length; i += 4) {
        colours.forEach(([r, g, b], k) => {
          if (data[i + 3] > 200 && Math.abs(data[i] - r) < 30 && Math.abs(data[i + 1] - g) < 30 &&
              Math.abs(data[i + 2] - b) < 30) counts[k]++;
        });
      }
      return counts;
    });
    assert.ok(lines.every((count) => count > 50), `pixels of the velocity plot's lines: ${lines}`);
    const measured = await page.evaluate(() => document.querySelector('#measured').textContent);
    assert.ok(Number(measured.split(',')[0]) > 0.1, `measured ${measured}`);

    // The robot's colour near the centre of the 3D view.
    const box = await page.locator('#scene canvas').boundingBox();
    assert.ok(box && box.width > 100, 'the 3D canvas is laid out');
    const shot = PNG.sync.read(await page.screenshot({ clip: box }));
    let orange = 0;
    const cx = shot.width / 2;
    const cy = shot.height / 2;
    const half = Math.min(shot.width, shot.height) / 4;
    for (let y = Math.floor(cy - half); y < cy + half; y++) {
      for (let x = Math.floor(cx - half); x < cx + half; x++) {
        const i = (y * shot.width + x) * 4;
        if (isRobotColour(shot.data[i], shot.data[i + 1], shot.data[i + 2])) orange++;
      }
    }
    assert.ok(orange > 500, `${orange} pixels of the robot's colour near the centre of the 3D view`);
    await page.screenshot({ path: path.join(IMAGES, 'dashboard-instance.png'), fullPage: true });
    await page.keyboard.up('w');
    await page.waitForFunction(() => /^0\.00, 0\.00, 0\.00$/.test(document.querySelector('#command').textContent),
      null, { timeout: 10000 });
    await page.click('#push');
    await page.waitForFunction(() => /^pushed /.test(document.querySelector('#message').textContent),
      null, { timeout: 10000 });
    if (await page.isDisabled('#pause')) {
      throw new Error(`the run stopped by itself: ${await page.textContent('#message')}`);
    }
    await page.click('#pause');
    await page.waitForFunction(() => document.querySelector('#run-state').textContent === 'paused',
      null, { timeout: 10000 });
    // The other client's instance: watched, not runnable here.
    await page.click(`#instances tbody tr[data-id="${other}"]`);
    await page.waitForFunction((id) => window.dashboard.selected === id && window.dashboard.spec &&
      window.dashboard.frames > 0, other, { timeout: 15000 });
    assert.equal(await page.isDisabled('#run'), true);
    assert.deepEqual(problems, []);
  } finally {
    if (browser) await browser.close();
    await stack.stop();
  }
});
