'use strict';
// Loads the service definitions at run time with @grpc/proto-loader: the
// repository's proto/moreau/v1/simulator.proto (the wire contract) and the
// small grpc.health.v1 file beside this one.
//
// Field names are camelCase (keepCase: false): the proto's `instance_id` is
// `instanceId` in every request and response object. int64/uint64 values are
// Numbers, enums their names (strings), unset fields their defaults, and a
// oneof's set member is named by a virtual field (ModelSource.source is
// 'builtin' or 'urdf').

const path = require('node:path');
const fs = require('node:fs');

const { grpc, protoLoader } = require('./grpc_modules');

/** The options every definition is loaded with (see the comment above). */
const LOADER_OPTIONS = Object.freeze({
  keepCase: false,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
});

/** The environment variable that overrides where simulator.proto is. */
const PROTO_ENVIRONMENT_VARIABLE = 'MOREAU_PROTO';

/** simulator.proto in the repository, relative to this package (clients/js). */
const DEFAULT_PROTO_PATH = path.resolve(__dirname, '..', '..', '..', 'proto', 'moreau', 'v1',
  'simulator.proto');

const HEALTH_PROTO_PATH = path.join(__dirname, 'health.proto');

/**
 * The path of simulator.proto: `explicit` when given, else $MOREAU_PROTO,
 * else the repository's copy.
 * @param {string} [explicit]
 * @returns {string}
 */
function simulatorProtoPath(explicit) {
  return explicit || process.env[PROTO_ENVIRONMENT_VARIABLE] || DEFAULT_PROTO_PATH;
}

/**
 * @typedef {object} SimulatorDefinition
 * @property {string} protoPath the file it was loaded from
 * @property {import('@grpc/proto-loader').PackageDefinition} packageDefinition
 *   every message's descriptor, by full name ('moreau.v1.Settings')
 * @property {import('@grpc/grpc-js').ServiceClientConstructor} Simulator the moreau.v1.Simulator client class
 */

/**
 * The client class of the service `fullName` ('moreau.v1.Simulator') in a
 * loaded package definition; undefined when it defines no such service.
 * @param {import('@grpc/proto-loader').PackageDefinition} packageDefinition
 * @param {string} fullName
 * @returns {import('@grpc/grpc-js').ServiceClientConstructor | undefined}
 */
function serviceAt(packageDefinition, fullName) {
  /** @type {any} */
  let node = grpc.loadPackageDefinition(packageDefinition);
  for (const name of fullName.split('.')) node = node && node[name];
  return typeof node === 'function' ? node : undefined;
}

/** @type {Map<string, SimulatorDefinition>} loaded definitions by file path */
const loaded = new Map();

/**
 * moreau.v1.Simulator from `protoPath` (see simulatorProtoPath), loaded once
 * per file.
 * @param {string} [protoPath]
 * @returns {SimulatorDefinition}
 */
function loadSimulator(protoPath) {
  const file = path.resolve(simulatorProtoPath(protoPath));
  const cached = loaded.get(file);
  if (cached) return cached;
  if (!fs.existsSync(file)) {
    throw new Error(`moreau: the service definition ${file} does not exist; pass the ` +
      `\`proto\` option or set ${PROTO_ENVIRONMENT_VARIABLE} to the path of ` +
      'proto/moreau/v1/simulator.proto');
  }
  const packageDefinition = protoLoader.loadSync(file, LOADER_OPTIONS);
  const Simulator = serviceAt(packageDefinition, 'moreau.v1.Simulator');
  if (!Simulator) throw new Error(`moreau: ${file} defines no service moreau.v1.Simulator`);
  const definition = { protoPath: file, packageDefinition, Simulator };
  loaded.set(file, definition);
  return definition;
}

/** @type {import('@grpc/grpc-js').ServiceClientConstructor | undefined} */
let healthClass;

/**
 * The grpc.health.v1.Health client class.
 * @returns {import('@grpc/grpc-js').ServiceClientConstructor}
 */
function loadHealth() {
  if (!healthClass) {
    const definition = protoLoader.loadSync(HEALTH_PROTO_PATH, LOADER_OPTIONS);
    healthClass = serviceAt(definition, 'grpc.health.v1.Health');
    if (!healthClass) throw new Error(`moreau: ${HEALTH_PROTO_PATH} defines no grpc.health.v1.Health`);
  }
  return healthClass;
}

module.exports = {
  LOADER_OPTIONS,
  PROTO_ENVIRONMENT_VARIABLE,
  DEFAULT_PROTO_PATH,
  simulatorProtoPath,
  loadSimulator,
  loadHealth,
};
