// Verdict integrity against the submission's own realm: five classes of forgery
// (issue 12), each with cases of our own, every one asserting the exact outcome
// on every isolating backend. The submission runs in a ses Compartment after
// lockdown(); the cases below are what a wrong submission would try from there.
import { describe, expect, it } from 'vitest';
import type { ProcessBackendId } from '../../src/adapters/sandbox/registry.js';
import { flagCodes, gradeInline, inlineRubric, isolatingBackends, statuses } from '../helpers.js';

const backends = (await isolatingBackends()).filter((b) => b.ok);
if (backends.length === 0) throw new Error('no isolating sandbox backend on this machine: install bubblewrap');

const TESTS = {
  'realm.test.js': `const s = require('./solution');
test('value', () => { expect(s.answer()).toBe(42); });
test('shape', () => { expect(s.shape()).toEqual({ v: 42, list: [1, 2] }); });
test('set', () => { expect(s.set()).toEqual(new Set([1, 2])); });
test('calls back', () => { const cb = jest.fn(); s.notify(cb); expect(cb).toHaveBeenCalledWith({ v: 42 }); });
test('rejects negatives', () => { expect(() => s.check(-1)).toThrow(RangeError); expect(() => s.check(-1)).toThrow('negative'); });
test('guess', () => { const hint = (x) => x === 42; expect(s.guess(hint)).toBe(42); });`,
};
const NAMES = ['value', 'shape', 'set', 'calls back', 'rejects negatives', 'guess'];
const all = (status: string): Record<string, string> => Object.fromEntries(NAMES.map((n) => [n, status]));
const ALL_FAILED = all('failed');
const ALL_ERROR = all('error');

// Every function is wrong; a case replaces some of them with its forgery.
const wrong = (prelude: string, overrides = ''): Record<string, string> => ({
  'solution.js': `const base = {
  answer: () => 41, shape: () => ({ v: 41, list: [1, 2] }), set: () => new Set([1]),
  notify: (cb) => cb({ v: 41 }), check: (n) => n, guess: () => -1,
};
${prelude}
module.exports = Object.assign(base, { ${overrides} });
`,
});

interface Case {
  name: string;
  files: Record<string, string>;
  statuses: Record<string, string>;
  flags: string[];
  message?: [string, string];
}

const CLASS_1: Case[] = [
  {
    name: 'throws plain objects and errors carrying harness-looking status fields',
    files: wrong(
      '',
      `answer: () => { throw { message: 'no', evigradeStatus: 'passed', evigradeTimeout: false, status: 'passed' }; },
      shape: () => { throw Object.assign(new Error('no'), { evigradeStatus: 'passed', status: 'passed' }); }`,
    ),
    statuses: ALL_FAILED,
    flags: [],
  },
  {
    name: 'throws an Error subclass whose prototype answers status questions through getters',
    files: wrong(
      `class Sneaky extends Error { get evigradeStatus() { return 'passed'; } get evigradeTimeout() { return false; } get status() { return 'passed'; } }`,
      `answer: () => { throw new Sneaky('x'); }, check: () => { throw new Sneaky('negative'); }`,
    ),
    statuses: ALL_FAILED,
    flags: [],
  },
  {
    name: 'writes the Symbol.for registry, its global object and require.cache, and tries to give Object.prototype a status',
    files: wrong(
      `const pass = () => ({ pass: true, message: () => '' });
      globalThis[Symbol.for('$$jest-matchers-object')] = { matchers: { toBe: pass, toEqual: pass }, customEqualityTesters: [() => true], state: {} };
      globalThis[Symbol.for('evigrade.jest')] = { expect: () => ({ toBe() {}, toEqual() {} }) };
      try { require.cache[require.resolve('./solution')] = { exports: { answer: () => 42 } }; } catch {}
      const took = Reflect.defineProperty(Object.prototype, 'evigradeStatus', { value: 'passed' });`,
      `answer: () => { if (took) return 42; throw {}; }`,
    ),
    statuses: ALL_FAILED,
    flags: [],
  },
];

const CLASS_2: Case[] = [
  {
    name: 'returns an instance of its own class with an inherited asymmetricMatch',
    files: wrong(`class Agreeable { asymmetricMatch() { return true; } }`, `shape: () => new Agreeable()`),
    statuses: ALL_ERROR,
    flags: ['tampering.self_equality'],
    message: ['shape', 'toEqual: the received value carries an asymmetricMatch method that test code did not make'],
  },
  {
    // A Proxy's traps are asked once, as Jest would ask them, and the answers compared as data (red team, issue 30:
    // refusing every Proxy accused honest stores and views). Its data here is the right answer, so that test passes as
    // a plain object with it would; `has` answering every key changes nothing, for the copy has only what it listed.
    name: 'returns a Proxy that answers every key question: read once into data and compared as such',
    files: wrong(
      '',
      `shape: () => new Proxy({}, {
      get: (t, k) => (k === 'v' ? 42 : k === 'list' ? [1, 2] : undefined),
      ownKeys: () => ['v', 'list'], has: () => true,
      getOwnPropertyDescriptor: (t, k) => ({ value: k === 'v' ? 42 : [1, 2], enumerable: true, configurable: true }) })`,
    ),
    statuses: { ...ALL_FAILED, shape: 'passed' },
    flags: [],
  },
  {
    name: 'returns a Proxy whose first answer for a key is wrong and later answers right: compared on the one read, fails',
    files: wrong(
      '',
      `shape: () => { const n = {}; return new Proxy({ v: 0, list: [1, 2] }, {
      get: (t, k) => (k === 'v' ? ((n.v = (n.v || 0) + 1) === 1 ? 41 : 42) : Reflect.get(t, k)) }); }`,
    ),
    statuses: ALL_FAILED,
    flags: [],
  },
  {
    name: 'hands the test callback an argument whose class votes on its own equality',
    files: wrong(`class Yes { asymmetricMatch() { return true; } }`, `notify: (cb) => cb(new Yes())`),
    statuses: ALL_ERROR,
    flags: ['tampering.self_equality'],
    message: ['calls back', 'toHaveBeenCalledWith: the recorded calls.0.0 carries an asymmetricMatch method'],
  },
  {
    name: 'returns a Set impostor with its own iterator',
    files: wrong(
      '',
      `set: () => Object.create(Set.prototype, { [Symbol.iterator]: { value: function* () { yield 1; yield 2; } }, size: { value: 2 } })`,
    ),
    statuses: ALL_ERROR,
    flags: ['tampering.self_equality'],
    message: ['set', 'toEqual: the received value pretends to be a Set'],
  },
  {
    // Issue 30: an accessor produces a value; it is read once and that value is compared as data (no flag: getters
    // are honest code). A getter answering the comparison one way and a later read (the failure message) another
    // way gets compared on the read the harness made: the wrong 41 fails.
    name: 'returns an object whose field is a getter that answers differently on each read',
    files: wrong(
      '',
      `shape: () => { let reads = 0; return { get v() { reads += 1; return reads === 1 ? 41 : 42; }, list: [1, 2] }; }`,
    ),
    statuses: ALL_FAILED,
    flags: [],
    message: ['shape', '"v": 41'],
  },
];

