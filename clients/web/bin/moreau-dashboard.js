#!/usr/bin/env node
'use strict';
// moreau-dashboard --server HOST:PORT [--port 8080] [--host 127.0.0.1] [--demo]
// Serves the dashboard page and its WebSocket bridge (/ws) to the moreaud at
// HOST:PORT; --demo also creates a Mini Cheetah trotting in a circle under
// the server's controller and runs it in real time. The bearer token, when
// the server wants one: $MOREAU_TOKEN.

const { startDashboard } = require('../lib/bridge');

const USAGE =
  'usage: moreau-dashboard --server HOST:PORT [--port 8080] [--host 127.0.0.1] [--demo]';

function parse(argv) {
  const options = { server: '', port: 8080, host: '127.0.0.1', demo: false };
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
    if (!['--server', '--port', '--host'].includes(flag) || value === undefined) {
      throw new Error(`unknown flag or missing value: ${flag}`);
    }
    i++;
    if (flag === '--server') options.server = value;
    else if (flag === '--host') options.host = value;
    else {
      const port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port: not a port: ${value}`);
      options.port = port;
    }
  }
  if (!options.server) throw new Error('--server HOST:PORT is required');
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
  }
  console.log(`moreau-dashboard: serving ${dashboard.url} for moreaud at ${options.server}`);
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
