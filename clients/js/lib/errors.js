'use strict';
// MoreauError: a failed call, with its gRPC status code, the server's message
// and which method on which server it concerns.

const { grpc } = require('./grpc_modules');

/** gRPC status code number → name ('INVALID_ARGUMENT'), from grpc.status. */
const CODE_NAMES = Object.freeze(Object.fromEntries(
  Object.entries(grpc.status)
    .filter(([name, value]) => typeof value === 'number' && /^[A-Z_]+$/.test(name))
    .map(([name, value]) => [value, name])));

/**
 * The name of a gRPC status code number ('UNKNOWN' for a number gRPC does not define).
 * @param {number} code
 * @returns {string}
 */
function codeName(code) {
  return CODE_NAMES[code] || 'UNKNOWN';
}

class MoreauError extends Error {
  /**
   * @param {number} code the gRPC status code (grpc.status)
   * @param {string} details the server's message (or the client's, for a
   *   failure on this side such as an unreachable server)
   * @param {{method?: string, address?: string, cause?: unknown}} [where]
   *   the RPC ('Step') and the server's address ('127.0.0.1:50051')
   */
  constructor(code, details, where = {}) {
    const method = where.method || '';
    const address = where.address || '';
    const name = codeName(code);
    const place = [method, address ? `on ${address}` : ''].filter(Boolean).join(' ');
    super(`${place ? `${place}: ` : ''}${name}: ${details}`,
      where.cause === undefined ? undefined : { cause: where.cause });
    this.name = 'MoreauError';
    /** @type {number} the gRPC status code */
    this.code = code;
    /** @type {string} the code's name, e.g. 'INVALID_ARGUMENT' */
    this.codeName = name;
    /** @type {string} the server's message */
    this.details = details;
    /** @type {string} the RPC, e.g. 'Step' */
    this.method = method;
    /** @type {string} host:port of the server */
    this.address = address;
  }
}

/**
 * The MoreauError of an error a grpc-js call reported (a ServiceError: code,
 * details); any other error becomes UNKNOWN with its message.
 * @param {any} error
 * @param {string} method
 * @param {string} address
 * @returns {MoreauError}
 */
function fromGrpcError(error, method, address) {
  if (error instanceof MoreauError) return error;
  const code = error && typeof error.code === 'number' ? error.code : grpc.status.UNKNOWN;
  const details = error && typeof error.details === 'string' ? error.details
    : String(error && error.message ? error.message : error);
  return new MoreauError(code, details, { method, address, cause: error });
}

module.exports = { MoreauError, codeName, fromGrpcError, status: grpc.status };