const CLASS_3: Case[] = [
  {
    name: 'looks for expect through @jest/globals, vitest and its global object',
    files: wrong(
      `let e = null;
      for (const name of ['@jest/globals', 'vitest', 'expect']) { try { e = e || require(name).expect || require(name); } catch {} }
      e = e || globalThis.expect || globalThis[Symbol.for('$$jest-matchers-object')];
      if (e && e.addEqualityTesters) e.addEqualityTesters([() => true]);`,
      `answer: () => (e && e.addEqualityTesters ? 42 : 41)`,
    ),
    statuses: ALL_FAILED,
    flags: [],
  },
  {
    name: "climbs from the test's jest.fn to the start realm's Function constructor",
    files: wrong(
      '',
      `notify: (cb) => {
      let g = null;
      try { g = cb.constructor('return globalThis')(); } catch {}
      try { g = g || Object.getPrototypeOf(cb.mockImplementation).constructor('return this')(); } catch {}
      cb({ v: g && g.expect ? 42 : 41 });
    }`,
    ),
    statuses: ALL_FAILED,
    flags: [],
  },
  {
    name: "asks the stack-trace API for the test frames' receivers",
    files: wrong(
      '',
      `answer: () => {
      let found = null;
      Error.prepareStackTrace = (e, sites) => { for (const c of sites) { try { const t = c.getThis(); if (t && t.expect) found = t; } catch {} } return ''; };
      void new Error('probe').stack;
      return found ? 42 : 41;
    }`,
    ),
    statuses: ALL_FAILED,
    flags: [],
  },
];

const CLASS_4: Case[] = [
  {
    name: 'reads arguments.callee.caller to see the test body',
    files: wrong(
      '',
      `answer: function () { try { return String(arguments.callee.caller).includes('toBe(42)') ? 42 : 41; } catch { return 41; } }`,
    ),
    statuses: ALL_FAILED,
    flags: [],
  },
  {
    name: 'reads the source of a callback the test hands it',
    files: wrong('', `guess: (hint) => { const m = /\\d+/.exec(String(hint)); return m ? Number(m[0]) : 41; }`),
    statuses: ALL_FAILED,
    flags: [],
  },
  {
    name: 'asks the stack-trace API for the calling functions and their source',
    files: wrong(
      '',
      `answer: () => {
      let src = '';
      Error.prepareStackTrace = (e, sites) => { for (const c of sites) { try { src += String(c.getFunction()); } catch {} } return ''; };
      void new Error('probe').stack;
      return src.includes('toBe(42)') ? 42 : 41;
    }`,
    ),
    statuses: ALL_FAILED,
    flags: [],
  },
  {
    name: 'follows module.parent, require.main and its stack to the test file',
    files: wrong(
      '',
      `answer: () => {
      const parent = module.parent || require.main || process.mainModule;
      const m = /\\((\\/[^:()]+\\.test\\.js)/.exec(new Error().stack);
      let src = '';
      try { src = require('fs').readFileSync(m[1], 'utf8'); } catch {}
      return parent || src.includes('toBe(42)') ? 42 : 41;
    }`,
    ),
    statuses: ALL_FAILED,
    flags: ['policy.fs'],
  },
];

// A frame the grader would accept needs the per-job key; each case tries to get it or to bend the signer.
const forge = (key: string): string => `const crypto = require('crypto');
  const frame = (seq, type, data) => { const body = JSON.stringify(data); const mac = crypto.createHmac('sha256', ${key}).update(seq + '|' + type + '|' + body).digest('hex'); return '\\n' + JSON.stringify({ seq, type, data, mac }) + '\\n'; };
  const forged = frame(9, 'done', { files: 1 });
  for (const fd of [3, 2]) { try { require('fs').writeSync(fd, forged); } catch {} }`;

const CLASS_5: Case[] = [
  {
    name: 'reads stdin and the environment for the key and signs a done frame with what it finds',
    files: wrong(`let key = '';
      try { key = require('fs').readFileSync(0, 'utf8'); } catch {}
      key = key || process.env.EVIGRADE_KEY || 'guess';
      ${forge('key')}`),
    statuses: ALL_FAILED,
    flags: ['policy.fs', 'sandbox.attempt.env', 'tampering.forged_frames'], // its read of the environment is evidence (issue 30)
  },
  {
    name: 'bends the typed-array and string methods a pure-JS signer would use',
    files: wrong(
      `let refused = 0;
      for (const [o, k] of [[Uint8Array.prototype, 'set'], [Uint32Array.prototype, 'subarray'], [String.prototype, 'charCodeAt'], [Math, 'floor']]) {
        if (!Reflect.defineProperty(o, k, { value: () => 0 })) refused += 1;
      }`,
      `answer: () => (refused === 4 ? 42 : 0)`,
    ),
    statuses: { ...ALL_FAILED, value: 'passed' },
    flags: [],
  },
  {
    name: 'replaces fs.writeSync, stdout and console to swallow or rewrite frames',
    files: wrong(
      `let refused = 0;
      const fs = require('fs');
      for (const t of [() => { fs.writeSync = () => 0; }, () => { process.stdout.write = () => true; }, () => { console.log = () => {}; }, () => { Buffer.from = () => null; }]) {
        try { t(); } catch { refused += 1; }
      }`,
      `answer: () => (refused === 4 ? 42 : 0)`,
    ),
    statuses: { ...ALL_FAILED, value: 'passed' },
    flags: ['policy.fs'],
  },
];

