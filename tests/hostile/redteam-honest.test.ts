// Red team (issue 30), false accusations: honest idioms from real exercise solutions (valueOf/toPrimitive/toJSON
// value objects, Symbol.iterator and async iterators, generators, Date/RegExp/TypedArray/Map/Set subclasses, custom
// Errors, frozen objects, static private fields, util.inspect.custom, symbol keys, BigInt, sparse and null-prototype
// values, events/path/util/Buffer, NODE_ENV, timers and fake timers, spies) graded by tests across the matcher
// families must get exactly plain Jest's verdict per test (tests/fakes/plain-jest.cjs runs the same files with
// Jest's own expect) and no flag. It held: recorded so that a change to the boundary cannot start accusing them.
// A Proxy used honestly is the one idiom refused (see notes/redteam/honest-proxy.md).
import { describe, expect, it } from 'vitest';
import { firstBackend, flagCodes, gradeInline, inlineRubric, plainJest, statuses } from '../helpers.js';

const SOLUTION = `
const { EventEmitter } = require('events');
const util = require('util');
const path = require('path');
class Money { constructor(c) { this.cents = c; } valueOf() { return this.cents; } toString() { return '$' + (this.cents / 100).toFixed(2); } toJSON() { return { cents: this.cents }; } [Symbol.toPrimitive](h) { return h === 'string' ? this.toString() : this.cents; } }
class Range { constructor(a, b) { this.a = a; this.b = b; } *[Symbol.iterator]() { for (let i = this.a; i < this.b; i++) yield i; } }
class AsyncRange { constructor(n) { this.n = n; } async *[Symbol.asyncIterator]() { for (let i = 0; i < this.n; i++) yield i; } }
class MyDate extends Date { get isoDay() { return this.toISOString().slice(0, 10); } }
class Re extends RegExp { get [Symbol.toStringTag]() { return 'Re'; } }
class Bytes extends Uint8Array { sum() { return this.reduce((a, b) => a + b, 0); } }
class Counter extends Map { inc(k) { this.set(k, (this.get(k) || 0) + 1); return this; } }
class USet extends Set { union(o) { return new USet([...this, ...o]); } }
class DomainError extends Error { constructor(m) { super(m); this.name = 'DomainError'; } }
class Tree { #root = null; static #count = 0; constructor() { Tree.#count++; } static get count() { return Tree.#count; } }
const frozen = Object.freeze({ a: 1, b: Object.freeze([1, 2]) });
class Bus extends EventEmitter {}
const inspectable = { [util.inspect.custom]() { return 'Thing<1>'; }, v: 1 };
exports.Money = Money;
exports.money = (c) => new Money(c);
exports.range = (a, b) => new Range(a, b);
exports.arange = (n) => new AsyncRange(n);
exports.day = (s) => new MyDate(s);
exports.re = () => new Re('a+b', 'g');
exports.bytes = (...x) => Bytes.from(x);
exports.counter = (...ks) => ks.reduce((c, k) => c.inc(k), new Counter());
exports.uset = (...x) => new USet(x);
exports.fail = () => { throw new DomainError('bad input'); };
exports.failAsync = async () => { throw new DomainError('later'); };
exports.frozen = () => frozen;
exports.env = () => process.env.NODE_ENV === 'production' ? 'prod' : 'dev';
exports.bus = () => { const b = new Bus(); const seen = []; b.on('x', (v) => seen.push(v)); b.emit('x', 1); b.emit('x', 2); return seen; };
exports.join = (...p) => path.join(...p);
exports.fmt = (o) => util.format('%s=%d', 'a', 1) + util.inspect({ a: [1] });
exports.inspectable = () => inspectable;
exports.buf = (s) => Buffer.from(s).toString('base64');
exports.trees = () => { new Tree(); new Tree(); return Tree.count; };
exports.json = (c) => JSON.stringify({ m: new Money(c) });
exports.gen = function* (n) { for (let i = 0; i < n; i++) yield i * i; };
exports.later = (v) => new Promise((r) => setTimeout(() => r(v), 5));
exports.sym = Symbol('tag');
exports.withSym = () => ({ [exports.sym]: 1, a: 2 });
exports.bigint = (n) => BigInt(n) * 2n;
exports.nan = () => NaN;
exports.sparse = () => [1, , 3];
exports.weak = () => new WeakMap();
exports.structured = (o) => structuredClone(o);
exports.err = () => new DomainError('x');
exports.aggregate = async () => Promise.any([Promise.reject(new Error('a')), Promise.reject(new Error('b'))]);
exports.nullProto = () => Object.assign(Object.create(null), { a: 1 });
exports.arrBuf = () => new ArrayBuffer(4);
exports.dataView = () => new DataView(new ArrayBuffer(2));
exports.url = () => new URL('https://x.org/a?b=1');
exports.textEnc = () => new TextEncoder().encode('hi');
exports.intl = (n) => new Intl.NumberFormat('en-US').format(n);
exports.localeSort = (xs) => [...xs].sort((a, b) => a.localeCompare(b));
`;

