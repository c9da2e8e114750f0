'use strict';
// Assertions shared by the tests.

const assert = require('node:assert/strict');

const { MoreauError, status } = require('..');

/**
 * Awaits `promise`, which must reject with a MoreauError of `codeName` whose
 * server message matches `details`; returns the error.
 * @param {Promise<unknown>} promise
 * @param {string} codeName e.g. 'NOT_FOUND'
 * @param {RegExp} details
 * @param {{method?: string, address?: string}} [where] expected method and address
 * @returns {Promise<import('../lib/errors').MoreauError>}
 */
async function rejectsWith(promise, codeName, details, where = {}) {
  let caught;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof MoreauError, `expected a MoreauError ${codeName}, got ${caught}`);
  const error = /** @type {import('../lib/errors').MoreauError} */ (caught);
  assert.equal(error.codeName, codeName, error.message);
  assert.equal(error.code, status[/** @type {keyof typeof status} */ (codeName)]);
  assert.match(error.details, details);
  assert.ok(error.message.includes(error.details), 'the message carries the server\'s');
  if (where.method !== undefined) assert.equal(error.method, where.method);
  if (where.address !== undefined) assert.equal(error.address, where.address);
  return error;
}

/**
 * Asserts |actual − expected| ≤ tolerance.
 * @param {number} actual
 * @param {number} expected
 * @param {number} tolerance
 * @param {string} [what]
 */
function assertClose(actual, expected, tolerance, what = 'value') {
  assert.ok(Math.abs(actual - expected) <= tolerance,
    `${what}: ${actual} is not within ${tolerance} of ${expected}`);
}

module.exports = { rejectsWith, assertClose };