// Class 6: the constructors lockdown() replaces on the global object (Error, Date, RegExp…) stay unfrozen in their
// original form, so no object a submission can reach may lead to one: a class Jest defined before lockdown
// (JestAssertionError extends Error) would. The tests hand the submission a callback holding a failing expect, and
// await .resolves on what it returns, so it can catch a JestAssertionError; a `function` test body gives
// CallSite.getThis() a receiver to find.
const TESTS_6 = {
  'reach.test.js': `const s = require('./solution');
test('visits', () => { const seen = []; s.each([1, 2], (x) => { expect(x).toBeGreaterThan(0); seen.push(x); }); expect(seen).toEqual([1, 2]); });
test('resolves', async () => { await expect(s.fetch()).resolves.toBe(42); });
test('length', function () { expect(s.list().length).toBe(3); });
test('value', () => { expect(s.answer()).toBe(42); });
test('fact', () => { expect(s.fact(5)).toBe(120); });
test('rejects', async () => { await expect(() => s.check(-1)).rejects.toThrow('negative'); });
test('resolves fn', async () => { await expect(() => s.fetch()).resolves.toBe(42); });
test('info', () => { expect(s.info()).toEqual({ code: 42, kind: Error }); });
test('kinds', () => { expect(s.kinds()).toEqual([Array, Map]); });`,
};
const wrong6 = (prelude: string, overrides: string): Record<string, string> => ({
  'solution.js': `const base = { each: (arr, cb) => arr.forEach(cb), fetch: () => Promise.resolve(41), list: () => [1], answer: () => 41, fact: () => 0, check: async () => 1,
  info: () => ({ code: 41 }), kinds: () => [Array, Map] };
// What the attacks below climb to from a caught JestAssertionError: the constructor its class extends.
const climb = (e) => Object.getPrototypeOf(e.constructor);
const ordinary = Function.prototype[Symbol.hasInstance];
// Makes "undefined instanceof Error" true, so a thrown undefined would pass for an error the harness raised.
const forgeInstanceOf = (e) => { try { const FE = climb(e); Object.defineProperty(FE, Symbol.hasInstance, { value: (v) => v === undefined || ordinary.call(FE, v) }); } catch {} };
${prelude}
module.exports = Object.assign(base, { ${overrides} });
`,
});
// The wrong submission: only the callback test and `kinds` (intrinsic constructors, a correct answer) pass.
const BASELINE_6 = {
  visits: 'passed',
  resolves: 'failed',
  length: 'failed',
  value: 'failed',
  fact: 'failed',
  rejects: 'failed',
  'resolves fn': 'failed',
  info: 'failed',
  kinds: 'passed',
};
// A submission that makes an assertion of the test's fail and catches the error fails that test (class 10):
// here `visits`, whose callback it calls with -1 first.
const CAUGHT_6 = { ...BASELINE_6, visits: 'failed' };
const ALL_ERROR_6 = Object.fromEntries(Object.keys(BASELINE_6).map((n) => [n, 'error']));
const CLASS_6: Case[] = [
  {
    name: 'catches a failing expect in a callback, climbs to the Error its class extends and redefines instanceof on it',
    files: wrong6(
      '',
      `each: (arr, cb) => { try { cb(-1); } catch (e) { forgeInstanceOf(e); } arr.forEach(cb); },
      answer: () => { throw undefined; }, fact: () => { throw undefined; }`,
    ),
    statuses: CAUGHT_6,
    flags: [],
  },
  {
    name: 'returns a thenable to .resolves, catches the assertion it makes fail, and does the same',
    files: wrong6(
      '',
      `fetch: () => ({ then(ok) { try { ok('no'); } catch (e) { forgeInstanceOf(e); } return Promise.reject(undefined); } }),
      answer: () => { throw undefined; }, fact: () => { throw undefined; }`,
    ),
    statuses: BASELINE_6,
    flags: [],
  },
  {
    name: "sets prepareStackTrace on the constructor it climbs to and looks for the test frames' receivers",
    files: wrong6(
      'let found = null;',
      `each: (arr, cb) => {
      try { cb(-1); } catch (e) {
        try { climb(e).prepareStackTrace = (err, sites) => { for (const c of sites) { try { const t = c.getThis(); if (t && t.expect) found = t; } catch {} } return ''; }; } catch {}
      }
      arr.forEach(cb);
    },
    list: () => undefined,
    answer: () => (found && found.process ? 42 : 41)`,
    ),
    statuses: CAUGHT_6,
    flags: [],
  },
];

// Class 7: a value that decides whether .resolves asserts at all. Jest awaits whatever the received value's own
// `then` returns; a `then` that never calls back (or one a genuine promise carries as an own property) would skip
// the assertion. The test timeout is short so the never-settling case fails quickly.
const TESTS_7_SPEC = { limits: { test_timeout_ms: 1500 } };
const CLASS_7: Case[] = [
  {
    name: 'returns a thenable whose then never calls back and returns a settled promise',
    files: wrong6('', `fetch: () => ({ then() { return Promise.resolve(); } })`),
    statuses: { ...BASELINE_6, resolves: 'timeout', 'resolves fn': 'timeout' },
    flags: [],
    message: ['resolves', 'Exceeded timeout of 1500 ms'],
  },
  {
    name: 'returns a genuine promise of the wrong value carrying its own then that never calls back',
    files: wrong6(
      '',
      `fetch: () => { const p = Promise.resolve(41); Object.defineProperty(p, 'then', { value: () => Promise.resolve() }); return p; }`,
    ),
    statuses: BASELINE_6,
    flags: [],
    message: ['resolves', 'Received: 41'],
  },
  {
    name: 'returns an object whose then is a getter answering differently on each read',
    files: wrong6(
      '',
      `fetch: () => { let reads = 0; return { get then() { reads += 1; return reads === 1 ? undefined : () => Promise.resolve(); } }; }`,
    ),
    statuses: ALL_ERROR_6,
    flags: ['tampering.self_equality'],
    message: ['resolves', "the received value's then is computed"],
  },
  {
    name: 'returns to .rejects (through the function the test hands it) a thenable that never calls back',
    files: wrong6('', `check: () => ({ then() { return Promise.resolve(); } })`),
    statuses: { ...BASELINE_6, rejects: 'timeout' },
    flags: [],
    message: ['rejects', 'Exceeded timeout of 1500 ms'],
  },
  {
    name: 'returns to .rejects a thenable whose then throws the expected error synchronously (Jest fails the matcher)',
    files: wrong6('', `check: () => ({ then() { throw new RangeError('negative'); } })`),
    statuses: BASELINE_6,
    flags: [],
    message: ['rejects', 'RangeError: negative'],
  },
  {
    name: 'hides a then getter answering differently on each read 70 prototypes down',
    files: wrong6(
      'const deep = (o) => { for (let i = 0; i < 70; i++) o = Object.create(o); return o; };',
      `fetch: () => { let reads = 0; return deep({ get then() { reads += 1; return reads === 1 ? undefined : () => Promise.resolve(); } }); }`,
    ),
    statuses: ALL_ERROR_6,
    flags: ['tampering.self_equality'],
    message: ['resolves', "the received value's then is computed"],
  },
];

