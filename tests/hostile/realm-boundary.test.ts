// Issue 30: the boundary holds by construction. Four classes, our own cases, each asserting its exact outcome on
// every isolating backend (bwrap, unshare, Docker) and, one of each class, over POST /grade.
// A. Host objects: a submission reaching one of Node's objects (EventEmitter.prototype, a timer's `this`, a stream)
//    could make Node call it with the real `process` — and from there replace the verdict code's globals.
// B. Global bindings: the start realm's Object, Math, JSON, Promise… bindings verdict code resolves at call time.
// C. Accessors are values, not votes: honest getters (cycles, frozen objects, the submission's own class as the
//    expected value) get every test and no flag; a getter answering differently per read is compared on one read.
// D. Run-time attempts (a file outside the folder, the environment, a process, a signal, the network) are evidence:
//    an `attempt` sandbox event and a `sandbox.attempt.<kind>` warning.
import { describe, expect, it } from 'vitest';
import type { ProcessBackendId } from '../../src/adapters/sandbox/registry.js';
import type { Report } from '../../src/domain/report.js';
import { flagCodes, gradeInline, inlineRubric, isolatingBackends, statuses } from '../helpers.js';
import { gradeOverHttp } from './http-grade.js';

const backends = (await isolatingBackends()).filter((b) => b.ok);
if (backends.length === 0) throw new Error('no isolating sandbox backend on this machine: install bubblewrap');

const TESTS = {
  'boundary.test.js': `const s = require('./solution');
test('answer', () => { expect(s.answer()).toBe(42); });
test('shape', () => { expect(s.shape()).toEqual({ v: 42, list: [1, 2] }); });
test('quick', async () => { expect(await s.quick()).toBe(42); }, 1000);`,
};
const ALL_FAILED = { answer: 'failed', shape: 'failed', quick: 'failed' };
const WRONG = `exports.answer = () => 41; exports.shape = () => ({ v: 41, list: [1, 2] }); exports.quick = async () => 41;`;
const RIGHT = `exports.answer = () => 42; exports.shape = () => ({ v: 42, list: [1, 2] }); exports.quick = async () => 42;`;
// What an escaped submission does with the real process: replace the bindings toBe and toEqual resolve at call time.
const ESCALATE = `const escalate = (p) => {
  try {
    const vm = p.getBuiltinModule('vm');
    vm.runInThisContext('globalThis.Object = new Proxy(Object, { get: (t, k) => (k === "is" ? () => true : t[k]) }); globalThis.Math = { ...Math, abs: () => 0 }');
    globalThis.escaped = true;
  } catch {}
};`;

interface Case {
  name: string;
  solution: string;
  statuses: Record<string, string>;
  flags: string[];
  attempts?: string[];
}

