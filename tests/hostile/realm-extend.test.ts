// Custom matchers from `expect.extend` are asymmetric matchers too, as in Jest: `expect.toBeWithinRange(1, 10)` and
// `expect.not.toBeWithinRange(1, 10)` inside toEqual, the mock-call matchers, objectContaining and arrayContaining.
// The tests' `expect` offers them branded (sandbox/harness/jest-api.cjs), so Jest's equality counts them
// (asymmetric-gate.cjs). Real Jest's verdicts and messages are not written down here: tests/fakes/plain-jest.cjs runs
// the same file with Jest's own `expect`. The hostile half: a submission handed such a matcher (or a mock, or a
// built-in matcher) walks everything it can reach from it and never finds `expect`, `expect.extend` or a factory, and
// what it makes from the matcher it holds never counts, on every isolating backend.
import { describe, expect, it } from 'vitest';
import type { ProcessBackendId } from '../../src/adapters/sandbox/registry.js';
import type { Report } from '../../src/domain/report.js';
import {
  firstBackend,
  flagCodes,
  gradeInline,
  inlineRubric,
  isolatingBackends,
  plainJestMessages,
  statuses,
} from '../helpers.js';

const SOLUTION = `exports.score = (n) => n * 10;
exports.stats = (xs) => ({ min: Math.min(...xs), max: Math.max(...xs), count: xs.length, label: 'stats' });
exports.each = (xs, cb) => xs.forEach((x, i) => cb(x * 2, { index: i }));
exports.squares = (n) => Array.from({ length: n }, (_, i) => i * i);
`;

const MATCHERS = `expect.extend({
  toBeWithinRange(received, floor, ceiling) {
    const pass = typeof received === 'number' && received >= floor && received <= ceiling;
    return { pass, message: () => 'expected ' + this.utils.printReceived(received) + (pass ? ' not' : '') + ' to be within range ' + floor + ' - ' + ceiling };
  },
  toBeEvenNumber(received) {
    return { pass: typeof received === 'number' && received % 2 === 0, message: () => 'expected ' + received + ' to be even' };
  },
});`;

