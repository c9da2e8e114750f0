'use strict';
// The request messages the Client builds from its arguments: model sources,
// settings, actions and state blobs, as plain objects in the proto's
// camelCase field names.

const fs = require('node:fs');

const { checkFields } = require('./fields');

/**
 * @typedef {object} ModelSourceOptions where a model comes from, besides its name
 * @property {string} [urdf] URDF text instead of a built-in
 * @property {string} [urdfPath] a URDF file to read instead of a built-in
 * @property {string} [base] '' (from the description), 'floating' or 'fixed'
 * @property {string[]} [contactLinks] links whose sphere geoms are contact points
 * @property {string} [collision] ''/'feet' (the foot spheres) or 'all'
 * @property {string[]} [collideLinks] per-link override of `collision`: every shape collides
 * @property {string[]} [excludeLinks] per-link override of `collision`: no slots beyond feet
 */

const SOURCE_OPTION_FIELDS = Object.freeze({
  base: 'base',
  contactLinks: 'contactLinks',
  collision: 'collision',
  collideLinks: 'collideLinks',
  excludeLinks: 'excludeLinks',
});

/**
 * A moreau.v1.ModelSource: a built-in name (`model`, e.g. 'pendulum'), or URDF
 * text (`options.urdf`) or file (`options.urdfPath`); `model` may also be a
 * ModelSource object already ({builtin} or {urdf}, plus base, …).
 * @param {Record<string, any>} packageDefinition
 * @param {string | Record<string, any> | undefined} model
 * @param {ModelSourceOptions} [options]
 * @returns {Record<string, any>}
 */
function modelSource(packageDefinition, model, options = {}) {
  /** @type {Record<string, any>} */
  let source;
  if (model !== null && typeof model === 'object') {
    source = { ...model };
  } else if (options.urdfPath !== undefined) {
    source = { urdf: fs.readFileSync(options.urdfPath, 'utf8') };
  } else if (options.urdf !== undefined) {
    source = { urdf: options.urdf };
  } else if (typeof model === 'string' && model) {
    source = { builtin: model };
  } else {
    throw new TypeError('model: give a built-in name (e.g. "pendulum"), urdf or urdfPath');
  }
  for (const [option, field] of Object.entries(SOURCE_OPTION_FIELDS)) {
    if (options[/** @type {keyof ModelSourceOptions} */ (option)] !== undefined) {
      source[field] = options[/** @type {keyof ModelSourceOptions} */ (option)];
    }
  }
  checkFields(packageDefinition, 'moreau.v1.ModelSource', source, 'model');
  return source;
}

/**
 * The moreau.v1.Settings of a plain object in the proto's camelCase names
 * ({dt, contactModel, contactParameters: {mu: 0.8}, controlMode, kp, kd,
 * gravity, terrain: {incline: {angleDeg: 5}}, controller: {kind: 'trot'},
 * observedLinks, …}); unknown fields are refused with their correct names.
 * @param {Record<string, any>} packageDefinition
 * @param {Record<string, any> | undefined | null} settings
 * @returns {Record<string, any>}
 */
function settingsMessage(packageDefinition, settings) {
  const message = settings ? { ...settings } : {};
  checkFields(packageDefinition, 'moreau.v1.Settings', message, 'settings');
  return message;
}

/**
 * A plain array of finite-or-not numbers from an array or typed array (the
 * server judges the values; NaN and ±Inf are its INVALID_ARGUMENT).
 * @param {ArrayLike<number>} values
 * @param {string} name the argument's name, for the error message
 * @returns {number[]}
 */
function doubles(values, name) {
  if (!Array.isArray(values) && !ArrayBuffer.isView(values)) {
    throw new TypeError(`${name}: give an array of numbers, got ${typeof values}`);
  }
  const out = Array.from(/** @type {ArrayLike<number>} */ (values));
  out.forEach((value, i) => {
    if (typeof value !== 'number') {
      throw new TypeError(`${name}[${i}]: give a number, got ${typeof value}`);
    }
  });
  return out;
}

/**
 * A moreau.v1.StepRequest.
 * @param {string} instanceId
 * @param {ArrayLike<number>} action per actuator
 * @param {number} substeps ≥ 1 (0 means 1)
 * @param {Record<string, any>[]} [pushes] moreau.v1.Push objects ({body,
 *   force, point, torque, duration}) that start with this step
 */
function stepRequest(instanceId, action, substeps, pushes) {
  if (!Number.isInteger(substeps)) throw new TypeError(`substeps: give an integer, got ${substeps}`);
  /** @type {Record<string, any>} */
  const request = { instanceId, action: doubles(action, 'action'), substeps };
  if (pushes !== undefined) {
    if (!Array.isArray(pushes)) throw new TypeError('pushes: give an array of pushes');
    request.pushes = pushes;
  }
  return request;
}

/**
 * The bytes of a state: a State's blob, or a Buffer / Uint8Array as it is.
 * @param {{blob: Uint8Array} | Uint8Array} state
 * @returns {Buffer}
 */
function stateBytes(state) {
  if (state instanceof Uint8Array) return Buffer.from(state);
  if (state && state.blob instanceof Uint8Array) return Buffer.from(state.blob);
  throw new TypeError('state: give a State (from getState) or its blob (a Buffer)');
}


/**
 * Throws a TypeError naming the first key of `options` not in `allowed`
 * (a misspelt option would otherwise be ignored).
 * @param {Record<string, any> | undefined} options
 * @param {readonly string[]} allowed
 * @param {string} where the method's name, for the error message
 */
function checkOptions(options, allowed, where) {
  if (options === undefined) return;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`${where}: the options must be an object, got ${typeof options}`);
  }
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key)) {
      throw new TypeError(`${where}: unknown option '${key}' (expected ${allowed.join(', ')})`);
    }
  }
}

/** The option names of a model source (ModelSourceOptions). */
const MODEL_SOURCE_OPTIONS = Object.freeze(['urdf', 'urdfPath', ...Object.keys(SOURCE_OPTION_FIELDS)]);

module.exports = {
  MODEL_SOURCE_OPTIONS,
  modelSource,
  settingsMessage,
  doubles,
  stepRequest,
  stateBytes,
  checkOptions,
};
