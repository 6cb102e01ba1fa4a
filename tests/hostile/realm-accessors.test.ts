// Issue 30: an accessor produces a value; it does not decide equality — in every matcher family, not only the deep
// ones. Honest code whose values carry getters (class `get` accessors over private fields, Object.defineProperty and
// object-literal getters, lazily computed properties, Error subclasses with `get message()`/`get code()`, Map and Set
// subclasses with getters) must get exactly real Jest's verdict from every matcher that compares a submission's value:
// the deep matchers, the mock-call and mock-return matchers, toThrow and `.rejects.toThrow`, toHaveLength. Real Jest's
// verdict is not written down here: tests/fakes/plain-jest.cjs runs the same test file with Jest's own `expect` and
// jest-mock, plainly in Node, and the harness must agree test by test, with no flag. A getter that answers differently
// on each read (the tampering class) is compared on its one read, and one that hands back a value voting on its own
// equality is still refused: those cases assert their exact outcome on every isolating backend.
import { describe, expect, it } from 'vitest';
import type { ProcessBackendId } from '../../src/adapters/sandbox/registry.js';
import {
  firstBackend,
  flagCodes,
  gradeInline,
  inlineRubric,
  isolatingBackends,
  plainJest,
  statuses,
} from '../helpers.js';

const HONEST = `class Point {
  #x; #y;
  constructor(x, y) { this.#x = x; this.#y = y; }
  get x() { return this.#x; }
  get y() { return this.#y; }
  get norm() { return Math.hypot(this.#x, this.#y); }
}
// Own enumerable accessors (an object literal's getters, and defineProperty in a constructor).
const person = (first, last) => ({ first, last, get full() { return first + ' ' + last; } });
class Temperature { constructor(c) { Object.defineProperty(this, 'celsius', { get: () => c, enumerable: true }); } }
// A lazily computed property: the prototype's getter replaces itself with own data on its first read.
class Order {
  constructor(items) { this.items = items; }
  get total() { const t = this.items.reduce((a, b) => a + b, 0); Object.defineProperty(this, 'total', { value: t, enumerable: true }); return t; }
}
class ValidationError extends Error {
  constructor(field) { super(); this.field = field; }
  get name() { return 'ValidationError'; }
  get message() { return 'invalid ' + this.field; }
  get code() { return 'E_INVALID'; }
}
class HttpError extends Error {
  #status;
  constructor(status, message) { super(message); this.#status = status; }
  get status() { return this.#status; }
}
class Registry extends Map { get names() { return [...this.keys()].sort(); } }
class Tags extends Set { get sorted() { return [...this].sort(); } }
class Stack { #items = []; push(x) { this.#items.push(x); return this; } get length() { return this.#items.length; } }
exports.Point = Point;
exports.point = (x, y) => new Point(x, y);
exports.person = person;
exports.temperature = (c) => new Temperature(c);
exports.order = (items) => new Order(items);
exports.visit = (cb) => { cb(new Point(1, 2)); cb(person('Ada', 'Lovelace'), new Temperature(20)); cb(new Point(3, 4)); };
exports.validate = (age) => { if (age < 0) throw new ValidationError('age'); return age; };
exports.fetchIt = async (status) => { throw new HttpError(status, 'HTTP ' + status); };
exports.registry = () => new Registry([['b', 2], ['a', 1]]);
exports.tags = () => new Tags(['y', 'x']);
exports.stack = (n) => { const s = new Stack(); for (let i = 0; i < n; i++) s.push(i); return s; };
exports.ValidationError = ValidationError;
// An Array subclass iterating in its own way, and a length an own getter gives: toHaveLength reads only the length.
class Bag extends Array { *[Symbol.iterator]() { for (let i = this.length - 1; i >= 0; i--) yield this[i]; } }
exports.bag = (...xs) => Bag.from(xs);
exports.sized = (n) => Object.defineProperty({}, 'length', { get: () => n });
// Honest Proxies (red team, issue 30): an observable store counting reads, a read-only view, a list wrapper.
const reads = { n: 0 };
exports.store = (init) => new Proxy({ ...init }, { get(t, k, r) { reads.n++; return Reflect.get(t, k, r); } });
exports.readonly = (o) => new Proxy(o, { set() { throw new TypeError('read-only'); }, deleteProperty() { return false; } });
exports.list = (...xs) => new Proxy(xs, { get: (t, k, r) => (k === 'last' ? t[t.length - 1] : Reflect.get(t, k, r)) });
exports.pointView = (x, y) => new Proxy(new Point(x, y), { get: (t, k) => { const v = Reflect.get(t, k, t); return typeof v === 'function' ? v.bind(t) : v; } });
// Getters on classes whose values have internal slots Jest compares (a Date, a RegExp, a typed array).
class Day extends Date { get iso() { return this.toISOString().slice(0, 10); } }
class Pattern extends RegExp { get kind() { return 'pattern'; } }
class Bytes extends Uint8Array { get hex() { return [...this].map((b) => b.toString(16).padStart(2, '0')).join(''); } }
exports.day = (iso) => new Day(iso);
exports.pattern = (src) => new Pattern(src, 'gi');
exports.bytes = (...b) => Bytes.from(b);
// An own getter on a Date, RegExp or typed array itself (Jest compares a Date by its time, a typed array by its keys).
const labelled = (v, label) => Object.defineProperty(v, 'label', { get: () => label, enumerable: true });
exports.stamped = (ms) => labelled(new Date(ms), 'at ' + ms);
exports.tagged = (...b) => labelled(Uint8Array.from(b), b.length + ' bytes');
exports.matcher = () => { const r = labelled(/a+/g, 'as'); r.exec('aa'); return { r }; };
// A function wrapped in a Proxy (a memoizer, a logger), one thrown, and a getter that throws when read.
exports.logged = new Proxy(function add(a, b) { return a + b; }, { apply: (t, self, args) => Reflect.apply(t, self, args) });
exports.failProxied = () => { throw new Proxy(new RangeError('out of range'), {}); };
exports.config = () => ({ name: 'app', get secret() { throw new Error('not loaded'); } });
`;