const AGREEMENT_TESTS = `const s = require('./solution');
${MATCHERS}
test('symmetric use', () => { expect(s.score(3)).toBeWithinRange(0, 50); expect(s.score(3)).not.toBeWithinRange(0, 5); });
test('toEqual a custom matcher', () => { expect(s.score(2)).toEqual(expect.toBeWithinRange(10, 30)); });
test('toEqual a custom matcher, wrong', () => { expect(s.score(9)).toEqual(expect.toBeWithinRange(10, 30)); });
test('toEqual inside an object', () => { expect(s.stats([4, 1, 8])).toEqual({ min: expect.toBeWithinRange(0, 2), max: expect.toBeEvenNumber(), count: 3, label: 'stats' }); });
test('toEqual inside an object, wrong', () => { expect(s.stats([4, 1, 8])).toEqual({ min: expect.toBeWithinRange(2, 3), max: 8, count: 3, label: 'stats' }); });
test('toStrictEqual inside an array', () => { expect(s.squares(3)).toStrictEqual([0, expect.toBeWithinRange(1, 1), expect.toBeEvenNumber()]); });
test('not form', () => { expect(s.score(7)).toEqual(expect.not.toBeWithinRange(0, 10)); expect(s.stats([3])).toEqual(expect.objectContaining({ max: expect.not.toBeEvenNumber() })); });
test('not form, wrong', () => { expect(s.score(1)).toEqual(expect.not.toBeWithinRange(0, 10)); });
test('negated matcher around a custom one', () => { expect(s.score(1)).not.toEqual(expect.toBeWithinRange(20, 30)); });
test('negated matcher around a custom one, wrong', () => { expect(s.score(1)).not.toEqual(expect.toBeWithinRange(0, 30)); });
test('objectContaining', () => { expect(s.stats([5, 10])).toEqual(expect.objectContaining({ min: expect.toBeWithinRange(4, 6), max: expect.toBeEvenNumber() })); });
test('objectContaining, wrong', () => { expect(s.stats([5, 11])).toEqual(expect.objectContaining({ max: expect.toBeEvenNumber() })); });
test('arrayContaining', () => { expect(s.squares(5)).toEqual(expect.arrayContaining([expect.toBeWithinRange(15, 17), expect.toBeWithinRange(0, 0)])); });
test('arrayContaining, wrong', () => { expect(s.squares(3)).toEqual(expect.arrayContaining([expect.toBeWithinRange(5, 8)])); });
test('not.arrayContaining', () => { expect(s.squares(3)).toEqual(expect.not.arrayContaining([expect.toBeWithinRange(5, 8)])); });
test('toHaveBeenCalledWith', () => { const cb = jest.fn(); s.each([1, 2], cb); expect(cb).toHaveBeenCalledWith(expect.toBeWithinRange(1, 2), expect.objectContaining({ index: expect.toBeEvenNumber() })); });
test('toHaveBeenCalledWith, wrong', () => { const cb = jest.fn(); s.each([1, 2], cb); expect(cb).toHaveBeenCalledWith(expect.toBeWithinRange(5, 9), expect.anything()); });
test('toHaveBeenLastCalledWith a not form', () => { const cb = jest.fn(); s.each([1, 2], cb); expect(cb).toHaveBeenLastCalledWith(expect.not.toBeWithinRange(0, 3), { index: 1 }); });
test('toHaveReturnedWith', () => { const f = jest.fn(s.score); f(4); expect(f).toHaveReturnedWith(expect.toBeWithinRange(39, 41)); });
test('toMatchObject and toHaveProperty', () => { expect(s.stats([2, 6])).toMatchObject({ max: expect.toBeEvenNumber() }); expect(s.stats([2, 6])).toHaveProperty('min', expect.toBeWithinRange(1, 2)); });
test('toMatchObject, wrong', () => { expect(s.stats([2, 7])).toMatchObject({ max: expect.toBeEvenNumber(), label: 'stats' }); });
test('a refused matcher: the ones before it are offered, as in Jest', () => {
  expect(() => expect.extend({ toBeSmall: (x) => ({ pass: x < 5, message: () => 'big' }), broken: 1 })).toThrow('not a valid matcher');
  expect({ v: 3 }).toEqual({ v: expect.toBeSmall() });
  expect(typeof expect.broken).toBe('undefined');
});
test('extended again under the same name', () => {
  expect.extend({ toBeEvenNumber(received) { return { pass: received === 'even', message: () => 'not even' }; } });
  expect({ v: 'even' }).toEqual({ v: expect.toBeEvenNumber() });
});
`;

const ownMessage = (r: Report, name: string): string => r.tests.find((t) => t.name === name)?.message ?? '';

describe('custom matchers are asymmetric matchers too: the harness agrees with real Jest', () => {
  it('gets real Jest verdict and message for each test, with no flag', async () => {
    const files = { 'extend.test.js': AGREEMENT_TESTS, 'solution.js': SOLUTION };
    const jest = plainJestMessages('extend.test.js', files);
    const jestStatuses = Object.fromEntries(Object.entries(jest).map(([n, v]) => [n, v.status]));
    // Only worth its name if Jest both passes and fails some of it.
    expect(new Set(Object.values(jestStatuses))).toEqual(new Set(['passed', 'failed']));
    const r = await gradeInline(await firstBackend(), inlineRubric({ 'extend.test.js': AGREEMENT_TESTS }), {
      'solution.js': SOLUTION,
    });
    expect([statuses(r), flagCodes(r)]).toEqual([jestStatuses, []]);
    const failing = Object.keys(jest).filter((n) => jest[n]?.status === 'failed');
    // The report's message is the error as thrown (`Error: ` and Jest's message), then where it was thrown.
    const theirs = failing.map((n) => [n, `Error: ${jest[n]?.message}`]);
    expect(failing.map((n, i) => [n, ownMessage(r, n).slice(0, theirs[i]?.[1]?.length)])).toEqual(theirs);
  });
});

