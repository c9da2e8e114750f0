'use strict';
// The frames of one instance as the bridge passes them on: a Watch stream of
// moreaud read as fast as the server sends it, each state handed on once.
// The stream samples at its rate whether or not the instance stepped, so a
// frame of the state last handed on (same time and steps) is skipped. Until
// the stream's first frame, one from a Query (steps: null).

/**
 * @typedef {{name: string, position: number[], quaternion: number[]}} BodyPose
 *   world position; quaternion w, x, y, z (body → world)
 * @typedef {{id: string, time: number, steps: number | null, bodies: BodyPose[],
 *   contactForces: number[], contactFlags: boolean[]}} Frame
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
        onFrame({
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
    onFrame({
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

module.exports = { watchFrames };
