#!/usr/bin/env node
'use strict';
// moreau-dashboard --server HOST:PORT [--port 8080] [--host 127.0.0.1] [--demo]
//                  [--foxglove-port 8765 [--foxglove-origin ORIGIN]...]
// Serves the dashboard page and its WebSocket bridge (/ws) to the moreaud at
// HOST:PORT; --demo also creates a Mini Cheetah trotting in a circle under
// the server's controller and a UR10 arm moving under inverse dynamics,
// and runs both in real time. --foxglove-port also
// serves the Foxglove WebSocket protocol on that port (0: any free one), to
// which pages of each --foxglove-origin may connect besides clients that
// are not browsers. The bearer token, when the server wants one:
// $MOREAU_TOKEN.

const { startDashboard } = require('../lib/bridge');

const USAGE =
  'usage: moreau-dashboard --server HOST:PORT [--port 8080] [--host 127.0.0.1] [--demo]\n' +
  '                        [--foxglove-port 8765 [--foxglove-origin ORIGIN]...]';

/** @param {string} flag @param {string} value */
function port(flag, value) {
  const number = Number(value);
  if (!/^\d+$/.test(value) || number > 65535) throw new Error(`${flag}: not a port: ${value}`);
  return number;
}

function parse(argv) {
  /** @type {{server: string, port: number, host: string, demo: boolean,
   *   foxglovePort?: number, foxgloveOrigins: string[]}} */
  const options = { server: '', port: 8080, host: '127.0.0.1', demo: false, foxgloveOrigins: [] };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag === '-h' || flag === '--help') {
      console.log(USAGE);
      process.exit(0);
    }
    if (flag === '--demo') {
      options.demo = true;
      continue;
    }
    if (!['--server', '--port', '--host', '--foxglove-port', '--foxglove-origin'].includes(flag) ||
        value === undefined) {
      throw new Error(`unknown flag or missing value: ${flag}`);
    }
    i++;
    if (flag === '--server') options.server = value;
    else if (flag === '--host') options.host = value;
    else if (flag === '--foxglove-port') options.foxglovePort = port(flag, value);
    else if (flag === '--foxglove-origin') options.foxgloveOrigins.push(value);
    else options.port = port(flag, value);
  }
  if (!options.server) throw new Error('--server HOST:PORT is required');
  if (options.foxgloveOrigins.length && options.foxglovePort === undefined) {
    throw new Error('--foxglove-origin needs --foxglove-port');
  }
  return options;
}

async function main() {
  let options;
  try {
    options = parse(process.argv.slice(2));
  } catch (error) {
    console.error(`moreau-dashboard: ${error.message}\n${USAGE}`);
    process.exit(2);
  }
  const dashboard = await startDashboard(options);
  if (options.demo) {
    const id = await dashboard.startDemo();
    console.log(`moreau-dashboard: demo instance ${id}: a Mini Cheetah trotting in a circle`);
    const arm = await dashboard.startArmDemo();
    console.log(`moreau-dashboard: demo instance ${arm}: a UR10 arm moving`);
  }
  console.log(`moreau-dashboard: serving ${dashboard.url} for moreaud at ${options.server}`);
  if (dashboard.foxgloveUrl) {
    console.log(`moreau-dashboard: Foxglove WebSocket protocol at ${dashboard.foxgloveUrl}`);
  }
  const stop = () => {
    dashboard.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error) => {
  console.error(`moreau-dashboard: ${error.message}`);
  process.exit(1);
});
