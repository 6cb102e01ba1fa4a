'use strict';
// Loads harness.cjs through V8's code cache when the grader provides one for
// these exact node flags (V8 rejects a cache made under other flags, and then
// this is simply a normal load). EVIGRADE_CACHE_OUT is set only by the grader's
// own warm-up run on the host, never in a job.
const vm = require('node:vm');
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');

const file = path.join(__dirname, 'harness.cjs');
const source = fs.readFileSync(file, 'utf8');
let cachedData;
if (process.argv[2]) {
  try {
    cachedData = fs.readFileSync(process.argv[2]);
  } catch {
    cachedData = undefined;
  }
}
// Code restored from a V8 cache loses vm's dynamic-import callback, so the
// harness imports test files through this function, compiled by Node itself.
Object.defineProperty(globalThis, Symbol.for('evigrade.import'), { value: (url) => import(url) });
// The warm-up on the host compiles under the job's path, so cached code names the same file.
const scriptName = process.env.EVIGRADE_SCRIPT_NAME || file;
delete process.env.EVIGRADE_SCRIPT_NAME;
const script = new vm.Script(Module.wrap(source), { filename: scriptName, cachedData });
const out = process.env.EVIGRADE_CACHE_OUT;
if (out) {
  delete process.env.EVIGRADE_CACHE_OUT;
  process.on('exit', () => fs.writeFileSync(out, script.createCachedData()));
}
const mod = new Module(file, null);
mod.filename = file;
mod.paths = [];
script.runInThisContext().call(mod.exports, mod.exports, Module.createRequire(file), mod, file, __dirname);