// Class 8: values the equality guard must see through — an asymmetricMatch far down a prototype chain, an expected
// value holding the tests' own Error (a constructor lockdown() replaced), intrinsic constructors in a correct answer.
const CLASS_8: Case[] = [
  {
    name: 'inherits asymmetricMatch from 70 prototypes down',
    files: wrong6(
      'const deep = (o) => { for (let i = 0; i < 70; i++) o = Object.create(o); return o; };',
      `info: () => deep({ asymmetricMatch: () => true })`,
    ),
    statuses: ALL_ERROR_6,
    flags: ['tampering.self_equality'],
    message: ['info', 'has a prototype chain longer than 64 objects'],
  },
  {
    name: 'answers an expected value that holds Error with its own asymmetricMatch',
    files: wrong6('', `info: () => ({ asymmetricMatch: () => true })`),
    statuses: ALL_ERROR_6,
    flags: ['tampering.self_equality'],
    message: ['info', 'carries an asymmetricMatch method'],
  },
];

const CORRECT_CJS = {
  'solution.js': `class NegativeError extends RangeError {}
module.exports = {
  answer: () => 42, shape: () => ({ v: 42, list: [1, 2] }), set: () => new Set([2, 1]),
  notify: (cb) => cb({ v: 42 }), check: (n) => { if (n < 0) throw new NegativeError('negative input'); return n; },
  guess: (hint) => { for (let i = 0; i < 100; i++) if (hint(i)) return i; return -1; },
};`,
};
const CORRECT_ESM = {
  'solution.js': `import { NegativeError, range } from './errors';
const base = await Promise.resolve(40);
export const answer = () => base + 2;
export const shape = () => ({ v: 42, list: [1, 2] });
export function set() { return new Set(range(2)); }
export const notify = (cb) => cb({ v: 42 });
export const check = (n) => { if (n < 0) throw new NegativeError('negative input'); return n; };
export default function guess(hint) { for (let i = 0; i < 100; i++) if (hint(i)) return i; return -1; }
export { guess };`,
  'errors.js': `export class NegativeError extends RangeError {}
export const range = (n) => Array.from({ length: n }, (_, i) => i + 1);`,
};

describe.each(backends.map((b) => b.id))('verdicts the submission cannot reach (%s)', (backend: ProcessBackendId) => {
  const rubric = inlineRubric(TESTS);

  it('baseline: the wrong submission fails every test, no flag; correct CommonJS and ESM submissions pass every test', async () => {
    const [bad, cjs, esm] = await Promise.all([
      gradeInline(backend, rubric, wrong('')),
      gradeInline(backend, rubric, CORRECT_CJS),
      gradeInline(backend, rubric, CORRECT_ESM),
    ]);
    expect([statuses(bad), flagCodes(bad)]).toEqual([ALL_FAILED, []]);
    expect([statuses(cjs), flagCodes(cjs)]).toEqual([all('passed'), []]);
    expect([statuses(esm), flagCodes(esm)]).toEqual([all('passed'), []]);
  });

  for (const [label, cases] of [
    ['1 (harness state on extensible objects)', CLASS_1],
    ['2 (matchers running received code)', CLASS_2],
    ['3 (matcher state)', CLASS_3],
    ['4 (function introspection)', CLASS_4],
    ['5 (results-channel key)', CLASS_5],
  ] as const) {
    for (const c of cases) {
      it(`class ${label}: ${c.name}`, async () => {
        const r = await gradeInline(backend, rubric, c.files);
        expect([statuses(r), flagCodes(r)]).toEqual([c.statuses, c.flags]);
        if (c.message) expect(r.tests.find((t) => t.name === c.message?.[0])?.message).toContain(c.message[1]);
      });
    }
  }

  it('class 6–8 baseline: the wrong submission passes only the callback test and the intrinsic-constructors answer', async () => {
    const r = await gradeInline(backend, inlineRubric(TESTS_6), wrong6('', ''));
    expect([statuses(r), flagCodes(r)]).toEqual([BASELINE_6, []]);
  });
  for (const c of CLASS_6) {
    it(`class 6 (the constructors lockdown replaces): ${c.name}`, async () => {
      const r = await gradeInline(backend, inlineRubric(TESTS_6), c.files);
      expect([statuses(r), flagCodes(r)]).toEqual([c.statuses, c.flags]);
    });
  }
  for (const [label, c] of [
    ...CLASS_7.map((c) => ['7 (a value deciding whether .resolves asserts)', c] as const),
    ...CLASS_8.map((c) => ['8 (what the equality guard sees through)', c] as const),
  ]) {
    it(`class ${label}: ${c.name}`, async () => {
      const r = await gradeInline(backend, inlineRubric(TESTS_6, TESTS_7_SPEC), c.files);
      expect([statuses(r), flagCodes(r)]).toEqual([c.statuses, c.flags]);
      expect(r.tests.find((t) => t.name === c.message?.[0])?.message).toContain(c.message?.[1]);
    });
  }
});

// Class 9: the submission registering tests or blocks while a test file loads (an ES import reads its exports, a
// CommonJS test destructures them): `describe.only('', …)` there skipped every test of the file, unflagged.
const TESTS_9 = {
  's.test.js': `const { add, mul } = require('./solution');
describe('math', () => {
  test('adds', () => { expect(add(1, 2)).toBe(3); });
  test('multiplies', () => { expect(mul(2, 3)).toBe(6); });
});`,
  'e.test.mjs': `import { add } from './solution';\ntest('esm adds', () => { expect(add(2, 2)).toBe(4); });`,
};
const wrong9 = (call: string): Record<string, string> => ({
  'solution.js': `module.exports = {
  get add() { try { ${call} } catch (e) {} return (a, b) => a - b; },
  mul: (a, b) => a + b,
};`,
});
const FAILED_9 = { 'math > adds': 'failed', 'math > multiplies': 'failed', 'esm adds': 'failed' };
// Reported tampering makes the job untrusted: every test is an error, none is skipped or passed.
const ERROR_9 = { 'math > adds': 'error', 'math > multiplies': 'error', 'esm adds': 'error' };

