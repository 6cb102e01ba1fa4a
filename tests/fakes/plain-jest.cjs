'use strict';
// Real Jest's verdicts for a CommonJS test file, run plainly in Node: Jest's own `expect` and jest-mock, no realm, no
// guard, no harness. The agreement side of tests that compare the harness's verdicts with Jest's on the same code.
// Usage: node plain-jest.cjs <dir> <test file>; prints { "<test name>": "passed" | "failed" } as JSON.
const { join } = require('node:path');
const { expect } = require('expect');
const { ModuleMocker } = require('jest-mock');

const tests = [];
globalThis.test = globalThis.it = (name, fn) => tests.push({ name, fn });
globalThis.expect = expect;
const mocker = new ModuleMocker(globalThis);
globalThis.jest = { fn: mocker.fn.bind(mocker), spyOn: mocker.spyOn.bind(mocker) };
require(join(process.argv[2], process.argv[3]));

(async () => {
  const out = {};
  for (const t of tests) {
    try {
      await t.fn();
      out[t.name] = 'passed';
    } catch {
      out[t.name] = 'failed';
    }
  }
  process.stdout.write(JSON.stringify(out));
})();
