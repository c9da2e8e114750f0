'use strict';
// Runs the package's tests (test/*.test.js) with node's test runner, after
// checking that the npm dependencies are installed: without them every test
// file would fail on its first require, so this fails once, saying what to do.
//
//   MOREAUD_BIN=path/to/moreaud node testing/run_tests.js   (npm test; ctest's js_client)

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const packageDir = path.resolve(__dirname, '..');

const missing = ['@grpc/grpc-js', '@grpc/proto-loader'].filter((name) =>
  !fs.existsSync(path.join(packageDir, 'node_modules', name, 'package.json')));
if (missing.length) {
  console.error(`js tests: ${missing.join(' and ')} not installed in ` +
    `${path.join(packageDir, 'node_modules')}: run \`npm ci --no-audit --no-fund\` in ` +
    `${packageDir} (scripts/build.sh does)`);
  process.exit(1);
}

const testDir = path.join(packageDir, 'test');
const files = fs.readdirSync(testDir).filter((name) => name.endsWith('.test.js')).sort()
  .map((name) => path.join('test', name));
if (!files.length) {
  console.error(`js tests: no *.test.js in ${testDir}`);
  process.exit(1);
}

const child = spawn(process.execPath, ['--test', ...files], { cwd: packageDir, stdio: 'inherit' });
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => {
  if (code === null) console.error(`js tests: the test runner was killed by ${signal}`);
  process.exit(code === null ? 1 : code);
});