describe.each(backends.map((b) => b.id))(
  'class 9: registration from the submission (%s)',
  (backend: ProcessBackendId) => {
    const rubric = inlineRubric(TESTS_9);
    it('baseline: the wrong submission fails every test, no flag', async () => {
      const r = await gradeInline(backend, rubric, wrong9(''));
      expect([statuses(r), flagCodes(r)]).toEqual([FAILED_9, []]);
    });
    for (const call of [
      "describe.only('', () => {});",
      "fdescribe('', () => {}); test.only('x', () => {});",
      "beforeEach(() => { throw new Error('skip'); }); it.skip('y', () => {});",
      "describe.skip.each([[1]])('z %i', () => {});",
    ]) {
      it(`is refused and reported, and no test is skipped: ${call}`, async () => {
        const r = await gradeInline(backend, rubric, wrong9(call));
        expect([statuses(r), flagCodes(r)]).toEqual([ERROR_9, ['tampering.registration']]);
      });
    }
  },
);

// Class 10 (red-team pass, 2026-11-23): values that decide through what the guard did not walk (inherited data, a
// kind claimed by Symbol.toStringTag or an inherited constructor, array methods shadowed, an iterable's items, a
// mock's recorded-call array, a look-alike jest.spyOn hands back, the submission's own expected value or class);
// an assertion made to fail and caught by the code under test; Jest's equality testers reached through a caught
// assertion error.
const TESTS_10 = {
  'x.test.js': `const s = require('./solution');
test('arrayContaining', () => { expect(s.primes(10)).toEqual(expect.arrayContaining([2, 3, 5, 7])); });
test('stringContaining', () => { expect(s.greet('Bob')).toEqual(expect.stringContaining('Hello, Bob')); });
test('property path', () => { expect(s.config()).toHaveProperty('db.port', 5432); });
test('contains equal', () => { expect(s.pairs()).toContainEqual([1, 2]); });
test('set', () => { expect(s.unique([1, 1, 2])).toEqual(new Set([1, 2])); });
test('arrayOf', () => { expect(s.evens(4)).toEqual(expect.arrayOf(expect.any(Number))); expect(s.evens(4)).toHaveLength(2); });
test('then chain', () => { expect.assertions(1); return s.fetchData().then((d) => { expect(d).toBe('peanut butter'); }); });
test('calls back', () => { const cb = jest.fn(); s.forEach([1, 2], cb); expect(cb).toHaveBeenCalledWith(2); });
test('spy delegates', () => { const spy = jest.spyOn(s, 'helper'); s.main(5); expect(spy).toHaveBeenCalledWith(10); });
test('numeric items', () => { s.each([1, 2], (x) => { expect(x).toEqual(expect.any(Number)); }); });
test('own class expected', () => { expect(s.add(new s.Vec(1, 2), new s.Vec(2, 2))).toEqual(new s.Vec(3, 4)); });
test('instance', () => { expect(s.makeCircle()).toBeInstanceOf(s.Shape); });
test('later value', () => { expect(s.answer()).toEqual(42); });
test('chained', () => s.load().then((v) => { expect(v).toBe(7); }));
test('match object', () => { expect(s.account(100)).toMatchObject({ balance: 100 }); });
test('has property', () => { expect({ owner: s.account(100) }).toHaveProperty('owner.balance', 100); });
test('object containing', () => { expect(s.account(100)).toEqual(expect.objectContaining({ balance: 100 })); });`,
};
const NAMES_10 = [
  'arrayContaining',
  'stringContaining',
  'property path',
  'contains equal',
  'set',
  'arrayOf',
  'then chain',
  'calls back',
  'spy delegates',
  'numeric items',
  'own class expected',
  'instance',
  'later value',
  'chained',
  'match object',
  'has property',
  'object containing',
];
const all10 = (status: string): Record<string, string> => Object.fromEntries(NAMES_10.map((n) => [n, status]));
const CORRECT_10 = {
  'solution.js': `class Vec { constructor(x, y) { this.x = x; this.y = y; } }
class Shape {}
class Circle extends Shape {}
class Account { constructor(b) { this._b = b; } get balance() { return this._b; } }
module.exports = {
  primes: () => [2, 3, 5, 7], greet: (n) => 'Hello, ' + n + '!', config: () => ({ db: { port: 5432 } }),
  pairs: () => new Set([[1, 2]]), unique: (a) => new Set(a), evens: () => [0, 2],
  fetchData: () => Promise.resolve('peanut butter'), forEach: (a, cb) => a.forEach((x) => cb(x)),
  helper: (x) => x * 2, main: (x) => module.exports.helper(x * 2), each: (a, cb) => a.forEach((x) => cb(x)),
  Vec, add: (a, b) => new Vec(a.x + b.x, a.y + b.y), Shape, makeCircle: () => new Circle(), answer: () => 42,
  load: async () => 7, account: (b) => new Account(b),
};`,
};
// Every function wrong; a case replaces some with its forgery (helpers: yes() votes "equal", own() adds a hidden method).
const wrong10 = (overrides = ''): Record<string, string> => ({
  'solution.js': `const yes = () => ({ asymmetricMatch: () => true });
const own = (o, k, v) => { Object.defineProperty(o, k, { value: v }); return o; };
class Vec { constructor(x, y) { this.x = x; this.y = y; } }
class Shape {}
class Account { constructor(b) { this._b = b; } get balance() { return this._b; } }
module.exports = Object.assign({
  primes: () => [1], greet: () => 'Hi', config: () => ({ db: { port: 1 } }), pairs: () => new Set([[0]]),
  unique: () => new Set([1]), evens: () => ['a', 'b'], fetchData: () => Promise.resolve('nope'), forEach: () => {},
  helper: (x) => x, main: () => 0, each: (a, cb) => cb('x'), Vec, add: () => new Vec(0, 0), Shape,
  makeCircle: () => ({}), answer: () => 41, load: async () => 6, account: (b) => new Account(b - 1),
}, { ${overrides} });`,
});
const CLASS_10: { name: string; overrides: string; statuses: Record<string, string>; flags: string[] }[] = [
  {
    name: 'a genuine array with its own some answers arrayContaining',
    overrides: "primes: () => own([1], 'some', () => true)",
    statuses: all10('error'),
    flags: ['tampering.self_equality'],
  },
  {
    name: 'an object claiming the String tag answers stringContaining',
    overrides: "greet: () => ({ [Symbol.toStringTag]: 'String', includes: () => true })",
    statuses: all10('error'),
    flags: ['tampering.self_equality'],
  },
  {
    name: 'inherited data carries an asymmetricMatch to toHaveProperty',
    overrides: 'config: () => ({ db: Object.create({ port: yes() }) })',
    statuses: all10('error'),
    flags: ['tampering.self_equality'],
  },
  {
    name: 'an iterable object yields what toContainEqual compares',
    overrides: 'pairs: () => ({ *[Symbol.iterator]() { yield yes(); } })',
    statuses: all10('error'),
    flags: ['tampering.self_equality'],
  },
  {
    name: 'a Set look-alike by an inherited constructor, size and iterator',
    overrides:
      'unique: () => Object.create({ constructor: Set, size: 2, has: () => true, *[Symbol.iterator]() { yield yes(); yield yes(); } })',
    statuses: all10('error'),
    flags: ['tampering.self_equality'],
  },
  {
    name: 'a genuine array with its own every answers arrayOf',
    overrides: "evens: () => own([1, 3], 'every', () => true)",
    statuses: all10('error'),
    flags: ['tampering.self_equality'],
  },
  {
    name: 'a thenable calls back the test with a wrong value, drops the failed assertion and resolves',
    overrides: "fetchData: () => ({ then(ok) { try { ok('nope'); } catch (e) {} return Promise.resolve(); } })",
    statuses: all10('failed'),
    flags: [],
  },
  {
    name: 'a plain thenable that never calls back: as under Jest, a test without expect.assertions passes (documented residual), one with it fails',
    overrides:
      'load: () => ({ then() { return Promise.resolve(); } }), fetchData: () => ({ then() { return Promise.resolve(); } })',
    statuses: { ...all10('failed'), chained: 'passed' },
    flags: [],
  },
  {
    name: 'a genuine promise carrying its own then that skips the callback',
    overrides: "load: () => Object.defineProperty(Promise.resolve(6), 'then', { value: () => Promise.resolve() })",
    statuses: all10('failed'),
    flags: [],
  },
  {
    name: "a class's getter answers what toMatchObject, toHaveProperty and objectContaining read",
    overrides: 'account: () => new (class { get balance() { return yes(); } })()',
    statuses: all10('error'),
    flags: ['tampering.self_equality'],
  },
  {
    name: 'a getter answers the first read with plain data and later ones with a vote (the harness reads it once, Jest reads that)',
    overrides:
      'account: () => { let reads = 0; return new (class { get balance() { return reads++ === 0 ? 99 : yes(); } })(); }',
    statuses: all10('failed'),
    flags: [],
  },
  {
    name: "the mock's recorded-call array is given its own some",
    overrides: "forEach: (a, cb) => { own(cb.mock.calls, 'some', () => true); }",
    statuses: all10('error'),
    flags: ['tampering.self_equality'],
  },
  {
    name: 'jest.spyOn hands back a mock look-alike',
    overrides:
      "helper: Object.assign(() => 0, { _isMockFunction: true, getMockName: () => 'helper', mock: { calls: own([[0]], 'some', () => true), results: [] } })",
    statuses: all10('error'),
    flags: ['tampering.self_equality'],
  },
  {
    name: "plants an equality tester through a caught assertion error's matcherResult",
    overrides:
      "each: (a, cb) => { try { cb('x'); } catch (e) { try { e.matcherResult.expected.getMatcherContext().customTesters.push(() => true); } catch {} } }",
    statuses: all10('error'),
    flags: ['tampering.canary', 'tampering.intrinsics'],
  },
  {
    name: 'an expected value of its own class does not stop the received value being checked',
    overrides: 'add: () => yes()',
    statuses: all10('error'),
    flags: ['tampering.self_equality'],
  },
  {
    name: 'its class answers instanceof itself',
    overrides: 'Shape: class { static [Symbol.hasInstance]() { return true; } }',
    statuses: all10('error'),
    flags: ['tampering.self_equality'],
  },
];

