// Issue 30, fourth round: no false accusation on the shapes honest code takes. Each test below is graded in a job of its
// own (a refusal makes a whole job untrusted, so a shared job would hide which test was refused) and must get real
// Jest's verdict — computed by running the same files with Jest's own `expect` plainly in Node (tests/fakes/plain-jest.cjs),
// never written down — with no flag. Before this round the harness flagged a Proxy-wrapped class used as the expected
// class (toBeInstanceOf, toThrow(Class), expect.any), an Array subclass or array with its own iterator or `some` in any
// deep matcher (Jest calls them only where jest-reads.cjs says), timed out on a doubly linked list compared with
// toEqual (guard.cjs readAlong followed both links at every level: 2^50 paths), flagged a linked list of 1,200 nodes as
// "too deep to check" (and failed 250,000 objects as "too large"), and failed `new Float64Array` (not in the
// Compartment). How deep plain Jest's own recursion goes depends on the stack, so the long lists stay well inside it.
// The rules those refusals came from still stop the cheats they were for: the hostile cases below
// assert their exact outcome on every isolating backend.
import { beforeAll, describe, expect, it } from 'vitest';
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

const HONEST = `// Classes behind a Proxy (a decorator's or logger's), used as the expected class of instanceof questions.
class Shape { constructor(n) { this.n = n; } }
exports.Shape = new Proxy(Shape, {});
const logged = (C) => new Proxy(C, { construct(t, a, nt) { return Reflect.construct(t, a, nt); }, get(t, k, r) { return Reflect.get(t, k, r); } });
class ShapeError extends Error { constructor(m) { super(m); this.name = 'ShapeError'; } }
exports.ShapeError = logged(ShapeError);
exports.make = (n) => new exports.Shape(n);
exports.fail = () => { throw new exports.ShapeError('bad shape'); };
const Base = logged(class Base { constructor() { this.kind = 'base'; } });
class Circle extends Base { constructor(r) { super(); this.r = r; } }
exports.Circle = Circle;
exports.Base = Base;
// An Array subclass iterating in its own way, and an array with an own iterator: Jest never iterates an array in equality.
class Bag extends Array { *[Symbol.iterator]() { for (let i = this.length - 1; i >= 0; i--) yield this[i]; } }
exports.bag = (...xs) => Bag.from(xs);
exports.ownIter = (...xs) => Object.defineProperty(xs, Symbol.iterator, { value: function* () { yield* xs.slice().reverse(); } });
// The shapes of real exercise references: private fields and getters, static blocks, custom iterables, Symbol keys,
// frozen and sealed values, cycles (through getters too), Map/Set/Error/Array subclasses, null prototypes, bound
// functions, JSON revivers, BigInt, typed arrays (Float64Array too), WeakMap-private state, Proxy-wrapped functions.
class Account { #balance = 0; #history = []; constructor(o) { this.owner = o; } deposit(n) { this.#balance += n; this.#history.push(n); return this; } get balance() { return this.#balance; } get history() { return [...this.#history]; } static { Account.BANK = Object.freeze({ name: 'B', code: 7 }); } }
exports.account = (o) => new Account(o); exports.Account = Account;
class LinkedList { #head = null; #size = 0; add(v) { this.#head = { v, next: this.#head }; this.#size++; return this; } *[Symbol.iterator]() { for (let n = this.#head; n; n = n.next) yield n.v; } get size() { return this.#size; } }
exports.list = (...xs) => { const l = new LinkedList(); xs.forEach((x) => l.add(x)); return l; };
exports.range = function* (a, b) { for (let i = a; i < b; i++) yield i; };
class Range { constructor(a, b) { this.a = a; this.b = b; } [Symbol.iterator]() { let i = this.a; const b = this.b; return { next: () => (i < b ? { value: i++, done: false } : { value: undefined, done: true }), [Symbol.iterator]() { return this; } }; } }
exports.rangeObj = (a, b) => new Range(a, b);
const ID = Symbol('id'); exports.ID = ID;
exports.tagged = (n) => ({ [ID]: n, name: 'x' + n });
exports.regTagged = (n) => ({ [Symbol.for('app.id')]: n, name: 'x' + n });
exports.frozenPoint = (x, y) => Object.freeze({ x, y });
class FPoint { #x; constructor(x) { this.#x = x; this.label = 'p' + x; Object.freeze(this); } get x() { return this.#x; } }
exports.fpoint = (x) => new FPoint(x);
exports.sealed = () => Object.seal({ a: 1, b: [1, 2] });
exports.frozenArr = () => Object.freeze([1, 2, Object.freeze({ c: 3 })]);
class Node2 { constructor(v) { this.value = v; this._next = null; this._prev = null; } get next() { return this._next; } get prev() { return this._prev; } }
exports.dlist = (...xs) => { const ns = xs.map((x) => new Node2(x)); ns.forEach((n, i) => { n._next = ns[i + 1] || null; n._prev = ns[i - 1] || null; }); return ns[0]; };
exports.cyc = () => { const a = { name: 'a' }; a.self = a; return a; };
class DefaultMap extends Map { constructor(d, e) { super(e); this.d = d; } get(k) { return this.has(k) ? super.get(k) : this.d; } }
exports.dmap = (e) => new DefaultMap(0, e);
class Counter extends Map { add(k) { this.set(k, (super.get(k) || 0) + 1); return this; } get total() { let t = 0; for (const v of this.values()) t += v; return t; } }
exports.counter = (...ks) => { const c = new Counter(); ks.forEach((k) => c.add(k)); return c; };
class SortedSet extends Set { add(v) { return super.add(v); } get sorted() { return [...this].sort(); } toArray() { return [...this]; } }
exports.sset = (...xs) => new SortedSet(xs);
class NotFound extends Error { #id; constructor(id) { super('not found: ' + id); this.#id = id; this.name = 'NotFound'; } get id() { return this.#id; } get status() { return 404; } }
exports.find = (id) => { throw new NotFound(id); }; exports.NotFound = NotFound;
exports.wrapped = () => { try { exports.find(1); } catch (e) { throw new Error('lookup failed', { cause: e }); } };
exports.nullProto = () => Object.assign(Object.create(null), { a: 1, b: 2 });
exports.dict = (pairs) => { const o = Object.create(null); for (const [k, v] of pairs) o[k] = v; return o; };
function greet(greeting, name) { return greeting + ', ' + name; }
exports.hello = greet.bind(null, 'Hello');
exports.callWith = (cb) => cb(exports.hello, 1);
class Temp { constructor(c) { this.c = c; } get f() { return this.c * 9 / 5 + 32; } set f(v) { this.c = (v - 32) * 5 / 9; } }
exports.temp = (c) => new Temp(c);
exports.parsed = (t) => JSON.parse(t, (k, v) => (typeof v === 'string' && /^\\d{4}-\\d\\d-\\d\\d$/.test(v) ? new Date(v) : v));
exports.parsedMap = (t) => JSON.parse(t, (k, v) => (Array.isArray(v) && k === 'pairs' ? new Map(v) : v));
exports.fact = (n) => (n <= 1n ? 1n : n * exports.fact(n - 1n));
exports.big = () => ({ n: 2n ** 64n, list: [1n, 2n] });
exports.bytes = (...b) => Uint8Array.from(b);
exports.floats = (...b) => new Float64Array(b);
exports.buf = () => new Uint8Array([1, 2, 3]).buffer;
class Matrix extends Array { static of2(r) { return Matrix.from(r); } get rows() { return this.length; } }
exports.matrix = (...r) => Matrix.from(r);
class Money { constructor(c) { this.cents = c; } valueOf() { return this.cents; } toString() { return '$' + (this.cents / 100).toFixed(2); } toJSON() { return this.toString(); } [Symbol.toPrimitive](h) { return h === 'number' ? this.cents : this.toString(); } }
exports.money = (c) => new Money(c);
class Vec { constructor(x, y) { this.x = x; this.y = y; } get [Symbol.toStringTag]() { return 'Vec'; } }
exports.vec = (x, y) => new Vec(x, y);
const protoBase = { greet() { return 'hi ' + this.name; }, kind: 'person' };
exports.objCreate = (name) => Object.assign(Object.create(protoBase), { name });
const privs = new WeakMap();
class Secret { constructor(v) { privs.set(this, v); } get value() { return privs.get(this); } }
exports.secret = (v) => new Secret(v);
exports.sparse = () => { const a = [1, , 3]; return a; };
exports.asyncGen = async function* () { yield 1; yield 2; };
exports.later = (v) => new Promise((r) => setTimeout(() => r(v), 1));
exports.laterAccount = async (o) => exports.account(o).deposit(5);
exports.cloned = () => structuredClone({ a: new Map([[1, { b: 2 }]]), d: new Date(0) });
class Grid { #cells; constructor(w, h) { this.#cells = Array.from({ length: h }, () => Array(w).fill(0)); } get cells() { return this.#cells.map((r) => [...r]); } get width() { return this.#cells[0].length; } }
exports.grid = (w, h) => new Grid(w, h);
class Tree { constructor(v, kids = []) { this.value = v; this.children = kids; kids.forEach((k) => Object.defineProperty(k, 'parent', { value: this, enumerable: false })); } }
exports.tree = () => new Tree(1, [new Tree(2), new Tree(3)]);
exports.withIterProp = () => ({ items: [1, 2], [Symbol.iterator]: function* () { yield* this.items; } });
class Stack2 { #a = []; push(x) { this.#a.push(x); } get length() { return this.#a.length; } get [Symbol.toStringTag]() { return 'Stack'; } }
exports.stack2 = (...xs) => { const s = new Stack2(); xs.forEach((x) => s.push(x)); return s; };
exports.emitter = () => { const cbs = []; return { on(f) { cbs.push(f); }, emit(...a) { cbs.forEach((f) => f(...a)); } }; };
class Queue extends Array { enqueue(x) { this.push(x); return this; } dequeue() { return this.shift(); } get [Symbol.toStringTag]() { return 'Queue'; } }
exports.queue = (...xs) => { const q = new Queue(); xs.forEach((x) => q.enqueue(x)); return q; };
class Inventory extends Array { some(f) { return Array.prototype.some.call(this, f); } every(f) { return Array.prototype.every.call(this, f); } }
exports.inv = (...xs) => Inventory.from(xs);
exports.symDesc = () => ({ [Symbol.iterator]: undefined, a: 1 });
exports.memo = (() => { const cache = new Map(); return new Proxy((n) => n * 2, { apply(t, th, a) { if (!cache.has(a[0])) cache.set(a[0], Reflect.apply(t, th, a)); return cache.get(a[0]); } }); })();
class Temperature2 { static #count = 0; static create(c) { Temperature2.#count++; return new Temperature2(c); } static get count() { return Temperature2.#count; } constructor(c) { this.celsius = c; } }
exports.Temperature2 = Temperature2;
exports.errorWithGetterCode = () => { const e = new TypeError('bad input'); Object.defineProperty(e, 'code', { get: () => 'E_BAD', enumerable: true }); throw e; };
exports.agg = () => { throw new AggregateError([new Error('a'), new Error('b')], 'many'); };
// A constructor returning a validating Proxy of itself; subclasses of a class a logging Proxy wraps; a lazy stream
// whose getter makes the next node; an own getter on an array; an Array subclass with its own map; instances with
// toJSON; Symbol-keyed nested data; Proxy-wrapped classes in expect.any and arrayOf; a frozen value class.
class Validated { constructor(o) { Object.assign(this, o); return new Proxy(this, { set(t, k, v) { if (typeof v !== 'number') throw new TypeError('numbers only'); t[k] = v; return true; } }); } get sum() { return Object.values(this).reduce((a, b) => a + b, 0); } }
exports.validated = (o) => new Validated(o); exports.Validated = Validated;
const Base2 = new Proxy(class Base2 { constructor() { this.kind = 'base'; } get tag() { return 'B:' + this.kind; } }, { construct: (t, a, nt) => Reflect.construct(t, a, nt) });
class Ring extends Base2 { constructor(r) { super(); this.r = r; } }
exports.Ring = Ring; exports.Base2 = Base2;
class Stream { constructor(h) { this.head = h; } get tail() { return new Stream(this.head + 1); } }
exports.stream = (h) => new Stream(h);
exports.withArrGetter = () => Object.defineProperty([1, 2, 3], 'sum', { get() { return this.reduce((a, b) => a + b, 0); }, enumerable: false });
class Vector extends Array { map(f) { return Vector.from(Array.prototype.map.call(this, f)); } get norm() { return Math.hypot(...this); } }
exports.vector = (...x) => Vector.from(x);
class Celsius { constructor(c) { this._c = c; } get celsius() { return this._c; } toJSON() { return { celsius: this._c }; } }
exports.temps = () => [new Celsius(1), new Celsius(2)];
exports.KEY = Symbol('k');
exports.symObj = () => ({ [exports.KEY]: { deep: [1] }, plain: true });
class Tile { area() { return 0; } }
exports.ProxTile = new Proxy(Tile, {});
exports.tiles = () => [new Tile(), new Tile()];
class Err2 extends Error { get name() { return 'Err2'; } }
exports.rejects = async () => { throw new Err2('boom'); };
exports.ProxErr = new Proxy(Err2, {});
class Imm { #v; constructor(v) { this.#v = v; Object.freeze(this); } with(v) { return new Imm(v); } get value() { return this.#v; } }
exports.imm = (v) => new Imm(v);
exports.defProps = () => Object.defineProperties({}, { a: { value: 1, enumerable: true }, b: { get: () => 2, enumerable: true }, hidden: { value: 3 } });
// Deep and large data: linked lists of thousands of nodes (data and private-field getters), deep nesting, 250,000
// objects, a cycle through an own getter and through a class getter, a case-insensitive Set subclass.
exports.chain = (n) => { let head = null; for (let i = n; i > 0; i--) head = { value: i, next: head }; return head; };
class LNode { #v; #n; constructor(v, n) { this.#v = v; this.#n = n; } get value() { return this.#v; } get next() { return this.#n; } }
exports.gchain = (n) => { let head = null; for (let i = n; i > 0; i--) head = new LNode(i, head); return head; };
exports.ownCycle = () => { const o = { x: 1 }; Object.defineProperty(o, 'self', { get: () => o, enumerable: true }); return o; };
class Selfish { constructor() { this.x = 1; } get self() { return this; } }
exports.selfish = () => new Selfish();
class CISet extends Set { has(v) { return super.has(String(v).toLowerCase()); } add(v) { return super.add(String(v).toLowerCase()); } }
exports.ciset = (...xs) => new CISet(xs);
exports.nested = (d) => { let o = { leaf: true }; for (let i = 0; i < d; i++) o = { child: o }; return o; };
exports.many = (n) => Array.from({ length: n }, (_, i) => ({ i }));
// An Error class extending a Proxy-wrapped base; a Map subclass of class instances; instances of a Proxy-wrapped class
// (and a Proxy of one); arrays of Proxies; WeakMap and WeakSet members; a getter compared with closeTo; bound methods.
const PBase = new Proxy(class PBase extends Error { constructor(m) { super(m); this.name = 'PBase'; } }, {});
class AppError extends PBase { constructor(m, code) { super(m); this.code = code; } get isApp() { return true; } }
exports.AppError = AppError; exports.PBase = PBase;
exports.failApp = () => { throw new AppError('app failed', 'E1'); };
class Entry { constructor(k, v) { this.k = k; this.v = v; } }
class Entries extends Map { register(k, v) { return this.set(k, new Entry(k, v)); } }
exports.entries = () => new Entries().register('a', 1).register('b', 2);
exports.weak = () => ({ cache: new WeakMap(), seen: new WeakSet(), n: 1 });
exports.proxies = () => [new Proxy({ a: 1 }, {}), new Proxy({ a: 2 }, {})];
const PItem = new Proxy(class Item { constructor(n) { this.n = n; } get double() { return this.n * 2; } }, {});
exports.Item = PItem; exports.item = (n) => new PItem(n);
exports.itemProxy = (n) => new Proxy(new PItem(n), {});
exports.closeGetter = () => ({ get pi() { return 3.14159; } });
exports.Counter = class Counter { constructor() { this.n = 0; this.inc = this.inc.bind(this); } inc() { this.n++; return this; } };
`;