// What a test hands the submission: a custom matcher and its not form, a built-in one, a mock.
const HELD = `const held = () => ({ custom: expect.toBeWithinRange(40, 44), negated: expect.not.toBeWithinRange(0, 1),
  any: expect.any(String), containing: expect.objectContaining({ a: 1 }), mock: jest.fn() });`;
const HOSTILE_TESTS = {
  'hostile.test.js': `const s = require('./solution');
${MATCHERS}
${HELD}
test('reach', () => {
  const reached = s.reach(held());
  const own = (o) => [o, Object.getPrototypeOf(o), ...Object.values(o)];
  const api = [globalThis, ...own(expect), ...own(expect.not), expect.toBeWithinRange, expect.toBeEvenNumber, expect.not.toBeWithinRange, expect.not.toBeEvenNumber];
  expect([reached.length > 100, reached.filter((v) => api.includes(v)).length]).toEqual([true, 0]);
});
test('globals', () => { expect(s.globals()).toEqual({ expect: 'undefined', jest: 'undefined', matchers: 'undefined', harness: 'undefined', modules: 'refused' }); });
test('constructor', () => { expect(s.constructed(held())).toEqual({ v: 42 }); });
test('prototype', () => { expect(s.inherited(held())).toEqual({ v: 42 }); });
test('copy', () => { expect(s.copied(held())).toEqual({ v: 42 }); });
test('control', () => { expect(s.control(held())).toEqual({ v: 42 }); });`,
};

// Everything reachable from what the test handed over: own properties (getters read), prototypes, and what every
// function that is not the platform's returns when called with no argument (as a method and as a constructor).
const REACH = `exports.reach = (root) => {
  const seen = new Set();
  const todo = [root];
  while (todo.length > 0 && seen.size < 20000) {
    const v = todo.pop();
    if (v === null || (typeof v !== 'object' && typeof v !== 'function') || seen.has(v)) continue;
    seen.add(v);
    todo.push(Object.getPrototypeOf(v));
    for (const k of Reflect.ownKeys(v)) {
      try { todo.push(Reflect.get(v, k)); } catch {}
      const d = Object.getOwnPropertyDescriptor(v, k);
      if (d) todo.push(d.get, d.set);
      if (d && typeof d.value === 'function' && !Function.prototype.toString.call(d.value).includes('[native code]')) {
        try { todo.push(Reflect.apply(d.value, v, [])); } catch {}
        try { todo.push(Reflect.construct(d.value, [])); } catch {}
      }
    }
  }
  return [...seen];
};
exports.globals = () => {
  let modules = 'refused';
  for (const m of ['expect', '@jest/globals', 'vitest', '@jest/expect', 'jest-mock']) {
    try { require(m); modules = 'loaded ' + m; } catch {}
  }
  return {
    expect: typeof globalThis.expect, jest: typeof globalThis.jest,
    matchers: typeof globalThis[Symbol.for('$$jest-matchers-object')], harness: typeof globalThis[Symbol.for('evigrade.jest')], modules,
  };
};`;
// Matchers made from the one the test handed over, each answering "42 matches": if one counted, its test would pass, as
// the control (the handed matcher itself, which the test made) does.
const MINTS = `const mints = {
  control: (h) => h.custom,
  constructed: (h) => new h.custom.constructor(true, 0, 1),
  inherited: (h) => Object.assign(Object.create(h.custom), { sample: [0, 100] }),
  copied: (h) => Object.assign(Object.create(Object.getPrototypeOf(h.any)), h.any, { sample: Number }),
};`;

