'use strict';
// The script `node --build-snapshot` runs on the host (src/adapters/sandbox/harness-snapshot.ts) to make the V8
// start-up snapshot jobs start from. It evaluates the harness's own modules and compiles the whole bundle (Jest's
// packages included) to bytecode, and runs nothing of a job: main.cjs's start() reads the payload, the environment
// and the job's files after deserialisation, exactly as a job started from boot.cjs does. It is given a job's
// environment, so what a module reads while it loads is what it would read in a job.
//
// What it also does, in the order a job would: lockdown() (ses), then the bodies of Jest's packages and acorn
// (main.cjs prepareSnapshot). V8 adds its shipped-but-flagged built-ins (Array.prototype.toSorted, RegExp's `v` flag,
// resizable ArrayBuffers, Intl.NumberFormat v3) to a context as it deserialises it, onto intrinsics frozen here, and
// aborts: every JavaScript job therefore runs with those four features off (src/runtime/node-flags.ts JOB_V8_FEATURES), on
// every backend alike, and es2023.cjs supplies the toSorted family before lockdown().
//
// What stays per job: the payload, the environment, the job's files, and
// - dynamic import(): code from a snapshot has no import callback; main.cjs's startFromSnapshot() compiles one.
// The globals V8 also adds on deserialisation (SharedArrayBuffer, Atomics, WebAssembly) are what they are after a
// lockdown() in the job: not frozen (ses leaves them alone) and never handed to a submission (no Compartment has them).
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const v8 = require('node:v8');

const harness = load(process.argv[2]);
harness.prepareSnapshot();

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
