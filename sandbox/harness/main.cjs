'use strict';
// The in-sandbox harness. Order matters: everything the grader's verdicts
// depend on is captured, frozen or watched before the first line of student
// code runs. The payload (channel key, hidden tests) arrives on stdin, so the
// hidden tests never exist on the job's file system.
const P = require('./primordials.cjs');
const realmLib = require('./realm.cjs');
const { createGuard } = require('./guard.cjs');
const { createChannel, hello } = require('./channel.cjs');
const { deliver } = require('./deliver.cjs');
const { createIntegrity } = require('./integrity.cjs');
const runner = require('./runner.cjs');
const { createExecutor, errorText } = require('./executor.cjs');
const { createNodeTestApi } = require('./node-test-shim.cjs');
const { installGlobals } = require('./globals.cjs');
const { createLoaders } = require('./loaders.cjs');
const { createExpect, createJestObject } = require('./jest-api.cjs');
const { freezeAssert, shutInspector, refuseExit, capOutput } = require('./hardening.cjs');
const { createTestOutput } = require('./test-output.cjs');
const { startCoverage } = require('./coverage.cjs');
const Module = require('node:module');


// Everything below runs per job. Above it is module loading only, which is what a V8 start-up snapshot of this
// bundle may hold (sandbox/harness/snapshot.cjs): no payload, no job state, no environment read.
function start() {
  hello();
  const payload = P.JSONParse(P.readFileSync(0, 'utf8'));
  const send = createChannel(payload.key);
  payload.key = null;
  try {
    deliver(payload); // Docker's pre-started containers only: the files, then root is dropped for good
  } catch (e) {
    send('fatal', { message: 'file delivery: ' + (e && e.message) });
    process.exit(70);
  }
  // Every intrinsic is frozen before Jest's packages or any student code load: here, or already in the start-up
  // snapshot's builder (prepareSnapshot below). Not one of Jest's modules may be evaluated earlier: lockdown()
  // replaces Error, Date, RegExp… on the global object and leaves the originals unfrozen, so a class Jest defined
  // first — JestAssertionError extends Error — would hand a submission that catches one the original, mutable Error
  // (bench/README.md, the red-team pass).
  realmLib.lockdownNow();
  realmLib.freezeGlobalBindings();
  // The rewritten tests too: a function from a rewritten line (one with `import.meta`) is test code as well.
  realmLib.hideTestSources(payload.tests.flatMap((t) => (t.cjs ? [t.source, t.cjs.code] : [t.source])));

  const integrity = createIntegrity();
  integrity.watchBindings(realmLib.frozenGlobals());
  let tamperSent = false;
  function tamper(code, detail) {
    if (code === 'tampering.intrinsics') {
      integrity.report(detail);
      if (tamperSent) return;
      tamperSent = true;
    }
    send('tamper', { code, detail });
  }

  // --- Jest's expect and jest object, only when the hidden tests use them.
  const usesExpect = payload.tests.some((t) => /\bexpect\b/.test(t.source));
  const usesAssert = payload.tests.some((t) => /\bassert\b/.test(t.source));
  const guard = createGuard(tamper);
  const jestExpect = usesExpect ? createExpect(integrity, tamper, guard) : null;
  let currentState = null;
  const jest = createJestObject(() => currentState, guard);

  // --- per-file registries behind stable global functions.
  let registry = null;
  function onIllegal(what) {
    tamper('tampering.registration', what + ' called by the submission or outside test-file loading');
  }
  const ROUTED = ['describe', 'test', 'it', 'xtest', 'xit', 'fit', 'xdescribe', 'fdescribe', 'beforeAll', 'afterAll', 'beforeEach', 'afterEach'];
  const SUB_PATHS = [['only'], ['skip'], ['todo'], ['each'], ['failing'], ['concurrent'], ['only', 'each'], ['skip', 'each'],
    ['failing', 'each'], ['concurrent', 'each'], ['concurrent', 'only'], ['concurrent', 'skip']];
  /** A function for `name` and its sub-paths (`.only`, `.skip.each`…), each made by `make(path)`. */
  function withSubPaths(make) {
    const fn = make([]);
    for (const path of SUB_PATHS) {
      let target = fn;
      for (let i = 0; i < path.length - 1; i++) target = target[path[i]];
      if (!target[path[path.length - 1]]) target[path[path.length - 1]] = make(path);
    }
    return fn;
  }
  function routed(name) {
    return withSubPaths((path) => (...args) => {
      if (!registry) {
        onIllegal(name);
        throw new P.Error(name + ' is not available here');
      }
      let fn = registry.api[name];
      for (const p of path) fn = fn[p];
      return P.ReflectApply(fn, undefined, args);
    });
  }
  const jestApi = {};
  for (const name of ROUTED) jestApi[name] = routed(name);
  if (jestExpect) jestApi.expect = jestExpect.expect;
  jestApi.jest = jest;
  jestApi.vi = jest;

  let nodeTestMockTracker = null;
  const nodeTestMock = () => {
    if (!nodeTestMockTracker) nodeTestMockTracker = process.getBuiltinModule('node:test').mock;
    return nodeTestMockTracker;
  };
  const nodeTestApi = createNodeTestApi(jestApi, nodeTestMock);

  // --- lock down what tests rely on.
  const assert = freezeAssert();
  installGlobals({ jestApi, nodeTestApi, onWrite: (name) => tamper('tampering.globals', 'assignment to global ' + name) });
  const realExit = refuseExit(send);
  // A rubric audit's reference run only (trusted code): the one inspector session, opened before it is shut.
  const coverage = payload.coverage === true && payload.mode === 'run' ? startCoverage() : null;
  if (coverage && coverage.error) send('coverage', { files: [], error: coverage.error });
  shutInspector((what) => send('note', { code: 'blocked_module', detail: what }));
  const testOutput = createTestOutput(send);
  capOutput(typeof payload.outputBytes === 'number' ? payload.outputBytes : 256 * 1024, send, (err) => {
    if (runner.active.finish) runner.active.finish(err);
  }, testOutput.observe);
  const onBlocked = (what) => send('note', { code: 'blocked_module', detail: what });
  // The submission's process.exit refuses through the real process's refusing exit, but is not that function: nothing
  // the real process holds is handed to the submission (the walk inside a graded job found it was).
  const studentExit = (refusing) => {
    const exit = (code) => P.ReflectApply(refusing, undefined, [code]);
    return harden(exit);
  };
  // The submission's realm: its describe/test/hooks always refuse and report. Student code also runs while a test
  // file loads (an import's getter, a module a test requires), when the tests' own functions accept registrations:
  // a `describe.only('', …)` from there would have skipped every test of the file (red-team pass, hostile class 9).
  const testGlobals = {};
  for (const name of ROUTED) testGlobals[name] = harden(refusing(name));
  function refusing(name) {
    return withSubPaths((path) => () => {
      const what = [name, ...path].join('.');
      onIllegal(what);
      throw new P.Error(what + ' is not available to the submission');
    });
  }
  // What the submission attempted through the realm's facades (read outside its folder, the environment, a process,
  // a signal, the network): evidence, each kind reported up to 20 times (a loop must not flood the channel), as the
  // Python harness reports its own: a note whose code is the flag, `sandbox.attempt.<kind>` (stages/run/test-run.ts).
  const attemptCounts = new P.SafeMap();
  const attempt = (kind, detail) => {
    const n = P.MapGet(attemptCounts, kind) || 0;
    P.MapSet(attemptCounts, kind, n + 1);
    if (n < 20) send('note', { code: 'sandbox.attempt.' + kind, detail });
  };
  const realm = realmLib.createStudentRealm({
    root: payload.root, tamper, onBlocked, attempt, refuseExit: studentExit(process.exit), testGlobals,
    extraBuiltins: P.ArrayIsArray(payload.builtins) ? payload.builtins : [],
    onEvaluated: coverage && !coverage.error ? coverage.onEvaluated : null,
  });
  const loaders = createLoaders({ payload, Module, jestApi, nodeTestApi, onBlocked, realm, tamper, guard });
  integrity.watch('Module', Module, true);
  integrity.watch('Module.prototype', Module.prototype, true);

  process.on('uncaughtException', (err) => {
    if (runner.active.finish) runner.active.finish(runner.asError(err, 'Uncaught:'));
    else send('note', { code: 'uncaught_outside_test', detail: errorText(err) });
  });
  // jest-circus listens for both: a rejection nobody handled by the end of its tick fails the running test (even if a
  // handler comes later); outside a test it changes no test's status.
  process.on('unhandledRejection', (reason) => {
    if (runner.active.finish) runner.active.finish(runner.asError(reason, 'Unhandled rejection:'));
    else send('note', { code: 'uncaught_outside_test', detail: errorText(reason) });
  });

  main().then(
    () => realExit.call(process, 0),
    (err) => {
      send('fatal', { message: errorText(err) });
      realExit.call(process, 70);
    },
  );

  async function loadFiles(files, entryErr) {
    const states = [];
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
    return states;
  }

  // The rubric's own limits per test (its `test_limits`), by file and index: they override a test's own timeout.
  const testTimeouts = payload.testTimeouts && typeof payload.testTimeouts === 'object' ? payload.testTimeouts : null;
  // An audit's mutant runs stop at the first test that does not pass (payload.stopAtFirstFailure).
  let failedOnce = false;
  const stopAtFirstFailure = payload.stopAtFirstFailure === true;
  function executorFor(state) {
    const expect = jestExpect && jestExpect.expect;
    return createExecutor({
      send, integrity,
      stopped: () => stopAtFirstFailure && failedOnce,
      onFailure: () => {
        failedOnce = true;
      },
      // A resumed run names the tests to run per file; a file it does not name has none left (it used to run whole).
      only: payload.only ? new Set(P.ObjectHasOwn(payload.only, state.file) ? payload.only[state.file] : []) : null,
      setCurrent: (t) => testOutput.setTest(t ? { file: state.file, index: t.index } : null),
      timeoutOf: (t) => {
        const own = testTimeouts && P.ObjectHasOwn(testTimeouts, state.file) ? testTimeouts[state.file] : null;
        const ms = own && P.ObjectHasOwn(own, P.String(t.index)) ? own[t.index] : 0;
        return typeof ms === 'number' && ms > 0 ? ms : 0;
      },
      rubricTimeout: payload.testTimeoutMs,
      resetExpect: (t) => {
        if (expect) expect.setState({ assertionCalls: 0, expectedAssertionsNumber: null, isExpectingAssertions: false, suppressedErrors: [], currentTestName: runner.pathOf(t).join(' ') });
        guard.beginTest();
      },
      expectErrors: () => {
        const swallowed = guard.endTest();
        if (!expect) return swallowed;
        const errs = expect.extractExpectedAssertionsErrors();
        return errs.length ? errs[0].error : swallowed;
      },
      takeUncaught: () => null,
    });
  }

  async function main() {
    const failed = payload.mode === 'run' ? await loaders.preloadEntry() : null;
    // The submission did not load: the student's error, said once; every test file fails with it.
    if (failed) send('loadError', failed.where);
    const missing = payload.mode === 'run' && !failed ? loaders.missingExports() : null;
    if (missing) send('loadError', missing);
    const v0 = integrity.verify();
    if (v0) tamper('tampering.intrinsics', v0);
    const states = await loadFiles(payload.tests, failed && failed.error);
    if (payload.mode !== 'run') return send('done', { files: states.length });
    const v1 = integrity.verify();
    if (v1) tamper('tampering.intrinsics', v1);
    for (let i = 0; i < states.length; i++) {
      const [state, loadErr] = states[i];
      if (loadErr) continue;
      currentState = state;
      await executorFor(state).runFile(state);
    }
    canaries();
    if (coverage && !coverage.error) send('coverage', { files: coverage.take(payload.root) });
    const v2 = integrity.verify();
    if (v2) tamper('tampering.intrinsics', v2);
    send('done', { files: states.length });
  }

  /** Tripwires: assertions that must fail. If one passes, the matchers lie. */
  function canaries() {
    const a = { n: P.DateNow(), s: 'evigrade-' + Math.random() };
    const b = { n: a.n + 1, s: a.s };
    // Each library's tripwires only where the tests assert with it: node:assert's first failure loads and compiles
    // its error and comparison modules (≈ 2 ms of a Jest-style job that never touches them).
    const checks = usesAssert ? [() => assert.strictEqual(a.n, b.n), () => assert.deepStrictEqual(a, b)] : [];
    if (jestExpect) {
      const e = jestExpect.realExpect;
      P.ArrayPush(checks, () => e(a.n).toBe(b.n), () => e(a).toEqual(b), () => e([a.s]).toStrictEqual([a.s, 1]), () => e(() => {}).toThrow());
    }
    for (let i = 0; i < checks.length; i++) {
      let threw = false;
      try {
        checks[i]();
      } catch {
        threw = true;
      }
      if (!threw) tamper('tampering.canary', 'canary assertion #' + (i + 1) + ' passed; matchers were subverted');
    }
  }
}

/**
 * A job started from the start-up snapshot (snapshot.cjs). Code from a snapshot has no dynamic-import callback, so
 * import() goes through a function compiled in this process (as boot.cjs defines it for a job it starts).
 */
function startFromSnapshot() {
  const vm = require('node:vm');
  const importer = vm.compileFunction('return import(url)', ['url'], {
    filename: __filename, importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  P.ObjectDefineProperty(globalThis, Symbol.for('evigrade.import'), { value: importer });
  start();
}

/**
 * In the start-up snapshot's builder (snapshot.cjs), after the harness's modules have loaded: lockdown(), the host
 * objects every Compartment is endowed with hardened, then the bodies of Jest's packages and acorn, in the order
 * every job evaluates them (lockdown first). Nothing here reads the
 * payload, the environment beyond what a job's is, or a job file.
 */
function prepareSnapshot() {
  realmLib.lockdownNow();
  realmLib.hardenShared();
  require('expect');
  require('jest-mock');
  require('jest-each');
  require('acorn');
}

if (require('node:v8').startupSnapshot.isBuildingSnapshot()) module.exports = { startFromSnapshot, prepareSnapshot };
else start();