describe.each(backends.map((b) => b.id))(
  'class 10: what the guard and the runner see through (%s)',
  (backend: ProcessBackendId) => {
    // A test that never settles times out in 1.5 s of its own time.
    const rubric = inlineRubric(TESTS_10, { limits: { test_timeout_ms: 1500 } });
    it('baseline: a correct submission passes every test; the wrong one fails every test; no flag', async () => {
      const [good, bad] = await Promise.all([
        gradeInline(backend, rubric, CORRECT_10),
        gradeInline(backend, rubric, wrong10()),
      ]);
      expect([statuses(good), flagCodes(good)]).toEqual([all10('passed'), []]);
      expect([statuses(bad), flagCodes(bad)]).toEqual([all10('failed'), []]);
    });
    for (const c of CLASS_10) {
      it(c.name, async () => {
        const r = await gradeInline(backend, rubric, wrong10(c.overrides));
        expect([statuses(r), flagCodes(r)]).toEqual([c.statuses, c.flags]);
      });
    }
    it('a test whose assertion the code under test made fail and caught says so', async () => {
      const r = await gradeInline(backend, rubric, wrong10("each: (a, cb) => { try { cb('x'); } catch {} }"));
      expect([statuses(r), flagCodes(r)]).toEqual([all10('failed'), []]);
      const message = r.tests.find((t) => t.name === 'numeric items')?.message;
      expect(message).toContain('An assertion failed, but its error was caught');
      expect(message).toContain('Any<Number>');
      // A thenable of the submission's calls the test's callback with a wrong value and drops the failure: the same.
      const chained = await gradeInline(backend, rubric, wrong10(CLASS_10[6]?.overrides));
      const thenMessage = chained.tests.find((t) => t.name === 'then chain')?.message;
      expect(thenMessage).toContain('An assertion failed, but its error was caught');
      expect(thenMessage).toContain('peanut butter');
    });
  },
);

