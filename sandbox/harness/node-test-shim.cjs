'use strict';
// `node:test` mapped onto the same runner, so node:test files report through
// the authenticated channel with the same naming (`describe > ... > title`).
// Subtests created with `t.test()` roll into their parent, as node:test does.
const P = require('./primordials.cjs');
const { callWithTimeout, asError } = require('./runner.cjs');

function splitArgs(a, b, c) {
  let name; let options = {}; let fn;
  for (const v of [a, b, c]) {
    if (typeof v === 'string') name = v;
    else if (typeof v === 'function') fn = v;
    else if (v && typeof v === 'object') options = v;
  }
  if (name === undefined) name = (fn && fn.name) || '<anonymous>';
  return { name, options, fn: fn || (() => {}) };
}

function modeOf(options, forced) {
  if (forced) return forced;
  if (options.todo) return 'todo';
  if (options.skip) return 'skip';
  if (options.only) return 'only';
  return 'normal';
}

function createContext(name, nodeTestMock) {
  const failures = [];
  const ctx = {
    name,
    signal: new AbortController().signal,
    get mock() { return nodeTestMock(); },
    diagnostic() {},
    plan() {},
    skip() { ctx.skipped = true; },
    todo() { ctx.skipped = true; },
    runOnly() {},
    before() {}, after() {}, beforeEach() {}, afterEach() {},
    async test(a, b, c) {
      const sub = splitArgs(a, b, c);
      if (modeOf(sub.options) === 'skip' || modeOf(sub.options) === 'todo') return;
      const child = createContext(sub.name, nodeTestMock);
      const err = await callWithTimeout(wrap(sub.fn, child), sub.options.timeout || Infinity, 'test');
      const childErr = err || child.firstFailure();
      if (childErr) P.ArrayPush(failures, [sub.name, childErr]);
    },
    firstFailure() {
      if (failures.length === 0) return null;
      const [sub, err] = failures[0];
      const e = asError(err, 'Subtest failed:');
      const wrapped = new P.Error('subtest "' + sub + '" failed: ' + (e.message || ''));
      wrapped.stack = 'Error: subtest "' + sub + '" failed: ' + (e.stack || e.message || '');
      return wrapped;
    },
  };
  return ctx;
}

function wrap(fn, ctx) {
  if (fn.length >= 2) return (done) => fn(ctx, done);
  return () => fn(ctx);
}

function createNodeTestApi(api, nodeTestMock) {
  function register(mode) {
    return (a, b, c) => {
      const { name, options, fn } = splitArgs(a, b, c);
      const m = modeOf(options, mode);
      const timeout = options.timeout || Infinity;
      const body = async () => {
        const ctx = createContext(name, nodeTestMock);
        const err = await callWithTimeout(wrap(fn, ctx), timeout, 'test');
        if (err) throw err;
        const sub = ctx.firstFailure();
        if (sub) throw sub;
      };
      if (m === 'todo') return api.test.todo(name);
      if (m === 'skip') return api.test.skip(name, body);
      if (m === 'only') return api.test.only(name, body, Infinity);
      return api.test(name, body, Infinity);
    };
  }
  function suite(mode) {
    return (a, b, c) => {
      const { name, options, fn } = splitArgs(a, b, c);
      const m = modeOf(options, mode);
      const body = () => { fn({ name }); };
      if (m === 'skip' || m === 'todo') return api.describe.skip(name, body);
      if (m === 'only') return api.describe.only(name, body);
      return api.describe(name, body);
    };
  }
  const test = register();
  test.skip = register('skip');
  test.todo = register('todo');
  test.only = register('only');
  const describe = suite();
  describe.skip = suite('skip');
  describe.todo = suite('todo');
  describe.only = suite('only');
  const hook = (h) => (fn, options) => h(fn.length >= 1 ? (done) => fn({}, done) : () => fn({}), (options && options.timeout) || Infinity);
  const out = {
    test, it: test, describe, suite: describe,
    before: hook(api.beforeAll), after: hook(api.afterAll),
    beforeEach: hook(api.beforeEach), afterEach: hook(api.afterEach),
    run() { throw new P.Error('run() is not available inside the grader'); },
  };
  P.ObjectDefineProperty(out, 'mock', { enumerable: true, get: nodeTestMock });
  out.default = test;
  return out;
}

module.exports = { createNodeTestApi };
