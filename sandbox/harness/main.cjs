'use strict';
// The in-sandbox harness. Order matters: everything the grader's verdicts
// depend on is captured, frozen or watched before the first line of student
// code runs. The payload (channel key, hidden tests) arrives on stdin, so the
// hidden tests never exist on the job's file system.
const P = require('./primordials.cjs');
const { createChannel, hello } = require('./channel.cjs');
const { createIntegrity } = require('./integrity.cjs');
const runner = require('./runner.cjs');
const { createExecutor, errorText } = require('./executor.cjs');
const { createNodeTestApi } = require('./node-test-shim.cjs');
const { installGlobals } = require('./globals.cjs');
const { createLoaders } = require('./loaders.cjs');
const { expect: realExpect } = require('expect');
const jestMock = require('jest-mock');
const Module = require('node:module');
const assert = require('node:assert');

hello();
const payload = P.JSONParse(P.readFileSync(0, 'utf8'));
const send = createChannel(payload.key);
payload.key = null;

const integrity = createIntegrity();
const matchers = globalThis[Symbol.for('$$jest-matchers-object')];
let tamperSent = false;
function tamper(code, detail) {
  if (code === 'tampering.intrinsics') integrity.report(detail);
  if (tamperSent && code === 'tampering.intrinsics') return;
  if (code === 'tampering.intrinsics') tamperSent = true;
  send('tamper', { code, detail });
}

// --- expect, guarded: every call first proves the environment is untouched.
function expect(...args) {
  const v = integrity.verify();
  if (v) {
    tamper('tampering.intrinsics', v);
    throw new P.Error('evigrade: the test environment was tampered with (' + v + '); this assertion cannot be trusted');
  }
  return P.ReflectApply(realExpect, undefined, args);
}
for (const k of Reflect.ownKeys(realExpect)) {
  if (k !== 'length' && k !== 'name' && k !== 'prototype') expect[k] = realExpect[k];
}
P.ObjectFreeze(expect);

const mocker = new jestMock.ModuleMocker(globalThis);
const unsupported = (name) => () => { throw new P.Error('jest.' + name + ' is not supported by the Evigrade harness'); };
let currentState = null;
const jest = P.ObjectFreeze({
  fn: mocker.fn.bind(mocker), spyOn: mocker.spyOn.bind(mocker), mocked: (x) => x,
  replaceProperty: mocker.replaceProperty.bind(mocker), isMockFunction: mocker.isMockFunction.bind(mocker),
  clearAllMocks: () => { mocker.clearAllMocks(); return jest; },
  resetAllMocks: () => { mocker.resetAllMocks(); return jest; },
  restoreAllMocks: () => { mocker.restoreAllMocks(); return jest; },
  setTimeout: (ms) => { if (currentState) currentState.defaultTimeout = ms; return jest; },
  useFakeTimers: unsupported('useFakeTimers'), useRealTimers: () => jest, mock: unsupported('mock'),
  retryTimes: unsupported('retryTimes'),
});

// --- per-file registries behind stable global functions.
let registry = null;
function onIllegal(what) {
  tamper('tampering.registration', what + ' called outside test-file loading');
}
const jestApi = {};
for (const name of ['describe', 'test', 'it', 'xtest', 'xit', 'fit', 'xdescribe', 'fdescribe', 'beforeAll', 'afterAll', 'beforeEach', 'afterEach']) {
  const route = (path) => (...args) => {
    if (!registry) { onIllegal(name); throw new P.Error(name + ' is not available here'); }
    let fn = registry.api[name];
    for (const p of path) fn = fn[p];
    return P.ReflectApply(fn, undefined, args);
  };
  const fn = route([]);
  for (const [sub, subsub] of [['only'], ['skip'], ['todo'], ['each'], ['failing'], ['concurrent'], ['only', 'each'], ['skip', 'each'], ['failing', 'each'], ['concurrent', 'each'], ['concurrent', 'only'], ['concurrent', 'skip']]) {
    const target = subsub ? (fn[sub] = fn[sub] || route([sub])) : null;
    if (subsub) target[subsub] = route([sub, subsub]);
    else if (!fn[sub]) fn[sub] = route([sub]);
  }
  jestApi[name] = fn;
}
jestApi.expect = expect;
jestApi.jest = jest;
jestApi.vi = jest;

let nodeTestMockTracker = null;
const nodeTestMock = () => {
  if (!nodeTestMockTracker) nodeTestMockTracker = process.getBuiltinModule('node:test').mock;
  return nodeTestMockTracker;
};
const nodeTestApi = createNodeTestApi(jestApi, nodeTestMock);