const HOST_OBJECTS: Case[] = [
  {
    // Before issue 30 this reached the real process and replaced the start realm's Object and Math: the harness
    // itself then crashed mid-job (checked with that commit's harness through boot.cjs, outside a sandbox).
    name: "replaces EventEmitter.prototype.emit through require('events') and raises a warning (Node emits it on the real process)",
    solution: `${ESCALATE}
try {
  const EE = require('events').EventEmitter;
  const emit = EE.prototype.emit;
  EE.prototype.emit = function (...a) { if (this && typeof this.getBuiltinModule === 'function') escalate(this); return emit.apply(this, a); };
} catch {}
process.emitWarning('look at me');
${WRONG}`,
    statuses: ALL_FAILED,
    flags: [],
  },
  {
    name: "takes a timer callback's `this` (Node's Timeout) and walks its list to the harness's own timers, to stop the per-test timeout",
    solution: `function stopAll(t) {
  try { for (let n = t._idleNext, i = 0; n && n !== t && i < 100; n = n._idleNext, i++) { n._onTimeout = () => {}; n._destroyed = true; } } catch {}
}
exports.answer = () => 41;
exports.shape = () => ({ v: 41, list: [1, 2] });
exports.quick = () => new Promise((resolve) => { setTimeout(function () { stopAll(this); }, 10); setTimeout(() => resolve(42), 3000); });`,
    statuses: { answer: 'failed', shape: 'failed', quick: 'timeout' },
    flags: [],
  },
  {
    name: 'extends a stream and an emitter, reaching their prototypes, and throws an uncaught error (Node emits it on the real process)',
    solution: `${ESCALATE}
try {
  const { Writable } = require('stream');
  let proto = Writable.prototype;
  while (proto && !Object.prototype.hasOwnProperty.call(proto, 'emit')) proto = Object.getPrototypeOf(proto);
  const emit = proto.emit;
  proto.emit = function (...a) { if (this && typeof this.getBuiltinModule === 'function') escalate(this); return emit.apply(this, a); };
} catch {}
try { const { Stats } = require('fs'); Stats.prototype.isFile = () => true; } catch {}
setTimeout(() => { throw new Error('uncaught on purpose'); }, 0);
${WRONG}`,
    statuses: ALL_FAILED,
    flags: ['policy.fs'], // the static note on require('fs')
  },
  {
    name: "hunts the host through what facades return: fs.statSync, os.cpus, a callback's arguments and this, a URL, a Buffer",
    solution: `${ESCALATE}
const seen = new Set();
function hunt(v, depth) {
  if (v === null || (typeof v !== 'object' && typeof v !== 'function') || seen.has(v) || depth > 6) return;
  seen.add(v);
  if (typeof v.getBuiltinModule === 'function' && v !== process) escalate(v);
  for (const k of Reflect.ownKeys(v)) { try { const d = Object.getOwnPropertyDescriptor(v, k); hunt(d.value !== undefined ? d.value : d.get, depth + 1); } catch {} }
  hunt(Object.getPrototypeOf(v), depth + 1);
}
const fs = require('fs');
hunt(fs.statSync(__filename), 0); hunt(require('os').cpus(), 0); hunt(new URL('file:///x'), 0); hunt(Buffer.from('x'), 0);
fs.readFile(__filename, function (err, data) { hunt(this, 0); hunt(data, 0); });
${WRONG}`,
    statuses: ALL_FAILED,
    flags: ['policy.fs'],
  },
];

// The start realm's global bindings, tried from the hidden tests' own realm (where an escaped submission would be).
const BINDINGS_TESTS = {
  'bindings.test.js': `const s = require('./solution');
const tryReplace = (name, value) => { try { return Reflect.set(globalThis, name, value) || Reflect.defineProperty(globalThis, name, { value }); } catch { return false; } };
test('Object.is still decides toBe', () => { const took = tryReplace('Object', { ...Object, is: () => true }); expect(took).toBe(false); expect(s.answer()).toBe(42); });
test('Math and JSON stay', () => { expect([tryReplace('Math', {}), tryReplace('JSON', {})]).toEqual([false, false]); expect(s.shape()).toEqual({ v: 42, list: [1, 2] }); });
test('Promise stays', async () => { expect(tryReplace('Promise', function () {})).toBe(false); expect(await s.quick()).toBe(42); });`,
};

