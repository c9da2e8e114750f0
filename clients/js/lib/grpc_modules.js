'use strict';
// The two npm dependencies, required in one place so that a checkout without
// `npm ci` fails with what to do rather than a bare MODULE_NOT_FOUND.

/**
 * `require(name)`, or an Error saying how to install the package's dependencies.
 * @param {string} name
 */
function requireDependency(name) {
  try {
    return require(name);
  } catch (error) {
    if (error && error.code === 'MODULE_NOT_FOUND' && String(error.message).includes(name)) {
      throw new Error(`moreau-client: the dependency ${name} is not installed; run ` +
        '`npm ci` in clients/js (scripts/build.sh does it)', { cause: error });
    }
    throw error;
  }
}

/** @type {typeof import('@grpc/grpc-js')} */
const grpc = requireDependency('@grpc/grpc-js');
/** @type {typeof import('@grpc/proto-loader')} */
const protoLoader = requireDependency('@grpc/proto-loader');

module.exports = { grpc, protoLoader };