const HEAD = "const s = require('./solution');\n";
// One line, one test: each graded alone.
const HONEST_TESTS = [
  `test('proxy class toBeInstanceOf', () => { expect(s.make(1)).toBeInstanceOf(s.Shape); });`,
  `test('proxy class toBeInstanceOf wrong', () => { expect({}).toBeInstanceOf(s.Shape); });`,
  `test('proxy class toThrow', () => { expect(() => s.fail()).toThrow(s.ShapeError); });`,
  `test('proxy class toThrow wrong', () => { expect(() => { throw new Error('x'); }).toThrow(s.ShapeError); });`,
  `test('proxy class any', () => { expect({ v: s.make(1) }).toEqual({ v: expect.any(s.Shape) }); });`,
  `test('subclass of proxied base', () => { expect(new s.Circle(2)).toBeInstanceOf(s.Circle); expect(new s.Circle(2)).toBeInstanceOf(s.Base); });`,
  `test('bag toEqual', () => { expect(s.bag(1, 2)).toEqual([1, 2]); });`,
  `test('bag toEqual wrong', () => { expect(s.bag(1, 2)).toEqual([2, 1]); });`,
  `test('bag toStrictEqual', () => { expect(s.bag(1, 2)).toStrictEqual(s.bag(1, 2)); });`,
  `test('bag toContain', () => { expect(s.bag(1, 2)).toContain(2); });`,
  `test('bag toContainEqual', () => { expect(s.bag({ a: 1 })).toContainEqual({ a: 1 }); });`,
  `test('bag arrayContaining', () => { expect(s.bag(1, 2)).toEqual(expect.arrayContaining([2])); });`,
  `test('bag toMatchObject', () => { expect({ b: s.bag(1, 2) }).toMatchObject({ b: [1, 2] }); });`,
  `test('own iter toEqual', () => { expect(s.ownIter(1, 2)).toEqual([1, 2]); });`,
  `test('own iter toContainEqual', () => { expect(s.ownIter(1, 2)).toContainEqual(2); });`,
  `test('account toEqual', () => { expect(s.account('a').deposit(5)).toEqual(s.account('a').deposit(5)); });`,
  `test('account toEqual wrong', () => { expect(s.account('a').deposit(5)).toEqual(s.account('b').deposit(5)); });`,
  `test('account getters', () => { const a = s.account('a').deposit(5).deposit(2); expect(a.balance).toBe(7); expect(a.history).toEqual([5, 2]); expect(a).toHaveProperty('balance', 7); expect(a).toMatchObject({ owner: 'a', balance: 7, history: [5, 2] }); });`,
  `test('account objectContaining', () => { expect(s.account('a').deposit(1)).toEqual(expect.objectContaining({ owner: 'a', balance: 1 })); });`,
  `test('account toStrictEqual', () => { expect(s.account('a')).toStrictEqual(s.account('a')); });`,
  `test('account static block', () => { expect(s.Account.BANK).toEqual({ name: 'B', code: 7 }); expect(s.Account.BANK).toStrictEqual({ name: 'B', code: 7 }); });`,
  `test('account toBeInstanceOf', () => { expect(s.account('a')).toBeInstanceOf(s.Account); });`,
  `test('linked list toEqual', () => { expect(s.list(1, 2)).toEqual(s.list(1, 2)); });`,
  `test('linked list toEqual wrong', () => { expect(s.list(1, 2)).toEqual(s.list(2, 1)); });`,
  `test('linked list spread', () => { expect([...s.list(1, 2)]).toEqual([2, 1]); });`,
  `test('linked list toContain', () => { expect(s.list(1, 2)).toContain(2); });`,
  `test('linked list toContainEqual', () => { expect(s.list({ a: 1 })).toContainEqual({ a: 1 }); });`,
  `test('linked list size', () => { expect(s.list(1, 2).size).toBe(2); expect(s.list(1, 2)).toHaveProperty('size', 2); });`,
  `test('generator', () => { expect([...s.range(0, 3)]).toEqual([0, 1, 2]); const g = s.range(0, 2); expect(g.next()).toEqual({ value: 0, done: false }); });`,
  `test('generator toContain', () => { expect(s.range(0, 3)).toContain(2); });`,
  `test('generator toEqual', () => { expect(s.range(0, 3)).toEqual(s.range(0, 3)); });`,
  `test('range obj toEqual', () => { expect(s.rangeObj(0, 3)).toEqual(s.rangeObj(0, 3)); expect(Array.from(s.rangeObj(0, 3))).toEqual([0, 1, 2]); });`,
  `test('range obj toContainEqual', () => { expect(s.rangeObj(0, 3)).toContainEqual(2); });`,
  `test('symbol keys toEqual', () => { expect(s.tagged(1)).toEqual({ [s.ID]: 1, name: 'x1' }); });`,
  `test('symbol keys toEqual wrong', () => { expect(s.tagged(1)).toEqual({ [s.ID]: 2, name: 'x1' }); });`,
  `test('symbol keys registered', () => { expect(s.regTagged(1)).toStrictEqual({ [Symbol.for('app.id')]: 1, name: 'x1' }); expect(s.regTagged(1)).toHaveProperty('name'); });`,
  `test('symbol keys toMatchObject', () => { expect(s.tagged(1)).toMatchObject({ [s.ID]: 1 }); });`,
  `test('frozen point', () => { expect(s.frozenPoint(1, 2)).toEqual({ x: 1, y: 2 }); expect(Object.isFrozen(s.frozenPoint(1, 2))).toBe(true); expect(s.frozenPoint(1, 2)).toStrictEqual({ x: 1, y: 2 }); });`,
  `test('frozen class', () => { expect(s.fpoint(1)).toEqual(s.fpoint(1)); expect(s.fpoint(1)).toMatchObject({ x: 1, label: 'p1' }); expect(s.fpoint(1)).toHaveProperty('x', 1); });`,
  `test('frozen class wrong', () => { expect(s.fpoint(1)).toMatchObject({ x: 2 }); });`,
  `test('sealed', () => { expect(s.sealed()).toEqual({ a: 1, b: [1, 2] }); expect(s.sealed()).toHaveProperty(['b', 1], 2); });`,
  `test('frozen arr', () => { expect(s.frozenArr()).toEqual([1, 2, { c: 3 }]); expect(s.frozenArr()).toContainEqual({ c: 3 }); expect(s.frozenArr()).toContain(2); expect(s.frozenArr()).toHaveLength(3); });`,
  `test('dlist toEqual', () => { expect(s.dlist(1, 2, 3)).toEqual(s.dlist(1, 2, 3)); });`,
  `test('dlist toEqual wrong', () => { expect(s.dlist(1, 2, 3)).toEqual(s.dlist(1, 2, 4)); });`,
  `test('dlist toMatchObject', () => { expect(s.dlist(1, 2)).toMatchObject({ value: 1, next: { value: 2, next: null } }); expect(s.dlist(1, 2)).toHaveProperty('next.prev.value', 1); });`,
  `test('cyclic data', () => { expect(s.cyc()).toEqual(s.cyc()); expect(s.cyc()).toHaveProperty('self.self.name', 'a'); });`,
  `test('default map', () => { expect(s.dmap([['a', 1]])).toEqual(s.dmap([['a', 1]])); expect(s.dmap([['a', 1]]).get('b')).toBe(0); });`,
  `test('default map wrong', () => { expect(s.dmap([['a', 1]])).toEqual(s.dmap([['a', 2]])); });`,
  `test('default map vs map', () => { expect(s.dmap([['a', 1]])).toEqual(new Map([['a', 1]])); });`,
  `test('counter', () => { expect(s.counter('a', 'b', 'a')).toEqual(s.counter('b', 'a', 'a')); expect(s.counter('a').total).toBe(1); expect(s.counter('a', 'a')).toHaveProperty('total', 2); });`,
  `test('sorted set', () => { expect(s.sset(2, 1)).toEqual(s.sset(1, 2)); expect(s.sset(2, 1)).toHaveProperty('sorted', [1, 2]); expect(s.sset(1)).toContain(1); });`,
  `test('sorted set vs set', () => { expect(s.sset(2, 1)).toEqual(new Set([1, 2])); });`,
  `test('error getters toThrow', () => { expect(() => s.find(3)).toThrow(s.NotFound); expect(() => s.find(3)).toThrow('not found: 3'); expect(() => s.find(3)).toThrow(expect.objectContaining({ id: 3, status: 404 })); });`,
  `test('error getters toThrow wrong', () => { expect(() => s.find(3)).toThrow(expect.objectContaining({ id: 4 })); });`,
  `test('error caught toMatchObject', () => { let e; try { s.find(3); } catch (x) { e = x; } expect(e).toMatchObject({ id: 3, name: 'NotFound' }); expect(e).toBeInstanceOf(Error); expect(e).toHaveProperty('status', 404); });`,
  `test('error cause', () => { let e; try { s.wrapped(); } catch (x) { e = x; } expect(e.cause).toBeInstanceOf(s.NotFound); expect(e).toHaveProperty('cause.id', 1); expect(() => s.wrapped()).toThrow('lookup failed'); });`,
  `test('error code getter', () => { expect(() => s.errorWithGetterCode()).toThrow(TypeError); expect(() => s.errorWithGetterCode()).toThrow(expect.objectContaining({ code: 'E_BAD' })); });`,
  `test('aggregate', () => { let e; try { s.agg(); } catch (x) { e = x; } expect(e.errors).toHaveLength(2); expect(e).toBeInstanceOf(AggregateError); expect(() => s.agg()).toThrow('many'); });`,
  `test('null proto toEqual', () => { expect(s.nullProto()).toEqual({ a: 1, b: 2 }); });`,
  `test('null proto toStrictEqual', () => { expect(s.nullProto()).toStrictEqual({ a: 1, b: 2 }); });`,
  `test('null proto toMatchObject', () => { expect(s.dict([['x', 1]])).toMatchObject({ x: 1 }); expect(s.dict([['x', 1]])).toHaveProperty('x', 1); expect({ d: s.dict([['x', 1]]) }).toEqual({ d: expect.objectContaining({ x: 1 }) }); });`,
  `test('bound fn', () => { expect(s.hello('Ann')).toBe('Hello, Ann'); const cb = jest.fn(); s.callWith(cb); expect(cb).toHaveBeenCalledWith(s.hello, 1); expect(cb).toHaveBeenCalledWith(expect.any(Function), 1); expect(s.hello).toBeInstanceOf(Function); });`,
  `test('bound fn toEqual', () => { expect({ f: s.hello }).toEqual({ f: s.hello }); });`,
  `test('setter getter', () => { const t = s.temp(100); expect(t.f).toBe(212); t.f = 32; expect(t).toEqual(s.temp(0)); expect(t).toHaveProperty('f', 32); });`,
  `test('json reviver', () => { expect(s.parsed('{"d":"2020-01-02","n":1}')).toEqual({ d: new Date('2020-01-02'), n: 1 }); expect(s.parsedMap('{"pairs":[["a",1]]}')).toEqual({ pairs: new Map([['a', 1]]) }); });`,
  `test('bigint', () => { expect(s.fact(20n)).toBe(2432902008176640000n); expect(s.big()).toEqual({ n: 18446744073709551616n, list: [1n, 2n] }); expect(s.fact(5n)).toBeGreaterThan(100n); expect(s.big().list).toContain(2n); });`,
  `test('bigint wrong', () => { expect(s.big()).toEqual({ n: 1n, list: [1n, 2n] }); });`,
  `test('typed arrays', () => { expect(s.bytes(1, 2)).toEqual(new Uint8Array([1, 2])); expect(s.bytes(1, 2)).toStrictEqual(new Uint8Array([1, 2])); expect(s.bytes(1, 2)).toContain(2); expect(s.bytes(1, 2)).toHaveLength(2); expect(s.floats(0.5)).toEqual(new Float64Array([0.5])); });`,
  `test('typed arrays wrong', () => { expect(s.bytes(1, 2)).toEqual(new Uint8Array([1, 3])); });`,
  `test('typed array containEqual', () => { expect(s.bytes(1, 2)).toContainEqual(2); });`,
  `test('array buffer', () => { expect(s.buf()).toEqual(new Uint8Array([1, 2, 3]).buffer); expect(s.buf()).toStrictEqual(new Uint8Array([1, 2, 3]).buffer); });`,
  `test('matrix', () => { expect(s.matrix([1, 2], [3, 4])).toEqual([[1, 2], [3, 4]]); expect(s.matrix([1])).toHaveLength(1); expect(s.matrix([1]).rows).toBe(1); expect(s.matrix([1, 2])).toContainEqual([1, 2]); });`,
  `test('matrix toStrictEqual', () => { expect(s.matrix([1, 2])).toStrictEqual([[1, 2]]); });`,
  `test('money', () => { expect(s.money(150)).toEqual(s.money(150)); expect(\`\${s.money(150)}\`).toBe('$1.50'); expect(+s.money(150)).toBe(150); expect(JSON.stringify(s.money(5))).toBe('"$0.05"'); });`,
  `test('vec tag', () => { expect(s.vec(1, 2)).toEqual(s.vec(1, 2)); expect(Object.prototype.toString.call(s.vec(1, 2))).toBe('[object Vec]'); });`,
  `test('vec tag vs plain', () => { expect(s.vec(1, 2)).toEqual({ x: 1, y: 2 }); });`,
  `test('object create', () => { expect(s.objCreate('a')).toEqual({ name: 'a' }); expect(s.objCreate('a')).toMatchObject({ name: 'a', kind: 'person' }); expect(s.objCreate('a')).toHaveProperty('kind', 'person'); expect(s.objCreate('a').greet()).toBe('hi a'); });`,
  `test('weakmap private', () => { expect(s.secret(1)).toHaveProperty('value', 1); expect(s.secret(1)).toEqual(s.secret(2)); expect(s.secret(1)).toMatchObject({ value: 1 }); });`,
  `test('sparse', () => { expect(s.sparse()).toEqual([1, undefined, 3]); expect(s.sparse()).toHaveLength(3); });`,
  `test('sparse strict', () => { expect(s.sparse()).toStrictEqual([1, undefined, 3]); });`,
  `test('async gen', async () => { const out = []; for await (const x of s.asyncGen()) out.push(x); expect(out).toEqual([1, 2]); });`,
  `test('resolves', async () => { await expect(s.later({ a: 1 })).resolves.toEqual({ a: 1 }); await expect(s.laterAccount('z')).resolves.toMatchObject({ owner: 'z', balance: 5 }); await expect(s.laterAccount('z')).resolves.toHaveProperty('balance', 5); });`,
  `test('structured clone', () => { expect(s.cloned()).toEqual({ a: new Map([[1, { b: 2 }]]), d: new Date(0) }); });`,
  `test('grid', () => { expect(s.grid(2, 1).cells).toEqual([[0, 0]]); expect(s.grid(2, 1)).toHaveProperty('width', 2); expect(s.grid(2, 1)).toHaveProperty(['cells', 0, 1], 0); expect(s.grid(2, 2)).toMatchObject({ cells: [[0, 0], [0, 0]] }); });`,
  `test('tree', () => { expect(s.tree()).toEqual(s.tree()); expect(s.tree().children[0].parent.value).toBe(1); expect(s.tree()).toMatchObject({ value: 1, children: [{ value: 2 }, { value: 3 }] }); });`,
  `test('iter prop', () => { expect(s.withIterProp()).toEqual(s.withIterProp()); expect([...s.withIterProp()]).toEqual([1, 2]); expect(s.withIterProp()).toContain(2); });`,
  `test('iter prop toMatchObject', () => { expect(s.withIterProp()).toMatchObject({ items: [1, 2] }); });`,
  `test('stack2 tag getter', () => { expect(s.stack2(1, 2)).toHaveLength(2); expect(s.stack2(1)).toEqual(s.stack2(1)); });`,
  `test('emitter mock', () => { const e = s.emitter(); const f = jest.fn(); e.on(f); e.emit(s.account('x'), s.list(1)); expect(f).toHaveBeenCalledWith(expect.any(s.Account), expect.anything()); expect(f).toHaveBeenCalledTimes(1); expect(f.mock.calls[0][0]).toMatchObject({ owner: 'x' }); });`,
  `test('emitter mock deep', () => { const e = s.emitter(); const f = jest.fn(); e.on(f); e.emit(s.account('x'), s.tagged(1)); expect(f).toHaveBeenCalledWith(s.account('x'), { [s.ID]: 1, name: 'x1' }); });`,
  `test('queue tag getter array', () => { expect(s.queue(1, 2)).toEqual([1, 2]); expect(s.queue(1, 2).dequeue()).toBe(1); expect(s.queue(1, 2)).toContain(2); });`,
  `test('queue strict', () => { expect(s.queue(1, 2)).toStrictEqual(s.queue(1, 2)); });`,
  `test('inventory toEqual only', () => { expect(s.inv(1, 2)).toEqual([1, 2]); expect({ i: s.inv(3) }).toMatchObject({ i: [3] }); });`,
  `test('memo proxy fn', () => { expect(s.memo(2)).toBe(4); expect(s.memo).toEqual(s.memo); expect(typeof s.memo).toBe('function'); });`,
  `test('static private', () => { s.Temperature2.create(1); expect(s.Temperature2.count).toBe(1); expect(s.Temperature2.create(2)).toEqual({ celsius: 2 }); expect(s.Temperature2).toHaveProperty('count', 2); });`,
  `test('toHaveBeenCalledWith objectContaining getters', () => { const f = jest.fn(); f(s.fpoint(2)); expect(f).toHaveBeenCalledWith(expect.objectContaining({ x: 2 })); expect(f).toHaveBeenLastCalledWith(s.fpoint(2)); });`,
  `test('toHaveReturnedWith list', () => { const f = jest.fn(s.list); f(1, 2); expect(f).toHaveReturnedWith(s.list(1, 2)); });`,
  `test('arrayContaining of class instances', () => { expect([s.account('a'), s.account('b')]).toEqual(expect.arrayContaining([s.account('b')])); });`,
  `test('toContainEqual class instances', () => { expect([s.fpoint(1), s.fpoint(2)]).toContainEqual(s.fpoint(2)); });`,
  `test('not toEqual', () => { expect(s.list(1)).not.toEqual(s.list(2)); expect(s.bag(1)).not.toEqual([2]); });`,
  `test('validated proxy instance', () => { const v = s.validated({ a: 1, b: 2 }); expect(v).toEqual({ a: 1, b: 2 }); expect(v).toBeInstanceOf(s.Validated); expect(v).toHaveProperty('sum', 3); expect(v).toMatchObject({ a: 1, sum: 3 }); expect(() => { v.c = 'x'; }).toThrow(TypeError); });`,
  `test('validated proxy strict', () => { expect(s.validated({ a: 1 })).toStrictEqual(s.validated({ a: 1 })); });`,
  `test('validated in mock', () => { const f = jest.fn(); f(s.validated({ a: 1 })); expect(f).toHaveBeenCalledWith({ a: 1 }); expect(f).toHaveBeenCalledWith(expect.any(s.Validated)); });`,
  `test('ring of proxied base', () => { expect(new s.Ring(2)).toStrictEqual(new s.Ring(2)); expect(new s.Ring(2)).toMatchObject({ r: 2, tag: 'B:base' }); expect(new s.Ring(1)).toEqual(expect.any(s.Base2)); });`,
  `test('ring mock', () => { const f = jest.fn(); f(new s.Ring(1)); expect(f).toHaveBeenCalledWith(expect.any(s.Ring)); expect(f).toHaveBeenLastCalledWith(new s.Ring(1)); });`,
  `test('stream', () => { expect(s.stream(1)).toMatchObject({ head: 1, tail: { head: 2, tail: { head: 3 } } }); expect(s.stream(1)).toHaveProperty('tail.tail.head', 3); expect(s.stream(1)).toEqual(s.stream(1)); });`,
  `test('stream wrong', () => { expect(s.stream(1)).toMatchObject({ tail: { tail: { head: 4 } } }); });`,
  `test('array getter', () => { expect(s.withArrGetter()).toEqual([1, 2, 3]); expect(s.withArrGetter()).toHaveProperty('sum', 6); });`,
  `test('vector map', () => { expect(s.vector(3, 4).map((x) => x * 2)).toEqual([6, 8]); expect(s.vector(3, 4)).toHaveProperty('norm', 5); expect(s.vector(3, 4)).toMatchObject([3, 4]); expect(s.vector(1)).toStrictEqual(s.vector(1)); });`,
  `test('toJSON instances', () => { expect(s.temps()).toContainEqual(expect.objectContaining({ celsius: 2 })); expect(JSON.parse(JSON.stringify(s.temps()))).toEqual([{ celsius: 1 }, { celsius: 2 }]); expect(s.temps()).toEqual(expect.arrayContaining([expect.objectContaining({ celsius: 1 })])); });`,
  `test('symbol nested', () => { expect(s.symObj()).toEqual({ [s.KEY]: { deep: [1] }, plain: true }); expect(s.symObj()).toMatchObject({ [s.KEY]: { deep: [1] } }); });`,
  `test('proxied class in any and arrayOf', () => { expect(s.tiles()).toEqual([expect.any(s.ProxTile), expect.any(s.ProxTile)]); expect(s.tiles()).toEqual(expect.arrayOf(expect.any(s.ProxTile))); });`,
  `test('proxied error class, rejects', async () => { await expect(s.rejects()).rejects.toThrow(s.ProxErr); await expect(s.rejects()).rejects.toBeInstanceOf(s.ProxErr); await expect(s.rejects()).rejects.toMatchObject({ name: 'Err2' }); });`,
  `test('proxied error class, not thrown', () => { expect(() => { throw new TypeError('x'); }).not.toThrow(s.ProxErr); });`,
  `test('frozen value class', () => { expect(s.imm(1).with(2)).toEqual(s.imm(2)); expect(s.imm(1).with(2)).toHaveProperty('value', 2); });`,
  `test('frozen value class, wrong', () => { expect(s.imm(1)).toMatchObject({ value: 2 }); });`,
  `test('defineProperties', () => { expect(s.defProps()).toEqual({ a: 1, b: 2 }); expect(s.defProps()).toHaveProperty('hidden', 3); expect(s.defProps()).toStrictEqual({ a: 1, b: 2 }); });`,
  // 1,500, not 3,000: plain Jest's own recursion overflowed the stack at 3,000 when its frames were not yet optimized
  // (a loaded machine), so the reference verdict itself changed with load.
  `test('long list', () => { expect(s.chain(1200)).toStrictEqual(s.chain(1200)); expect(s.chain(1500)).toEqual(s.chain(1500)); });`,
  `test('long list of getters', () => { expect(s.gchain(1200)).toEqual(s.gchain(1200)); expect(s.gchain(1200)).toHaveProperty('next.next.value', 3); });`,
  `test('long list of getters, wrong', () => { expect(s.gchain(3)).toMatchObject({ value: 1, next: { value: 2, next: { value: 4 } } }); });`,
  `test('long list in a call', () => { const f = jest.fn(); f(s.chain(1500)); expect(f).toHaveBeenCalledWith(s.chain(1500)); });`,
  `test('deep nesting', () => { expect(s.nested(1500)).toEqual(s.nested(1500)); });`,
  `test('deep nesting, wrong', () => { expect(s.nested(1500)).toMatchObject(s.nested(1501)); });`,
  `test('many objects', () => { expect(s.many(250000)).toHaveLength(250000); expect(s.many(250000)).toEqual(s.many(250000)); });`,
  `test('cycle through an own getter', () => { expect(s.ownCycle()).toEqual(s.ownCycle()); expect(s.ownCycle()).toHaveProperty('self.self.x', 1); });`,
  `test('cycle through a class getter', () => { expect(s.selfish()).toMatchObject({ x: 1, self: { x: 1, self: { x: 1 } } }); expect(s.selfish()).toEqual(s.selfish()); });`,
  `test('case-insensitive Set subclass', () => { expect(s.ciset('A', 'b')).toEqual(s.ciset('a', 'B')); expect(s.ciset('A').has('a')).toBe(true); });`,
  `test('error class extending a proxied base', () => { expect(() => s.failApp()).toThrow(s.AppError); expect(() => s.failApp()).toThrow(s.PBase); expect(() => s.failApp()).toThrow(expect.objectContaining({ code: 'E1', isApp: true })); let e; try { s.failApp(); } catch (x) { e = x; } expect(e).toBeInstanceOf(s.PBase); expect(e).toMatchObject({ name: 'PBase', code: 'E1', isApp: true }); });`,
  `test('Map subclass of class instances', () => { expect(s.entries()).toEqual(s.entries()); expect(s.entries()).toContainEqual(['a', expect.objectContaining({ v: 1 })]); const f = jest.fn(); f(s.entries()); expect(f).toHaveBeenCalledWith(s.entries()); });`,
  `test('instances of a proxied class', () => { expect(s.item(2)).toBeInstanceOf(s.Item); expect(s.item(2)).toMatchObject({ n: 2, double: 4 }); expect(s.itemProxy(2)).toBeInstanceOf(s.Item); expect(s.itemProxy(3)).toHaveProperty('double', 6); });`,
  `test('array of proxies', () => { expect(s.proxies()).toEqual([{ a: 1 }, { a: 2 }]); expect(s.proxies()).toMatchObject([{ a: 1 }, { a: 2 }]); expect(s.proxies()).toContainEqual({ a: 2 }); });`,
  `test('weak collections', () => { expect(s.weak()).toMatchObject({ n: 1 }); expect(s.weak()).toEqual({ cache: expect.any(WeakMap), seen: expect.any(WeakSet), n: 1 }); });`,
  `test('getter with closeTo', () => { expect(s.closeGetter()).toEqual({ pi: expect.closeTo(3.1416, 3) }); expect(s.closeGetter()).toMatchObject({ pi: expect.closeTo(3.14, 2) }); });`,
  `test('bound methods', () => { const c = new s.Counter(); const { inc } = c; inc(); inc(); expect(c).toEqual(expect.objectContaining({ n: 2, inc: expect.any(Function) })); });`,
];