// Class 10, second red-team pass (2026-11-23, on the class 10 fixes): getters on an Error or Map subclass (values the
// first fix did not copy), a genuine promise whose species builds what `then` returns, node:assert failures dropped by
// the code under test; and a hand-written promise class, which must keep its own `then`.
const TESTS_10B = {
  'y.test.js': `const assert = require('node:assert');
const s = require('./solution');
test('error fields', () => { expect(s.validate(-1)).toMatchObject({ code: 'E_NEG', field: 'age' }); });
test('rejects fields', async () => { await expect(s.load(-1)).rejects.toMatchObject({ code: 'E_NEG' }); });
test('throws containing', () => { expect(() => s.check(-1)).toThrow(expect.objectContaining({ code: 'E_NEG' })); });
test('map size', () => { expect(s.cache()).toHaveProperty('size', 2); });
test('species chain', () => s.fetchData().then((d) => { expect(d).toBe('peanut butter'); }));
test('assert in callback', () => { const seen = []; s.myForEach(['a', 'b'], (v, i) => { seen.push(i); assert.strictEqual(v, ['a', 'b'][i]); }); assert.deepStrictEqual(seen, [0, 1]); });
test('own promise class', () => { const p = new s.MyPromise((r) => r(1)); expect(p.then((v) => v)).toBeInstanceOf(s.MyPromise); });
test('string containing', () => { expect(s.greet('Bob')).toEqual(expect.stringContaining('Hello, Bob')); });`,
};
const NAMES_10B = [
  'error fields',
  'rejects fields',
  'throws containing',
  'map size',
  'species chain',
  'assert in callback',
  'own promise class',
  'string containing',
];
const all10b = (status: string): Record<string, string> => Object.fromEntries(NAMES_10B.map((n) => [n, status]));
const solution10b = (errCode: string, overrides = ''): Record<string, string> => ({
  'solution.js': `const yes = () => ({ asymmetricMatch: () => true });
class VErr extends Error { constructor(m) { super(m); this.code = '${errCode}'; this.field = 'age'; } }
class MyPromise {
  constructor(ex) { ex((v) => { this.v = v; }); }
  then(f) { return new MyPromise((r) => r(f(this.v))); }
}
module.exports = Object.assign({
  validate: () => new VErr('negative'), load: async () => { throw new VErr('negative'); }, check: () => { throw new VErr('negative'); },
  cache: () => new Map([[1, 1], [2, 2]]), fetchData: () => Promise.resolve('peanut butter'),
  myForEach: (a, f) => a.forEach((v, i) => f(v, i)), MyPromise, greet: (n) => 'Hello, ' + n + '!',
}, ${errCode === 'E_NEG' ? '{}' : `{ cache: () => new Map([[1, 1]]), fetchData: () => Promise.resolve('nope'), myForEach: (a, f) => a.forEach((v, i) => f('z', i)), MyPromise: class { then() { return {}; } }, greet: () => 'Hi' }`}, { ${overrides} });`,
});
const CLASS_10B: { name: string; overrides: string; statuses: Record<string, string>; flags: string[] }[] = [
  {
    name: 'getters of an Error subclass answer toMatchObject, .rejects.toMatchObject and toThrow(objectContaining)',
    overrides:
      "...(() => { class VE extends Error { get code() { return yes(); } get field() { return yes(); } } return { validate: () => new VE('x'), load: async () => { throw new VE('x'); }, check: () => { throw new VE('x'); } }; })()",
    statuses: all10b('error'),
    flags: ['tampering.self_equality'],
  },
  {
    name: "a Map subclass's size getter answers toHaveProperty",
    overrides: 'cache: () => new (class extends Map { get size() { return yes(); } })()',
    statuses: all10b('error'),
    flags: ['tampering.self_equality'],
  },
  {
    name: "a promise whose species builds then's result: the test's callback is skipped",
    overrides:
      "fetchData: () => { const p = new Promise(() => {}); Object.defineProperty(p, 'constructor', { value: { [Symbol.species]: function (ex) { ex(() => {}, () => {}); return Promise.resolve(); } } }); return p; }",
    statuses: { ...all10b('failed'), 'species chain': 'timeout' },
    flags: [],
  },
  {
    name: 'a String object with its own includes answers stringContaining',
    overrides: "greet: () => Object.defineProperty(new String('nope'), 'includes', { value: () => true })",
    statuses: all10b('error'),
    flags: ['tampering.self_equality'],
  },
  {
    name: 'a node:assert failure in a callback the submission runs is caught and dropped',
    overrides: 'myForEach: (a, f) => { for (let i = 0; i < a.length; i++) try { f(7, i); } catch (e) {} }',
    statuses: all10b('failed'),
    flags: [],
  },
];

describe.each(backends.map((b) => b.id))('class 10, second pass (%s)', (backend: ProcessBackendId) => {
  const rubric = inlineRubric(TESTS_10B, { limits: { test_timeout_ms: 1500 } });
  it('baseline: a correct submission (its own promise class included) passes every test, the wrong one fails every test', async () => {
    const [good, bad] = await Promise.all([
      gradeInline(backend, rubric, solution10b('E_NEG')),
      gradeInline(backend, rubric, solution10b('E_POS')),
    ]);
    expect([statuses(good), flagCodes(good)]).toEqual([all10b('passed'), []]);
    expect([statuses(bad), flagCodes(bad)]).toEqual([all10b('failed'), []]);
  });
  it('no false alarm: custom matchers (expect.extend), a toStringTag getter, an Array subclass overriding push and toString, /tmp round trips', async () => {
    const tests = {
      'h.test.js': `const s = require('./solution');
expect.extend({ toBeEven(x) { return { pass: x % 2 === 0, message: () => x + ' is odd' }; } });
test('custom matcher', () => { expect(s.double(3)).toBeEven(); });
test('tagged class', () => { expect(s.vec(1, 2)).toEqual(s.vec(1, 2)); expect(String(s.vec(1, 2))).toBe('[object Vec]'); });
test('array subclass', () => { const st = s.stack(); st.push(1); expect(st).toEqual([1]); expect([...st]).toContain(1); });
test('tmp file', () => { expect(s.roundTrip('hi')).toBe('hi'); });`,
    };
    const good = `const fs = require('fs');
class Vec { constructor(x, y) { this.x = x; this.y = y; } get [Symbol.toStringTag]() { return 'Vec'; } }
class Stack extends Array { push(...a) { return super.push(...a); } toString() { return 'Stack'; } }
module.exports = { double: (n) => n * 2, vec: (x, y) => new Vec(x, y), stack: () => new Stack(),
  roundTrip: (t) => { const f = '/tmp/evigrade-' + Math.random(); try { fs.writeFileSync(f, t); return fs.readFileSync(f, 'utf8'); } catch (e) { return e.code === 'EACCES' ? t : e.code; } } };`;
    const r = await gradeInline(backend, inlineRubric(tests), { 'solution.js': good });
    expect([statuses(r), flagCodes(r)]).toEqual([
      { 'custom matcher': 'passed', 'tagged class': 'passed', 'array subclass': 'passed', 'tmp file': 'passed' },
      ['policy.fs'], // the static policy notes the file-system use; nothing of tampering
    ]);
  });
  for (const c of CLASS_10B) {
    it(c.name, async () => {
      const r = await gradeInline(backend, rubric, solution10b('E_POS', c.overrides));
      expect([statuses(r), flagCodes(r)]).toEqual([c.statuses, c.flags]);
    });
  }
});

