// Honest too, another style: getters on the class (private fields behind them), a ring built as a plain cycle.
export class Node {
  #value;
  #next;
  constructor(value, next = null) {
    this.#value = value;
    this.#next = next;
  }
  get value() {
    return this.#value;
  }
  get next() {
    return this.#next;
  }
  link(next) {
    this.#next = next;
  }
}

export class Ring {
  constructor(head = null) {
    this.head = head;
  }
  static of(...values) {
    const nodes = values.map((v) => new Node(v));
    nodes.forEach((n, i) => n.link(nodes[(i + 1) % nodes.length]));
    return new Ring(nodes[0] ?? null);
  }
  toArray() {
    const out = [];
    for (let n = this.head; n && (out.length === 0 || n !== this.head); n = n.next) out.push(n.value);
    return out;
  }
  rotate() {
    return new Ring(this.head && this.head.next);
  }
}

export class Account {
  #cents = 0;
  constructor(balance) {
    this.#cents = balance * 100;
  }
  get balance() {
    return this.#cents / 100;
  }
  deposit(n) {
    this.#cents += n * 100;
  }
  withdraw(n) {
    if (n * 100 > this.#cents) throw new RangeError('not enough');
    this.#cents -= n * 100;
  }
}

export class Bag {
  #items;
  constructor(items) {
    this.#items = Array.from(items);
  }
  [Symbol.iterator]() {
    let i = 0;
    const items = this.#items;
    return { next: () => (i < items.length ? { value: items[i++], done: false } : { value: undefined, done: true }) };
  }
}

export function range(from, to) {
  return { *[Symbol.iterator]() { for (let i = from; i < to; i++) yield i; } };
}

export const ID = Symbol.for('linked-structures.id');
export const tagged = (name, id) => Object.defineProperty({ name }, ID, { value: id, enumerable: true });

export const point = (x, y) => Object.freeze({ x, y, length: Math.hypot(x, y) });

export class Temperature {
  constructor(celsius) {
    this.celsius = celsius;
    Object.freeze(this);
  }
  get fahrenheit() {
    return this.celsius * 1.8 + 32;
  }
}

export function graph() {
  const nodes = { a: { name: 'a' }, b: { name: 'b' } };
  nodes.a.peer = nodes.b;
  nodes.b.peer = nodes.a;
  return nodes;
}
