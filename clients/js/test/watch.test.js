'use strict';
// Watch: frames arrive while the instance steps; the caller's cancel (or an
// AbortSignal, or leaving the loop) ends the iteration without an error; a
// destroyed instance ends it too; the server keeps serving.

const assert = require('node:assert/strict');
const { test } = require('node:test');

const { serverFixture, TEST_TIMEOUT_MS } = require('../testing/fixtures');

const fixture = serverFixture();

/**
 * Steps `id` every few milliseconds until the returned function is called.
 * @param {string} id
 * @returns {() => Promise<void>} stops the stepping and waits for the last step
 */
function keepStepping(id) {
  let running = true;
  const loop = (async () => {
    while (running) {
      await fixture.client.step(id, [0.1], 5);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  return async () => {
    running = false;
    await loop;
  };
}

/**
 * Asserts that `watch` stays ended without an error, also once the stream's
 * final status (CANCELLED after a cancel) has arrived.
 * @param {import('..').Watch} watch
 */
async function assertEndedCleanly(watch) {
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(await watch.next(), { value: undefined, done: true });
}

test('Watch streams frames until the client cancels, then the server keeps serving',
  { timeout: TEST_TIMEOUT_MS }, async () => {
    const { ids } = await fixture.client.createBuiltin('pendulum', 1);
    const stop = keepStepping(ids[0]);
    const watch = fixture.client.watch(ids[0], { rateHz: 100 });
    const frames = [];
    for await (const frame of watch) {
      frames.push(frame);
      if (frames.length === 5) watch.cancel();
    }
    await stop();
    assert.equal(frames.length, 5, 'the iteration ends at the cancel');
    for (const frame of frames) {
      assert.deepEqual(frame.bodyPoses.map((pose) => pose.name), ['pendulum']);
      assert.equal(frame.bodyPoses[0].quaternion.length, 4);
    }
    for (let k = 1; k < frames.length; k += 1) {
      assert.ok(frames[k].time >= frames[k - 1].time, 'frames in time order');
      assert.ok(frames[k].steps >= frames[k - 1].steps, 'frames in step order');
    }
    assert.ok(frames[4].steps > frames[0].steps, 'the frames follow the stepping');
    // Reading on after the end stays done.
    await assertEndedCleanly(watch);
    assert.equal(await fixture.client.checkHealth(), 'SERVING');
    const obs = await fixture.client.step(ids[0], [0], 1);
    assert.equal(obs.status.codeName, 'OK');
    await fixture.client.destroyInstances(ids);
  });

test('an AbortSignal and leaving the loop early cancel a Watch', { timeout: TEST_TIMEOUT_MS },
  async () => {
    const { ids } = await fixture.client.createBuiltin('pendulum', 1);
    const stop = keepStepping(ids[0]);
    const controller = new AbortController();
    let seen = 0;
    const aborting = fixture.client.watch(ids[0], { rateHz: 100, signal: controller.signal });
    for await (const frame of aborting) {
      assert.equal(typeof frame.time, 'number');
      seen += 1;
      if (seen === 3) controller.abort();
    }
    assert.equal(seen, 3);
    await assertEndedCleanly(aborting);

    let broken = 0;
    const watch = fixture.client.watch(ids[0], { rateHz: 100 });
    for await (const frame of watch) {
      assert.equal(typeof frame.steps, 'number');
      broken += 1;
      if (broken === 2) break;
    }
    await assertEndedCleanly(watch);
    // A signal aborted before the call cancels it at once.
    const aborted = fixture.client.watch(ids[0], { signal: AbortSignal.abort() });
    await assertEndedCleanly(aborted);
    await stop();
    await fixture.client.destroyInstances(ids);
  });

test('a Watch ends cleanly when its instance is destroyed', { timeout: TEST_TIMEOUT_MS },
  async () => {
    const { ids } = await fixture.client.createBuiltin('pendulum', 1);
    const watch = fixture.client.watch(ids[0], { rateHz: 50 });
    const first = await watch.next();
    assert.equal(first.done, false);
    await fixture.client.destroyInstances(ids);
    const rest = [];
    for await (const frame of watch) rest.push(frame);
    assert.ok(rest.length < 50, `the stream ended (${rest.length} frames after the first)`);
  });
