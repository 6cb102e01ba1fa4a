'use strict';
// A small Jest-circus-compatible runner: the same registration API, hook order,
// `.only/.skip/.todo/.each/.failing`, done callbacks, per-test timeouts and
// expect.assertions checks. Every verdict goes out through the authenticated
// channel as soon as it is known.
const P = require('./primordials.cjs');
const { ownTimeout } = require('./own-clock.cjs');
// jest-each is loaded on first use of `.each`: most suites never pay for it.
const bindEach = (fn, supportsDone) => (...table) => require('jest-each').bind(fn, supportsDone)(...table);

const DEFAULT_TIMEOUT = 5000;
// What the harness itself decided about an error (a timeout, an output-limit
// error) lives here, never on the error object: a value the submission throws
// could carry any property, own or inherited.
const marks = new WeakMap();
const MarksGet = Function.prototype.call.bind(WeakMap.prototype.get);
const MarksSet = Function.prototype.call.bind(WeakMap.prototype.set);
function mark(err, status) {
  MarksSet(marks, err, status);
  return err;
}
/** 'timeout' | 'error' when the harness made this error, else undefined. */
function markOf(err) {
  return err !== null && typeof err === 'object' ? MarksGet(marks, err) : undefined;
}
// The innermost call in flight: an uncaught exception fails it at once, as in Jest.
const active = { finish: null };

function newBlock(name, parent, mode) {
  return { kind: 'block', name, parent, mode, children: [], beforeAll: [], afterAll: [], beforeEach: [], afterEach: [] };
}

function pathOf(node) {
  const out = [];
  for (let n = node; n && n.parent; n = n.parent) out.unshift(n.name);
  return out;
}

function toName(v) {
  if (typeof v === 'function') return v.name || '[anonymous]';
  if (typeof v === 'string') return v;
  return P.String(v);
}

function createRegistry(file, onIllegal, defaultTimeout) {
  const root = newBlock('', null, 'normal');
  const state = { file, root, current: root, open: false, hasOnly: false, tests: [], defaultTimeout: defaultTimeout || DEFAULT_TIMEOUT };

  function guard(what) {
    if (!state.open) {
      onIllegal(what);
      throw new P.Error(what + ' may only be called while a test file is being loaded');
    }
  }

  function addTest(title, fn, timeout, mode, extra) {
    guard('test()');
    if (mode === 'only') state.hasOnly = true;
    const test = {
      kind: 'test', name: toName(title), parent: state.current, fn, mode, timeout,
      failing: !!(extra && extra.failing), index: state.tests.length, file,
    };
    if (mode !== 'todo' && typeof fn !== 'function') {
      throw new P.Error('Missing second argument. It must be a callback function.');
    }
    state.current.children.push(test);
    P.ArrayPush(state.tests, test);
  }

  function addBlock(title, fn, mode) {
    guard('describe()');
    if (mode === 'only') state.hasOnly = true;
    const block = newBlock(toName(title), state.current, mode);
    state.current.children.push(block);
    const prev = state.current;
    state.current = block;
    try {
      const r = fn();
      if (r && typeof r.then === 'function') {
        throw new P.Error('Returning a Promise from "describe" is not supported. Tests must be defined synchronously.');
      }
    } finally {
      state.current = prev;
    }
  }

  const hook = (kind) => (fn, timeout) => {
    guard(kind + '()');
    state.current[kind].push({ fn, timeout });
  };

  const test = (t, fn, to) => addTest(t, fn, to, 'normal');
  test.only = (t, fn, to) => addTest(t, fn, to, 'only');
  test.skip = (t, fn, to) => addTest(t, fn || (() => {}), to, 'skip');
  test.todo = (t) => addTest(t, undefined, undefined, 'todo');
  test.failing = (t, fn, to) => addTest(t, fn, to, 'normal', { failing: true });
  test.failing.only = (t, fn, to) => addTest(t, fn, to, 'only', { failing: true });
  test.failing.skip = (t, fn, to) => addTest(t, fn, to, 'skip', { failing: true });
  test.concurrent = (t, fn, to) => addTest(t, fn, to, 'normal'); // run in order: results stay deterministic
  test.concurrent.only = test.only;
  test.concurrent.skip = test.skip;
  test.each = bindEach(test);
  test.only.each = bindEach(test.only);
  test.skip.each = bindEach(test.skip);
  test.concurrent.each = bindEach(test);
  test.concurrent.only.each = bindEach(test.only);
  test.concurrent.skip.each = bindEach(test.skip);
  test.failing.each = bindEach(test.failing);

  const describe = (t, fn) => addBlock(t, fn, 'normal');
  describe.only = (t, fn) => addBlock(t, fn, 'only');
  describe.skip = (t, fn) => addBlock(t, fn, 'skip');
  describe.each = bindEach(describe, false);
  describe.only.each = bindEach(describe.only, false);
  describe.skip.each = bindEach(describe.skip, false);

  const api = {
    describe, test, it: test, xtest: test.skip, xit: test.skip, fit: test.only, xdescribe: describe.skip, fdescribe: describe.only,
    beforeAll: hook('beforeAll'), afterAll: hook('afterAll'), beforeEach: hook('beforeEach'), afterEach: hook('afterEach'),
  };
  return { state, api };
}