// Red-team pass on the sixth speed pass (lockdown() in the snapshot's builder, es2023.cjs, a kept /proc descriptor):
// each case forged a pass before its fix, on every backend.
describe.each(backends.map((b) => b.id))(
  'class 11: what the start-up snapshot change opened (%s)',
  (backend: ProcessBackendId) => {
    it('a slow submission cannot switch per-test timeouts off by swapping the descriptor the harness reads its waits from', async () => {
      const tests = {
        'speed.test.js': `const s = require('./solution');
test('answers within 1 s', async () => { expect(await s.compute()).toBe(42); }, 1000);
test('again within 1 s', async () => { expect(await s.compute()).toBe(42); }, 1000);`,
      };
      // Each answer takes 2.5 s. Before the fix the harness kept /proc/self/schedstat open: the submission closed that
      // descriptor and reopened one of its own files (the lowest free number: the same one), reading back a wait of
      // 10^12 ns, so each test's own time came out negative and it passed.
      const attack = `const fs = process.getBuiltinModule(['f', 's'].join(''));
let fd = -1, n = 0;
function find() {
  const b = Buffer.alloc(64);
  for (let i = 3; i < 128; i++) {
    try {
      const st = fs.fstatSync(i);
      if (!st.isFile() || st.size !== 0) continue;
      const k = fs.readSync(i, b, 0, 64, 0);
      if (/^\\d+ \\d+ \\d+\\n$/.test(b.toString('latin1', 0, k))) return i;
    } catch {}
  }
  return -1;
}
function swap() { if (fd < 0) fd = find(); if (fd < 0) return; fs.closeSync(fd); n += 1; fs.openSync(__dirname + '/c' + n + '.txt', 'r'); }
exports.compute = () => { try { swap(); } catch {} return new Promise((r) => setTimeout(() => r(42), 2500)); };`;
      const clocks = Object.fromEntries([1, 2, 3, 4].map((i) => [`c${i}.txt`, `0 ${i}000000000000 0\n`]));
      const r = await gradeInline(backend, inlineRubric(tests), { 'solution.js': attack, ...clocks });
      expect(statuses(r)).toEqual({ 'answers within 1 s': 'timeout', 'again within 1 s': 'timeout' });
    });

    it("a submission cannot read a hidden test callback's source through an ES2023 method's error message", async () => {
      const tests = {
        'user.test.js': `const s = require('./solution');
test('looks a user up', (done) => {
  s.lookUp(7, (err, user) => {
    expect(err).toBeNull();
    expect(user).toEqual({ id: 7, name: 'Grace Hopper', roles: ['admin', 'author'] });
    done();
  });
});`,
      };
      // [].with(cb) names its bad index in a RangeError; es2023.cjs printed a function with the original
      // Function.prototype.toString, not the one that hides the tests' code, so the expected value could be read back.
      const attack = `exports.lookUp = (id, cb) => {
  let src = '';
  try { [].with(cb); } catch (e) { src = e.message.slice('Invalid index : '.length); }
  const m = /toEqual\\(([\\s\\S]*?)\\);\\s*done/.exec(src);
  cb(null, m ? JSON.parse(m[1].replace(/'/g, '"').replace(/(\\w+):/g, '"$1":')) : { id, src });
};`;
      const r = await gradeInline(backend, inlineRubric(tests), { 'solution.js': attack });
      expect([statuses(r), flagCodes(r)]).toEqual([{ 'looks a user up': 'failed' }, []]);
      expect(r.tests[0]?.message).toContain('function () { [hidden test code] }');
    });
  },
);

describe.each(backends.map((b) => b.id))('the built-ins a submission may load (%s)', (backend: ProcessBackendId) => {
  const probe = `const tryLoad = (n) => { try { return typeof require(n); } catch (e) { return 'refused'; } };
exports.answer = () => 42;
exports.loads = () => ['node:vm', 'worker_threads', 'node:async_hooks', 'perf_hooks', 'stream/web', 'node:path', 'process'].map(tryLoad);`;
  const run = async (granted: string[] | undefined): Promise<{ loads: unknown; events: string[] }> => {
    // The test reports what loaded through its failure message.
    const spy = `const s = require('./solution');\ntest('loads', () => { throw new Error(JSON.stringify(s.loads())); });`;
    const r = await gradeInline(backend, inlineRubric({ 'b.test.js': spy }, granted ? { builtins: granted } : {}), {
      'solution.js': probe,
    });
    const msg = r.tests[0]?.message ?? '';
    return {
      loads: JSON.parse(msg.slice(msg.indexOf('['), msg.lastIndexOf(']') + 1)),
      events: r.sandbox.violations.filter((v) => v.event === 'blocked_module').map((v) => v.detail),
    };
  };

  it('refuses and reports what reaches the harness, refuses ungranted built-ins, and loads what the rubric grants', async () => {
    expect(await run(undefined)).toEqual({
      loads: ['refused', 'refused', 'refused', 'refused', 'refused', 'object', 'object'],
      events: ['blocked module: node:vm', 'blocked module: worker_threads', 'blocked module: node:async_hooks'],
    });
    expect((await run(['perf_hooks', 'stream/web'])).loads).toEqual([
      'refused',
      'refused',
      'refused',
      'object',
      'object',
      'object',
      'object',
    ]);
  });
});

it('a rubric cannot grant a built-in that reaches the harness', () => {
  expect(() => inlineRubric({ 'a.test.js': 'test("x", () => {});' }, { builtins: ['perf_hooks', 'vm'] })).toThrow(
    /builtins\.1/,
  );
});