const ACCESSORS: Case[] = [
  {
    name: 'honest: a circular list whose nodes expose value and next through getters, compared with toEqual and toStrictEqual',
    solution: `class Node { constructor(value, next) { let n = next; Object.defineProperty(this, 'value', { get: () => value, enumerable: true }); Object.defineProperty(this, 'next', { get: () => n, set: (x) => { n = x; }, enumerable: true }); } }
exports.answer = () => 42;
exports.shape = () => { const o = {}; Object.defineProperty(o, 'v', { get: () => 42, enumerable: true }); Object.defineProperty(o, 'list', { get: () => [1, 2], enumerable: true }); return Object.freeze(o); };
exports.quick = async () => { const a = new Node(1); const b = new Node(2, a); a.next = b; return a.next.next === a ? 42 : 0; };
exports.ring = () => { const a = new Node(1); const b = new Node(2, a); a.next = b; return a; };`,
    statuses: { answer: 'passed', shape: 'passed', quick: 'passed' },
    flags: [],
  },
  {
    name: 'honest: a frozen object of its own class with getters, holding a Map of such objects',
    solution: `class P { constructor(v) { Object.defineProperty(this, 'v', { get: () => v, enumerable: true }); Object.freeze(this); } }
exports.answer = () => new Map([['k', new P(42)]]).get('k').v;
exports.shape = () => { const o = { list: [1, 2] }; Object.defineProperty(o, 'v', { get: () => new P(42).v, enumerable: true }); return o; };
exports.quick = async () => 42;`,
    statuses: { answer: 'passed', shape: 'passed', quick: 'passed' },
    flags: [],
  },
  {
    name: 'a getter answering its first read wrong and later reads right: compared on the one read, it fails (no flag)',
    solution: `exports.answer = () => 41;
exports.shape = () => { let reads = 0; const o = { list: [1, 2] }; Object.defineProperty(o, 'v', { get: () => (++reads === 1 ? 41 : 42), enumerable: true }); return o; };
exports.quick = async () => 41;`,
    statuses: ALL_FAILED,
    flags: [],
  },
  {
    name: 'a getter that returns a value voting on its own equality is still refused',
    solution: `exports.answer = () => 41;
exports.shape = () => { const o = { list: [1, 2] }; Object.defineProperty(o, 'v', { get: () => ({ asymmetricMatch: () => true }), enumerable: true }); return o; };
exports.quick = async () => 41;`,
    statuses: { answer: 'error', shape: 'error', quick: 'error' },
    flags: ['tampering.self_equality'],
  },
];

const ATTEMPTS: Case[] = [
  {
    name: 'reads /etc/passwd and a file beside the job through fs (sync, promises and a URL)',
    solution: `const fs = require('fs');
for (const f of [() => fs.readFileSync('/etc/passwd', 'utf8'), () => fs.readFileSync(new URL('file:///etc/hostname')), () => fs.statSync(__dirname + '/../x')]) { try { f(); } catch {} }
fs.promises.readFile('/proc/self/environ').catch(() => {});
${RIGHT}`,
    statuses: { answer: 'passed', shape: 'passed', quick: 'passed' },
    flags: ['policy.fs', 'sandbox.attempt.read_outside'], // what it names, and now what it did
    attempts: [
      'sandbox.attempt.read_outside: fs.readFileSync("/etc/passwd")',
      'sandbox.attempt.read_outside: fs.readFileSync("/etc/hostname")',
    ],
  },
  {
    name: 'reads the environment (HF_TOKEN, PATH) and starts a process',
    solution: `const token = process.env.HF_TOKEN; const p = process.env['PA' + 'TH'];
try { require('child_process').execFileSync('/bin/sh', ['-c', 'env']); } catch {}
${RIGHT}`,
    statuses: { answer: 'passed', shape: 'passed', quick: 'passed' },
    flags: ['policy.child_process', 'sandbox.attempt.env', 'sandbox.attempt.spawn'],
    attempts: [
      'sandbox.attempt.env: process.env.HF_TOKEN',
      'sandbox.attempt.env: process.env.PATH',
      'sandbox.attempt.spawn: require("child_process").execFileSync("/bin/sh", object)',
    ],
  },
  {
    name: 'signals its parent and the init process, then calls the network (fetch, http, dns, a socket)',
    solution: `for (const f of [() => process.kill(process.ppid, 'SIGKILL'), () => process.kill(1, 0)]) { try { f(); } catch {} }
fetch('http://169.254.169.254/latest/meta-data/').catch(() => {});
for (const f of [() => require('http').get('http://127.0.0.1:6379/'), () => require('dns').lookup('example.com', () => {}), () => require('net').connect(5432, '127.0.0.1')]) { try { f(); } catch {} }
${RIGHT}`,
    statuses: { answer: 'passed', shape: 'passed', quick: 'passed' },
    flags: ['policy.net', 'policy.process_exit', 'sandbox.attempt.network', 'sandbox.attempt.signal'],
  },
];

