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
realmLib.lockdownNow();

const attempts = [];
fs.writeFileSync(
  path.join(scratch, 'solution.js'),
  'exports.args = Array.prototype.slice.call(arguments);\nexports.g = globalThis;\n',
);
fs.writeFileSync(path.join(scratch, 'data.txt'), 'benign\n');
const GRANTABLE = [
  'dgram',
  'http2',
  'perf_hooks',
  'punycode',
  'readline/promises',
  'stream/consumers',
  'stream/promises',
  'stream/web',
  'tty',
  'util/types',
];
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

const isObj = (v) => v !== null && (typeof v === 'object' || typeof v === 'function');

/** Every object reachable from `roots` by own properties (symbols too), prototypes and accessor functions, no call made. */
function reach(roots, stopAt, onEdge) {
  const seen = new Set();
  const queue = [];
  const push = (v, where) => {
    if (!isObj(v) || seen.has(v) || (stopAt && stopAt.has(v))) return;
    seen.add(v);
    queue.push([v, where]);
    if (onEdge) onEdge(v, where);
  };
  for (const [v, where] of roots) push(v, where);
  while (queue.length) {
    const [v, where] = queue.shift();
    if (types.isProxy(v)) continue; // a harness Proxy (process.env) is walked through its target below
    push(Object.getPrototypeOf(v), where + '.__proto__');
    for (const k of Reflect.ownKeys(v)) {
      let d;
      try {
        d = Object.getOwnPropertyDescriptor(v, k);
      } catch {
        continue;
      }
      const name = where + (typeof k === 'symbol' ? '[' + String(k) + ']' : '.' + k);
      if ('value' in d) push(d.value, name);
      else {
        push(d.get, name + '<get>');
        push(d.set, name + '<set>');
      }
    }
  }
  return seen;
}

// The intrinsics a Compartment shares, and what the start realm's lockdown froze: not Node's doing.
// Hidden intrinsics (iterator and generator prototypes…) are reached from values of their kind made in a Compartment.
const HIDDEN = new Compartment()
  .evaluate(`[async function* () {}, function* () {}, async function () {}, [][Symbol.iterator](), new Map()[Symbol.iterator](),
  new Set()[Symbol.iterator](), ''[Symbol.iterator](), /a/[Symbol.matchAll]('a'), (function* () {})(), (async function* () {})(), new Uint8Array(0)]`);
const intrinsics = reach([
  [new Compartment().globalThis, 'intrinsics'],
  [HIDDEN, 'hidden intrinsics'],
  [globalThis.WeakRef, 'WeakRef'],
  [globalThis.FinalizationRegistry, 'FinalizationRegistry'],
  [globalThis.Error, 'Error'],
  [globalThis.Date, 'Date'],
  [globalThis.RegExp, 'RegExp'],
  [globalThis.Function, 'Function'],
  [globalThis.Math, 'Math'],
  [globalThis.Intl, 'Intl'],
]);

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

async function callEverything(functions) {
  const results = [];
  for (const [fn, holder, where] of functions) {
    if (process.env.WALK_DEBUG) fs.writeSync(2, where + '\n');
    for (const args of ARGSETS) {
      if (!fs.existsSync(path.join(scratch, 'data.txt'))) fs.writeFileSync(path.join(scratch, 'data.txt'), 'benign\n');
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

/** Objects not frozen, and (once Node's graph is known) objects of Node's. */
function check(reached, host) {
  const violations = [];
  for (const [v, where] of reached) {
    if (v === g) continue; // the submission's own global object: its own, like its module objects
    if (host && host.has(v)) violations.push('host object: ' + where);
    else if (!types.isProxy(v) && !Object.isFrozen(v)) violations.push('not frozen: ' + where);
  }
  return violations;
}

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