const TESTS = `const s = require('./solution');
test('valueOf compare', () => { expect(s.money(150) > s.money(100)).toBe(true); expect(+s.money(5)).toBe(5); });
test('toString/template', () => { expect(\`\${s.money(150)}\`).toBe('$1.50'); expect(String(s.money(1))).toBe('$0.01'); });
test('toEqual Money', () => { expect(s.money(1)).toEqual(s.money(1)); expect(s.money(1)).not.toEqual(s.money(2)); });
test('toEqual Money wrong', () => { expect(s.money(1)).toEqual(s.money(2)); });
test('toBeGreaterThan valueOf', () => { expect(s.money(3)).toBeGreaterThan(2); });
test('iterator spread', () => { expect([...s.range(1, 4)]).toEqual([1, 2, 3]); });
test('iterator toEqual', () => { expect(s.range(1, 4)).toEqual(s.range(1, 4)); });
test('iterable toContain', () => { expect(s.uset(1, 2)).toContain(2); });
test('async iterator', async () => { const out = []; for await (const x of s.arange(3)) out.push(x); expect(out).toEqual([0, 1, 2]); });
test('Date subclass', () => { expect(s.day('2020-01-02').isoDay).toBe('2020-01-02'); expect(s.day('2020-01-02')).toEqual(new Date('2020-01-02')); });
test('Date subclass wrong', () => { expect(s.day('2020-01-02')).toEqual(new Date('2020-01-03')); });
test('RegExp subclass', () => { expect('aab').toMatch(s.re()); expect(s.re()).toEqual(/a+b/g); });
test('TypedArray subclass', () => { expect(s.bytes(1, 2, 3).sum()).toBe(6); expect(s.bytes(1, 2)).toEqual(new Uint8Array([1, 2])); });
test('Map subclass', () => { expect(s.counter('a', 'b', 'a')).toEqual(new Map([['a', 2], ['b', 1]])); });
test('Map subclass wrong', () => { expect(s.counter('a')).toEqual(new Map([['a', 2]])); });
test('Set subclass', () => { expect(s.uset(1).union([2])).toEqual(new Set([1, 2])); });
test('Error class toThrow', () => { expect(() => s.fail()).toThrow('bad input'); expect(() => s.fail()).toThrow(Error); });
test('Error toThrow name', () => { expect(() => s.fail()).toThrow(expect.objectContaining({ name: 'DomainError' })); });
test('rejects', async () => { await expect(s.failAsync()).rejects.toThrow('later'); await expect(s.failAsync()).rejects.toBeInstanceOf(Error); });
test('resolves', async () => { await expect(s.later(3)).resolves.toBe(3); });
test('frozen', () => { expect(s.frozen()).toEqual({ a: 1, b: [1, 2] }); expect(Object.isFrozen(s.frozen())).toBe(true); expect(s.frozen()).toStrictEqual({ a: 1, b: [1, 2] }); });
test('env', () => { expect(['dev', 'prod']).toContain(s.env()); });
test('events', () => { expect(s.bus()).toEqual([1, 2]); });
test('path', () => { expect(s.join('a', 'b')).toBe('a/b'); });
test('util', () => { expect(s.fmt()).toBe('a=1{ a: [ 1 ] }'); });
test('inspect custom', () => { expect(s.inspectable()).toEqual({ v: 1 }); });
test('inspect custom wrong', () => { expect(s.inspectable()).toEqual({ v: 2 }); });
test('buffer', () => { expect(s.buf('hi')).toBe('aGk='); });
test('static private', () => { expect(s.trees()).toBe(2); });
test('toJSON', () => { expect(s.json(5)).toBe('{"m":{"cents":5}}'); });
test('generator', () => { expect([...s.gen(3)]).toEqual([0, 1, 4]); expect(s.gen(2).next()).toEqual({ value: 0, done: false }); });
test('timers', async () => { expect(await s.later('x')).toBe('x'); });
test('symbol key', () => { expect(s.withSym()).toEqual({ [s.sym]: 1, a: 2 }); });
test('symbol key wrong', () => { expect(s.withSym()).toEqual({ a: 2 }); });
test('bigint', () => { expect(s.bigint(2)).toBe(4n); expect(s.bigint(2)).toEqual(4n); });
test('NaN', () => { expect(s.nan()).toBeNaN(); expect(s.nan()).toEqual(NaN); expect(s.nan()).toBe(NaN); });
test('sparse toEqual', () => { expect(s.sparse()).toEqual([1, undefined, 3]); });
test('sparse toStrictEqual', () => { expect(s.sparse()).toStrictEqual([1, undefined, 3]); });
test('weakmap', () => { expect(s.weak()).toBeInstanceOf(WeakMap); });
test('structuredClone', () => { expect(s.structured({ a: [1, { b: 2 }] })).toEqual({ a: [1, { b: 2 }] }); });
test('error toEqual', () => { expect(s.err()).toEqual(new Error('x')); });
test('aggregate', async () => { await expect(s.aggregate()).rejects.toBeInstanceOf(AggregateError); });
test('null proto', () => { expect(s.nullProto()).toEqual({ a: 1 }); });
test('null proto strict', () => { expect(s.nullProto()).toStrictEqual({ a: 1 }); });
test('arraybuffer', () => { expect(s.arrBuf()).toEqual(new ArrayBuffer(4)); });
test('dataview', () => { expect(s.dataView()).toEqual(new DataView(new ArrayBuffer(2))); });
test('url', () => { expect(s.url().searchParams.get('b')).toBe('1'); expect(s.url().href).toBe('https://x.org/a?b=1'); });
test('textencoder', () => { expect(s.textEnc()).toEqual(new Uint8Array([104, 105])); });
test('intl', () => { expect(s.intl(1234.5)).toBe('1,234.5'); });
test('locale sort', () => { expect(s.localeSort(['b', 'a', 'C'])).toEqual(['a', 'b', 'C']); });
test('toBeCloseTo', () => { expect(0.1 + 0.2).toBeCloseTo(0.3); });
test('toMatchObject array', () => { expect([{ a: 1, b: 2 }]).toMatchObject([{ a: 1 }]); });
test('toHaveProperty path', () => { expect({ a: { b: [1, 2] } }).toHaveProperty(['a', 'b', 1], 2); expect({ a: { b: 1 } }).toHaveProperty('a.b'); });
test('arrayContaining stringMatching', () => { expect(['ab', 'cd']).toEqual(expect.arrayContaining([expect.stringMatching(/^c/)])); });
test('any', () => { expect(s.money(1)).toEqual(expect.any(s.Money)); expect(1n).toEqual(expect.any(BigInt)); expect(() => 1).toEqual(expect.any(Function)); });
test('toBeDefined/falsy', () => { expect(s.money(0).cents).toBeFalsy(); expect(s.money).toBeDefined(); });
test('toHaveLength string', () => { expect('abc').toHaveLength(3); });
test('toThrowError', () => { expect(() => s.fail()).toThrowError(/bad/); });
test('toContainEqual', () => { expect([s.money(1)]).toContainEqual(s.money(1)); });
test('not.toBe', () => { expect(s.money(1)).not.toBe(s.money(1)); });
test('toBeInstanceOf subclass', () => { expect(s.counter()).toBeInstanceOf(Map); expect(s.day('2020-01-01')).toBeInstanceOf(Date); });
test('toStrictEqual class vs literal', () => { expect(s.money(1)).toStrictEqual({ cents: 1 }); });
test('mock fn', () => { const f = jest.fn((x) => x * 2); [1, 2].map(f); expect(f).toHaveBeenCalledTimes(2); expect(f.mock.results[1].value).toBe(4); expect(f).toHaveBeenCalledWith(2, 1, [1, 2]); });
test('spyOn', () => { const o = { m: () => 1 }; const sp = jest.spyOn(o, 'm').mockReturnValue(5); expect(o.m()).toBe(5); expect(sp).toHaveBeenCalled(); sp.mockRestore(); expect(o.m()).toBe(1); });
test('fake timers', () => { jest.useFakeTimers(); const f = jest.fn(); setTimeout(f, 1000); jest.advanceTimersByTime(1000); expect(f).toHaveBeenCalled(); jest.useRealTimers(); });
`;

describe('red team: honest idioms agree with plain Jest', () => {
  it('agrees test by test, with no flag', async () => {
    const files = { 'honest.test.js': TESTS, 'solution.js': SOLUTION };
    const jest = plainJest('honest.test.js', files);
    // The corpus is only worth its name if Jest both passes and fails some of it.
    expect(new Set(Object.values(jest))).toEqual(new Set(['passed', 'failed']));
    const r = await gradeInline(await firstBackend(), inlineRubric({ 'honest.test.js': TESTS }), {
      'solution.js': SOLUTION,
    });
    const ours = Object.fromEntries(
      Object.entries(statuses(r)).map(([n, s]) => [n, s === 'passed' ? 'passed' : 'failed']),
    );
    expect([ours, flagCodes(r)]).toEqual([jest, []]);
  });
});
