'use strict';
// What the Client returns, made from the response messages: plain objects
// with the proto's camelCase names; flat row-major matrices become arrays of
// rows.

const { codeName } = require('./errors');

/**
 * @typedef {object} Status an instance's status in one step
 * @property {number} code a gRPC status code; 0 = OK
 * @property {string} codeName its name ('OK', 'NOT_FOUND', 'FAILED_PRECONDITION', …)
 * @property {string} message '' when OK
 */

/**
 * @typedef {object} Observation one instance after a step (moreau.v1.Observation)
 * @property {string} instanceId
 * @property {number} time s
 * @property {number} steps simulation steps since reset
 * @property {number[]} q nq
 * @property {number[]} v nv
 * @property {number[]} jointPositions per actuator
 * @property {number[]} jointVelocities per actuator
 * @property {number[]} jointTorques per actuator, applied in the last step
 * @property {number[]} basePose x y z qw qx qy qz (floating base; else empty)
 * @property {number[]} baseTwist linear (world), angular (base frame)
 * @property {number[]} contactNormalForces per contact point, N
 * @property {boolean[]} contactFlags per contact point
 * @property {number} solverIterations
 * @property {boolean} solverConverged
 * @property {Status} status of this instance's step
 * @property {number} substepsDone how many of the requested sub-steps ran
 * @property {number[]} linkPositions x y z of each of Settings.observedLinks
 */

/**
 * A Status from a moreau.v1.Status message (null when the server left it unset: OK).
 * @param {{code: number, message: string} | null | undefined} raw
 * @returns {Status}
 */
function status(raw) {
  const code = raw ? raw.code : 0;
  return { code, codeName: codeName(code), message: raw ? raw.message : '' };
}

/**
 * An Observation from a moreau.v1.Observation message.
 * @param {Record<string, any>} raw
 * @returns {Observation}
 */
function observation(raw) {
  return /** @type {Observation} */ ({ ...raw, status: status(raw.status) });
}

/**
 * @typedef {object} Instances what createInstances returns
 * @property {string[]} ids the new instances' ids
 * @property {Record<string, any>} spec moreau.v1.Spec: observation layout,
 *   control mode, action and its bounds, dt, the ModelSpec
 * @property {Observation[]} observations the first observation of each
 */

/**
 * @param {Record<string, any>} raw moreau.v1.CreateInstancesResponse
 * @returns {Instances}
 */
function instances(raw) {
  return { ids: raw.instanceIds, spec: raw.spec, observations: raw.observations.map(observation) };
}

/**
 * @typedef {object} State an instance's complete state
 * @property {Buffer} blob opaque, portable (SetState or Reset on any server of the same version)
 * @property {number[]} q
 * @property {number[]} v
 * @property {number} time
 */

/**
 * @param {Record<string, any>} raw moreau.v1.GetStateResponse
 * @returns {State}
 */
function state(raw) {
  return { blob: raw.state ? raw.state.data : Buffer.alloc(0), q: raw.q, v: raw.v, time: raw.time };
}

/**
 * The rows of a row-major matrix of `width` columns.
 * @param {number[]} flat
 * @param {number} width
 * @returns {number[][]}
 */
function rows(flat, width) {
  if (width <= 0) return [];
  const out = [];
  for (let start = 0; start < flat.length; start += width) out.push(flat.slice(start, start + width));
  return out;
}

/**
 * @typedef {object} BodyPose
 * @property {string} name
 * @property {number[]} position 3, world
 * @property {number[]} quaternion 4, w x y z, body → world
 */

/**
 * @typedef {object} ContactInfo
 * @property {number} index contact point index (ModelSpec.contactPoints)
 * @property {boolean} active
 * @property {number} gap m, < 0 penetrating
 * @property {number[]} position 3, world
 * @property {number[]} normal 3, world
 * @property {number[]} force 3, world, on the robot (last step)
 */

/**
 * @typedef {object} QueryResult what query returns; what was not asked for is empty
 * @property {number} time
 * @property {number} nv
 * @property {BodyPose[]} bodyPoses
 * @property {ContactInfo[]} contacts
 * @property {number} kineticEnergy J
 * @property {number} potentialEnergy J
 * @property {number[][]} massMatrix nv rows of nv
 * @property {number[]} biasForces nv: h = c + g
 * @property {number[][][]} contactJacobians per contact point, 3 rows of nv (world frame)
 * @property {number[][]} linkPositions per observed link, x y z
 */

/**
 * @param {Record<string, any>} raw moreau.v1.QueryResponse
 * @returns {QueryResult}
 */
function queryResult(raw) {
  const nv = raw.nv;
  return {
    time: raw.time,
    nv,
    bodyPoses: raw.bodyPoses,
    contacts: raw.contacts,
    kineticEnergy: raw.kineticEnergy,
    potentialEnergy: raw.potentialEnergy,
    massMatrix: rows(raw.massMatrix, nv),
    biasForces: raw.biasForces,
    contactJacobians: rows(raw.contactJacobians, 3 * nv).map((block) => rows(block, nv)),
    linkPositions: rows(raw.linkPositions, 3),
  };
}

/**
 * @typedef {object} WatchFrame a sampled frame of a watched instance
 * @property {number} time
 * @property {number} steps
 * @property {BodyPose[]} bodyPoses
 * @property {number[]} contactNormalForces
 * @property {boolean[]} contactFlags
 */

module.exports = { status, observation, instances, state, rows, queryResult };
