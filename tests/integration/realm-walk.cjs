'use strict';
// The reachability walk of issue 30, run in a process of its own (lockdown() would freeze the test runner's realm):
// node realm-walk.cjs <harness-dir> <scratch-dir> <out.json>. It builds the submission's realm as a job does
// (realm.cjs), then walks everything a submission can reach — the Compartment's global object, every built-in it
// may load (the rubric-grantable ones too), what its module wrapper is handed, and the results of calling every
// function found there with benign arguments (return values, thrown errors, resolved promises, callback
// arguments) — and reports every object that is not frozen or that belongs to Node's own object graph.
// Node's graph is computed, not listed: everything reachable from the real `process`, the start realm's global
// object and every built-in module of Node, minus the intrinsics a Compartment shares (and the harness's own).
const path = require('node:path');
const fs = require('node:fs');
const Module = require('node:module');
const { types } = require('node:util');

const [harnessDir, scratch, outFile] = process.argv.slice(2);
const realmLib = require(path.join(harnessDir, 'realm.cjs'));
// The built-ins a rubric may grant, as the rubric loader knows them (its build output: `npm run build` makes it; a
// CommonJS walker reads the ES module's list through a child process, before lockdown() freezes this realm).
const GRANTABLE = JSON.parse(
  require('node:child_process').execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      'const m = await import(process.argv[1]); process.stdout.write(JSON.stringify(m.GRANTABLE_BUILTINS))',
      require('node:url').pathToFileURL(path.join(harnessDir, '..', '..', 'dist', 'domain', 'rubric.js')).href,
    ],
    { encoding: 'utf8' },
  ),
);
realmLib.lockdownNow();

const attempts = [];
fs.writeFileSync(
  path.join(scratch, 'solution.js'),
  'exports.args = Array.prototype.slice.call(arguments);\nexports.g = globalThis;\n',
);
fs.writeFileSync(path.join(scratch, 'data.txt'), 'benign\n');
const realm = realmLib.createStudentRealm({
  root: scratch,
  tamper: () => {},
  onBlocked: () => {},
  refuseExit: harden(() => {
    throw new Error('exit refused');
  }),
  testGlobals: {
    describe: harden(() => {
      throw new Error('refused');
    }),
  },
  extraBuiltins: GRANTABLE,
  attempt: (kind, detail) => attempts.push(kind + ': ' + detail),
});
const solution = realm.load(path.join(scratch, 'solution.js'));
const g = solution.g;
const MODULES = [...realmLib.PURE, ...realmLib.HOST, ...GRANTABLE, 'process'];

const { isObj, reach, intrinsicsOf, check: checkAgainst } = require('./realm-walk-lib.cjs');
const intrinsics = intrinsicsOf(Compartment, globalThis);
const check = (reached, host) => checkAgainst(reached, host, g);

/** Benign arguments to call a reached function with. */
const callbackArgs = [];
const cb = harden(function (...args) {
  if (callbackArgs.length < 5000)
    callbackArgs.push([this, 'callback this'], ...args.map((a, i) => [a, 'callback arg ' + i]));
});
const ARGSETS = [
  [],
  [path.join(scratch, 'data.txt')],
  [path.join(scratch, 'data.txt'), 'utf8'],
  ['abc'],
  [3],
  [{}],
  [cb],
  [path.join(scratch, 'data.txt'), cb],
  ['abc', {}, cb],
];

/**
 * data.txt as the calls expect it. Async calls of earlier iterations (an fs.rm, an fs.mkdir of the same path) still
 * land meanwhile, so it may be gone or a folder now: made again, and a call racing it only gets another argument.
 */
function freshData() {
  const p = path.join(scratch, 'data.txt');
  try {
    if (fs.statSync(p, { throwIfNoEntry: false })?.isFile()) return;
    fs.rmSync(p, { recursive: true, force: true });
    fs.writeFileSync(p, 'benign\n');
  } catch {
    // raced by a call still landing: the next iteration makes it again
  }
}

