'use strict';
// The script `node --build-snapshot` runs on the host (src/adapters/sandbox/harness-snapshot.ts) to make the V8
// start-up snapshot jobs start from. It evaluates the harness's own modules and compiles the whole bundle (Jest's
// packages included) to bytecode, and runs nothing of a job: main.cjs's start() reads the payload, the environment
// and the job's files after deserialisation, exactly as a job started from boot.cjs does. It is given a job's
// environment, so what a module reads while it loads is what it would read in a job.
//
// What stays per job, and why:
// - ses and lockdown(): V8 adds its shipped-but-flagged built-ins (ArrayBuffer.prototype.transfer, Array.prototype
//   .toSorted…) to a context as it deserialises it, so intrinsics frozen in a snapshot abort node at start-up, and
//   ses loaded here would shim what this context lacks. realm.cjs loads ses inside lockdownNow().
// - evaluating Jest's packages (and acorn): only after lockdown(), as in every job (main.cjs says why). Their code
//   is compiled here; only their module bodies run per job.
// - dynamic import(): code from a snapshot has no import callback; main.cjs's startFromSnapshot() compiles one.
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const v8 = require('node:v8');

const harness = load(process.argv[2]);

// The harness's own function, so no frame of a job's stack names this file (compiled under the builder's path).
v8.startupSnapshot.setDeserializeMainFunction(harness.startFromSnapshot);

/** Evaluates harness.cjs under the path jobs see (`jobDir`), every function compiled now so the snapshot holds its bytecode. */
function load(jobDir) {
  const file = path.posix.join(jobDir, 'harness.cjs');
  // Beside this script in the builder's working directory (harness-snapshot.ts says why it is named relatively).
  const source = fs.readFileSync('harness.cjs', 'utf8');
  const wrapped = '(function (exports, require, module, __filename, __dirname) { ' + source + '\n});';
  // Eager compilation for this one script only: the flag is back to V8's default before anything else compiles,
  // and so before node records the flags a snapshot must be started with.
  v8.setFlagsFromString('--no-lazy');
  let fn;
  try {
    fn = new vm.Script(wrapped, { filename: file }).runInThisContext();
  } finally {
    v8.setFlagsFromString('--lazy');
  }
  const mod = { exports: {} };
  fn.call(mod.exports, mod.exports, require, mod, file, jobDir);
  return mod.exports;
}