// Every matcher family that compares a submission's value, each with tests Jest passes and tests Jest fails.
const HONEST_TESTS = `const s = require('./solution');
test('deep: toEqual a class with private-field getters', () => { expect(s.point(1, 2)).toEqual(s.point(1, 2)); });
test('deep: toEqual an object literal with a getter', () => { expect(s.person('Ada', 'L')).toEqual({ first: 'Ada', last: 'L', full: 'Ada L' }); });
test('deep: toEqual a getter, wrong', () => { expect(s.person('Ada', 'L')).toEqual({ first: 'Ada', last: 'L', full: 'Ada X' }); });
test('deep: toMatchObject inherited getters', () => { expect(s.point(3, 4)).toMatchObject({ x: 3, y: 4, norm: 5 }); });
test('deep: toMatchObject a lazy property', () => { expect(s.order([1, 2, 3])).toMatchObject({ total: 6 }); });
test('deep: toHaveProperty on a Map subclass getter', () => { expect(s.registry()).toHaveProperty('names', ['a', 'b']); });
test('deep: toHaveProperty on a Set subclass getter, wrong', () => { expect(s.tags()).toHaveProperty('sorted', ['y', 'x']); });
test('deep: objectContaining on a Set subclass getter', () => { expect(s.tags()).toEqual(expect.objectContaining({ sorted: ['x', 'y'] })); });
test('calls: toHaveBeenCalledWith a class instance', () => { const cb = jest.fn(); s.visit(cb); expect(cb).toHaveBeenCalledWith(s.point(1, 2)); });
test('calls: toHaveBeenCalledWith own getters', () => { const cb = jest.fn(); s.visit(cb); expect(cb).toHaveBeenCalledWith({ first: 'Ada', last: 'Lovelace', full: 'Ada Lovelace' }, { celsius: 20 }); });
test('calls: toHaveBeenCalledWith own getters, wrong', () => { const cb = jest.fn(); s.visit(cb); expect(cb).toHaveBeenCalledWith({ first: 'Ada', last: 'Lovelace', full: 'Ada L' }, { celsius: 20 }); });
test('calls: toHaveBeenLastCalledWith objectContaining an inherited getter', () => { const cb = jest.fn(); s.visit(cb); expect(cb).toHaveBeenLastCalledWith(expect.objectContaining({ norm: 5 })); });
test('calls: toHaveBeenNthCalledWith', () => { const cb = jest.fn(); s.visit(cb); expect(cb).toHaveBeenNthCalledWith(2, expect.objectContaining({ full: 'Ada Lovelace' }), expect.anything()); });
test('calls: toHaveBeenNthCalledWith, wrong', () => { const cb = jest.fn(); s.visit(cb); expect(cb).toHaveBeenNthCalledWith(1, expect.objectContaining({ x: 2 })); });
test('calls: not.toHaveBeenCalledWith', () => { const cb = jest.fn(); s.visit(cb); expect(cb).not.toHaveBeenCalledWith({ celsius: 21 }); });
test('returns: toHaveReturnedWith', () => { const f = jest.fn(s.person); f('Ada', 'L'); expect(f).toHaveReturnedWith({ first: 'Ada', last: 'L', full: 'Ada L' }); });
test('returns: toHaveLastReturnedWith objectContaining', () => { const f = jest.fn(s.point); f(0, 0); f(3, 4); expect(f).toHaveLastReturnedWith(expect.objectContaining({ norm: 5 })); });
test('returns: toHaveNthReturnedWith, wrong', () => { const f = jest.fn(s.temperature); f(1); f(2); expect(f).toHaveNthReturnedWith(1, { celsius: 2 }); });
test('throws: toThrow a message from a getter', () => { expect(() => s.validate(-1)).toThrow('invalid age'); });
test('throws: toThrow a regexp, wrong', () => { expect(() => s.validate(-1)).toThrow(/invalid name/); });
test('throws: toThrow the class', () => { expect(() => s.validate(-1)).toThrow(s.ValidationError); });
test('throws: toThrow an object', () => { expect(() => s.validate(-1)).toThrow({ message: 'invalid age' }); });
test('throws: toThrow objectContaining getters', () => { expect(() => s.validate(-1)).toThrow(expect.objectContaining({ code: 'E_INVALID', name: 'ValidationError' })); });
test('throws: rejects.toThrow objectContaining a private-field getter', async () => { await expect(s.fetchIt(404)).rejects.toThrow(expect.objectContaining({ status: 404 })); });
test('throws: rejects.toMatchObject, wrong', async () => { await expect(s.fetchIt(404)).rejects.toMatchObject({ status: 500 }); });
test('throws: a caught error toEqual', () => { let e; try { s.validate(-1); } catch (x) { e = x; } expect(e).toEqual(new Error('invalid age')); });
test('shallow: toHaveLength through a getter', () => { expect(s.stack(3)).toHaveLength(3); });
test('shallow: toHaveLength of an Array subclass with its own iterator', () => { expect(s.bag(1, 2)).toHaveLength(2); });
test('shallow: toHaveLength through an own getter', () => { expect(s.sized(4)).toHaveLength(4); });
test('shallow: toHaveLength through a getter, wrong', () => { expect(s.stack(3)).toHaveLength(2); });
test('proxy: toEqual a forwarding store', () => { expect(s.store({ x: 1, y: 2 })).toEqual({ x: 1, y: 2 }); });
test('proxy: toEqual a forwarding store, wrong', () => { expect(s.store({ x: 1, y: 2 })).toEqual({ x: 1, y: 3 }); });
test('proxy: toStrictEqual a read-only view', () => { expect(s.readonly({ a: [1, 2] })).toStrictEqual({ a: [1, 2] }); });
test('proxy: toMatchObject a nested store', () => { expect(s.store({ inner: s.store({ z: 3 }) })).toMatchObject({ inner: { z: 3 } }); });
test('proxy: toHaveBeenCalledWith a store', () => { const cb = jest.fn(); cb(s.store({ k: 'v' })); expect(cb).toHaveBeenCalledWith({ k: 'v' }); });
test('proxy: toHaveLength and toContain of a list', () => { expect(s.list(1, 2, 3)).toHaveLength(3); expect(s.list(1, 2, 3)).toContain(2); });
test('proxy: toContain of a list, wrong', () => { expect(s.list(1, 2, 3)).toContain(4); });
test('proxy: toBeInstanceOf and toBeDefined of a view', () => { const v = s.pointView(3, 4); expect(v).toBeInstanceOf(s.Point); expect(v).toBeDefined(); expect(v.norm).toBe(5); });
test('slots: toHaveProperty on a Date subclass getter', () => { expect(s.day('2020-01-02')).toHaveProperty('iso', '2020-01-02'); });
test('slots: toMatchObject a Date subclass getter, wrong', () => { expect(s.day('2020-01-02')).toMatchObject({ iso: '2020-01-03' }); });
test('slots: toEqual Date subclasses', () => { expect(s.day('2020-01-02')).toStrictEqual(s.day('2020-01-02')); });
test('slots: objectContaining a RegExp subclass getter', () => { expect(s.pattern('a+')).toEqual(expect.objectContaining({ kind: 'pattern', lastIndex: 0 })); });
test('slots: toEqual RegExp subclasses, wrong', () => { expect(s.pattern('a+')).toEqual(s.pattern('a*')); });
test('slots: toHaveProperty on a typed array subclass getter', () => { expect(s.bytes(1, 255)).toHaveProperty('hex', '01ff'); });
test('slots: toMatchObject a typed array subclass getter, wrong', () => { expect(s.bytes(1, 2)).toMatchObject({ hex: '0103' }); });
test('slots: toEqual a Date with an own getter', () => { expect(s.stamped(0)).toEqual(new Date(0)); expect({ at: s.stamped(5) }).toStrictEqual({ at: s.stamped(5) }); });
test('slots: toEqual a Date with an own getter, wrong', () => { expect(s.stamped(0)).toEqual(new Date(1)); });
test('slots: toEqual a typed array with an own getter', () => { expect(s.tagged(1, 2)).toEqual(Object.assign(Uint8Array.from([1, 2]), { label: '2 bytes' })); });
test('slots: toEqual a typed array with an own getter, wrong', () => { expect(s.tagged(1, 2)).toEqual(Object.assign(Uint8Array.from([1, 2]), { label: '3 bytes' })); });
test('slots: toMatchObject a RegExp with an own getter and a lastIndex', () => { expect(s.matcher()).toMatchObject({ r: /a+/g }); expect(s.matcher().r).toHaveProperty('lastIndex', 2); });
test('proxy: a function Proxy is itself', () => { expect(s.logged(2, 3)).toBe(5); expect({ f: s.logged }).toEqual({ f: s.logged }); expect(s.logged).toBeInstanceOf(Function); });
test('proxy: a function Proxy is not another function', () => { expect(s.logged).toEqual(function add(a, b) { return a + b; }); });
test('throws: a thrown Proxy', () => { expect(() => s.failProxied()).toThrow('out of range'); expect(() => s.failProxied()).toThrow(RangeError); });
test('throws: a thrown Proxy, wrong', () => { expect(() => s.failProxied()).toThrow('in range!'); });
test('deep: a getter that throws, not read by toHaveProperty', () => { expect(s.config()).toHaveProperty('name', 'app'); });
test('deep: a getter that throws, not read by toMatchObject', () => { expect(s.config()).toMatchObject({ name: 'app' }); });
test('deep: a getter that throws, read by toEqual', () => { expect(s.config()).toEqual({ name: 'app', secret: 1 }); });
test('shallow: toBeInstanceOf and toBe', () => { const p = s.point(1, 1); expect(p).toBeInstanceOf(s.Point); expect(p).toBe(p); expect(p.norm).toBeCloseTo(1.414, 3); });
`;