// --- lock down what tests rely on.
P.ObjectFreeze(assert);
if (assert.strict) P.ObjectFreeze(assert.strict);
installGlobals({ jestApi, nodeTestApi, onWrite: (name) => tamper('tampering.globals', 'assignment to global ' + name) });
const realExit = process.exit;
process.exit = function exit(code) {
  send('tamper', { code: 'process_exit_called', detail: 'process.exit(' + P.String(code) + ') was called and refused (the call threw instead of exiting)' });
  throw new P.Error('process.exit(' + P.String(code) + ') was called; Evigrade does not let a submission end the test run');
};
installOutputCap(typeof payload.outputBytes === 'number' ? payload.outputBytes : 256 * 1024);
const loaders = createLoaders({ payload, Module, jestApi, nodeTestApi, onBlocked: (what) => send('note', { code: 'blocked_module', detail: what }) });
integrity.watch('expect', expect, true);
integrity.watch('jest-matchers', matchers.matchers, true);
integrity.watch('Module', Module, true);
integrity.watch('Module.prototype', Module.prototype, true);

process.on('uncaughtException', (err) => {
  if (runner.active.finish) runner.active.finish(runner.asError(err, 'Uncaught:'));
  else send('note', { code: 'uncaught_outside_test', detail: errorText(err) });
});
process.on('unhandledRejection', () => {});

/**
 * The output cap, counted in job time: beyond it, output is discarded and the
 * running test fails at once, so the verdicts do not depend on how fast the
 * grader drains the pipe. (Writes that bypass process.stdout are still capped
 * by the grader, which kills the job.)
 */
function installOutputCap(cap) {
  let used = 0;
  let exceeded = false;
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write;
    stream.write = function cappedWrite(chunk, encoding, cb) {
      const n = typeof chunk === 'string' ? Buffer.byteLength(chunk, typeof encoding === 'string' ? encoding : 'utf8') : (chunk && chunk.length) || 0;
      used += n;
      if (used <= cap) return P.ReflectApply(write, this, arguments);
      if (!exceeded) {
        exceeded = true;
        send('limit', { code: 'output_limit', detail: 'output passed ' + cap + ' bytes; further output is discarded' });
        const err = new P.Error('output limit exceeded: the test printed more than ' + cap + ' bytes');
        err.evigradeStatus = 'error';
        if (runner.active.finish) runner.active.finish(err);
      }
      const done = typeof encoding === 'function' ? encoding : cb;
      if (typeof done === 'function') P.setImmediate(done);
      return true;
    };
  }
}

main().then(
  () => realExit.call(process, 0),
  (err) => {
    send('fatal', { message: errorText(err) });
    realExit.call(process, 70);
  },
);

async function main() {
  const files = payload.tests;
  const states = [];
  const entryErr = payload.mode === 'run' ? await loaders.preloadEntry(files) : null;
  const v0 = integrity.verify();
  if (v0) tamper('tampering.intrinsics', v0);
  for (let i = 0; i < files.length; i++) {
    const file = files[i];
    registry = runner.createRegistry(file.name, onIllegal, payload.testTimeoutMs);
    currentState = registry.state;
    let loadErr = entryErr;
    if (!loadErr) {
      registry.state.open = true;
      loadErr = await loaders.loadTestFile(file);
      registry.state.open = false;
    }
    const tests = registry.state.tests.map((t) => ({ index: t.index, path: runner.pathOf(t) }));
    send('collected', { file: file.name, tests, error: loadErr ? errorText(loadErr) : null });
    P.ArrayPush(states, [registry.state, loadErr]);
  }
  registry = null;
  if (payload.mode !== 'run') return send('done', { files: files.length });
  const v1 = integrity.verify();
  if (v1) tamper('tampering.intrinsics', v1);
  for (let i = 0; i < states.length; i++) {
    const [state, loadErr] = states[i];
    if (loadErr) continue;
    currentState = state;
    const only = payload.only && payload.only[state.file] ? new Set(payload.only[state.file]) : null;
    const exec = createExecutor({
      send, integrity, only,
      setCurrent: () => {},
      resetExpect: (t) => expect.setState({ assertionCalls: 0, expectedAssertionsNumber: null, isExpectingAssertions: false, suppressedErrors: [], currentTestName: runner.pathOf(t).join(' ') }),
      expectErrors: () => {
        const errs = expect.extractExpectedAssertionsErrors();
        return errs.length ? errs[0].error : null;
      },
      takeUncaught: () => null,
    });
    await exec.runFile(state);
  }
  canaries();
  const v2 = integrity.verify();
  if (v2) tamper('tampering.intrinsics', v2);
  send('done', { files: files.length });
}

/** Tripwires: assertions that must fail. If one passes, the matchers lie. */
function canaries() {
  const a = { n: P.DateNow(), s: 'evigrade-' + Math.random() };
  const b = { n: a.n + 1, s: a.s };
  const checks = [
    () => realExpect(a.n).toBe(b.n),
    () => realExpect(a).toEqual(b),
    () => realExpect([a.s]).toStrictEqual([a.s, 1]),
    () => realExpect(() => {}).toThrow(),
    () => assert.strictEqual(a.n, b.n),
    () => assert.deepStrictEqual(a, b),
  ];
  for (let i = 0; i < checks.length; i++) {
    let threw = false;
    try { checks[i](); } catch { threw = true; }
    if (!threw) tamper('tampering.canary', 'canary assertion #' + (i + 1) + ' passed; matchers were subverted');
  }
}
