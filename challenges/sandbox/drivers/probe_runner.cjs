'use strict';
// Runs compiled JavaScript probes and writes observations to a record channel (in the sandbox).
//
// Usage: node probe_runner.cjs RECORD_FD PROBE_PATH...   (cwd = project root)
//
// Every probe is loaded in this one process (CommonJS by require, ES modules by import); its
// node:test tests then run as usual, each reporting start, observations and end through
// probe_runtime.cjs; a file that cannot be loaded gets a "load" record; "done" is written when
// the process exits, however it exits. This process decides nothing and holds no token, plan
// or expected value: code under test may rewrite any of it, and a test that does not report
// is a failed test.
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const runtime = require('./probe_runtime.cjs');

runtime.configure(Number(process.argv[2]));
globalThis[Symbol.for('probe.runtime')] = runtime;
process.on('exit', () => runtime.done());

async function main() {
  for (const file of process.argv.slice(3)) {
    runtime.setFile(file);
    try {
      try {
        if (file.endsWith('.mjs')) throw Object.assign(new Error('ES module'), { code: 'ERR_REQUIRE_ESM' });
        require(path.resolve(file));
      } catch (err) {
        // An ES module (.mjs, or .js under "type": "module") is imported instead.
        if (!err || err.code !== 'ERR_REQUIRE_ESM') throw err;
        await import(pathToFileURL(path.resolve(file)).href);
      }
    } catch (err) {
      runtime.emit({ t: 'load', file, detail: String(err && err.stack ? err.stack : err).slice(0, 2000) });
    }
  }
}

main();