/** Runs `work` over `items`, `n` at a time. */
async function pool<T>(items: readonly T[], n: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: n }, worker));
}

// Graded in chunks of 20 tests (one job each), so no single vitest test runs long on a loaded machine.
const CHUNK = 20;
const chunks = Array.from({ length: Math.ceil(HONEST_TESTS.length / CHUNK) }, (_, i) => ({
  range: `${i * CHUNK + 1}-${Math.min((i + 1) * CHUNK, HONEST_TESTS.length)}`,
  tests: HONEST_TESTS.slice(i * CHUNK, (i + 1) * CHUNK),
}));

describe('honest shapes, each test in a job of its own: the harness agrees with real Jest', () => {
  let jest: Record<string, string> = {};
  beforeAll(() => {
    jest = plainJest('shapes.test.js', { 'shapes.test.js': HEAD + HONEST_TESTS.join('\n'), 'solution.js': HONEST });
  });

  it('real Jest gives every test a verdict, and both passes and fails some', () => {
    expect([Object.keys(jest).length, new Set(Object.values(jest))]).toEqual([
      HONEST_TESTS.length,
      new Set(['passed', 'failed']),
    ]);
  });

  it.each(chunks)('tests $range get real Jest verdict, with no flag', async ({ tests }) => {
    const backend = await firstBackend();
    const ours: Record<string, string> = {};
    const theirs: Record<string, string> = {};
    const flagged: Record<string, string[]> = {};
    await pool(tests, 2, async (t) => {
      const r = await gradeInline(backend, inlineRubric({ 'shapes.test.js': HEAD + t }), { 'solution.js': HONEST });
      for (const [name, status] of Object.entries(statuses(r))) {
        ours[name] = status === 'passed' ? 'passed' : status;
        theirs[name] = jest[name] ?? 'missing';
      }
      if (r.flags.length > 0) flagged[r.tests[0]?.name ?? t] = flagCodes(r);
    });
    expect([Object.keys(ours).length, ours, flagged]).toEqual([tests.length, theirs, {}]);
  });
});

