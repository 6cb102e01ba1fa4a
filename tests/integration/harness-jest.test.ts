// Jest semantics inside the sandbox harness, through the real pipeline.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ProcessBackendId } from '../../src/adapters/sandbox/registry.js';
import { gradeInline, inlineRubric, firstBackend, statuses } from '../helpers.js';

let backend: ProcessBackendId;
beforeAll(async () => {
  backend = await firstBackend();
});

const ESM_SOLUTION = 'export const add = (a, b) => a + b;\nexport const wrong = () => 41;\n';
const CJS_SOLUTION = 'module.exports = { add: (a, b) => a + b, wrong: () => 41 };\n';

describe('Jest-style test files', () => {
  it('names tests by describe path, keeps file order, and runs each/skip/todo/only semantics', async () => {
    const spec = `import { describe, expect, test, xtest } from '@jest/globals';
import { add, wrong } from './solution';
describe('math', () => {
  test('adds', () => { expect(add(1, 2)).toBe(3); });
  test.each([[1, 1, 2], [2, 2, 5]])('add(%i, %i) = %i', (a, b, c) => { expect(add(a, b)).toBe(c); });
  test.each\`
    a | b | sum
    \${1} | \${2} | \${3}
  \`('template $a + $b', ({ a, b, sum }) => { expect(add(a, b)).toBe(sum); });
  describe('nested', () => {
    test('wrong answer', () => { expect(wrong()).toBe(42); });
    xtest('skipped', () => { throw new Error('never'); });
    test.todo('later');
  });
  test('adds', () => { expect(add(0, 0)).toBe(1); });
});`;
    const r = await gradeInline(backend, inlineRubric({ 'math.test.js': spec }), { 'solution.js': ESM_SOLUTION });
    expect(r.tests.map((t) => [t.id, t.name, t.status])).toEqual([
      ['T1', 'math > adds', 'passed'],
      ['T2', 'math > add(1, 1) = 2', 'passed'],
      ['T3', 'math > add(2, 2) = 5', 'failed'],
      ['T4', 'math > template 1 + 2', 'passed'],
      ['T5', 'math > nested > wrong answer', 'failed'],
      ['T6', 'math > nested > skipped', 'skipped'],
      ['T7', 'math > nested > later', 'skipped'],
      ['T8', 'math > adds', 'failed'],
    ]);
    expect(r.tests[4]?.message).toContain('Expected: 42');
    expect(r.tests[4]?.message).toContain('Received: 41');
    // Clean two-line solution: style and complexity measure 10, credited × 0.5 (half the tests pass, quality: scaled).
    expect(r.scores.deterministic).toEqual({ correctness: 5, edge_cases: null, style: 5, complexity: 5, total: 5 });
  });

  it('honours .only: other tests in the file are skipped', async () => {
    const spec = `test('a', () => {}); test.only('b', () => {}); describe.only('c', () => { test('d', () => {}); });`;
    const r = await gradeInline(backend, inlineRubric({ 'only.test.js': spec }), { 'solution.js': ESM_SOLUTION });
    expect(statuses(r)).toEqual({ a: 'skipped', b: 'passed', 'c > d': 'passed' });
  });

  it('runs hooks in Jest order and fails the tests a failing beforeEach guards', async () => {
    const spec = `const log = [];
beforeAll(() => log.push('ba'));
beforeEach(() => log.push('be'));
afterEach(() => log.push('ae'));
describe('inner', () => {
  beforeEach(() => log.push('ibe'));
  afterEach(() => log.push('iae'));
  test('first', () => { log.push('t1'); });
});
test('order', () => { expect(log).toEqual(['ba', 'be', 'ibe', 't1', 'iae', 'ae', 'be']); });
describe('broken hook', () => {
  beforeEach(() => { throw new Error('hook exploded'); });
  test('guarded', () => {});
});`;
    const r = await gradeInline(backend, inlineRubric({ 'hooks.test.js': spec }), { 'solution.js': ESM_SOLUTION });
    expect(statuses(r)).toEqual({ 'inner > first': 'passed', order: 'passed', 'broken hook > guarded': 'failed' });
    expect(r.tests[2]?.message).toContain('hook exploded');
  });

  it('handles async tests, done callbacks, per-test timeouts and expect.assertions like Jest', async () => {
    const spec = `const { add } = require('./solution');
test('async ok', async () => { await new Promise((r) => setTimeout(r, 5)); expect(add(1, 1)).toBe(2); });
test('async rejects', async () => { await Promise.reject(new Error('nope')); });
test('done ok', (done) => { setTimeout(() => done(), 5); });
test('done with error', (done) => { setTimeout(() => done(new Error('bad')), 5); });
test('slow', () => new Promise((r) => setTimeout(r, 2000)), 100);
test('never settles', () => new Promise(() => {}), 150);
test('assertions counted', () => { expect.assertions(2); expect(1).toBe(1); });
test('resolves matcher', async () => { await expect(Promise.resolve(3)).resolves.toBe(3); });
test('uncaught in timer', (done) => { setTimeout(() => { throw new Error('boom in timer'); }, 5); });
test('after uncaught', () => { expect(add(2, 2)).toBe(4); });`;
    const r = await gradeInline(backend, inlineRubric({ 'async.test.js': spec }), { 'solution.js': CJS_SOLUTION });
    expect(statuses(r)).toEqual({
      'async ok': 'passed',
      'async rejects': 'failed',
      'done ok': 'passed',
      'done with error': 'failed',
      slow: 'timeout',
      'never settles': 'timeout',
      'assertions counted': 'failed',
      'resolves matcher': 'passed',
      'uncaught in timer': 'failed',
      'after uncaught': 'passed',
    });
    expect(r.tests.find((t) => t.name === 'slow')?.message).toContain('Exceeded timeout of 100 ms for a test');
    expect(r.tests.find((t) => t.name === 'uncaught in timer')?.message).toContain('boom in timer');
  });

  it("keeps Jest's real toEqual semantics, undefined array items included", async () => {
    const spec = `test('toEqual ignores undefined properties', () => { expect({ a: 1, b: undefined }).toEqual({ a: 1 }); });
test('toEqual treats sparse and undefined alike', () => { expect([, 1]).toEqual([undefined, 1]); });
test('toStrictEqual does not', () => { expect({ a: 1, b: undefined }).toStrictEqual({ a: 1 }); });
test('asymmetric matchers', () => { expect({ x: 3, y: 'abc' }).toEqual({ x: expect.any(Number), y: expect.stringContaining('b') }); });
test('toThrow', () => { expect(() => { throw new TypeError('bad input'); }).toThrow(TypeError); });
test('jest.fn', () => { const f = jest.fn((x) => x * 2); f(2); expect(f).toHaveBeenCalledWith(2); expect(f.mock.results[0].value).toBe(4); });`;
    const r = await gradeInline(backend, inlineRubric({ 'eq.test.js': spec }), { 'solution.js': CJS_SOLUTION });
    expect(statuses(r)).toEqual({
      'toEqual ignores undefined properties': 'passed',
      'toEqual treats sparse and undefined alike': 'passed',
      'toStrictEqual does not': 'failed',
      'asymmetric matchers': 'passed',
      toThrow: 'passed',
      'jest.fn': 'passed',
    });
  });

  it('loads ESM tests against CommonJS solutions and CommonJS tests against ESM solutions, with extensionless imports', async () => {
    const esmTest = `import { add } from './solution';\nimport { half } from './lib/half';\ntest('esm', () => { expect(half(add(2, 2))).toBe(2); });`;
    const cjsTest = `const { add } = require('./solution');\ntest('cjs', () => { expect(add(2, 3)).toBe(5); });`;
    const files = { 'solution.js': CJS_SOLUTION, 'lib/half.js': 'exports.half = (x) => x / 2;\n' };
    const r1 = await gradeInline(backend, inlineRubric({ 'a.test.js': esmTest }), files);
    const r2 = await gradeInline(backend, inlineRubric({ 'b.test.js': cjsTest }), { 'solution.js': ESM_SOLUTION });
    expect([statuses(r1), statuses(r2)]).toEqual([{ esm: 'passed' }, { cjs: 'passed' }]);
  });

  it("decides an ambiguous .js file's module format as Node does: a module only where a module parse alone accepts it", async () => {
    const test = `const s = require('./solution');\ntest('loads', async () => { expect(await s.value()).toBe(7); });`;
    const solutions = {
      'export after code on its line': 'let n = 0; while (n < 3) n++; export const value = () => n + 4;\n',
      'import.meta only': 'const here = import.meta.url;\nexports.value = () => (here.startsWith("file:") ? 7 : 0);\n',
      'top-level await': 'const n = await Promise.resolve(7);\nexport function value() { return n; }\n',
      'CommonJS naming the words':
        '// export import await\nconst s = "export const x = 1";\nmodule.exports = { value: async () => { await null; return s.length - 11; } };\n',
    };
    const got: Record<string, Record<string, string>> = {};
    for (const [name, src] of Object.entries(solutions))
      got[name] = statuses(await gradeInline(backend, inlineRubric({ 'f.test.js': test }), { 'solution.js': src }));
    expect(got).toEqual(Object.fromEntries(Object.keys(solutions).map((k) => [k, { loads: 'passed' }])));
  });

  it('accepts vitest-style imports and reports a solution that fails to load on every test', async () => {
    const spec = `import { describe, it, expect } from 'vitest';\nimport { add } from './solution';\ndescribe('s', () => { it('one', () => expect(add(1, 1)).toBe(2)); it('two', () => expect(add(1, 2)).toBe(3)); });`;
    const r = await gradeInline(backend, inlineRubric({ 's.test.js': spec }), {
      'solution.js': 'export const add = (a, b) => { return a + ;\n',
    });
    expect(statuses(r)).toEqual({ 's > one': 'error', 's > two': 'error' });
    // One student error, once: each test names where it is; the flag says what it is.
    expect(r.tests.map((t) => t.message)).toEqual([
      'not run: the submission did not load (solution.js, line 1)',
      'not run: the submission did not load (solution.js, line 1)',
    ]);
    expect(r.flags.find((f) => f.code === 'submission.load_error')?.message).toMatch(
      /^solution\.js, line 1: SyntaxError/,
    );
  });
});

describe('node:test files', () => {
  it('run unchanged, with describe/it naming, subtests folded into their parent, and skip options', async () => {
    const spec = `import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { add } from './solution.js';
describe('adder', () => {
  it('adds', () => { assert.equal(add(2, 2), 4); });
  it('is wrong here', () => { assert.equal(add(2, 2), 5); });
});
test('with subtests', async (t) => {
  await t.test('fine', () => assert.ok(true));
  await t.test('broken', () => assert.deepEqual({ a: 1 }, { a: 2 }));
});
test('skipped by option', { skip: true }, () => { throw new Error('never'); });
test('callback style', (t, done) => { setTimeout(done, 5); });`;
    const r = await gradeInline(backend, inlineRubric({ 'nt.test.mjs': spec }), { 'solution.js': ESM_SOLUTION });
    expect(statuses(r)).toEqual({
      'adder > adds': 'passed',
      'adder > is wrong here': 'failed',
      'with subtests': 'failed',
      'skipped by option': 'skipped',
      'callback style': 'passed',
    });
    expect(r.tests[2]?.message).toContain('subtest "broken" failed');
  });
});
