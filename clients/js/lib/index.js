'use strict';
// moreau-client: the JavaScript client of moreaud (moreau.v1.Simulator).
//
//   const { Client } = require('moreau-client');
//   const client = new Client('127.0.0.1:50051');
//   const { ids } = await client.createBuiltin('pendulum', 1);
//   const obs = await client.step(ids[0], [0.5], 10);
//   client.close();

const { Client, DEFAULT_TIMEOUT_S, SIMULATOR_SERVICE } = require('./client');
const { MoreauError, codeName, status } = require('./errors');
const { Session } = require('./session');
const { Watch } = require('./watch');
const { PROTO_ENVIRONMENT_VARIABLE, DEFAULT_PROTO_PATH } = require('./proto');
const { TOKEN_ENVIRONMENT_VARIABLE } = require('./security');

module.exports = {
  Client,
  MoreauError,
  Session,
  Watch,
  codeName,
  /** gRPC status codes by name (status.NOT_FOUND === 5). */
  status,
  DEFAULT_TIMEOUT_S,
  SIMULATOR_SERVICE,
  PROTO_ENVIRONMENT_VARIABLE,
  DEFAULT_PROTO_PATH,
  TOKEN_ENVIRONMENT_VARIABLE,
};
