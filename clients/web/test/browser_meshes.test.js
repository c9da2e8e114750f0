'use strict';
// The demo arm in headless Chromium (playwright-core) against a real moreaud
// and a dashboard running it: the page draws the UR10 from its URDF visuals,
// its seven STL meshes fetched through the bridge's /mesh (GetMesh), in its
// URDF colour, and the robot covers a part of the 3D view (pixels that change
// when it is hidden). The Mini Cheetah, whose visual meshes the server does
// not have, falls back to its collision shapes. Saves
// docs/images/dashboard-arm.png. Skipped, saying so, without Chromium.

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { PNG } = require('pngjs');
const { startStack } = require('../testing/stack');
const { IMAGES, skipBrowser, launchBrowser, openPage, waitInPage, waitForSimTime } =
  require('../testing/browser');

/**
 * Clicks an instance's row of the table in one step in the page (the table is
 * redrawn at every listing, so a row may be replaced while it is being aimed at).
 */
async function selectRow(page, id) {
  const row = `#instances tbody tr[data-id="${id}"]`;
  await page.locator(row).waitFor({ timeout: 15000 });
  await page.$eval(row, (element) => element.click());
}

/** Pixels whose colour differs by more than 24 in some channel between two screenshots. */
function changedPixels(a, b) {
  let changed = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (Math.abs(a.data[i] - b.data[i]) > 24 || Math.abs(a.data[i + 1] - b.data[i + 1]) > 24 ||
        Math.abs(a.data[i + 2] - b.data[i + 2]) > 24) changed++;
  }
  return changed;
}

test('the arm is drawn from its meshes; the Mini Cheetah falls back to its shapes',
  { skip: skipBrowser, timeout: 180000 }, async (t) => {
    const stack = await startStack();
    let browser = null;
    try {
      const arm = await stack.dashboard.startArmDemo();
      const cheetah = (await stack.client.createBuiltin('mini_cheetah', 1)).ids[0];
      browser = await launchBrowser();
      const { page, problems } = await openPage(browser, stack.dashboard.url);
      await selectRow(page, arm);
      await waitInPage(page, (id) => window.dashboard.selected === id && window.dashboard.spec &&
        window.dashboard.frames > 0, arm, 15000, 'the arm selected');
      await waitInPage(page, () => window.dashboard.meshes.drawn === 7 ||
        window.dashboard.meshes.failed.length > 0, null, 30000, 'the meshes');
      assert.deepEqual(await page.evaluate(() => window.dashboard.meshes),
        { drawn: 7, failed: [] });
      // Past the swing's start, the arm away from the default pose.
      await waitForSimTime(page, 4);
      const box = await page.locator('#scene canvas').boundingBox();
      assert.ok(box && box.width > 100, 'the 3D canvas is laid out');
      await page.screenshot({ path: path.join(IMAGES, 'dashboard-arm.png') });
      // Hidden and shown back to back (a frame apart at most) while it moves.
      const shot = async () => PNG.sync.read(await page.screenshot({ clip: box }));
      await page.evaluate(() => window.dashboardView.setRobotVisible(false));
      await page.waitForTimeout(100);
      const hidden = await shot();
      await page.evaluate(() => window.dashboardView.setRobotVisible(true));
      await page.waitForTimeout(100);
      const shown = await shot();
      const changed = changedPixels(hidden, shown);
      t.diagnostic(`${changed} pixels of the 3D view are the arm's`);
      assert.ok(changed > 3000, `${changed} pixels change when the arm is hidden`);
      // Its URDF colour (LightGrey) where it is drawn, not the fallback orange.
      let orange = 0;
      for (let i = 0; i < shown.data.length; i += 4) {
        const [r, g, b] = [shown.data[i], shown.data[i + 1], shown.data[i + 2]];
        if (r > 110 && r > g * 1.35 && g > b * 1.6) orange++;
      }
      assert.ok(orange < 200, `${orange} orange pixels: the arm is drawn in its own colour`);

      await selectRow(page, cheetah);
      await waitInPage(page, (id) => window.dashboard.selected === id &&
        window.dashboard.meshes.failed.length > 0, cheetah, 30000, 'the cheetah\'s meshes refused');
      const meshes = await page.evaluate(() => window.dashboard.meshes);
      assert.equal(meshes.drawn, 0);
      assert.match(meshes.failed[0], /\.obj/);
      assert.deepEqual(problems, []);
    } finally {
      if (browser) await browser.close();
      await stack.stop();
    }
  });
