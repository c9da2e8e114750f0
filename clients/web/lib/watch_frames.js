'use strict';
// The frames of one instance as the bridge passes them on: a Watch stream of
// moreaud read as fast as the server sends it, each state handed on once.
// The stream samples at its rate whether or not the instance stepped, so a
// frame of the state last handed on (same time and steps) is skipped. Until
// the stream's first frame, one from a Query (steps: null).
//
// The WatchFrame carries poses, not velocities: each frame's baseVelocity is
// the first body's (the base's) pose differenced against the frame handed on
// before it, over the simulated time between them.

/**
 * @typedef {{name: string, position: number[], quaternion: number[]}} BodyPose
 *   world position; quaternion w, x, y, z (body → world)
 * @typedef {{linear: number[], yawRate: number, interval: number}} BaseVelocity
 *   the first body's mean velocity since the previous frame: linear, m/s, world
 *   frame; yawRate, rad/s, of its heading about the world's z axis; interval,
 *   the simulated seconds it is the mean over
 * @typedef {{id: string, time: number, steps: number | null, bodies: BodyPose[],
 *   contactForces: number[], contactFlags: boolean[],
 *   baseVelocity: BaseVelocity | null}} Frame
 *   baseVelocity: null for the first frame, and for one whose time is not
 *   after the previous frame's (a reset)
 * @typedef {{id: string, rateHz: number, frames: number, cancel: () => void}} FrameWatch
 */

/**
 * Watches instance `id` at `rateHz`. `onFrame(frame)` gets each new state;
 * `onEnd(error)` is called once when the stream ends by itself: error null
 * when the server ended it (the instance was destroyed), else why it failed.
 * Neither is called after `cancel()`.
 * @param {any} client a Client of clients/js
 * @param {string} id
 * @param {number} rateHz
 * @param {(frame: Frame) => void} onFrame
 * @param {(error: Error | null) => void} onEnd
 * @returns {FrameWatch}
 */
function watchFrames(client, id, rateHz, onFrame, onEnd) {
  const stream = client.watch(id, { rateHz });
  let cancelled = false;
  /** @type {{time: number, steps: number} | null} */
  let last = null;
  /** @type {Frame | null} the frame handed on last, for the velocity */
  let previous = null;
  /** @param {Omit<Frame, 'baseVelocity'>} frame */
  const handOn = (frame) => {
    const full = { ...frame, baseVelocity: baseVelocity(previous, frame) };
    previous = full;
    onFrame(full);
  };
  /** @type {FrameWatch} */
  const watch = {
    id, rateHz, frames: 0,
    cancel() {
      cancelled = true;
      stream.cancel();
    },
  };
  (async () => {
    let failure = null;
    try {
      for await (const message of stream) {
        if (cancelled) return;
        watch.frames++;
        const steps = Number(message.steps);
        if (last && last.time === message.time && last.steps === steps) continue;
        last = { time: message.time, steps };
        handOn({
          id, time: message.time, steps,
          bodies: message.bodyPoses.map(bodyPose),
          contactForces: message.contactNormalForces, contactFlags: message.contactFlags,
        });
      }
    } catch (error) {
      failure = /** @type {Error} */ (error);
    }
    if (!cancelled) onEnd(failure);
  })();
  client.query(id, { bodyPoses: true, contacts: true }).then((/** @type {any} */ query) => {
    if (cancelled || watch.frames > 0) return;
    handOn({
      id, time: query.time, steps: null,
      bodies: query.bodyPoses.map(bodyPose),
      contactForces: query.contacts.map((/** @type {any} */ c) =>
        c.force.reduce((/** @type {number} */ sum, /** @type {number} */ f, /** @type {number} */ i) =>
          sum + f * c.normal[i], 0)),
      contactFlags: query.contacts.map((/** @type {any} */ c) => c.active),
    });
  }, () => {});
  return watch;
}

/** @param {any} b a BodyPose of the client @returns {BodyPose} */
function bodyPose(b) {
  return { name: b.name, position: b.position, quaternion: b.quaternion };
}

/**
 * The heading of a body: the angle about the world's z axis of its x axis
 * projected on the ground plane, in (-π, π].
 * @param {number[]} q quaternion w, x, y, z (body → world)
 */
function headingOf(q) {
  const [w, x, y, z] = q;
  return Math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z));
}

/**
 * The first body's mean velocity from frame `before` to frame `after`, or
 * null when there is no earlier frame of the same body to difference with
 * (none, another body first, or not earlier in simulated time).
 * @param {{time: number, bodies: BodyPose[]} | null} before
 * @param {{time: number, bodies: BodyPose[]}} after
 * @returns {BaseVelocity | null}
 */
function baseVelocity(before, after) {
  if (!before || !before.bodies.length || !after.bodies.length ||
      before.bodies[0].name !== after.bodies[0].name) return null;
  const interval = after.time - before.time;
  if (!(interval > 0)) return null;
  const [a, b] = [before.bodies[0], after.bodies[0]];
  let turn = headingOf(b.quaternion) - headingOf(a.quaternion);
  turn -= 2 * Math.PI * Math.round(turn / (2 * Math.PI));  // into [-π, π]
  return {
    linear: b.position.map((p, i) => (p - a.position[i]) / interval),
    yawRate: turn / interval,
    interval,
  };
}

module.exports = { watchFrames, baseVelocity, headingOf };
