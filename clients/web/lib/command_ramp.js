'use strict';
// The trot command the bridge applies: it follows the command a browser asks
// for (the target) at a bounded rate, not at once, because a step change of
// the command can topple the trot. Each element moves toward its target by at
// most its bound (the larger magnitude of the Spec's action_lower and
// action_upper) per second of simulated time: from 0 to 70 % of the bound in
// 0.7 s.

/**
 * The command after ramping `applied` toward `target` for `seconds` of
 * simulated time. Elements beyond the bounds given move at once.
 * @param {number[]} applied the command applied so far
 * @param {number[]} target the command asked for
 * @param {number[]} lower Spec.action_lower
 * @param {number[]} upper Spec.action_upper
 * @param {number} seconds ≥ 0
 * @returns {number[]}
 */
function rampCommand(applied, target, lower, upper, seconds) {
  return target.map((goal, i) => {
    if (i >= lower.length || i >= upper.length) return goal;
    const from = applied[i] === undefined ? 0 : applied[i];
    const most = Math.max(Math.abs(lower[i]), Math.abs(upper[i])) * seconds;
    if (Math.abs(goal - from) <= most) return goal;
    return goal > from ? from + most : from - most;
  });
}

module.exports = { rampCommand };