async function callEverything(functions) {
  const results = [];
  for (const [fn, holder, where] of functions) {
    if (process.env.WALK_DEBUG) fs.writeSync(2, where + '\n');
    for (const args of ARGSETS) {
      freshData();
      for (const construct of [false, true]) {
        try {
          const r = construct ? Reflect.construct(fn, args) : Reflect.apply(fn, holder, args);
          if (types.isPromise(r)) {
            results.push(
              Promise.race([
                r.then(
                  (x) => [x, where + '() resolved'],
                  (e) => [e, where + '() rejected'],
                ),
                new Promise((res) => setTimeout(() => res([undefined, '']), 200)),
              ]),
            );
          }
          results.push([r, where + '()']);
        } catch (e) {
          results.push([e, where + '() threw']);
        }
      }
    }
  }
  const settled = await Promise.all(results);
  await new Promise((res) => setTimeout(res, 300));
  return settled.concat(callbackArgs, uncaught);
}

// What a reached function does later (a callback it was given, throwing) is a result too, not the walk's end.
const uncaught = [];
process.on('uncaughtException', (e) => uncaught.push([e, 'uncaught']));
process.on('unhandledRejection', (e) => uncaught.push([e, 'unhandled rejection']));

async function main() {
  // The module wrapper's arguments but the submission's own exports and module objects.
  const roots = [
    [g, 'globalThis'],
    ...solution.args.map((a, i) => [a, 'module wrapper argument ' + i]).filter((_, i) => i !== 0 && i !== 2),
  ];
  for (const m of MODULES) roots.push([realm.studentRequire(m, scratch), 'require("' + m + '")']);
  const reached = new Map();
  const reachedStatic = reach(roots, intrinsics, (v, where) => reached.set(v, where));
  // Functions of the realm's (not intrinsics), called with benign arguments; their results walked too.
  const functions = [];
  for (const [v, where] of reached) {
    if (typeof v !== 'function') continue; // called on the object it was found on (below) and unbound
    // the holder: the object the function was found on (for methods), else undefined
    functions.push([v, undefined, where]);
  }
  for (const [v] of reached) {
    if (!isObj(v) || typeof v === 'function') continue;
    for (const k of Reflect.ownKeys(v)) {
      const d = Object.getOwnPropertyDescriptor(v, k);
      if (d && typeof d.value === 'function' && reached.has(d.value))
        functions.push([d.value, v, reached.get(v) + '.' + String(k)]);
    }
  }
  // Calls only once the static graph is clean: on a realm that still hands over Node's objects, calling them would
  // really spawn, signal or write (the walk of today's code stops at the static violations).
  const staticViolations = check(reached);
  const produced = staticViolations.length ? [] : await callEverything(functions);
  const fromResults = new Map();
  reach(
    produced.filter(([v]) => isObj(v)),
    new Set([...intrinsics, ...reachedStatic]),
    (v, where) => fromResults.set(v, where),
  );
  // Node's object graph, computed after everything above ran (lazily loaded internals included).
  const hostRoots = [
    [process, 'process'],
    [globalThis, 'start realm globalThis'],
  ];
  for (const name of Module.builtinModules) {
    try {
      hostRoots.push([require('node:' + name), 'node:' + name]);
    } catch {
      // a built-in that cannot load here (e.g. one needing a flag)
    }
  }
  // The harness's own modules are not Node's (in a job they are one bundle whose exports are two functions).
  const harnessModules = new Set(Object.values(require.cache).filter((m) => m.filename.startsWith(harnessDir)));
  const host = reach(hostRoots, new Set([...intrinsics, ...harnessModules]));
  const violations = check(reached, host);
  for (const [v, where] of fromResults) if (host.has(v)) violations.push('host object: ' + where);
  fs.writeFileSync(
    outFile,
    JSON.stringify({
      reached: reached.size,
      results: fromResults.size,
      host: host.size,
      calls: functions.length,
      violations,
      attempts,
    }),
  );
  // Timers and watchers the calls left behind would keep the process alive.
  process.reallyExit(0);
}
main().catch((e) => {
  fs.writeFileSync(outFile, JSON.stringify({ error: String(e && e.stack) }));
  process.exit(1);
});
