'use strict';
// A throw-away PKI for the TLS tests, made by the repository's
// tests/integration/make_test_pki.sh (Debian's openssl): ca.pem, server.pem
// and server.key (for 127.0.0.1), client.pem and client.key signed by ca.

const { execFileSync } = require('node:child_process');
const path = require('node:path');

/** The script: $MOREAU_TEST_PKI, else the repository's copy. */
const PKI_SCRIPT = process.env.MOREAU_TEST_PKI ||
  path.resolve(__dirname, '..', '..', '..', 'tests', 'integration', 'make_test_pki.sh');

/**
 * Makes the PKI in `dir` and returns the paths of its files.
 * @param {string} dir
 */
function makeTestPki(dir) {
  execFileSync('bash', [PKI_SCRIPT, dir], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 60000 });
  const file = (/** @type {string} */ name) => path.join(dir, name);
  return {
    ca: file('ca.pem'),
    serverCert: file('server.pem'),
    serverKey: file('server.key'),
    clientCert: file('client.pem'),
    clientKey: file('client.key'),
    otherCa: file('other_ca.pem'),
  };
}

module.exports = { makeTestPki };