// Hostile: what the loosened rules stopped is still stopped, and two recorded-list methods Jest calls are now judged.
interface Case {
  name: string;
  solution: string;
  tests: string;
  statuses: Record<string, string>;
  flags: string[];
}
const OWN = `const own = (o, k, v) => { Object.defineProperty(o, k, { value: v }); return o; };\n`;
const FLAG = ['tampering.self_equality'];
const CASES: Case[] = [
  {
    name: 'a Proxy class whose trap answers Symbol.hasInstance with its own function: refused in toBeInstanceOf, toThrow(Class) and expect.any',
    solution: `exports.Shape = new Proxy(class Shape {}, { get: (t, k, r) => (k === Symbol.hasInstance ? () => true : Reflect.get(t, k, r)) });`,
    tests: `test('instance', () => { expect({}).toBeInstanceOf(s.Shape); });
test('throws', () => { expect(() => { throw new Error('x'); }).toThrow(s.Shape); });
test('any', () => { expect({ v: 1 }).toEqual({ v: expect.any(s.Shape) }); });`,
    statuses: { instance: 'error', throws: 'error', any: 'error' },
    flags: FLAG,
  },
  {
    name: "a Proxy class whose trap answers the platform's Symbol.hasInstance to the first read and its own to later ones: asked once, so each fails (no flag)",
    solution: `let n = 0;
exports.Shape = new Proxy(class Shape {}, { get: (t, k, r) => (k === Symbol.hasInstance && n++ > 0 ? () => true : Reflect.get(t, k, r)) });`,
    tests: `test('instance', () => { expect({}).toBeInstanceOf(s.Shape); expect({}).toBeInstanceOf(s.Shape); });`,
    statuses: { instance: 'failed' },
    flags: [],
  },
  {
    name: 'an Array subclass whose iterator yields the expected items over wrong elements: equality compares the elements (Jest never iterates an array there), each fails (no flag)',
    solution: `class Liar extends Array { *[Symbol.iterator]() { yield 1; yield 2; } }
exports.list = () => Liar.from([9]);`,
    tests: `test('equal', () => { expect(s.list()).toEqual([1, 2]); });
test('strict', () => { expect({ l: s.list() }).toStrictEqual({ l: [1, 2] }); });
test('match', () => { expect({ l: s.list() }).toMatchObject({ l: [1, 2] }); });
test('called', () => { const f = jest.fn(); f(s.list()); expect(f).toHaveBeenCalledWith([1, 2]); });`,
    statuses: { equal: 'failed', strict: 'failed', match: 'failed', called: 'failed' },
    flags: [],
  },
  {
    name: 'an Array subclass whose iterator yields a plain wrong item to the first iteration and a voter to later ones: toContainEqual compares the one iteration, and fails (no flag)',
    solution: `let n = 0;
class Twice extends Array { *[Symbol.iterator]() { yield n++ === 0 ? 41 : { asymmetricMatch: () => true }; } }
exports.list = () => Twice.from([0]);`,
    tests: `test('contains', () => { expect(s.list()).toContainEqual(42); });`,
    statuses: { contains: 'failed' },
    flags: [],
  },
  {
    name: 'an Array subclass whose iterator yields a voter: toContainEqual walks what it yielded, and refuses it',
    solution: `class Voter extends Array { *[Symbol.iterator]() { yield { asymmetricMatch: () => true }; } }
exports.list = () => Voter.from([0]);`,
    tests: `test('contains', () => { expect(s.list()).toContainEqual(42); });`,
    statuses: { contains: 'error' },
    flags: FLAG,
  },
  {
    name: 'a genuine array with its own some and every, compared with plain data: Jest calls neither, each fails (no flag)',
    solution: `${OWN}exports.list = () => own(own([9], 'some', () => true), 'every', () => true);`,
    tests: `test('equal', () => { expect(s.list()).toEqual([1]); });
test('nested', () => { expect({ a: [s.list()] }).toStrictEqual({ a: [[1]] }); });`,
    statuses: { equal: 'failed', nested: 'failed' },
    flags: [],
  },
  {
    name: 'a genuine array with its own some under an arrayContaining nested in toMatchObject: refused',
    solution: `${OWN}exports.list = () => own([9], 'some', () => true);`,
    tests: `test('nested', () => { expect({ a: s.list() }).toMatchObject({ a: expect.arrayContaining([1]) }); });`,
    statuses: { nested: 'error' },
    flags: FLAG,
  },
  {
    name: "a genuine array with its own some handed to the test's mock, compared under arrayContaining: refused",
    solution: `${OWN}exports.visit = (cb) => cb(own([9], 'some', () => true));`,
    tests: `test('called', () => { const f = jest.fn(); s.visit(f); expect(f).toHaveBeenCalledWith(expect.arrayContaining([1])); });`,
    statuses: { called: 'error' },
    flags: FLAG,
  },
  {
    name: 'an Array subclass with its own every under arrayOf: refused',
    solution: `class All extends Array { every() { return true; } }
exports.list = () => All.from(['a']);`,
    tests: `test('of', () => { expect(s.list()).toEqual(expect.arrayOf(1)); });`,
    statuses: { of: 'error' },
    flags: FLAG,
  },
  {
    name: "the mock's recorded results given their own some (toHaveReturnedWith calls it): refused",
    solution: `${OWN}exports.run = (f) => { f(); own(f.mock.results, 'some', () => true); };`,
    tests: `test('returned', () => { const f = jest.fn(() => 1); s.run(f); expect(f).toHaveReturnedWith(42); });`,
    statuses: { returned: 'error' },
    flags: FLAG,
  },
  {
    name: "the mock's recorded results given their own reduce (toHaveReturnedTimes counts with it): refused",
    solution: `${OWN}exports.run = (f) => { own(f.mock.results, 'reduce', () => 5); };`,
    tests: `test('times', () => { const f = jest.fn(); s.run(f); expect(f).toHaveReturnedTimes(5); });`,
    statuses: { times: 'error' },
    flags: FLAG,
  },
  {
    name: 'a voter 3,000 levels down: the walk has no depth at which it stops, so it is still found and refused',
    solution: `exports.deep = () => { let o = { asymmetricMatch: () => true }; for (let i = 0; i < 3000; i++) o = { child: o }; return o; };`,
    tests: `test('deep', () => { const d = s.deep(); let e = {}; for (let i = 0; i < 3000; i++) e = { child: e }; expect(d).toEqual(e); });`,
    statuses: { deep: 'error' },
    flags: FLAG,
  },
  {
    name: 'a voter after 250,000 objects: the walk has no size at which it stops, so it is still found and refused',
    solution: `exports.wide = () => [...Array.from({ length: 250000 }, (_, i) => ({ i })), { asymmetricMatch: () => true }];`,
    tests: `test('wide', () => { expect(s.wide()).toEqual([]); });`,
    statuses: { wide: 'error' },
    flags: FLAG,
  },
];

const backends = (await isolatingBackends()).filter((b) => b.ok);
describe.each(backends.map((b) => b.id))('what the per-matcher rules still stop (%s)', (backend: ProcessBackendId) => {
  it.each(CASES)('$name', async (c) => {
    const r = await gradeInline(backend, inlineRubric({ 'hostile.test.js': HEAD + c.tests }), {
      'solution.js': c.solution,
    });
    expect([statuses(r), flagCodes(r)]).toEqual([c.statuses, c.flags]);
  });
});
