'use strict';
// Transport security and bearer tokens: the channel credentials of the
// Client's `tls` option and the call metadata carrying its `token`.

const fs = require('node:fs');

const { grpc } = require('./grpc_modules');

/** The environment variable the token defaults to. */
const TOKEN_ENVIRONMENT_VARIABLE = 'MOREAU_TOKEN';

/**
 * PEM bytes: a Buffer as it is, a string starting with '-----BEGIN ' as PEM
 * text, any other string as a file path; undefined/null stays undefined.
 * @param {Buffer | string | undefined | null} value
 * @param {string} what the option's name, for the error message
 * @returns {Buffer | undefined}
 */
function pem(value, what) {
  if (value === undefined || value === null) return undefined;
  if (Buffer.isBuffer(value)) return value;
  if (typeof value === 'string') {
    if (value.trimStart().startsWith('-----BEGIN ')) return Buffer.from(value);
    try {
      return fs.readFileSync(value);
    } catch (error) {
      throw new Error(`tls.${what}: cannot read '${value}': ${/** @type {Error} */ (error).message}`);
    }
  }
  throw new TypeError(`tls.${what}: give PEM as a Buffer, PEM text or a file path, ` +
    `got ${typeof value}`);
}

/**
 * @typedef {object} TlsFiles
 * @property {Buffer | string} [ca] certificates the server's must chain to
 *   (default: the system's roots)
 * @property {Buffer | string} [cert] the client's certificate chain (mTLS)
 * @property {Buffer | string} [key] the client's private key (mTLS)
 */

/**
 * @typedef {undefined | null | boolean | TlsFiles | import('@grpc/grpc-js').ChannelCredentials} TlsOption
 * false/undefined: plaintext; true: TLS trusting the system's roots; an
 * object {ca, cert, key} (each a Buffer, PEM text or a file path); or any
 * grpc.ChannelCredentials.
 */

/**
 * The channel credentials of a `tls` option.
 * @param {TlsOption} tls
 * @returns {import('@grpc/grpc-js').ChannelCredentials}
 */
function channelCredentials(tls) {
  if (tls === undefined || tls === null || tls === false) return grpc.credentials.createInsecure();
  if (tls === true) return grpc.credentials.createSsl();
  if (tls instanceof grpc.ChannelCredentials) return tls;
  if (typeof tls === 'object') {
    const unknown = Object.keys(tls).filter((key) => !['ca', 'cert', 'key'].includes(key));
    if (unknown.length) {
      throw new TypeError(`tls: unknown keys ${unknown.join(', ')} (expected ca, cert, key)`);
    }
    const cert = pem(tls.cert, 'cert');
    const key = pem(tls.key, 'key');
    if ((cert === undefined) !== (key === undefined)) {
      throw new TypeError('tls: give both cert and key (the client certificate and its key), ' +
        'or neither');
    }
    return grpc.credentials.createSsl(pem(tls.ca, 'ca') || null, key || null, cert || null);
  }
  throw new TypeError('tls: give false, true, {ca, cert, key} or grpc.ChannelCredentials, ' +
    `got ${typeof tls}`);
}

/**
 * The token to send: `token` when given (a string), else $MOREAU_TOKEN; ''
 * means none.
 * @param {string | undefined | null} token
 * @returns {string}
 */
function resolveToken(token) {
  if (token === undefined || token === null) return process.env[TOKEN_ENVIRONMENT_VARIABLE] || '';
  if (typeof token !== 'string') throw new TypeError(`token: give a string, got ${typeof token}`);
  return token;
}

/**
 * Fresh call metadata: `authorization: Bearer TOKEN` when there is a token,
 * and waitForReady off (a call to a server that is down fails at once).
 * @param {string} token
 * @returns {import('@grpc/grpc-js').Metadata}
 */
function callMetadata(token) {
  const metadata = new grpc.Metadata({ waitForReady: false });
  if (token) metadata.set('authorization', `Bearer ${token}`);
  return metadata;
}

module.exports = { TOKEN_ENVIRONMENT_VARIABLE, channelCredentials, resolveToken, callMetadata };
