'use strict';
// Real Jest's verdicts for a CommonJS test file, run plainly in Node: Jest's own `expect` and jest-mock, no realm, no
// guard, no harness. The agreement side of tests that compare the harness's verdicts with Jest's on the same code.
// Usage: node plain-jest.cjs <dir> <test file> [--messages]; prints { "<test name>": "passed" | "failed" } as JSON, or
// with --messages { "<test name>": { "status": …, "message": the failure's message, or "" } }.
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
  const messages = process.argv[4] === '--messages';
  for (const t of tests) {
    try {
      await t.fn();
      out[t.name] = messages ? { status: 'passed', message: '' } : 'passed';
    } catch (e) {
      out[t.name] = messages ? { status: 'failed', message: String(e && e.message) } : 'failed';
    }
  }
  process.stdout.write(JSON.stringify(out));
})();
