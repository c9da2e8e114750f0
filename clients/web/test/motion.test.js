'use strict';
// The bridge's arithmetic of motion, without a server: the base velocity
// differenced between frames (lib/watch_frames.js) and the command ramp
// (lib/command_ramp.js).

const test = require('node:test');
const assert = require('node:assert/strict');
const { baseVelocity, headingOf } = require('../lib/watch_frames');
const { rampCommand } = require('../lib/command_ramp');

/** A quaternion (w, x, y, z) turning by `angle` about the unit axis `axis`. */
function rotation(axis, angle) {
  const s = Math.sin(angle / 2);
  return [Math.cos(angle / 2), axis[0] * s, axis[1] * s, axis[2] * s];
}

/** A frame of one body named body at `position`, turned by `quaternion`. */
function frame(time, position, quaternion) {
  return { time, bodies: [{ name: 'body', position, quaternion }] };
}

const close = (actual, expected, tolerance, what) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual}, expected ${expected}`);

test('headingOf: the angle about z of the body x axis, pitch and roll aside', () => {
  close(headingOf([1, 0, 0, 0]), 0, 1e-15, 'identity');
  close(headingOf(rotation([0, 0, 1], 0.7)), 0.7, 1e-12, 'yaw 0.7');
  close(headingOf(rotation([0, 0, 1], -2.5)), -2.5, 1e-12, 'yaw -2.5');
  close(headingOf(rotation([0, 1, 0], 0.3)), 0, 1e-12, 'pitch only');
  close(headingOf(rotation([1, 0, 0], 0.3)), 0, 1e-12, 'roll only');
});

test('baseVelocity: displacement and heading change over the simulated time between frames', () => {
  const a = frame(1.0, [0.5, -0.2, 0.3], rotation([0, 0, 1], 0.1));
  const b = frame(1.04, [0.52, -0.19, 0.298], rotation([0, 0, 1], 0.12));
  const v = baseVelocity(a, b);
  assert.ok(v);
  close(v.interval, 0.04, 1e-12, 'interval');
  close(v.linear[0], 0.5, 1e-9, 'vx');
  close(v.linear[1], 0.25, 1e-9, 'vy');
  close(v.linear[2], -0.05, 1e-9, 'vz');
  close(v.yawRate, 0.5, 1e-9, 'yaw rate');
  // Across ±π: the short way round.
  const c = frame(2.0, [0, 0, 0], rotation([0, 0, 1], Math.PI - 0.01));
  const d = frame(2.1, [0, 0, 0], rotation([0, 0, 1], -Math.PI + 0.01));
  close(baseVelocity(c, d).yawRate, 0.2, 1e-9, 'yaw rate across π');
  close(baseVelocity(d, frame(2.2, [0, 0, 0], rotation([0, 0, 1], Math.PI - 0.01))).yawRate, -0.2, 1e-9,
    'yaw rate back across π');
});

test('baseVelocity: none without an earlier frame of the same base', () => {
  const a = frame(1.0, [0, 0, 0.3], [1, 0, 0, 0]);
  assert.equal(baseVelocity(null, a), null);
  assert.equal(baseVelocity(a, frame(1.0, [0, 0, 0.3], [1, 0, 0, 0])), null, 'same time');
  assert.equal(baseVelocity(a, frame(0, [0, 0, 0.3], [1, 0, 0, 0])), null, 'reset: earlier time');
  assert.equal(baseVelocity({ time: 0.5, bodies: [] }, a), null, 'no bodies');
  const other = { time: 1.1, bodies: [{ name: 'trunk', position: [1, 0, 0], quaternion: [1, 0, 0, 0] }] };
  assert.equal(baseVelocity(a, other), null, 'another first body');
});

test('rampCommand: each element toward its target at its bound per second', () => {
  const lower = [-1, -0.5, -0.5];
  const upper = [1, 0.5, 0.5];
  const target = [0.7, -0.35, 0.35];
  let applied = [0, 0, 0];
  applied = rampCommand(applied, target, lower, upper, 0.1);
  assert.deepEqual(applied.map((v) => +v.toFixed(12)), [0.1, -0.05, 0.05]);
  applied = rampCommand(applied, target, lower, upper, 0.5);
  assert.deepEqual(applied.map((v) => +v.toFixed(12)), [0.6, -0.3, 0.3]);
  // It stops at the target, and comes back as fast.
  applied = rampCommand(applied, target, lower, upper, 1);
  assert.deepEqual(applied, target);
  applied = rampCommand(applied, [0, 0, 0], lower, upper, 0.2);
  assert.deepEqual(applied.map((v) => +v.toFixed(12)), [0.5, -0.25, 0.25]);
  // Asymmetric bounds: the larger magnitude; no time: no change.
  assert.deepEqual(rampCommand([0], [1], [-2], [1], 0.25), [0.5]);
  assert.deepEqual(rampCommand([0.2, 0, 0], [1, 1, 1], lower, upper, 0), [0.2, 0, 0]);
  // It lands on the target exactly.
  assert.deepEqual(rampCommand([0.3, -0.04, 0.04], [0.35, 0, 0], lower, upper, 0.1), [0.35, 0, 0]);
  // Elements without bounds move at once.
  assert.deepEqual(rampCommand([0, 0], [0.3, 4], [-1], [1], 0.1), [0.1, 4]);
});