describe('honest getters in every matcher family: the harness agrees with real Jest', () => {
  it('gets real Jest verdict for each test, with no flag', async () => {
    const files = { 'getters.test.js': HONEST_TESTS, 'solution.js': HONEST };
    const jest = plainJest('getters.test.js', files);
    // The corpus is only worth its name if Jest both passes and fails some of it.
    expect(new Set(Object.values(jest))).toEqual(new Set(['passed', 'failed']));
    const r = await gradeInline(await firstBackend(), inlineRubric({ 'getters.test.js': HONEST_TESTS }), {
      'solution.js': HONEST,
    });
    const ours = Object.fromEntries(
      Object.entries(statuses(r)).map(([n, s]) => [n, s === 'passed' ? 'passed' : 'failed']),
    );
    expect([ours, flagCodes(r)]).toEqual([jest, []]);
    // A wrong answer fails as an assertion (its status 'failed'), never as an error of the harness.
    expect(Object.values(statuses(r)).filter((s) => s !== 'passed' && s !== 'failed')).toEqual([]);
  });
});

// Hostile: a value whose getter answers differently per read, or hands back a value that votes.
const HOSTILE_TESTS = {
  'hostile.test.js': `const s = require('./solution');
test('calls', () => { const cb = jest.fn(); s.visit(cb); expect(cb).toHaveBeenCalledWith({ v: 42 }); });
test('returns', () => { const f = jest.fn(s.make); f(); expect(f).toHaveReturnedWith({ v: 42 }); });
test('throws', () => { expect(() => s.fail()).toThrow('right'); });
test('rejects', async () => { await expect(s.failLater()).rejects.toThrow(expect.objectContaining({ code: 42 })); });`,
};
const NAMES = ['calls', 'returns', 'throws', 'rejects'];
const every = (status: string): Record<string, string> => Object.fromEntries(NAMES.map((n) => [n, status]));