// The environment's names enumerated: one attempt whatever asks (every form goes through the facade's ownKeys), and
// the honest reads of a convention (NODE_ENV) are none.
const ENUMERATED = 'sandbox.attempt.env: process.env (every name enumerated)';
const ENV_ENUMERATION: Case[] = [
  ['Object.keys', 'const names = Object.keys(process.env);'],
  ['for…in', 'const names = []; for (const k in process.env) names.push(k);'],
  ['Object.entries', 'const names = Object.entries(process.env).map(([k, v]) => k + v);'],
].map(([how, code]) => ({
  name: `enumerates the environment with ${how}`,
  solution: `${code}\n${RIGHT}`,
  statuses: { answer: 'passed', shape: 'passed', quick: 'passed' },
  flags: ['sandbox.attempt.env'],
  attempts: [ENUMERATED],
}));
ENV_ENUMERATION.push({
  name: 'honest: reads NODE_ENV (a value, `in`, a default) to pick its behaviour',
  solution: `const prod = process.env.NODE_ENV === 'production' || ('NODE_ENV' in process.env && !!process.env.NODE_ENV);
const level = process.env.DEBUG ? 'debug' : 'info';
${RIGHT.replace('() => 42;', () => '() => (prod && level ? 42 : 42);')}`,
  statuses: { answer: 'passed', shape: 'passed', quick: 'passed' },
  flags: [],
});

const attemptsOf = (r: Report): string[] =>
  r.sandbox.violations.filter((v) => v.event === 'attempt').map((v) => v.detail);

describe.each(backends.map((b) => b.id))('the realm boundary (%s)', (backend: ProcessBackendId) => {
  const rubric = inlineRubric(TESTS);
  it.each([...HOST_OBJECTS, ...ACCESSORS, ...ATTEMPTS, ...ENV_ENUMERATION])('$name', async (c) => {
    const r = await gradeInline(backend, rubric, { 'solution.js': c.solution });
    expect([statuses(r), flagCodes(r)]).toEqual([c.statuses, c.flags]);
    if (c.attempts) expect(attemptsOf(r)).toEqual(expect.arrayContaining(c.attempts));
    // An enumeration is one attempt, not one per name it listed.
    if (c.attempts?.includes(ENUMERATED)) expect(attemptsOf(r)).toEqual([ENUMERATED]);
    // Each attempt flag cites its events as evidence (the events of every kind it names, and only those).
    for (const f of r.flags.filter((x) => x.code.startsWith('sandbox.attempt.'))) {
      const cited = r.sandbox.violations.filter((v) => f.evidence.includes(v.id)).map((v) => v.detail);
      expect([cited.length > 0, cited.every((d) => d.startsWith(`${f.code}: `))]).toEqual([true, true]);
    }
    if (!c.flags.some((f) => f.startsWith('sandbox.attempt.'))) expect(attemptsOf(r)).toEqual([]);
  });

  it('the start realm global bindings verdict code resolves cannot be replaced, even from the tests own realm', async () => {
    const r = await gradeInline(backend, inlineRubric(BINDINGS_TESTS), { 'solution.js': RIGHT });
    expect([statuses(r), flagCodes(r)]).toEqual([
      { 'Object.is still decides toBe': 'passed', 'Math and JSON stay': 'passed', 'Promise stays': 'passed' },
      [],
    ]);
    const wrong = await gradeInline(backend, inlineRubric(BINDINGS_TESTS), { 'solution.js': WRONG });
    expect(Object.values(statuses(wrong))).toEqual(['failed', 'failed', 'failed']);
  });
});

describe('the realm boundary over POST /grade', () => {
  it.each([HOST_OBJECTS[0], ACCESSORS[0], ACCESSORS[2], ATTEMPTS[1]] as Case[])('$name', async (c) => {
    const r = await gradeOverHttp(TESTS, { 'solution.js': c.solution });
    expect([statuses(r), flagCodes(r)]).toEqual([c.statuses, c.flags]);
  });
});