interface MintCase {
  name: string;
  solution: string;
  statuses: Record<string, string>;
  flags: string[];
}
const MINT_CASES: MintCase[] = [
  {
    name: 'matchers made from a handed custom or built-in matcher, returned as the answer: the guard sees a matcher no test made, and the job is untrusted',
    solution: `${REACH}\n${MINTS}\nfor (const [k, f] of Object.entries(mints)) exports[k] = (h) => ({ v: f(h) });`,
    statuses: {
      reach: 'error',
      globals: 'error',
      constructor: 'error',
      prototype: 'error',
      copy: 'error',
      control: 'error',
    },
    flags: ['tampering.self_equality'],
  },
  {
    name: 'the same matchers planted on the answer while Jest compares it (a Symbol.toStringTag getter): they do not count, each fails (no flag)',
    solution: `${REACH}\n${MINTS}
const planted = (m) => { class Box { constructor() { this.v = 1; } get [Symbol.toStringTag]() { this.v = m; return 'Object'; } } return new Box(); };
for (const [k, f] of Object.entries(mints)) exports[k] = (h) => planted(f(h));`,
    statuses: {
      reach: 'passed',
      globals: 'passed',
      constructor: 'failed',
      prototype: 'failed',
      copy: 'failed',
      control: 'passed',
    },
    flags: [],
  },
];

const backends = (await isolatingBackends()).filter((b) => b.ok);
describe.each(backends.map((b) => b.id))(
  'a submission handed a custom matcher cannot mint one (%s)',
  (backend: ProcessBackendId) => {
    it.each(MINT_CASES)('$name', async (c) => {
      const r = await gradeInline(backend, inlineRubric(HOSTILE_TESTS), { 'solution.js': c.solution });
      expect([statuses(r), flagCodes(r)]).toEqual([c.statuses, c.flags]);
    });
  },
);

// expect.extend and expect.addEqualityTesters take the watched state anew (the registry, the testers): a change the
// submission made before them (a tester pushed through a handed matcher's getMatcherContext(), saying "41 equals 42"
// and nothing else, so no canary sees it) must be seen first, not taken along.
const LAUNDER_TESTS = {
  extend: `const s = require('./solution');
test('extend', () => { s.touch(expect.anything()); expect.extend({ toBeAnswer: (x) => ({ pass: x === 42, message: () => 'no' }) }); expect(s.answer()).toEqual(42); });`,
  testers: `const s = require('./solution');
test('testers', () => { s.touch(expect.anything()); expect.addEqualityTesters([]); expect(s.answer()).toEqual(42); });`,
};
const LAUNDER = `exports.touch = (m) => { m.getMatcherContext().customTesters.push((a, b) => (a === 41 && b === 42 ? true : undefined)); };
exports.answer = () => 41;`;

describe.each(backends.map((b) => b.id))(
  'extend and addEqualityTesters launder nothing (%s)',
  (backend: ProcessBackendId) => {
    it.each(Object.keys(LAUNDER_TESTS))('a tester pushed before %s is seen, and the job is untrusted', async (name) => {
      const tests = { 'launder.test.js': LAUNDER_TESTS[name as keyof typeof LAUNDER_TESTS] };
      const r = await gradeInline(backend, inlineRubric(tests), { 'solution.js': LAUNDER });
      expect([statuses(r), flagCodes(r)]).toEqual([{ [name]: 'error' }, ['tampering.intrinsics']]);
    });
  },
);

// The objects expect.extend adds factories to are not frozen: integrity.cjs watches them, their prototypes too. Only
// test code holds them; here it plays the attacker, to show a change outside expect.extend is seen at the next expect().
const HOLDER_TESTS: Record<string, string> = {
  'a factory added': `Object.getPrototypeOf(expect).toBeAnything = () => ({ asymmetricMatch: () => true });`,
  'a not factory added': `Object.getPrototypeOf(expect.not).toBeAnything = () => ({ asymmetricMatch: () => true });`,
  'a prototype swapped': `Object.setPrototypeOf(Object.getPrototypeOf(expect), Object.create(Function.prototype, { toBeAnything: { value: () => 1 } }));`,
};
describe('the holders of custom factories are watched', () => {
  it.each(Object.keys(HOLDER_TESTS))('%s outside expect.extend: tampering', async (name) => {
    const tests = { 'holder.test.js': `test('t', () => { ${HOLDER_TESTS[name]} expect(1).toBe(1); });` };
    const r = await gradeInline(await firstBackend(), inlineRubric(tests), { 'solution.js': 'exports.x = 1;' });
    expect([statuses(r), flagCodes(r)]).toEqual([{ t: 'error' }, ['tampering.intrinsics']]);
  });
});