interface Case {
  name: string;
  solution: string;
  statuses: Record<string, string>;
  flags: string[];
}

// The first read answers wrong, every later read right: Jest (reading twice or more) could be steered; the harness
// compares the one read.
const FLIP = `const flip = (o, k, first, later) => { let n = 0; Object.defineProperty(o, k, { get: () => (++n === 1 ? first : later), enumerable: true }); return o; };`;
const CASES: Case[] = [
  {
    name: 'a getter answering its first read wrong and later reads right, in every family: compared on the one read, each fails (no flag)',
    solution: `${FLIP}
class Flaky extends Error { constructor() { super(); this.n = 0; } get message() { return ++this.n === 1 ? 'wrong' : 'right'; } }
exports.visit = (cb) => cb(flip({}, 'v', 41, 42));
exports.make = () => flip({}, 'v', 41, 42);
exports.fail = () => { throw new Flaky(); };
exports.failLater = async () => { throw flip(new Error('x'), 'code', 41, 42); };`,
    statuses: every('failed'),
    flags: [],
  },
  {
    name: 'a getter handing back a value that votes on its own equality, in every family: refused',
    solution: `const vote = () => ({ asymmetricMatch: () => true });
const voting = (o, k) => Object.defineProperty(o, k, { get: vote, enumerable: true });
exports.visit = (cb) => cb(voting({}, 'v'));
exports.make = () => voting({}, 'v');
exports.fail = () => { throw voting(new Error('x'), 'message'); };
exports.failLater = async () => { throw voting(new Error('x'), 'code'); };`,
    statuses: every('error'),
    flags: ['tampering.self_equality'],
  },
  {
    name: 'a function Proxy whose get trap answers asymmetricMatch (real Jest asks it, and passes), in every family: compared as the function it is, each fails (no flag)',
    solution: `const voter = new Proxy(function () {}, { get: (t, k) => (k === 'asymmetricMatch' ? () => true : k === 'message' ? 'right' : k === 'code' ? 42 : Reflect.get(t, k)) });
exports.visit = (cb) => cb(voter);
exports.make = () => voter;
exports.fail = () => { throw voter; };
exports.failLater = async () => { throw voter; };`,
    statuses: every('failed'),
    flags: [],
  },
  {
    name: 'a class getter Jest reads while it compares (Symbol.toStringTag) plants an asymmetricMatch on the value after the walk: Jest counts only test-made matchers, so each fails (no flag; real Jest passes calls and returns)',
    solution: `const vote = { asymmetricMatch: () => true };
class Box { constructor() { this.v = 1; this.code = 1; } get [Symbol.toStringTag]() { this.v = vote; this.code = vote; return 'Object'; } }
const planted = () => { const b = new Box(); Object.prototype.toString.call(b); return b; };
exports.visit = (cb) => cb(new Box());
exports.make = () => new Box();
exports.fail = () => { throw new Box(); };
exports.failLater = async () => { throw planted(); };`,
    statuses: every('failed'),
    flags: [],
  },
  {
    name: 'honest twins of the two above (the same getters, answering one value): every test passes, no flag',
    solution: `const fixed = (o, k, v) => Object.defineProperty(o, k, { get: () => v, enumerable: true });
class Right extends Error { get message() { return 'right'; } }
exports.visit = (cb) => cb(fixed({}, 'v', 42));
exports.make = () => fixed({}, 'v', 42);
exports.fail = () => { throw new Right(); };
exports.failLater = async () => { throw fixed(new Error('x'), 'code', 42); };`,
    statuses: every('passed'),
    flags: [],
  },
];

const backends = (await isolatingBackends()).filter((b) => b.ok);
describe.each(backends.map((b) => b.id))('getters that answer per read (%s)', (backend: ProcessBackendId) => {
  it.each(CASES)('$name', async (c) => {
    const r = await gradeInline(backend, inlineRubric(HOSTILE_TESTS), { 'solution.js': c.solution });
    expect([statuses(r), flagCodes(r)]).toEqual([c.statuses, c.flags]);
  });
});