/** Which tests run, following Jest: `.only` anywhere narrows the file to the
 * `.only` tests and the tests inside `.only` blocks. */
function effectiveMode(test, hasOnly) {
  if (test.mode === 'todo') return 'todo';
  let inOnly = test.mode === 'only';
  for (let b = test.parent; b; b = b.parent) {
    if (b.mode === 'skip') return 'skip';
    if (b.mode === 'only') inOnly = true;
  }
  if (test.mode === 'skip') return 'skip';
  if (hasOnly && !inOnly) return 'skip';
  return 'run';
}

function timeoutError(ms, what) {
  const e = new P.Error(
    'Exceeded timeout of ' + ms + ' ms for a ' + what + '.\n' +
    'Add a timeout value to this test to increase the timeout, if this is a long-running test. ' +
    'See https://jestjs.io/docs/api#testname-fn-timeout.');
  return mark(e, 'timeout');
}

/** Calls fn the way Jest does (done callback or returned promise) and settles
 * with null or the error, never rejecting. */
function callWithTimeout(fn, ms, what) {
  return new P.OrigPromise((resolve) => {
    let settled = false;
    let timer = null;
    const outer = active.finish;
    const finish = (err) => {
      if (settled) return;
      settled = true;
      if (timer) timer.clear();
      active.finish = outer;
      resolve(err);
    };
    active.finish = finish;
    // node:test has no default per-test timeout; the job's wall clock still applies.
    if (ms !== Infinity) timer = ownTimeout(ms, () => finish(timeoutError(ms, what)));
    try {
      if (fn.length > 0) {
        const done = (err) => finish(err ? asError(err, 'done() was called with') : null);
        done.fail = (err) => finish(asError(err || 'done.fail() called', 'Failed:'));
        const r = fn(done);
        if (r && typeof r.then === 'function') {
          finish(new P.Error("Test functions cannot both take a 'done' callback and return something. Either use a 'done' callback, or return a promise."));
        }
        return;
      }
      const r = fn();
      if (r instanceof P.OrigPromise) {
        P.PromiseThen(r, () => finish(null), (e) => finish(asError(e, 'Rejected with')));
      } else if (r && typeof r.then === 'function') {
        r.then(() => finish(null), (e) => finish(asError(e, 'Rejected with')));
      } else {
        finish(null);
      }
    } catch (e) {
      finish(asError(e, 'Thrown:'));
    }
  });
}

// What a test threw or rejected with is the submission's value: a revoked Proxy throws on `instanceof` and on every
// property read, so nothing here may let that escape into the harness (it ended the job as a crash).
function asError(e, prefix) {
  try {
    return asErrorOf(e, prefix);
  } catch {
    return new P.Error(prefix + ' a value that could not be described');
  }
}

function asErrorOf(e, prefix) {
  if (e instanceof P.Error) return e;
  if (e && typeof e === 'object' && typeof e.message === 'string') return e;
  let shown;
  try { shown = P.JSONStringify(e); } catch { shown = P.String(e); }
  return new P.Error(prefix + ' ' + (shown === undefined ? P.String(e) : shown));
}

module.exports = { mark, markOf, active, createRegistry, effectiveMode, callWithTimeout, pathOf, DEFAULT_TIMEOUT, asError };
