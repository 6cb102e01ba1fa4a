// The floor for any Jest-style test file: bare `node` loading Jest's `expect` (and `jest-mock` for `jest.fn`), the
// solution and the test file, then running each test in order, awaited — no sandbox, no isolation between tests, no
// report. What running the tests at all costs, whatever grades them. Prints `<passed>/<tests>`.
//   node bench/floor-runner.mjs <test file as an ES module, importing the solution by a path node resolves>
// Supports what exercism's JavaScript test files use: describe/test/it, test.each (jest-each, arrays and tagged
// templates), xtest/xit/test.skip/test.todo (not run), beforeEach/afterEach, a `done` callback, `jest.fn`, `jest.spyOn`.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(join(dirname(fileURLToPath(import.meta.url)), '..', 'package.json'));
const { expect } = require('expect');
const { ModuleMocker } = require('jest-mock');
const { bind: eachOf } = require('jest-each');

const mocker = new ModuleMocker(globalThis);
const tests = [];
const path = [];
const hooks = [{ before: [], after: [] }];
const scope = () => hooks[hooks.length - 1];

globalThis.expect = expect;
globalThis.jest = { fn: (impl) => mocker.fn(impl), spyOn: (o, k) => mocker.spyOn(o, k) };
globalThis.describe = (name, fn) => {
  path.push(name);
  hooks.push({ before: [...scope().before], after: [...scope().after] });
  fn();
  hooks.pop();
  path.pop();
};
const add = (name, fn) => tests.push({ name: [...path, name].join(' > '), fn, ...scope() });
const skip = () => undefined;
globalThis.test = globalThis.it = Object.assign(add, { skip, todo: skip, each: eachOf(add) });
globalThis.xtest = globalThis.xit = skip;
globalThis.beforeEach = (fn) => scope().before.push(fn);
globalThis.afterEach = (fn) => scope().after.push(fn);

// A test declared with a parameter takes `done`: it settles when done() is called (with an error: it fails).
const call = (fn) =>
  fn.length > 0 ? new Promise((resolve, reject) => fn((err) => (err ? reject(err) : resolve()))) : fn();

await import(pathToFileURL(process.argv[2]).href);
let passed = 0;
for (const t of tests) {
  try {
    for (const h of t.before) await call(h);
    await call(t.fn);
    for (const h of t.after) await call(h);
    passed++;
  } catch {
    // a failing test costs what it costs; the count says how many passed
  }
}
process.stdout.write(`${passed}/${tests.length}\n`);
